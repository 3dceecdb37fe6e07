"""torch's built-in node classes take no subclasses; a custom Function's node class and
torch.autograd.graph.Node do."""

import pytest
import torch


def _nodes():
    x = torch.ones(2, requires_grad=True)
    product = x * 2
    written = x.clone().view(2).add_(1)
    return product.grad_fn, product.grad_fn.next_functions[0][0], written.grad_fn


@pytest.mark.parametrize("at, name", [(0, "MulBackward0"), (1, "AccumulateGrad"),
                                      (2, "AsStridedBackward0")])
def test_a_built_in_node_class_is_no_base(at, name):
    node = _nodes()[at]
    with pytest.raises(TypeError, match=f"^type '{name}' is not an acceptable base type$"):
        type("Derived", (type(node),), {})


class _Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


def test_a_custom_functions_node_class_and_node_itself_take_subclasses():
    y = _Twice.apply(torch.ones(1, requires_grad=True))
    derived = type("Derived", (type(y.grad_fn),), {})
    assert issubclass(derived, type(y.grad_fn))
    assert issubclass(type("Mine", (torch.autograd.graph.Node,), {}), torch.autograd.graph.Node)
