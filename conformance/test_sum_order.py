"""Sums and means over the innermost elements, to the bit: torch's CPU sum kernel adds a
row of contiguous float32 or float64 elements in 32-byte vector lanes, into four
interleaved partial sums, each a cascade of levels of sixteen rows, then the tail and
the lanes one after another from zero. The reference below writes that order out
element by element, with NumPy scalars of the tensor's dtype.
"""

import math

import numpy as np
import pytest
import torch


def _values(n, seed):
    return [math.sin(k * 1.7 + seed) * 10.0 ** (k % 5 - 2) for k in range(n)]


def _in_turn(terms, zero):
    total = zero
    for t in terms:
        total = total + t
    return total


def _cascade(rows, zero):
    """rows: lists of equal length; torch's levels of partial sums over them."""
    width = len(rows[0])
    levels = [[zero] * width for _ in range(4)]
    i = 0
    while i + 16 <= len(rows):
        for _ in range(16):
            levels[0] = [a + b for a, b in zip(levels[0], rows[i])]
            i += 1
        for j in range(1, 4):
            levels[j] = [a + b for a, b in zip(levels[j], levels[j - 1])]
            levels[j - 1] = [zero] * width
            if i & (15 << (4 * j)):
                break
    for row in rows[i:]:
        levels[0] = [a + b for a, b in zip(levels[0], row)]
    for j in range(1, 4):
        levels[0] = [a + b for a, b in zip(levels[0], levels[j])]
    return levels[0]


def _partials(vectors, zero):
    whole = len(vectors) // 4
    grouped = [sum((vectors[4 * i + k] for k in range(4)), []) for i in range(whole)]
    width = len(vectors[0])
    flat = _cascade(grouped, zero) if whole else [zero] * 4 * width
    parts = [flat[k * width:(k + 1) * width] for k in range(4)]
    first = parts[0]
    for v in vectors[4 * whole:]:
        first = [a + b for a, b in zip(first, v)]
    for part in parts[1:]:
        first = [a + b for a, b in zip(first, part)]
    return first


def torch_order(row, dtype):
    zero = dtype(0.0)
    row = [dtype(v) for v in row]
    lanes = 32 // np.dtype(dtype).itemsize
    count = len(row) // lanes
    if not count:
        return zero + _partials([[v] for v in row], zero)[0]
    vectors = [row[i * lanes:(i + 1) * lanes] for i in range(count)]
    lanes_sum = _partials(vectors, zero)
    return zero + _in_turn(row[count * lanes:] + lanes_sum, zero)


DTYPES = [(torch.float64, np.float64), (torch.float32, np.float32)]
LENGTHS = [3, 6, 7, 13, 37, 100, 255, 300, 1100, 4500]


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("n", LENGTHS)
def test_a_sum_over_everything_is_torchs_to_the_bit(dtype, scalar, n):
    values = _values(n, 0.3)
    x = torch.tensor(values, dtype=torch.float64).to(dtype)
    assert x.sum().item() == float(torch_order(values, scalar))
    assert x.mean().item() == float(torch_order(values, scalar) / scalar(n))


@pytest.mark.parametrize("dtype,scalar", DTYPES)
def test_rows_and_transposed_tensors(dtype, scalar):
    rows = [_values(45, s) for s in range(3)]
    x = torch.tensor(rows, dtype=torch.float64).to(dtype)
    expected = [float(torch_order(r, scalar)) for r in rows]
    assert x.sum(-1).tolist() == expected
    assert x.sum(1, keepdim=True).flatten().tolist() == expected
    assert x.reshape(3, 5, 9).sum((1, 2)).tolist() == expected
    assert x.mean(-1).tolist() == [float(scalar(e) / scalar(45)) for e in expected]
    t = torch.tensor(rows, dtype=torch.float64).to(dtype).t().contiguous().t()  # by columns
    columns = [v for c in zip(*rows) for v in c]
    assert t.sum().item() == float(torch_order(columns, scalar))


def test_a_sum_of_negative_zeros_is_a_positive_zero():
    for n in (3, 5, 40):
        assert math.copysign(1.0, torch.full((n,), -0.0, dtype=torch.float64).sum().item()) == 1.0
