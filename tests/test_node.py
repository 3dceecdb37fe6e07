"""refgrad.autograd._node: node classes, AccumulateGrad, accumulation and edges."""

import gc
import weakref

import pytest

import refgrad
from refgrad._C import _functions
from refgrad.autograd import _input_metadata, _node
from refgrad.autograd._accumulate import (
    ACCUMULATE_SEQUENCE_NR,
    AccumulateGrad,
    CopyBackwards,
    accumulate_into,
)
from refgrad.autograd._edges import (
    GradientEdge,
    get_gradient_edge,
    grad_accumulator,
    gradient_edge,
)
from refgrad.autograd._input_metadata import InputMetadata
from refgrad.autograd._node import FunctionNode, Node, built


def leaf(*values, dtype=None):
    return refgrad.tensor(list(values), dtype=dtype, requires_grad=True)


def test_nodes_have_slots_and_make_hook_dicts_lazily():
    node = (leaf(1.0) * 2).grad_fn
    assert not hasattr(node, "__dict__")
    assert node._pre_hooks is None and node._post_hooks is None and node._metadata is None
    handle = node.register_prehook(lambda grads: None)
    assert list(node._pre_hooks) == [handle.id]
    assert node._post_hooks is None


def test_pre_and_post_hooks_share_one_dict_each():
    node = (leaf(1.0) * 2).grad_fn
    h1 = node.register_prehook(lambda grads: None)
    h2 = node.register_prehook(lambda grads: None)
    h3 = node.register_hook(lambda grad_inputs, grad_outputs: None)
    assert h1.hooks_dict_ref() is h2.hooks_dict_ref() is node._pre_hooks
    assert h3.hooks_dict_ref() is node._post_hooks
    assert h2.id == h1.id + 1


def test_a_node_with_its_own_number_takes_none_from_the_counter():
    before = FunctionNode()._sequence_nr()
    node = FunctionNode((), 7)
    assert node._sequence_nr() == 7
    assert FunctionNode()._sequence_nr() == before + 1


def test_new_node_fills_every_slot_as_init_does():
    # NOTE [Making a node]: the two ways of making a node must not drift apart.
    made = _node.new_node(FunctionNode, (None,), (0,))
    plain = FunctionNode()
    slots = [s for s in FunctionNode.__slots__ if s != "__weakref__"]
    for slot in slots:
        assert hasattr(made, slot) and hasattr(plain, slot), slot
    differ = {s for s in slots if getattr(made, s) != getattr(plain, s)}
    assert differ == {"_next_nodes", "_next_slots", "_seq"}
    assert made.next_functions == ((None, 0),)
    assert plain._sequence_nr() == made._sequence_nr() + 1


def test_each_node_class_runs_its_own_copy_of_the_node_code():
    # NOTE [Code of its own per node class]: same source, separate code objects.
    from refgrad._ops import op_nodes
    from refgrad.autograd import _engine

    x = leaf(1.0)
    mul, sin = type((x * 2.0).grad_fn), type(x.sin().grad_fn)
    for name, shared in (("_make", _node.new_node), ("apply", op_nodes.OpNode.apply),
                         ("release_variables", op_nodes.OpNode.release_variables),
                         ("_engine_step", _engine._call)):
        mine, theirs = getattr(mul, name).__code__, getattr(sin, name).__code__
        assert mine is not theirs and mine is not shared.__code__
        assert mine.co_code == theirs.co_code == shared.__code__.co_code
    made = mul._make(mul, (None,), (0,))
    assert type(made) is mul and made.next_functions == ((None, 0),)
    # Nodes of other classes, such as a leaf's AccumulateGrad, run the engine's own _call.
    assert type(grad_accumulator(x))._engine_step is _engine._call


def test_accumulate_grad_is_registered_and_numbered_last():
    a = leaf(1.0)
    before = FunctionNode()._sequence_nr()
    node = grad_accumulator(a)
    assert FunctionNode()._sequence_nr() == before + 1  # it took no number
    assert node._sequence_nr() == ACCUMULATE_SEQUENCE_NR == 2**64 - 1
    assert _functions.AccumulateGrad is AccumulateGrad
    assert _functions.CopyBackwards is CopyBackwards
    assert issubclass(AccumulateGrad, Node) and isinstance(node, Node)


