"""torch.autograd.graph's names where users find them, and less common uses of its API."""

import pickle
from collections import OrderedDict

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


def test_saved_tensors_hooks_classes_live_in_the_graph_module():
    graph = torch.autograd.graph
    for cls in (graph.saved_tensors_hooks, graph.save_on_cpu):
        assert cls.__module__ == graph.__name__
        assert repr(cls) == f"<class '{graph.__name__}.{cls.__name__}'>"


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


def test_a_dict_of_inputs_gives_a_dict_of_gradients():
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    loss = (a * 3).sum()
    got = torch.autograd.grad(loss, {"a": a, 1: b}, retain_graph=True, allow_unused=True)
    assert type(got) is dict and list(got) == ["a", 1]
    assert got["a"].tolist() == [3.0, 3.0] and got[1] is None
    got = torch.autograd.grad(loss, {"b": b}, retain_graph=True, materialize_grads=True)
    assert got["b"].tolist() == [0.0, 0.0]
    got = torch.autograd.grad(a * 2, {"a": a}, torch.eye(2), is_grads_batched=True)
    assert got["a"].tolist() == [[2.0, 0.0], [0.0, 2.0]]
    got = torch.autograd.grad(loss, {"e": get_gradient_edge(a)}, retain_graph=True)
    assert got["e"].tolist() == [3.0, 3.0]
    with raises(RuntimeError, "The differentiated Tensor at index 1 appears to not have been "
                "used in the graph. Set allow_unused=True if this is the desired behavior."):
        torch.autograd.grad(loss, {"a": a, "b": b}, retain_graph=True)
    with raises(RuntimeError, "`inputs` argument to `grad()` cannot be empty."):
        torch.autograd.grad(loss, {}, retain_graph=True)
    (loss + b.sum()).backward(inputs={"a": a})
    assert a.grad.tolist() == [3.0, 3.0] and b.grad is None
    with raises(RuntimeError, "`inputs` argument to `backward()` cannot be empty."):
        loss.backward(inputs={})


@pytest.mark.parametrize("caller", ["grad", "backward"])
def test_other_mappings_of_inputs_are_refused(caller):
    a = leaf(1.0, 2.0)
    loss = (a * 3).sum()
    run = torch.autograd.grad if caller == "grad" else torch.autograd.backward
    with raises(TypeError, f"`inputs` argument to `{caller}()` must be a dict, not "
                "OrderedDict. Other Mapping types are not supported."):
        run(loss, inputs=OrderedDict(a=a))
    assert a.grad is None


def test_bool_tensors_are_named_as_torch_cpp_names_them():
    a = leaf(1.0, 2.0)
    b = a * 2
    b.grad_fn.register_prehook(lambda grads: (torch.ones(2, dtype=torch.bool),))
    with raises(RuntimeError, "hook '<lambda>' has changed the type of value (was "
                "torch.FloatTensor got CPUBoolType)"):
        b.sum().backward()
    c = leaf(1.0, 2.0)
    c.register_hook(lambda grad: torch.ones(2, dtype=torch.bool))
    with raises(RuntimeError, "hook '<lambda>' has changed the type of value (was "
                "torch.FloatTensor got CPUBoolType)"):
        (c * 2).sum().backward()
    mask = torch.tensor([True, False])
    y = torch.where(mask, a, a * 2)
    mask.logical_not_()
    with raises(RuntimeError, "one of the variables needed for gradient computation has been "
                "modified by an inplace operation: [CPUBoolType [2]] is at version 1; expected "
                "version 0 instead. Hint: enable anomaly detection to find the operation that "
                "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, "
                "check_nan=False)."):
        y.sum().backward()
    assert mask.type() == "torch.BoolTensor"  # Python's name stays the legacy one
