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


def rounded32(exact):
    """A Fraction rounded to the nearest float32, ties to even."""
    near = np.float32(float(exact))
    candidates = [np.nextafter(near, np.float32(-np.inf)), near,
                  np.nextafter(near, np.float32(np.inf))]
    return min(candidates, key=lambda c: (abs(Fraction(float(c)) - exact),
                                          int(np.float32(c).view(np.uint32)) & 1))


def lanes32(row):
    """float32: eight lanes; of the tail, the first four squared and added plainly,
    the rest fused."""
    row = [np.float32(v) for v in row]
    count = len(row) // 8
    acc = [np.float32(0.0)] * 8
    for v in range(count):
        acc = [a + x * x for a, x in zip(acc, row[8 * v:8 * v + 8])]
    total = acc[0]
    for a in acc[1:]:
        total = total + a
    tail = row[8 * count:]
    plain = len(tail) // 4 * 4
    for x in tail[:plain]:
        total = total + x * x
    for x in tail[plain:]:
        total = rounded32(Fraction(float(x)) ** 2 + Fraction(float(total)))
    return float(np.sqrt(np.float32(total)))


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


@pytest.mark.parametrize("n", [3, 4, 7, 8, 13, 30, 101])
def test_a_float32_row_adds_the_first_four_of_its_tail_plainly(n):
    a = (np.random.default_rng(n + 7).standard_normal((3, n)) * 3.0).astype(np.float32)
    x = torch.from_numpy(a)
    expected = [lanes32(r) for r in a]
    assert x.norm(dim=1).tolist() == expected
    assert x.norm().item() == lanes32(a.reshape(-1))


@pytest.mark.parametrize("n", [5, 40])
def test_other_layouts_add_the_squares_in_memory_order(n):
    a = np.random.default_rng(n + 1).standard_normal((n, 3))
    x = torch.from_numpy(a)
    assert x.norm(dim=0).tolist() == [in_turn(a[:, j]) for j in range(3)]
    sliced = torch.from_numpy(np.ascontiguousarray(a.T))[:, ::2]  # rows with gaps
    assert sliced.norm(dim=1).tolist() == [in_turn(r[::2]) for r in a.T]
