"""refgrad._ops.selecting_extras: nonzero_static's padding, and the bool-only reductions."""

import numpy as np
import pytest

import refgrad as torch
from refgrad._ops.selecting_extras import _bool_reduction, _nonzero_static


def test_rows_beyond_the_found_ones_take_the_fill_value():
    x = torch.tensor([[1, 0, 2], [0, 3, 0]])
    out = _nonzero_static(x, size=5, fill_value=-7)
    assert out.tolist() == [[0, 0], [0, 2], [1, 1], [-7, -7], [-7, -7]]
    assert out._data.flags.c_contiguous  # row by row, unlike nonzero's transposed rows
    assert _nonzero_static(x, size=2).tolist() == [[0, 0], [0, 2]]


def test_bool_reduction_names_its_line_and_keeps_a_0d_result():
    reduce = _bool_reduction(7, np.all)
    assert reduce(torch.tensor([[True, True]])).shape == ()
    with pytest.raises(RuntimeError, match='ReduceOps.cpp":7, please'):
        reduce(torch.tensor([1]))