def test_the_leaf_holds_its_accumulator_weakly():
    gc.disable()
    try:
        a = leaf(1.0)
        node = grad_accumulator(a)
        assert grad_accumulator(a) is node and node.variable is a
        ref = weakref.ref(node)
        del node
        assert ref() is None
        assert grad_accumulator(a) is not None
    finally:
        gc.enable()


def test_input_metadata_copies_shape_dtype_device():
    t = refgrad.ones(2, 3, dtype=refgrad.float64)
    meta = InputMetadata(t)
    assert meta.shape == [2, 3] and meta.dtype is refgrad.float64
    assert str(meta.device) == "cpu"


def test_gradient_edges():
    a = leaf(1.0)
    b = a * 2
    assert gradient_edge(b) == (b.grad_fn, 0)
    assert gradient_edge(a) == (grad_accumulator(a), 0)
    assert gradient_edge(refgrad.ones(1)) == (None, 0)
    edge = get_gradient_edge(b)
    assert isinstance(edge, GradientEdge) and edge.ownership_token is None


def test_get_gradient_edge_in_inference_mode():
    a = leaf(1.0)
    b = a * 2
    with refgrad.inference_mode():
        assert get_gradient_edge(b).node is b.grad_fn
        with pytest.raises(AttributeError, match="'NoneType' object has no attribute"):
            get_gradient_edge(a)


def test_get_gradient_edge_of_an_inference_leaf_makes_no_accumulator():
    with refgrad.inference_mode():
        a = leaf(1.0)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute"):
        get_gradient_edge(a)
    assert a._grad_accumulator is None


def test_first_accumulation_copies():
    a = leaf(1.0, 2.0)
    grad = refgrad.tensor([3.0, 4.0])
    accumulate_into(a, grad, False)
    assert a.grad is not grad and a.grad._data is not grad._data
    assert a.grad.tolist() == [3.0, 4.0]


def test_later_accumulations_add_in_place_and_bump_the_version():
    a = leaf(1.0, 2.0)
    accumulate_into(a, refgrad.tensor([1.0, 1.0]), False)
    first, data, version = a.grad, a.grad._data, a.grad._version
    accumulate_into(a, refgrad.tensor([2.0, 2.0]), False)
    assert a.grad is first and a.grad._data is data
    assert a.grad._version == version + 1 and a.grad.tolist() == [3.0, 3.0]


def test_accumulation_under_create_graph():
    a = leaf(1.0, 2.0)
    g = refgrad.tensor([1.0, 1.0], requires_grad=True)
    accumulate_into(a, g, True)
    assert type(a.grad.grad_fn) is CopyBackwards and a.grad is not g
    assert a.grad.grad_fn.next_functions == ((None, 0), (grad_accumulator(g), 0))
    assert a.grad.grad_fn._input_metadata[0].shape == [2]
    first = a.grad
    accumulate_into(a, g, True)
    assert a.grad is not first and a.grad.grad_fn.name() == "AddBackward0"
    b = leaf(1.0)
    accumulate_into(b, refgrad.tensor([5.0]), True)
    assert b.grad.grad_fn is None


def test_copy_backwards_passes_the_gradient_to_its_source():
    g = leaf(1.0, 2.0)
    node = built(CopyBackwards, ((None, 0), gradient_edge(g)))
    assert node.apply([refgrad.tensor([3.0, 4.0])])[1].tolist() == [3.0, 4.0]
    assert node.apply([refgrad.tensor([3.0, 4.0])])[0] is None


def test_post_accumulate_grad_hooks_see_the_updated_leaf():
    from collections import OrderedDict

    a = leaf(1.0)
    seen = []
    a._post_accumulate_grad_hooks = OrderedDict({0: lambda t: seen.append(t.grad.tolist())})
    accumulate_into(a, refgrad.tensor([2.0]), False)
    assert seen == [[2.0]]


def test_calling_a_node_directly():
    a = leaf(1.0, 2.0)
    acc = grad_accumulator(a)
    assert acc(refgrad.tensor([1.0, 1.0])) == ()
    assert a.grad.tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="expected 1 arguments, got 2 instead"):
        acc(None, None)
    with pytest.raises(TypeError, match="argument 0 is not a Variable"):
        acc(1.0)
    with pytest.raises(TypeError, match="keyword arguments are not supported"):
        acc(grad=None)


def test_subclass_hook_reads_the_registry():
    class CloneBackward0:
        pass

    assert not issubclass(CloneBackward0, Node)
    assert Node.__subclasshook__(_functions.AccumulateGrad) is True
    assert Node.__subclasshook__(CloneBackward0) is NotImplemented


