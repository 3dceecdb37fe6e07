"""The float64 2-norm to the bit. Along one dimension innermost in memory torch squares
four lanes at a time, adds the lanes in turn, and adds the remaining squares with fused
multiply-adds (rounded once, written here with exact fractions); along any other layout
it adds the rounded squares one after another in memory order.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
import torch


def lanes(row):
    row = [float(v) for v in row]
    count = len(row) // 4
    acc = [0.0] * 4
    for v in range(count):
        acc = [a + x * x for a, x in zip(acc, row[4 * v:4 * v + 4])]
    total = ((acc[0] + acc[1]) + acc[2]) + acc[3]
    for x in row[4 * count:]:
        total = float(Fraction(x) * Fraction(x) + Fraction(total))  # fused: rounded once
    return math.sqrt(total)


def in_turn(values):
    total = 0.0
    for x in values:
        total = total + float(x) * float(x)
    return math.sqrt(total)


@pytest.mark.parametrize("n", [1, 3, 4, 7, 30, 101])
def test_a_row_innermost_in_memory_takes_four_lanes_and_fused_adds(n):
    a = np.random.default_rng(n).standard_normal((3, n)) * 3.0
    x = torch.from_numpy(a)
    expected = [lanes(r) for r in a]
    assert x.norm(dim=1).tolist() == expected
    assert torch.linalg.vector_norm(x, dim=-1).tolist() == expected
    assert x.t().norm(dim=0).tolist() == expected  # the same rows, by their strides
    assert x[0].norm().item() == expected[0]
    assert x.norm().item() == lanes(a.reshape(-1))


@pytest.mark.parametrize("n", [5, 40])
def test_other_layouts_add_the_squares_in_memory_order(n):
    a = np.random.default_rng(n + 1).standard_normal((n, 3))
    x = torch.from_numpy(a)
    assert x.norm(dim=0).tolist() == [in_turn(a[:, j]) for j in range(3)]
    sliced = torch.from_numpy(np.ascontiguousarray(a.T))[:, ::2]  # rows with gaps
    assert sliced.norm(dim=1).tolist() == [in_turn(r[::2]) for r in a.T]
