"""Misusing a node's methods and attributes is refused in the words of torch's C++ types."""

import numpy as np
import pytest
import torch

from conformance._support import FREED, leaf, raises


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def nodes():
    """An op node, a leaf's node, CopySlices and a custom node, with the names messages use."""
    a = leaf(1.0, 2.0, 3.0)
    written = a.clone()
    written[0].mul_(2)
    return [
        (a.exp().grad_fn, "ExpBackward0", "ExpBackward0"),
        (a.clone().grad_fn.next_functions[0][0], "AccumulateGrad", "AccumulateGrad"),
        (written.grad_fn, "CopySlices", "CopySlices"),
        (Double.apply(a).grad_fn, "_FunctionBase", "torch._C._FunctionBase"),
    ]


@pytest.mark.parametrize("index", range(4))
def test_methods_take_their_arguments_as_c_methods_do(index):
    # Called as methods, not fetched first: for a custom node, a bound method fetched with
    # getattr is named after the node's class in CPython's message, not after _FunctionBase.
    node, owner, _ = nodes()[index]
    one = f"{owner}.register_hook() takes exactly one argument"
    with raises(TypeError, f"{one} (0 given)"):
        node.register_hook()
    with raises(TypeError, f"{one} (2 given)"):
        node.register_hook(print, print)
    with raises(TypeError, f"{owner}.register_hook() takes no keyword arguments"):
        node.register_hook(fn=print)
    with raises(TypeError, f"{owner}.register_prehook() takes exactly one argument (0 given)"):
        node.register_prehook()
    with raises(TypeError, f"{owner}.register_prehook() takes no keyword arguments"):
        node.register_prehook(print, fn=print)
    with raises(TypeError, f"{owner}.name() takes no arguments (1 given)"):
        node.name(1)
    with raises(TypeError, f"{owner}.name() takes no keyword arguments"):
        node.name(x=1)
    with raises(TypeError, f"{owner}._sequence_nr() takes no arguments (2 given)"):
        node._sequence_nr(1, 2)
    assert node.register_prehook(print).__class__.__name__ == "RemovableHandle"
    assert isinstance(node.name(), str) and isinstance(node._sequence_nr(), int)


@pytest.mark.parametrize("index", range(4))
def test_attributes_are_not_writable(index):
    node, _, owner = nodes()[index]
    for attribute in ("next_functions", "metadata", "_input_metadata", "requires_grad"):
        message = f"attribute '{attribute}' of '{owner}' objects is not writable"
        with raises(AttributeError, message):
            setattr(node, attribute, ())
        with raises(AttributeError, message):
            delattr(node, attribute)
    assert node.requires_grad is True and node.metadata == {}


def test_saved_values_and_the_variable_are_not_writable():
    a = leaf(1.0, 2.0)
    node = a.exp().grad_fn
    for attribute in ("_saved_result", "_raw_saved_result"):
        with raises(AttributeError, f"attribute '{attribute}' of 'ExpBackward0' objects is not "
                    "writable"):
            setattr(node, attribute, None)
    accumulate = a.clone().grad_fn.next_functions[0][0]
    with raises(AttributeError, "attribute 'variable' of 'AccumulateGrad' objects is not "
                "writable"):
        accumulate.variable = leaf(1.0)
    assert accumulate.variable is a


@pytest.mark.parametrize("index", range(4))
def test_set_sequence_nr_takes_one_unsigned_python_int(index):
    node, owner, _ = nodes()[index]
    with raises(TypeError, f"{owner}._set_sequence_nr() takes exactly one argument (0 given)"):
        node._set_sequence_nr()
    with raises(TypeError, f"{owner}._set_sequence_nr() takes exactly one argument (2 given)"):
        node._set_sequence_nr(1, 2)
    with raises(TypeError, f"{owner}._set_sequence_nr() takes no keyword arguments"):
        node._set_sequence_nr(n=1)
    for value in (1.5, "1", None, torch.tensor(7), np.int64(4)):
        with raises(TypeError, "an integer is required"):
            node._set_sequence_nr(value)
    with raises(OverflowError, "can't convert negative int to unsigned"):
        node._set_sequence_nr(-3)
    with raises(OverflowError, "int too big to convert"):
        node._set_sequence_nr(2**64)
    assert node._set_sequence_nr(2**63) is None and node._sequence_nr() == 2**63
    node._set_sequence_nr(True)
    assert node._sequence_nr() == 1 and type(node._sequence_nr()) is int


def test_a_set_sequence_nr_changes_the_order_nodes_run_in():
    b = leaf(1.0)
    x1, x2 = b * 2, b * 3
    order = []
    x1.grad_fn.register_prehook(lambda g: order.append("x1"))
    x2.grad_fn.register_prehook(lambda g: order.append("x2"))
    (x1 + x2).backward(retain_graph=True)
    assert order == ["x2", "x1"]  # the later node first
    x1.grad_fn._set_sequence_nr(x2.grad_fn._sequence_nr() + 1)
    order.clear()
    (x1 + x2).backward()
    assert order == ["x1", "x2"]


def test_a_custom_nodes_raw_saved_tensors():
    class Saves(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, None, y)
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad, None

    a = leaf(1.0, 2.0)
    out = Saves.apply(a, a * 3)
    node = out.grad_fn
    raw = node._raw_saved_tensors
    assert type(raw) is tuple and [type(s).__name__ for s in raw] == ["SavedTensor"] * 3
    assert node._raw_saved_tensors[0] is raw[0]
    unpacked = []
    raw[2].register_hooks(lambda t: t * 10, lambda t: unpacked.append(t.tolist()) or t)
    out.sum().backward(retain_graph=True)
    assert node.saved_tensors[2].tolist() == [30.0, 60.0] and unpacked == [[30.0, 60.0]]
    message = "attribute '_raw_saved_tensors' of 'torch._C._FunctionBase' objects is not writable"
    with raises(AttributeError, message):
        node._raw_saved_tensors = ()
    out.sum().backward()
    with raises(RuntimeError, FREED):
        node._raw_saved_tensors  # noqa: B018 - released by the backward


def test_register_hook_dict_wants_a_tensor():
    a = leaf(1.0, 2.0)
    with raises(TypeError, "_register_hook_dict expected a variable"):
        a.exp().grad_fn._register_hook_dict(3)
    with raises(RuntimeError, "_register_hook_dict expected a Tensor"):
        Double.apply(a).grad_fn._register_hook_dict(3)


def test_builtin_node_classes_and_input_metadata_are_named_as_torch_names_them():
    a = leaf(1.0, 2.0)
    accumulate = a.clone().grad_fn.next_functions[0][0]
    assert repr(type(accumulate)) == "<class 'AccumulateGrad'>"
    assert type(accumulate).__module__ == "builtins"
    meta = a.exp().grad_fn._input_metadata[0]
    assert type(meta).__name__ == type(meta).__qualname__ == "_InputMetadata"
    module = f"{torch.__name__}._C._autograd"
    assert type(meta).__module__ == module
    assert repr(meta).startswith(f"<{module}._InputMetadata object at 0x")
