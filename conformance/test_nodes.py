"""The graph Node API (F26–F40): black-box, against torch's API."""

import gc
import re
import sys

import pytest
import torch
from torch.autograd.graph import Node

from conformance._support import FREED, leaf


def accumulator(t):
    return t.clone().grad_fn.next_functions[0][0]


ABSTRACT = ("_input_metadata", "_register_hook_dict", "_sequence_nr", "metadata", "name",
            "next_functions", "register_hook", "register_prehook")


# F26
def test_node_is_abstract_with_torch_message():
    with pytest.raises(TypeError) as info:
        Node()
    if sys.version_info >= (3, 12):  # the words are Python's own, and 3.12 changed them
        expected = ("Can't instantiate abstract class Node without an implementation for "
                    "abstract methods " + ", ".join(f"'{name}'" for name in ABSTRACT))
    else:
        expected = "Can't instantiate abstract class Node with abstract methods " + ", ".join(
            ABSTRACT)
    assert str(info.value) == expected


def test_a_built_in_node_class_cannot_be_called():
    node = leaf(1.0, 2.0) * 2
    with pytest.raises(TypeError, match=r"^cannot create 'MulBackward0' instances$"):
        type(node.grad_fn)()


# F27
def test_names_of_built_in_nodes():
    a = leaf(0.0, 0.0, 0.0)
    b = a.clone()
    assert b.grad_fn.name() == "CloneBackward0"
    assert (a * 2).grad_fn.name() == "MulBackward0"
    assert (a * 2).sum().grad_fn.name() == "SumBackward0"
    assert a.sum(0).grad_fn.name() == "SumBackward1"
    assert a.unbind()[1].grad_fn.name() == "UnbindBackward0"
    assert accumulator(a).name() == "torch::autograd::AccumulateGrad"
    assert type(accumulator(a)).__name__ == "AccumulateGrad"


# F28
def test_next_functions_one_edge_per_input_in_argument_order():
    a, w = leaf(1.0, 2.0), leaf(3.0, 4.0)
    acc_a, acc_w = accumulator(a), accumulator(w)
    assert (a * 2).grad_fn.next_functions == ((acc_a, 0), (None, 0))
    assert (w * a).grad_fn.next_functions == ((acc_w, 0), (acc_a, 0))
    assert (a * torch.ones(2)).grad_fn.next_functions == ((acc_a, 0), (None, 0))
    assert acc_a.next_functions == ()
    b = a * 2
    c = b.sum()
    assert c.grad_fn.next_functions == ((b.grad_fn, 0),)
    x, y = torch.stack([a, w]).unbind()
    assert (x + y).grad_fn.next_functions == ((x.grad_fn, 0), (y.grad_fn, 1))
    assert x.grad_fn is y.grad_fn


# F29
def test_grad_fn_and_next_functions_are_stable_objects():
    a = leaf(1.0, 2.0)
    b = a * 3
    first = b.grad_fn
    gc.collect()
    assert b.grad_fn is first
    assert b.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0]


def test_a_leaf_has_one_accumulate_grad_while_it_is_alive():
    a = leaf(1.0, 2.0)
    n1 = (a * 2).grad_fn.next_functions[0][0]
    n2 = (a * 3).grad_fn.next_functions[0][0]
    assert n1 is n2
    assert n1.variable is a
    del n1, n2
    gc.collect()
    assert (a * 2).grad_fn.next_functions[0][0].variable is a


# F30
def test_metadata_is_a_persistent_dict_attribute():
    node = leaf(1.0).clone().grad_fn
    assert node.metadata == {}
    assert node.metadata is node.metadata
    node.metadata["k"] = 1
    assert node.metadata == {"k": 1}
    with pytest.raises(TypeError, match=re.escape("'dict' object is not callable")):
        node.metadata()
    acc = accumulator(leaf(1.0))
    acc.metadata["m"] = 2
    assert acc.metadata == {"m": 2}


# F31
def test_sequence_numbers_increase_with_creation():
    a = leaf(1.0)
    b = a * 2
    c = a * 3
    d = b + c
    numbers = [t.grad_fn._sequence_nr() for t in (b, c, d)]
    assert numbers[1] == numbers[0] + 1 and numbers[2] == numbers[1] + 1
    assert accumulator(a)._sequence_nr() == 2**64 - 1 == 18446744073709551615


def test_making_a_leafs_accumulate_grad_uses_no_sequence_number():
    before = leaf(1.0).clone().grad_fn._sequence_nr()
    fresh = leaf(2.0)  # its AccumulateGrad is made while recording the clone
    after = fresh.clone().grad_fn._sequence_nr()
    assert after == before + 1


