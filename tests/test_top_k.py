"""topk's partition picks the same k values, in the same order, as the first k of the
stable sort it replaces, NaN the largest, -0.0 equal to 0.0, any dim, laid out row-major;
the same positions where no values tie, and ties in the order torch's C++ library leaves
them."""

import numpy as np
import pytest

from refgrad._ops.ordering import _sorted, _top_k

SPECIALS = [np.nan, -0.0, 0.0, np.inf, -np.inf]


def _cases():
    rng = np.random.default_rng(11)
    for trial in range(120):
        shape = tuple(int(s) for s in rng.integers(1, 8, size=int(rng.integers(1, 4))))
        dtype = [np.float32, np.float64, np.float16, np.int64][trial % 4]
        if trial % 3:
            a = rng.integers(-2, 3, size=shape).astype(dtype)  # many ties
        else:
            a = rng.standard_normal(shape).astype(dtype)
        if a.dtype.kind == "f" and trial % 2:
            a.flat[rng.integers(0, a.size, size=max(1, a.size // 3))] = SPECIALS[trial % 5]
        if a.ndim > 1 and trial % 5 == 0:
            a = a.swapaxes(0, -1)
        yield a, int(rng.integers(-a.ndim, a.ndim))


@pytest.mark.parametrize("largest", [True, False])
def test_the_partition_keeps_the_sorts_first_k(largest):
    checked = 0
    for a, dim in _cases():
        for k in range(a.shape[dim] + 1):
            got, want = _top_k(a, dim, k, largest), _sorted(a, dim, largest, k=k)
            assert got[1].dtype == np.int64 and np.array_equal(got[0], want[0], equal_nan=True)
            at = np.take_along_axis(a, got[1], dim)
            assert np.array_equal(at, got[0], equal_nan=True)
            assert np.array_equal(np.signbit(at), np.signbit(got[0]))
            if len(np.unique(a)) == a.size:  # no ties: one right answer
                assert np.array_equal(got[1], want[1])
            assert got[0].strides == want[0].strides and got[1].strides == want[1].strides
            checked += 0 < k < a.shape[dim]
    assert checked > 300  # the partition's own road, not only the sort's


def test_ties_come_in_the_order_torch_leaves_them():
    # torch.tensor(DIGITS).topk(3) and topk(3, sorted=False) both give [14, 5, 12]
    digits = np.array([3.0, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4])
    assert _top_k(digits, 0, 3, True)[1].tolist() == [14, 5, 12]
    assert _top_k(digits, 0, 3, True, False)[1].tolist() == [14, 5, 12]
    assert _top_k(np.zeros(100), 0, 2, True)[1].tolist() == [67, 66]  # torch's partial_sort
    assert _top_k(np.zeros(100), 0, 1, True)[1].tolist() == [0]
    # torch: tensor([nan, 1., nan, 5.]).topk(2) gives positions [0, 2]; largest=False [1, 3]
    assert _top_k(np.array([np.nan, 1.0, np.nan, 5.0]), 0, 2, True)[1].tolist() == [0, 2]
    assert _top_k(np.array([np.nan, 1.0, np.nan, 5.0]), 0, 2, False)[1].tolist() == [1, 3]


def test_a_sort_not_asked_to_be_stable_orders_ties_by_introsort():
    # torch.zeros(20).sort() gives positions [10, 19, 18, ..., 11, 0, 9, 8, ..., 1]
    assert _sorted(np.zeros(20), 0, False)[1].tolist() == [10, *range(19, 10, -1), 0,
                                                           *range(9, 0, -1)]
    assert _sorted(np.zeros(20), 0, False, stable=True)[1].tolist() == list(range(20))
    assert _sorted(np.zeros(16), 0, True)[1].tolist() == list(range(16))  # insertion: stable
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 50))  # no ties: one right answer either way
    assert np.array_equal(_sorted(a, 1, True)[1], _sorted(a, 1, True, stable=True)[1])
