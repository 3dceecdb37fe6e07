"""NOTE [Interleaved but apart]: a write into one piece of an array, reading another piece
whose bytes interleave with it but share no element, is written plainly; pieces that do
share an element still go to the ordered loop."""

import numpy as np

import refgrad
from refgrad._ops.functions import add, mul
from refgrad._ops.ordered_writes import reads_written


def test_interleaved_gates_are_not_read_after_the_write():
    whole = refgrad.arange(240.0).reshape(5, 48)
    first, second, third = whole.chunk(3, 1)
    assert np.may_share_memory(second._data, third._data)  # the bounds alone say maybe
    assert not reads_written(second, mul, [third])
    assert not reads_written(first, add, [second, third])


def test_pieces_that_share_elements_still_are():
    flat = refgrad.arange(20.0)
    assert reads_written(flat[2::2], add, [flat[:-2:2]])
    square = refgrad.arange(16.0).reshape(4, 4)
    assert reads_written(square[:, 0], mul, [square[0]])