def test_operations_that_record_nothing_use_no_sequence_number():
    a = leaf(1.0)
    before = (a * 1).grad_fn._sequence_nr()
    torch.ones(2) * 2
    with torch.no_grad():
        a * 2
    assert (a * 1).grad_fn._sequence_nr() == before + 1


# F32
def test_input_metadata_describes_the_expected_gradient():
    a = leaf(1.0, 2.0)
    meta = (a * 2).grad_fn._input_metadata
    assert isinstance(meta, tuple) and len(meta) == 1
    m = meta[0]
    assert [n for n in dir(m) if not n.startswith("_")] == [
        "device", "dtype", "is_cpp_nested_tensor", "is_nested_tensor", "shape",
    ]
    assert m.shape == [2] and isinstance(m.shape, list) and repr(m.shape) == "[2]"
    assert m.dtype is torch.float32
    assert str(m.device) == "cpu"
    assert m.is_nested_tensor is False and m.is_cpp_nested_tensor is False
    assert accumulator(a)._input_metadata[0].shape == [2]
    x = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    assert x.sum(0).grad_fn._input_metadata[0].shape == [3]
    assert x.sum(0).grad_fn._input_metadata[0].dtype is torch.float64
    assert x.sum().grad_fn._input_metadata[0].shape == []
    unbound = x.unbind(0)[0].grad_fn._input_metadata
    assert [m.shape for m in unbound] == [[3], [3]]


# F39
def test_isinstance_and_issubclass_for_built_in_nodes():
    a = leaf(0.0)
    b = a.clone()
    assert isinstance(b.grad_fn, Node)
    assert isinstance(accumulator(a), Node)
    assert issubclass(type(b.grad_fn), Node)
    assert issubclass(torch._C._functions.AccumulateGrad, Node)
    assert torch._C._functions.AccumulateGrad is type(accumulator(a))


def test_a_class_merely_named_like_a_node_is_not_one():
    class AccumulateGrad:
        pass

    class CloneBackward0:
        pass

    assert not isinstance(AccumulateGrad(), Node)
    assert not issubclass(CloneBackward0, Node)
    assert not isinstance(3, Node)
    assert not isinstance(None, Node)
    assert not isinstance(leaf(1.0), Node)


def test_explicit_subclasses_of_node_are_nodes():
    class MyNode(Node):
        def name(self):
            return "x"

        next_functions = ()
        metadata = {}
        _input_metadata = []

        def _sequence_nr(self):
            return 0

        def _register_hook_dict(self, t):
            pass

        def register_hook(self, fn):
            pass

        def register_prehook(self, fn):
            pass

    assert isinstance(MyNode(), Node)
    assert issubclass(MyNode, Node)

    class Incomplete(Node):
        def name(self):
            return "y"

    with pytest.raises(TypeError, match="Can't instantiate abstract class Incomplete"):
        Incomplete()


def test_subclass_hook_answers_only_for_node_itself():
    class Sub(Node):
        pass

    assert not issubclass(torch._C._functions.AccumulateGrad, Sub)
    assert not isinstance(leaf(1.0).clone().grad_fn, Sub)


# F40
def test_repr_and_requires_grad():
    a = leaf(0.0)
    node = a.clone().grad_fn
    assert re.fullmatch(r"<CloneBackward0 object at 0x[0-9a-f]+>", repr(node))
    assert re.fullmatch(r"<AccumulateGrad object at 0x[0-9a-f]+>", repr(accumulator(a)))
    assert node.requires_grad is True


def test_calling_a_node_runs_its_formula():
    a = leaf(1.0, 2.0)
    b = a * 3
    grads = b.grad_fn(torch.ones(2))
    assert isinstance(grads, tuple) and len(grads) == 2
    assert grads[0].tolist() == [3.0, 3.0] and grads[1] is None
    assert b.grad_fn(None) == (None, None)
    assert a.grad is None
    w = leaf(1.0, 2.0)
    s = torch.stack([a, w])
    assert [g.tolist() for g in s.grad_fn(torch.ones(2, 2))] == [[1.0, 1.0], [1.0, 1.0]]


def test_calling_a_single_output_node_returns_one_gradient():
    a = leaf(1.0, 2.0)
    grad = a.clone().grad_fn(torch.ones(2))
    assert isinstance(grad, torch.Tensor) and grad.tolist() == [1.0, 1.0]
    assert a.clone().grad_fn(None) is None
    assert (a * 2).sum().grad_fn(torch.tensor(2.0)).tolist() == [2.0, 2.0]


def test_calling_a_multi_output_node_treats_missing_gradients_as_zeros():
    x = torch.ones(2, 3, requires_grad=True)
    u = x.unbind(0)
    assert u[0].grad_fn(torch.ones(3), None).tolist() == [[1.0] * 3, [0.0] * 3]
    assert u[0].grad_fn(None, None) is None