def test_repr_names_the_class():
    node = (leaf(1.0) * 2).grad_fn
    assert repr(node).startswith("<MulBackward0 object at 0x")
    assert _node.RemovableHandle is refgrad.utils.hooks.RemovableHandle


def test_nodes_whose_one_output_looks_alike_share_their_metadata():
    x = refgrad.ones(3, requires_grad=True)
    a, b, c = x * 2, x.sin(), (x * 2).double()
    assert a.grad_fn._meta is b.grad_fn._meta  # same shape, same dtype: one tuple
    assert c.grad_fn._meta is not a.grad_fn._meta
    assert c.grad_fn._meta[0][:2] == ((3,), refgrad.float64.numpy)
    assert [m.shape for m in b.grad_fn._input_metadata] == [[3]]
    leaf_node = (x * 1).grad_fn.next_functions[0][0]
    assert leaf_node._meta is a.grad_fn._meta  # the leaf's AccumulateGrad shares it too


def test_the_shared_metadata_stays_small(monkeypatch):
    monkeypatch.setattr(_input_metadata, "_LONE_METADATA", {})
    x = refgrad.ones(1, requires_grad=True)
    for n in range(1, 1100):
        y = x.expand(n) * 2
        assert y.grad_fn._meta[0][0] == (n,)
    assert len(_input_metadata._LONE_METADATA) <= 1024


def test_edges_are_kept_as_nodes_and_slots_and_shown_as_pairs():
    x = refgrad.ones(3, requires_grad=True)
    a, b = refgrad.ones(3, requires_grad=True).unbind(0)[1], x * 2
    node = (a + b).grad_fn
    assert node.next_functions == ((a.grad_fn, 1), (b.grad_fn, 0))
    assert node.next_functions is not node.next_functions  # built afresh, as torch does
    gc.collect()
    assert not gc.is_tracked(node._next_slots)  # only numbers: the collector lets it be
    assert node._next_nodes == (a.grad_fn, b.grad_fn)


def test_nodes_with_the_same_slots_share_one_tuple():
    x = refgrad.ones(3, requires_grad=True)
    first, second = (x * 2).grad_fn, (x + 1).grad_fn
    assert first._next_slots == (0, 0)
    assert first._next_slots is second._next_slots
    pieces = refgrad.ones(3, 2, requires_grad=True).unbind(0)
    node = (pieces[2] * pieces[1]).grad_fn
    assert node.next_functions == ((pieces[2].grad_fn, 2), (pieces[1].grad_fn, 1))


def test_the_shared_slots_stay_few(monkeypatch):
    from refgrad._ops import recording

    monkeypatch.setattr(recording, "_SHARED_SLOTS", {})
    monkeypatch.setattr(recording, "_known_slots", recording._SHARED_SLOTS.get)
    pieces = refgrad.ones(1100, requires_grad=True).unbind(0)
    for n, piece in enumerate(pieces):
        assert (piece * 2).grad_fn.next_functions[0][1] == n
    assert len(recording._SHARED_SLOTS) <= 1024


def test_kept_sizes_are_shared_and_leave_the_kept_dict_unwatched():
    x, y = refgrad.ones(5, 3, requires_grad=True), refgrad.zeros(5, 3, requires_grad=True)
    first = x.sum().grad_fn
    gc.collect()  # lets go of the shared sizes, which hold only numbers
    second = y.sum().grad_fn
    assert second._params["self_sym_sizes"] is first._params["self_sym_sizes"]
    assert not gc.is_tracked(second._params)  # nothing in it the collector must visit
    assert second._saved_self_sym_sizes == (5, 3)
    y.sum().backward()
    assert y.grad.tolist() == [[1.0] * 3] * 5


def test_kept_strides_are_shared_too():
    a, b = refgrad.ones(3, 4, requires_grad=True), refgrad.ones(4, 2, requires_grad=True)
    first, second = (a @ b).grad_fn, (a.t().t() @ b.t().t()).grad_fn
    assert first._saved_self_sym_strides == (4, 1)
    assert first._saved_mat2_sym_strides == (2, 1)
    for key in ("self_sym_strides", "mat2_sym_strides", "self_sym_sizes"):
        assert second._params[key] is first._params[key]


def test_the_abstract_node_documents_its_public_methods():
    from refgrad.autograd.graph import Node

    for name in ("name", "next_functions", "metadata", "register_hook", "register_prehook"):
        assert getattr(Node, name).__doc__, name
