"""The replayed selection algorithms: whatever they choose among ties, they must sort and
select correctly, on every path (the heap sort fallback included)."""

import math
import random

import numpy as np
import pytest

import refgrad as torch
from refgrad._ops import selection


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 16, 17, 40, 200])
def test_introsort_sorts_and_keeps_every_item(n):
    rng = random.Random(n)
    items = [(rng.randrange(5), i) for i in range(n)]
    done = selection.introsort(list(items), lambda p, q: p[0] < q[0])
    assert [v for v, _ in done] == sorted(v for v, _ in items)
    assert sorted(done) == sorted(items)


def test_the_heap_sort_fallback_sorts():
    rng = random.Random(7)
    for n in (2, 5, 16, 31, 64):
        items = [rng.randrange(10) for _ in range(n)]
        selection._heap_sort(items, 0, n, lambda a, b: a < b)
        assert items == sorted(items)


def test_kth_smallest_finds_the_kth_value_and_a_position_holding_it():
    rng = random.Random(3)
    for _ in range(300):
        values = [float(rng.randrange(4)) for _ in range(rng.randrange(1, 30))]
        if rng.random() < 0.3:
            values[rng.randrange(len(values))] = math.nan
        k = rng.randrange(len(values))
        value, position = selection.kth_smallest(values, k)
        ordered = sorted(values, key=lambda v: (math.isnan(v), v))
        same = (math.isnan(value) and math.isnan(ordered[k])) or value == ordered[k]
        assert same and (values[position] == value or math.isnan(values[position]))


def test_most_frequent_is_the_smallest_of_the_most_frequent_values():
    rng = random.Random(5)
    for _ in range(200):
        values = [rng.randrange(5) for _ in range(rng.randrange(1, 50))]
        value, position = selection.most_frequent(values)
        most = max(values.count(v) for v in values)
        assert value == min(v for v in values if values.count(v) == most)
        assert values[position] == value


def test_first_among_equals_is_a_position():
    assert [selection.first_among_equals(n) for n in (1, 2, 3)] == [0, 0, 0]
    for n in range(1, 100):
        assert 0 <= selection.first_among_equals(n) < n


def test_kthvalue_of_long_slices_names_a_position_holding_the_value():
    x = torch.tensor(np.arange(60.0).reshape(3, 20) % 7)
    k = x.kthvalue(5, 1)
    assert k.values.tolist() == [1.0, 1.0, 1.0]
    assert all(x[r, i].item() == 1.0 for r, i in enumerate(k.indices.tolist()))


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_the_median_of_an_expanded_tensor_is_its_contiguous_copys(name):
    # torch reads past the repeated element here; refgrad answers as for the copy
    expanded = torch.tensor([[1.0], [5.0], [3.0]]).expand(3, 4)
    for dim in (0, 1):
        got = getattr(expanded, name)(dim)
        want = getattr(expanded.contiguous(), name)(dim)
        assert torch.equal(got.values, want.values)
        assert torch.equal(expanded.gather(dim, got.indices.unsqueeze(dim)).squeeze(dim),
                           got.values)