def test_calling_a_node_records_in_the_current_grad_mode():
    a = leaf(1.0, 2.0)
    g = torch.ones(2, requires_grad=True)
    node = (a * 3).grad_fn
    assert node(g)[0].grad_fn.name() == "MulBackward0"
    with torch.no_grad():
        assert node(g)[0].grad_fn is None


def test_calling_a_node_checks_its_arguments():
    a = leaf(1.0, 2.0)
    node = a.clone().grad_fn
    with pytest.raises(TypeError, match=re.escape("expected 1 arguments, got 0 instead")):
        node()
    with pytest.raises(TypeError, match=re.escape("expected 1 arguments, got 2 instead")):
        node(torch.ones(2), torch.ones(2))
    with pytest.raises(TypeError, match=re.escape("argument 0 is not a Variable")):
        node(3)
    with pytest.raises(TypeError, match=re.escape("argument 0 is not a Variable")):
        node([torch.ones(2)])
    with pytest.raises(TypeError, match=re.escape("keyword arguments are not supported")):
        node(grad=torch.ones(2))


def test_calling_accumulate_grad_accumulates():
    a = leaf(1.0, 2.0)
    acc = accumulator(a)
    assert acc(torch.tensor([5.0, 6.0])) == ()
    assert a.grad.tolist() == [5.0, 6.0]
    assert acc(None) == ()
    assert a.grad.tolist() == [5.0, 6.0]


def test_saved_self_and_other_of_mul():
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    y = a * b
    assert y.grad_fn._saved_self is a
    assert y.grad_fn._saved_other is b
    names = [n for n in dir(y.grad_fn) if "saved" in n]
    assert {"_saved_self", "_saved_other", "_raw_saved_self", "_raw_saved_other"} <= set(names)


def test_a_wrapped_scalar_is_saved_as_a_0d_tensor():
    a = leaf(1.0, 2.0)
    z = a * 2
    assert repr(z.grad_fn._saved_other) == "tensor(2)"
    assert z.grad_fn._saved_other.dtype is torch.int64
    assert z.grad_fn._saved_self is None
    assert repr((2 * a).grad_fn._saved_other) == "tensor(2)"
    assert repr((a * 2.5).grad_fn._saved_other) == "tensor(2.5000, dtype=torch.float64)"


def test_only_values_some_gradient_needs_are_saved():
    a, w = leaf(1.0, 2.0), torch.tensor([3.0, 4.0])
    y = a * w
    assert y.grad_fn._saved_self is None
    assert y.grad_fn._saved_other.tolist() == [3.0, 4.0]
    y = w * a
    assert y.grad_fn._saved_self.tolist() == [3.0, 4.0]
    assert y.grad_fn._saved_other is None


def test_saved_output_is_a_fresh_tensor_with_the_node_as_grad_fn():
    a = leaf(1.0, 2.0)
    e = a.exp()
    saved = e.grad_fn._saved_result
    assert saved is not e
    assert saved.grad_fn is e.grad_fn
    assert saved.tolist() == e.tolist()


def test_saved_values_are_freed_by_backward():
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    y = a * b
    z = a * 2
    (y.sum() + z.sum()).backward()
    for read in (lambda: y.grad_fn._saved_self, lambda: y.grad_fn._saved_other,
                 lambda: z.grad_fn._saved_other):
        with pytest.raises(RuntimeError) as info:
            read()
        assert str(info.value) == FREED
    assert z.grad_fn._saved_self is None


def test_saved_values_survive_retain_graph():
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    y = a * b
    y.sum().backward(retain_graph=True)
    assert y.grad_fn._saved_self is a


def test_unknown_attributes_raise_attribute_error():
    node = (leaf(1.0) * 2).grad_fn
    with pytest.raises(AttributeError, match=re.escape(
            "'MulBackward0' object has no attribute '_saved_foo'")):
        node._saved_foo
    with pytest.raises(AttributeError, match=re.escape(
            "'MulBackward0' object has no attribute 'foo'")):
        node.foo


def test_hooks_can_be_registered_on_a_freed_node():
    a = leaf(1.0, 2.0)
    b = (a * 3).sum()
    node = b.grad_fn
    b.backward()
    handle = node.register_prehook(lambda grads: None)
    handle.remove()


def test_calling_a_node_gives_one_gradient_per_output_that_carries_one():
    a = torch.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]], requires_grad=True)
    values, _ = a.max(1)
    assert values.grad_fn(torch.ones(2)).tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    with pytest.raises(TypeError, match=r"^expected 1 arguments, got 2 instead$"):
        values.grad_fn(torch.ones(2), None)
