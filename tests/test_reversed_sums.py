"""Sums of arrays with negative strides, in the order of torch's reversed copy."""

import numpy as np
import pytest

import refgrad
from refgrad._ops.sum_order import summed_in_torch_order


def _squares(n, shape):
    return (refgrad.linspace(0.1, 3.3, n) ** 2).numpy().reshape(shape)  # torch's values


def test_a_reversed_row_is_summed_as_torchs_flipped_copy():
    v = _squares(100, (100,))[::-1]
    assert float(summed_in_torch_order(v, None, False)) == 376.0572509765625  # torch's
    assert float(np.add.reduce(v)) == 376.0572204589844  # NumPy's, which parts


def test_a_reversed_table_is_summed_over_either_dimension_as_torchs():
    t = _squares(1600, (100, 16))
    assert summed_in_torch_order(t[::-1], (0,), False)[0] == np.float32(369.3508605957031)
    assert summed_in_torch_order(t[:, ::-1], (1,), True)[0, 0] == np.float32(0.212996244430542)


@pytest.mark.parametrize("dim", [None, (0,), (1,), (0, 1)])
def test_a_reversed_transposed_table_keeps_its_order_of_strides(dim):
    a = np.random.default_rng(5).standard_normal((70, 45)).T[:, ::-1]
    copy = a.copy(order="K")
    assert copy.strides == (8, 45 * 8)  # positive, in the same order as a's
    assert np.array_equal(summed_in_torch_order(a, dim, False),
                          summed_in_torch_order(copy, dim, False))
