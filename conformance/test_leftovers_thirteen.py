"""Black-box tests: torch.func.grad's graph let go, and other leftovers. The same assertions
run on torch.
"""

import re
import warnings

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



def test_tensors_grad_wraps_have_no_storage_to_hand_out():
    captured = torch.ones(3)
    seen = []

    def f(x):
        made, y = torch.zeros(3), x * 2
        for t in (x, y, made, y.detach()):
            with pytest.raises(NotImplementedError, match="^Cannot access storage of Tensor"):
                t.untyped_storage()
        with pytest.raises(NotImplementedError, match="TensorWrapper"):
            y.is_shared()
        for read in (y.data_ptr, y.detach().numpy):
            with pytest.raises(RuntimeError, match="^Cannot access data pointer of Tensor that "):
                read()
        with pytest.raises(RuntimeError, match="^Can't call numpy"):  # asked first
            y.numpy()
        seen.append(captured.untyped_storage().nbytes())  # captured: its own memory
        return (y * made).sum() + y.tolist()[0]

    g = grad(f)(torch.ones(3))
    assert seen == [12] and g.untyped_storage().nbytes() == 12 and g.data_ptr() != 0

    class Twice(torch.autograd.Function):  # its forward runs below the transform, unwrapped
        @staticmethod
        def forward(x):
            return torch.tensor(x.numpy() * 2)

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    assert grad(lambda x: Twice.apply(x).sum())(torch.ones(2)).tolist() == [2.0, 2.0]


def test_grad_vjp_and_jvp_run_outside_inference_mode():
    seen = []

    def f(v):
        seen.append((torch.is_inference_mode_enabled(), torch.is_grad_enabled()))
        return (v * v).sum()

    with torch.inference_mode():
        made_here = torch.tensor([1.0, 2.0, 3.0])
        g = grad(f)(made_here)
        (pulled,) = torch.func.vjp(lambda v: v * v, made_here)[1](torch.ones(3))
        dot = torch.func.jvp(f, (made_here,), (torch.ones(3),))[1]
        assert not torch.func.vmap(lambda v: torch.tensor(torch.is_inference_mode_enabled()))(
            made_here).logical_not().all()  # vmap alone keeps the mode
    assert g.tolist() == pulled.tolist() == [2.0, 4.0, 6.0] and not g.is_inference()
    assert dot.item() == 12.0
    assert seen == [(False, True), (False, False)]
    with torch.no_grad():
        assert grad(f)(torch.ones(2)).tolist() == [2.0, 2.0]


@pytest.mark.parametrize("dtype", [torch.int64, torch.uint8, torch.bool])
@pytest.mark.parametrize("shape, strides", [((0, 3), (1, 0)), ((3, 0), (0, 1)), ((0,), (5,)),
                                            ((0, 2, 0), (1, 0, 3))])
def test_rad2deg_of_an_empty_integer_tensor_keeps_its_strides(dtype, shape, strides):
    x = torch.empty_strided(shape, strides, dtype=dtype)
    for result in (torch.rad2deg(x), x.deg2rad()):
        assert result.dtype == torch.float32 and result.stride() == strides


@pytest.mark.parametrize("refused", [
    lambda: torch.ones(2, 3) + torch.ones(4),
    lambda: torch.ones(2, 3).add_(torch.ones(2, 4)),
    lambda: torch.ones(2, 3, requires_grad=True) * torch.ones(3, 2),
    lambda: torch.atan2(torch.ones(2), torch.ones(3)),
])
def test_a_refused_broadcast_has_no_context_of_its_own(refused):
    with pytest.raises(RuntimeError, match="must match the size") as info:
        refused()
    error = info.value
    assert error.__context__ is None and error.__cause__ is None
    assert not error.__suppress_context__
    try:
        raise KeyError("handled")
    except KeyError:
        with pytest.raises(RuntimeError) as info:
            refused()
    assert type(info.value.__context__) is KeyError  # the program's own, as for any raise


def _names(node, limit=12) -> list:
    names, stack, seen = [], [node], set()
    while stack and len(names) < limit:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        stack.extend(n for n, _ in node.next_functions)
    return names


def test_conv_tbc_gradients_are_written_in_place_into_zeros():
    torch.manual_seed(0)
    x = torch.randn(5, 2, 3, dtype=torch.float64, requires_grad=True)
    w = torch.randn(3, 3, 4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(4, dtype=torch.float64, requires_grad=True)
    y = torch.conv_tbc(x, w, b, 1)
    gx, gw, gb = torch.autograd.grad(y.pow(2).sum(), (x, w, b), create_graph=True)
    assert _names(gx.grad_fn, 4) == ["torch::autograd::CopySlices", "TBackward0",
                                     "SelectBackward0", "torch::autograd::AccumulateGrad"]
    assert _names(gw.grad_fn, 3) == ["torch::autograd::CopySlices", "ViewBackward0",
                                     "SliceBackward0"]
    assert _names(gb.grad_fn, 3) == ["torch::autograd::CopyBackwards", "SumBackward1",
                                     "SumBackward1"]
    again = torch.autograd.grad((gx * gx).sum() + (gw * gw).sum() + (gb * gb).sum(), (x, w, b))
    assert all(t.shape == s.shape for t, s in zip(again, (x, w, b)))


@pytest.mark.parametrize("reduce", [
    lambda v: v.sum(7), lambda v: v.mean(dtype=torch.int64), lambda v: v.prod(7),
    lambda v: v.std(7), lambda v: v.logsumexp(7), lambda v: v.cumsum(7),
    lambda v: v.norm(dim=7), lambda v: v.softmax(7), lambda v: v.sum((0, 0)),
    lambda v: v.topk(9), lambda v: v.sort(7), lambda v: torch.var_mean(v, 7),
])
def test_a_stale_inference_view_is_refused_before_the_reduction_checks(reduce):
    b = torch.randn(3, 4, requires_grad=True) * 1
    with torch.inference_mode():
        v = b[0]
    b.mul_(2)
    with pytest.raises(RuntimeError, match="^A view was created in inference mode"):
        reduce(v)
    with pytest.raises(IndexError, match="^Dimension out of range"):
        v.argmax(7)  # no node, no refusal of the view: the kernel's own check


def _traced_names(call) -> list:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            (g,) = call(x.pow(1.5).sum(), x)  # PowBackward0's backward makes a node
            with pytest.raises(RuntimeError, match="returned nan values"):
                (g * 0).sum().backward()
    traced = [str(w.message) for w in caught if "Error detected in" in str(w.message)]
    return re.findall(r'File "[^"]+", line \d+, in (\S+)', traced[0])


def test_anomaly_trace_of_a_node_made_in_a_backward_runs_through_the_engine():
    def by_grad(y, x):
        return torch.autograd.grad(y, x, create_graph=True)

    def by_backward(y, x):
        y.backward(create_graph=True)
        return (x.grad,)

    assert _traced_names(by_grad)[-3:] == ["by_grad", "grad", "_engine_run_backward"]
    assert _traced_names(by_backward)[-2:] == ["backward", "_engine_run_backward"]
