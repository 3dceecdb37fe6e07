"""NOTE [Broadcast rows alike]: operands that are numbers, 0-d or row-major arrays of the
result's trailing shape leave an elementwise result row-major, as the full sort of
TensorIterator's dimensions does; the shortcut agrees with that sort everywhere it
answers, and leaves every other case to it."""

import itertools

import numpy as np
import pytest

from refgrad._iterated_layout import iterated_strides
from refgrad._ops.result_layout import _broadcast_strides, _rows_alike

SHAPES = [(2, 3), (4, 2, 3), (3, 5, 2, 4), (7,)]


def _sorted_layout(arrays, shape):
    """The strides the sort gives (None: row-major), as iterated_layout asks for them."""
    given = [a for a in arrays if a is not None]
    kept = [a for a in given if type(a) is np.ndarray and a.ndim]
    broadcast = len(kept) < len(given) or any(a.shape != shape for a in kept)
    return iterated_strides(shape, tuple(_broadcast_strides(a, shape) for a in kept), broadcast)


def _operands(shape):
    yield 2.5
    yield np.array(3.0, np.float32)
    for k in range(1, len(shape) + 1):
        yield np.ones(shape[len(shape) - k:], np.float32)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_shortcut_agrees_with_the_sort(shape):
    for count in (1, 2, 3):
        for arrays in itertools.product(list(_operands(shape)), repeat=count):
            if not any(type(a) is np.ndarray and a.shape == shape for a in arrays):
                arrays = (np.ones(shape, np.float32), *arrays)  # the result has its shape
            assert _rows_alike(arrays, shape)
            assert _sorted_layout(arrays, shape) is None, [np.shape(a) for a in arrays]


def test_a_transposed_operand_is_left_to_the_sort():
    shape = (3, 4)
    first = np.ones((4, 3), np.float32).T
    arrays = (first, np.ones(4, np.float32))
    assert not _rows_alike(arrays, shape)
    assert _sorted_layout(arrays, shape) == (1, 3)  # column-major, as torch gives it


def test_size_one_dimensions_are_left_to_the_sort():
    shape = (3, 1, 4)
    assert not _rows_alike((np.ones(shape, np.float32), 2.0), shape)
    assert not _rows_alike((np.ones((2, 3), np.float32)[:, :1], 2.0), (2, 1))


def test_a_row_major_operand_of_another_trailing_shape_is_refused():
    # (3, 1) broadcast against (3, 4): row-major, but not of the trailing shape.
    assert not _rows_alike((np.ones((3, 4), np.float32), np.ones((3, 1), np.float32)), (3, 4))


def _row_ordered(shape):
    """Pieces of a larger row-major array, cut along each dimension in turn: every stride
    strictly larger than the next, but not row-major."""
    for d in range(len(shape)):
        wider = list(shape)
        wider[d] = 3 * shape[d] + 1
        yield np.ones(wider, np.float32)[(slice(None),) * d + (slice(1, 1 + shape[d]),)]
    yield np.ones([2 * n for n in shape], np.float32)[(slice(None, None, 2),) * len(shape)]


@pytest.mark.parametrize("shape", SHAPES)
def test_pieces_in_row_order_agree_with_the_sort(shape):
    for piece in _row_ordered(shape):
        if piece.flags.c_contiguous:
            continue  # a cut along the first dimension stays row-major
        for other in [None, *_operands(shape), *_row_ordered(shape)]:
            arrays = (piece,) if other is None else (piece, other)
            assert _rows_alike(arrays, shape)
            assert _sorted_layout(arrays, shape) is None, [a.strides for a in arrays
                                                           if type(a) is np.ndarray]


def test_a_piece_read_backwards_is_left_to_the_sort():
    shape = (3, 4)
    backwards = np.ones((3, 8), np.float32)[:, ::-2]
    assert not _rows_alike((backwards,), shape)
    assert not _rows_alike((np.ones((3, 8), np.float32)[:, ::2], backwards), shape)
