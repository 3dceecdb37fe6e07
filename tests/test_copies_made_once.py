"""A reshape that cannot view, and a clone into other strides, each copy once."""

import numpy as np
import pytest

import refgrad as torch
from refgrad._layouts import IN_MEMORY_ORDER, copy_laid_out
from refgrad._ops.shapes import reshaped_view


def test_a_view_that_exists_is_given_without_a_copy():
    a = np.arange(24.0).reshape(4, 6)[:, :4]  # rows apart, each contiguous
    out = reshaped_view(a, (4, 2, 2))
    assert out is not None and np.shares_memory(out, a)
    assert np.array_equal(out, a.reshape(4, 2, 2))


def test_a_view_that_needs_a_copy_is_refused_with_none():
    a = np.arange(24.0).reshape(4, 6).T
    assert reshaped_view(a, (24,)) is None
    assert reshaped_view(a, (-1,)) is None


def test_sizes_that_do_not_fit_keep_numpys_error():
    a = np.arange(24.0).reshape(4, 6).T
    with pytest.raises(ValueError, match="cannot reshape array of size 24"):
        reshaped_view(a, (25,))
    with pytest.raises(ValueError, match="cannot reshape array of size 24"):
        reshaped_view(np.ascontiguousarray(a), (5, -1))


def test_a_copy_is_laid_out_as_asked_and_owns_its_memory():
    a = np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1)
    rows = copy_laid_out(a, None)
    assert rows.flags.c_contiguous and rows.base is None and np.array_equal(rows, a)
    asked = copy_laid_out(a, (1, 12, 4))
    assert asked.strides == (8, 96, 32) and asked.base is None and np.array_equal(asked, a)
    kept = copy_laid_out(a, IN_MEMORY_ORDER)
    assert kept.strides == a.strides and np.array_equal(kept, a)


def test_contiguous_of_a_transpose_copies_once(monkeypatch):
    import refgrad._layouts as layouts

    moves = []
    relaid = layouts.relaid

    def counted(out, strides):
        before = out._data
        result = relaid(out, strides)
        moves.append(result._data is not before)
        return result

    import refgrad._ops.simple_functions as functions

    monkeypatch.setattr(functions, "relaid", counted)
    x = torch.arange(6.0).reshape(2, 3).t()
    y = x.contiguous()
    assert y.stride() == (2, 1) and y.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert moves == [False]  # the row laid it out: relaid had nothing to move
