"""set_ on views: recorded through the base as any write through a view, and
allowed on views whose elements share memory, since set_ writes no values."""

import pytest
import torch

from conformance._support import raises

NOT_IMPLEMENTED = "derivative for set_ is not implemented"

VIEWS = {
    "slice": lambda b: b[1:],
    "select": lambda b: b[1],
    "view": lambda b: b.view(-1),
    "t": lambda b: b.t(),
    "diagonal": lambda b: b.diagonal(),
    "as_strided": lambda b: b.as_strided((2,), (1,)),
    "view_of_view": lambda b: b[1:].view(-1),
    "expand": lambda b: b[:1].expand(2, 3),
    "unfold": lambda b: b.view(-1).unfold(0, 2, 1),
}
SOURCES = {
    "tensor": lambda v: v.set_(torch.zeros(2)),
    "nothing": lambda v: v.set_(),
    "storage": lambda v: v.set_(torch.arange(6.0).untyped_storage(), 1, (2, 2), (1, 1)),
}


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("loss", ["base", "view"])
def test_set_on_a_view_of_a_tensor_that_requires_grad(view, source, loss):
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = a * 1
    v = VIEWS[view](b)
    SOURCES[source](v)
    assert type(b.grad_fn).__name__ == "CopySlices"
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert v._base is b and b._version == v._version == 1
    with raises(RuntimeError, NOT_IMPLEMENTED):
        (b if loss == "base" else v).sum().backward()
    assert a.grad is None


def test_set_on_a_view_with_view_replay_names_the_view_op():
    a = torch.ones(2, 3, requires_grad=True)
    b = a * 1
    with torch.autograd._force_original_view_tracking(True):
        v = b[1:]
        v.set_(torch.zeros(2))
    assert type(v.grad_fn).__name__ == "SliceBackward0"
    assert type(b.grad_fn).__name__ == "CopySlices"


def test_set_on_a_view_under_no_grad_records_nothing():
    a = torch.ones(2, 3, requires_grad=True)
    b = a * 1
    v = b[1:]
    with torch.no_grad():
        v.set_(torch.zeros(2))
    assert type(b.grad_fn).__name__ == "MulBackward0"
    b.sum().backward()
    assert a.grad.tolist() == torch.ones(2, 3).tolist()


def test_set_on_a_leaf_is_refused():
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        torch.ones(3, requires_grad=True).set_(torch.zeros(2))


SHARING = {
    "expand": lambda t: t[:1].expand(2, 3),
    "unfold": lambda t: t.view(-1).unfold(0, 2, 1),
    "as_strided": lambda t: t.as_strided((2, 2), (1, 1)),
}
GEOMETRIES = {
    "tensor": (lambda v: v.set_(torch.ones(2)), [1.0, 1.0], (2,), (1,), 0),
    "storage": (lambda v: v.set_(torch.ones(4).untyped_storage()), [1.0] * 4, (4,), (1,), 0),
    "storage_offset": (lambda v: v.set_(torch.arange(4.0).untyped_storage(), 1, (3,), (1,)),
                       [1.0, 2.0, 3.0], (3,), (1,), 1),
    "nothing": (lambda v: v.set_(), [], (0,), (1,), 0),
    "tensor_expanded": (lambda v: v.set_(torch.arange(4.0), 0, (2, 2), (0, 1)),
                        [[0.0, 1.0], [0.0, 1.0]], (2, 2), (0, 1), 0),
}


@pytest.mark.parametrize("view", sorted(SHARING))
@pytest.mark.parametrize("geometry", sorted(GEOMETRIES))
def test_set_on_a_view_whose_elements_share_memory(view, geometry):
    t = torch.arange(6.0).view(2, 3)
    v = SHARING[view](t)
    call, values, shape, stride, offset = GEOMETRIES[geometry]
    call(v)
    assert (v.tolist(), tuple(v.shape), v.stride(), v.storage_offset()) == (
        values, shape, stride, offset)
    assert t.tolist() == torch.arange(6.0).view(2, 3).tolist()  # set_ writes nothing
    assert v._version == t._version == 1


@pytest.mark.parametrize("view", sorted(SHARING))
def test_set_of_a_view_whose_elements_share_memory_to_itself(view):
    t = torch.arange(6.0).view(2, 3)
    v = SHARING[view](t)
    before = (v.tolist(), v.shape, v.stride(), v.storage_offset())
    v.set_(v)
    assert (v.tolist(), v.shape, v.stride(), v.storage_offset()) == before
    assert v._version == 1


@pytest.mark.parametrize("create_graph", [False, True])
def test_a_write_through_a_view_moved_by_set_is_recorded_and_refused_at_backward(
        create_graph):
    a = torch.ones(2, 3, requires_grad=True)
    b = a * 1
    v = b[1:]
    v.set_(torch.zeros(2))
    v.mul_(2)  # recorded as a write into b, through v's new geometry
    assert (v.tolist(), b.tolist()) == ([0.0, 0.0], [[1.0] * 3] * 2)
    assert (v.grad_fn.name(), b.grad_fn.name()) == ("AsStridedBackward0",
                                                    "torch::autograd::CopySlices")
    assert (v._version, b._version, v.storage_offset()) == (2, 2, 0)
    with raises(RuntimeError, "derivative for set_ is not implemented"):
        b.sum().backward(inputs=[a], create_graph=create_graph)


@pytest.mark.parametrize("source", [lambda: torch.zeros(10), lambda: torch.zeros(7)[3:]])
def test_a_moved_window_past_the_base_is_refused_when_read(source):
    a = torch.ones(2, 3, requires_grad=True)
    b = a * 1
    v = b[1:]
    v.set_(source())
    v.mul_(2)
    n, offset = v.numel(), v.storage_offset()
    with raises(RuntimeError, f"setStorage: sizes [{n}], strides [1], storage offset {offset}, "
                              f"and itemsize 4 requiring a storage size of {4 * (n + offset)} "
                              "are out of bounds for storage of size 24"):
        b.sum().backward()
