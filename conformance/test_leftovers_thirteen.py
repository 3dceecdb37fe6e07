"""Black-box tests: torch.func.grad's graph let go, and other leftovers. The same assertions
run on torch.
"""

import re

import pytest
import torch
from torch import nn
from torch.func import functional_call, grad


def _named(error) -> tuple:
    return re.search(r"which is output 0 of (\w+), is at version (\d+)", str(error)).groups()


def test_grad_names_the_in_place_op_whose_view_node_was_let_go():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(inplace=True), nn.Dropout(0.5, inplace=True))
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = torch.randn(2, 5, 3)  # a 3-d input: Linear's output is a view
    with pytest.raises(RuntimeError) as info:
        grad(lambda p: functional_call(model, p, (x,)).sum())(params)
    assert _named(info.value) == ("Relu", "2")
    # a graph an enclosing grad or a caller walks again is kept
    f = lambda v: torch.sin(v * v).sum()  # noqa: E731
    x = torch.tensor([0.3, 0.7])
    second = grad(lambda v: grad(f)(v).sum())(x)
    assert torch.allclose(second, torch.func.hessian(f)(x).sum(0))
    leaf = x.clone().requires_grad_()
    (back,) = torch.autograd.grad(grad(f)(leaf).sum(), leaf)
    assert torch.allclose(back, second)


@pytest.mark.parametrize("write, named", [
    (lambda y, w: y.mul_(2), "Relu"),
    (lambda y, w: y.zero_(), "Relu"),
    (lambda y, w: y.sin_(), "AsStrided"),  # sin_ saves the view: its node lives on
    (lambda y, w: y.mul_(w[1]), "AsStrided"),
])
def test_grad_releases_its_graph_as_it_walks_it(write, named):
    def f(w):
        base = w * 1
        y = base[0]
        y.relu_()
        write(y, w)
        return y.sum()

    with pytest.raises(RuntimeError) as info:
        grad(f)(torch.randn(2, 3))
    assert _named(info.value)[0] == named


def test_grad_checks_aux_after_the_backward():
    def f(x):
        y = x * 1
        y[0].exp_()
        y.mul_(2)
        return y.sum(), None

    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        grad(f, has_aux=True)(torch.randn(2, 3))
    with pytest.raises(RuntimeError, match="Expected tensors, got unsupported type"):
        grad(lambda x: (x.sum(), None), has_aux=True)(torch.randn(2, 3))

