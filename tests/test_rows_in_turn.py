"""rows_in_turn adds the rows of a (P, m, K) block one after another, to the bit, in
every layout it may be handed (NOTE [Short rows in turn]); the reference is a loop of
whole-row additions, each rounded to the dtype."""

import numpy as np
import pytest

from refgrad._ops.sum_loop import cascade, rows_in_turn


def one_after_another(t):
    total = t[:, 0].copy()
    for r in range(1, t.shape[1]):
        total = total + t[:, r]
    return total


def _block(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    scale = rng.choice([1.0, 1e-3, 1e3, 1e8], size=shape)  # magnitudes that round apart
    return (rng.standard_normal(shape) * scale).astype(dtype)


LAYOUTS = {
    "row-major": lambda b: b,
    "lanes reversed": lambda b: b[:, :, ::-1],
    "rows reversed": lambda b: b[:, ::-1],
    "blocks interleaved": lambda b: np.ascontiguousarray(b.transpose(1, 0, 2)).transpose(1, 0, 2),
    "column-major": np.asfortranarray,
    "every other lane": lambda b: np.repeat(b, 2, axis=2)[:, :, ::2],
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("shape", [(64, 16, 32), (4096, 16, 8), (3, 700, 4), (1, 2048, 4),
                                   (1100, 1, 2), (1024, 16, 1), (5, 3, 16)])
def test_rows_are_added_in_turn(dtype, layout, shape):
    t = LAYOUTS[layout](_block(shape, dtype, sum(shape)))
    got = rows_in_turn(t)
    assert got.dtype == t.dtype
    assert np.array_equal(got, one_after_another(t))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_an_order_other_than_in_turn_would_be_told_apart(layout):
    # In turn, each 1 is lost against 1e8 and the last row cancels the first: 0. Any
    # order that adds the two large rows first keeps the three ones.
    rows = np.float32([1e8, 1.0, 1.0, 1.0, -1e8])
    t = LAYOUTS[layout](np.tile(rows[None, :, None], (1024, 1, 4)))
    assert not np.any(rows_in_turn(t))
    assert float(rows[0] + rows[4] + rows[1] + rows[2] + rows[3]) == 3.0


def test_a_cascade_of_two_million_floats_adds_each_level_in_turn():
    t = _block((1, 65536, 32), np.float32, 7)
    level = t.reshape(65536, 32)
    for groups in (4096, 256, 16):  # sixteen rows a step, three levels, then the top
        level = one_after_another(level.reshape(groups, 16, 32))
    expected = one_after_another(level[None])
    assert np.array_equal(cascade(t), expected)
