"""The NumPy-partitioned introsort leaves every position where the plain replay does."""

import numpy as np
import pytest

from refgrad._ops import libstdcxx_order, selection
from refgrad._ops.libstdcxx_order import ranked_introsort, sort_order


def compared(ranks):
    keys = ranks.tolist()
    return lambda i, j: keys[i] < keys[j]


def replayed(ranks):
    return selection.introsort(list(range(len(ranks))), compared(ranks))


def rows(rng, count):
    for trial in range(count):
        n = int(rng.integers(17, 5001))
        kind = trial % 5
        if kind == 0:
            yield rng.integers(0, int(rng.integers(1, 10)), n)
        elif kind == 1:
            yield np.zeros(n, np.int64)
        elif kind == 2:
            yield rng.integers(0, n, n)
        elif kind == 3:
            yield np.sort(rng.integers(0, 20, n))[::-1 if trial % 2 else 1]
        else:
            yield np.repeat(rng.integers(0, 5, 60), n // 60 + 1)[:n]


@pytest.mark.parametrize("by_numpy", [16, 64, 256])
def test_numpy_cuts_match_the_replay(monkeypatch, by_numpy):
    monkeypatch.setattr(libstdcxx_order, "_BY_NUMPY", by_numpy)
    for ranks in rows(np.random.default_rng(by_numpy), 60):
        assert ranked_introsort(ranks).tolist() == replayed(ranks)


def adversary(n):
    """Ranks that drive the replay's median-of-three into its heap fallback (McIlroy's gas)."""
    gas, val, state = n, [n] * n, {"solid": 0, "candidate": None}

    def less(x, y):
        if val[x] == gas and val[y] == gas:
            frozen = x if x == state["candidate"] else y
            val[frozen], state["solid"] = state["solid"], state["solid"] + 1
        if val[x] == gas:
            state["candidate"] = x
        elif val[y] == gas:
            state["candidate"] = y
        return val[x] < val[y]

    selection.introsort(list(range(n)), less)
    return np.array(val)


@pytest.mark.parametrize("by_numpy", [16, 256])
def test_heap_fallback_matches_the_replay(monkeypatch, by_numpy):
    heaps = []
    monkeypatch.setattr(libstdcxx_order, "_BY_NUMPY", by_numpy)
    monkeypatch.setattr(libstdcxx_order, "_heap_sort", lambda *a: heaps.append(1) or (
        selection._heap_sort(*a)))
    ranks = adversary(3000)
    assert ranked_introsort(ranks).tolist() == replayed(ranks)
    assert heaps  # the fallback was taken


def test_sort_order_of_floats_matches_the_replay():
    rng = np.random.default_rng(7)
    for trial in range(40):
        row = rng.integers(-3, 3, int(rng.integers(17, 3000))).astype(np.float32)
        row[rng.random(row.size) < 0.1] = np.nan
        row[rng.random(row.size) < 0.2] = -0.0
        descending = bool(trial % 2)
        _, inverse = np.unique(row, return_inverse=True)
        assert sort_order(row, descending) == replayed(-inverse if descending else inverse)


def test_topk_sorts_its_front_as_the_replay(monkeypatch):
    monkeypatch.setattr(libstdcxx_order, "_BY_NUMPY", 16)
    rng = np.random.default_rng(11)
    for trial in range(30):
        row = rng.integers(0, 4, int(rng.integers(40, 3000))).astype(np.float64)
        k, largest = int(rng.integers(row.size // 2, row.size + 1)), bool(trial % 2)
        ranks = libstdcxx_order._ranks(row, largest)
        q, less = list(range(row.size)), compared(ranks)
        libstdcxx_order.nth_element(q, k - 1, row.size, less)
        q[:k - 1] = selection.introsort(q[:k - 1], less)
        assert libstdcxx_order.top_k_order(row, k, largest, True) == q[:k]
