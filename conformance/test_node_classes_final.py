"""torch's built-in node classes take no subclasses; a custom Function's node class and
torch.autograd.graph.Node do."""

import pytest
import torch

from conformance._support import doubling_function


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


def test_a_custom_functions_node_class_and_node_itself_take_subclasses():
    y = doubling_function(torch).apply(torch.ones(1, requires_grad=True))
    derived = type("Derived", (type(y.grad_fn),), {})
    assert issubclass(derived, type(y.grad_fn))
    assert issubclass(type("Mine", (torch.autograd.graph.Node,), {}), torch.autograd.graph.Node)
