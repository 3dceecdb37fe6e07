"""torch.autograd.graph's names where users find them, and less common uses of its API."""

import pickle

import pytest
import torch
from torch.autograd.graph import GradientEdge, Node, get_gradient_edge, register_multi_grad_hook

from conformance._support import leaf, raises


def test_node_and_gradient_edge_live_in_the_graph_module():
    module = torch.autograd.graph.__name__
    assert (Node.__module__, GradientEdge.__module__) == (module, module)
    assert repr(Node) == f"<class '{module}.Node'>"
    a = leaf(1.0, 2.0)
    edge = pickle.loads(pickle.dumps(GradientEdge(None, 3)))
    assert type(edge) is GradientEdge and edge == (None, 3, None)
    assert type(get_gradient_edge(a)) is GradientEdge


@pytest.mark.parametrize("mode", ["all", "any"])
def test_a_group_of_non_tensors_fails_on_requires_grad(mode):
    with raises(AttributeError, "'int' object has no attribute 'requires_grad'"):
        register_multi_grad_hook([3], print, mode=mode)


def test_all_mode_needs_a_sized_group_any_mode_does_not():
    a, b = leaf(1.0), leaf(2.0)
    with raises(TypeError, "object of type 'generator' has no len()"):
        register_multi_grad_hook((t for t in (a, b)), print)
    assert a._backward_hooks is None  # nothing was registered
    seen = []
    handle = register_multi_grad_hook((t for t in (a, b)), seen.append, mode="any")
    assert len(handle.handles) == 2
    (a * b).backward()
    assert len(seen) == 1


def test_materialized_zeros_require_grad_under_create_graph():
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    loss = (a * a).sum()
    ga, gb = torch.autograd.grad(loss, [a, b], create_graph=True, materialize_grads=True)
    assert ga.grad_fn is not None and gb.requires_grad and gb.is_leaf
    assert gb.tolist() == [0.0, 0.0]
    ga, gb = torch.autograd.grad(a * 2, [a, b], torch.eye(2), is_grads_batched=True,
                                 create_graph=True, materialize_grads=True)
    assert gb.requires_grad and gb.shape == (2,)
    _, gb = torch.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True)
    assert not gb.requires_grad
    with raises(TypeError, "zeros_like(): argument 'requires_grad' must be bool, not int"):
        torch.autograd.grad((a * 2).sum(), [a, b], create_graph=1, materialize_grads=True)
