"""Where a sum's values go in its output: lines_of names no places when the values come
in the output's own order (NOTE [Values already in place]), and every value lands where
NumPy's sum puts it, whichever road it takes."""

import itertools

import numpy as np
import pytest

from refgrad._ops.sum_loop import lines_of, loop_of, placed, side_by_side
from refgrad._ops.sum_shares import down_the_columns, line_shares, summed_by_loop


def _places(a, dims):
    loop, count = loop_of(a, dims)
    return lines_of(a, loop)[3], count


def test_the_columns_of_a_row_major_matrix_come_in_order():
    where, count = _places(np.ones((4, 6), np.float32), {0})
    assert where is None and count == 6
    assert placed(where, count).tolist() == list(range(6))


def test_a_sum_over_leading_and_trailing_dimensions_scatters():
    where, count = _places(np.ones((4, 6, 3), np.float32), {0, 2})
    assert where is not None and count == 6


LAYOUTS = {
    "row-major": lambda a: a,
    "reversed axes": lambda a: a.transpose(*reversed(range(a.ndim))),
    "rolled axes": lambda a: a.transpose(*range(1, a.ndim), 0),
    "every other row": lambda a: np.concatenate([a, a])[::2],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("shape", [(4, 6), (3, 4, 5), (2, 3, 1, 4)])
def test_every_value_lands_where_numpy_puts_it(layout, shape):
    # Whole numbers: their sums are exact in any order, so only the places can differ.
    a = LAYOUTS[layout](np.arange(np.prod(shape), dtype=np.float64).reshape(shape))
    for size in range(1, a.ndim + 1):
        for dims in itertools.combinations(range(a.ndim), size):
            got = summed_by_loop(a, set(dims), 4)
            assert np.array_equal(got, np.sum(a, axis=dims).reshape(-1)), dims


SIDE_BY_SIDE = {
    "row-major": lambda a: a,
    "every other row": lambda a: np.concatenate([a, a])[::2],
    "a slice of the columns": lambda a: np.concatenate([a, a], axis=1)[:, 3:3 + a.shape[1]],
}


@pytest.mark.parametrize("layout", sorted(SIDE_BY_SIDE))
@pytest.mark.parametrize("shape", [(300, 64), (37, 200), (1000, 8)])
def test_lines_side_by_side_sum_as_a_copy_of_them_would(layout, shape):
    # NOTE [Lanes read where they lie]: random floats, whose sums show any change of order.
    rng = np.random.default_rng(sum(shape))
    a = SIDE_BY_SIDE[layout](rng.standard_normal(shape).astype(np.float32))
    lanes = 8
    down = np.ascontiguousarray(a)[None]  # (1, rows, lines): the lines copied together
    lines = a.shape[1]
    expected = side_by_side(down, lines // (4 * lanes) * 4 * lanes).reshape(-1)
    got = summed_by_loop(a, {0}, lanes)
    assert got.tobytes() == expected.tobytes()
    # The order matters here: a plain running sum down the rows differs somewhere.
    assert np.add.accumulate(a.astype(np.float32), axis=0)[-1].tobytes() != got.tobytes()


@pytest.mark.parametrize("dtype, lanes", [(np.float32, 8), (np.float64, 4)])
@pytest.mark.parametrize("threads", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("lines", [3, 8, 36, 37, 100, 1030])
def test_columns_summed_whole_as_torch_cuts_them(dtype, lanes, threads, lines):
    # NOTE [Columns cut on 128 bytes]: the table whole, or slice by slice where the last
    # slice is narrower than the lanes, gives what the kernel's loop gives for its cuts.
    rows = max(64, -(-32768 // lines))
    a = np.random.default_rng(lines * threads).standard_normal((rows, lines)).astype(dtype)
    got = down_the_columns(a[None], lanes, threads)
    assert got.tobytes() == summed_by_loop(a, {0}, lanes, threads).tobytes()


def test_a_narrow_last_slice_is_summed_apart():
    # Five threads cut 36 float32 columns into 32 and 4: the four are grouped afresh,
    # so summing the table whole would differ somewhere.
    a = np.random.default_rng(5).standard_normal((1000, 36)).astype(np.float32)
    assert line_shares(36, 1, 5, 4) == [(0, 32), (32, 36)]
    apart = down_the_columns(a[None], 8, 5)
    assert apart.tobytes() == summed_by_loop(a, {0}, 8, 5).tobytes()
    assert apart.tobytes() != down_the_columns(a[None], 8, 1).tobytes()
