"""White-box tests of refgrad._ops.views: positions, geometry, creation metadata."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import views


def test_positions_on_contiguous_and_fortran_bases():
    base = np.arange(6.0).reshape(2, 3)
    assert views.positions(base, base[1]).tolist() == [3, 4, 5]
    assert views.positions(base, base.T[2]).tolist() == [2, 5]
    fortran = np.asfortranarray(base)
    assert views.positions(fortran, fortran[1]).tolist() == [3, 4, 5]


def test_storage_geometry_and_grid_agree_with_positions():
    from refgrad._ops.strided import storage_geometry

    base = torch.arange(12.0).view(3, 4)
    view = base[1:, ::2]
    size, stride, offset = storage_geometry(view)
    assert (size, stride, offset) == ((2, 2), (4, 2), 4)
    # a contiguous base at the start of its storage: its places are the storage's
    where = views.positions(base._data, view._data)
    assert views.grid(size, stride, offset).tolist() == where.tolist()


def test_creation_metadata():
    y = torch.ones(2, 3)
    assert y[0]._view_info.creation == views.DEFAULT
    assert y.unbind(0)[1]._view_info.creation == views.MULTI_OUTPUT_NODE
    with torch.no_grad():
        v = y[0]
    assert v._view_info.creation == views.NO_GRAD_MODE
    assert v[0]._view_info.creation == views.NO_GRAD_MODE  # inherited


def test_views_register_weakly_with_their_counter():
    y = torch.ones(2, 3)
    v = y[0]
    (reference,) = y._version_counter.views
    assert reference() is v
    del v  # its reference takes itself out of the set: NOTE [Views held weakly]
    assert len(y._version_counter.views) == 0


def test_replay_chain_recorded_only_under_the_flag():
    y = torch.ones(2, 3)
    assert y.t()._view_info.replay is None
    with torch.autograd.grad_mode._force_original_view_tracking(True):
        v = y.t()[0]
    assert [op.name for op, _, _ in v._view_info.replay] == ["t", "select"]


def test_diagonal_is_a_writable_view():
    x = torch.zeros(3, 4)
    x.diagonal(1).fill_(1)
    assert x.tolist()[0] == [0, 1, 0, 0] and x.tolist()[2] == [0, 0, 0, 1]



@st.composite
def _expansions(draw):
    """An array shape (maybe transposed in memory) and a size it expands to."""
    shape = [1 if draw(st.booleans()) else draw(st.integers(2, 3))
             for _ in range(draw(st.integers(0, 3)))]
    lead = draw(st.lists(st.integers(0, 3), max_size=2))
    size = lead + [draw(st.integers(0, 3)) if n == 1 else n for n in shape]
    return shape, size, draw(st.booleans())


@given(_expansions())
def test_expanded_is_broadcast_to_without_its_cost(case):
    from refgrad._ops.shapes import expanded

    shape, size, transposed = case
    a = np.arange(float(np.prod(shape, dtype=int))).reshape(shape)
    if transposed:  # a strided array takes broadcast_to's own path
        a = a.T.copy().T
    quick, slow = expanded(a, tuple(size)), np.broadcast_to(a, size)
    assert quick.shape == slow.shape and (quick == slow).all()
    assert np.shares_memory(quick, a) or not quick.size
    assert quick.flags.writeable  # as torch's: the in-place check refuses overlaps


def test_expand_writes_nothing_and_follows_its_base():
    x = torch.tensor([[1.0], [2.0]])
    y = x.expand(2, 3)
    x.mul_(10)
    assert y.tolist() == [[10.0] * 3, [20.0] * 3] and y._version == x._version == 1


def test_a_counter_and_its_views_leave_no_cycle_behind():
    import gc

    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        t = torch.ones(3)
        v, w = t[0], t[1:]
        views = t._version_counter.views
        assert len(views) == 2
        del v, w  # NOTE [Views held weakly]: each takes its reference out as it dies
        assert len(views) == 0
        del t, views
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_an_empty_view_keeps_its_storage_and_its_writability():
    from refgrad._backend import moved_on, storage_root, torch_laid_out

    full = np.zeros((3, 4), dtype=np.float32)
    assert torch_laid_out(full) is full  # arrays with elements go through as they are
    laid = torch_laid_out(np.zeros((0, 3), dtype=np.float32))
    assert laid.strides == (12, 4) and laid.T.strides == (4, 12)
    moved = moved_on(full[:, 2:2], 8)
    assert storage_root(moved) is full and moved.flags.writeable and moved.strides == (16, 4)
    full.flags.writeable = False
    assert not moved_on(full[:, 2:2], 8).flags.writeable


def test_empty_views_are_views_that_backward_and_in_place_writes_go_through():
    base = torch.zeros(3, 4, requires_grad=True)
    empty = base[:, 2:2].t()
    assert empty._base is base and empty.storage_offset() == 2 and empty.stride() == (1, 4)
    empty.sum().backward()
    assert base.grad.tolist() == [[0.0] * 4] * 3
    copy = base.detach().clone()
    piece = copy[1:1]
    piece.add_(1.0)
    assert copy._version == 1 and piece.storage_offset() == 4


def test_as_strided_scatter_gives_the_input_the_gradient_of_the_places_left_alone():
    # torch 2.13 gives the complement: the gradient at the written places (chapter "Views")
    x = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
    src = torch.ones(2, 2, dtype=torch.float64, requires_grad=True)
    y = torch.as_strided_scatter(x, src, (2, 2), (1, 3), 1)
    (grad,) = torch.autograd.grad(y, x, torch.arange(1.0, 7.0, dtype=torch.float64).view(2, 3))
    assert grad.tolist() == [[1.0, 0.0, 0.0], [4.0, 0.0, 0.0]]
    assert torch.autograd.gradcheck(
        lambda a, b: torch.as_strided_scatter(a, b, (2, 2), (1, 3), 1), (x, src))


def test_as_strided_scatter_src_gradient_where_torchs_formula_reads_the_wrong_places():
    # an input past the start of its storage: src[k] shows at element 2k of the result
    storage = torch.zeros(7, dtype=torch.float64, requires_grad=True)
    src = torch.ones(3, dtype=torch.float64, requires_grad=True)
    y = torch.as_strided_scatter(storage[1:], src, (3,), (2,), 1)
    (grad,) = torch.autograd.grad(y, src, torch.arange(10.0, 16.0, dtype=torch.float64))
    assert grad.tolist() == [10.0, 12.0, 14.0]  # torch 2.13 gives [11, 13, 15]
    assert torch.autograd.gradcheck(
        lambda a, b: torch.as_strided_scatter(a[1:], b, (3,), (2,), 1), (storage, src))
    # a view that reads places again: the last write stays, the others get no gradient
    x = torch.zeros(6, dtype=torch.float64, requires_grad=True)
    many = torch.arange(9.0, dtype=torch.float64).view(3, 3).requires_grad_()
    y = torch.as_strided_scatter(x, many, (3, 3), (1, 1))
    (grad,) = torch.autograd.grad(y, many, torch.arange(1.0, 7.0, dtype=torch.float64))
    assert grad.tolist() == [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [3.0, 4.0, 5.0]]
    assert torch.autograd.gradgradcheck(
        lambda a, b: torch.as_strided_scatter(a, b, (3, 3), (1, 1)), (x, many))
