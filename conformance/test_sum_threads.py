"""Sums of 32768 elements and more, to the bit, on one thread and on several: torch
shares such a sum among its threads, and how it shares it is part of the order of the
additions. The references write the order out with NumPy scalars of the tensor's dtype
(the element-by-element order of one row is the one of test_sum_order.py).
"""

import math

import numpy as np
import pytest
import torch

from conformance.test_sum_order import _cascade, _in_turn, _partials, torch_order


def _random(n, seed, scalar):
    return [float(v) for v in np.random.default_rng(seed).standard_normal(n).astype(scalar)]


DTYPES = [(torch.float64, np.float64), (torch.float32, np.float32)]


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("n", [32768, 40000, 70001])
def test_one_thread_adds_one_row_of_any_length(threads, dtype, scalar, n):
    threads(1)
    values = _random(n, n, scalar)
    x = torch.tensor(values, dtype=dtype)
    assert x.sum().item() == float(torch_order(values, scalar))
    assert x.mean().item() == float(torch_order(values, scalar) / scalar(n))


def shared(values, scalar, count):
    """A sum with one output on ``count`` threads: shares of ceil(n / used) elements,
    each a row of its own, then the buffer of ``count`` shares summed as a row."""
    n = len(values)
    used = min(count, math.ceil(n / 32768))
    step = math.ceil(n / used)
    buffer = [float(torch_order(values[i:i + step], scalar)) for i in range(0, n, step)]
    buffer += [0.0] * (count - len(buffer))
    return float(scalar(0.0) + torch_order(buffer, scalar))


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("n,count", [(32769, 2), (40000, 2), (70001, 2), (100000, 3),
                                     (70001, 4)])
def test_several_threads_add_a_share_each(threads, dtype, scalar, n, count):
    threads(count)
    values = _random(n, n + 1, scalar)
    x = torch.tensor(values, dtype=dtype)
    expected = shared(values, scalar, count)
    assert x.sum().item() == expected
    assert x.reshape(8, -1).sum().item() == expected if n % 8 == 0 else True
    assert x.reshape(1, n).sum(1).tolist() == [expected]  # one output: shared alike
    assert x.mean().item() == float(scalar(expected) / scalar(n))


def test_the_linspace_example(threads):
    v = torch.linspace(0.1, 3.3, 40000, dtype=torch.float64) ** 2
    threads(2)
    assert v.sum().item() == 149735.04004266774
    threads(1)
    assert v.sum().item() == 149735.0400426677


@pytest.mark.parametrize("dtype,scalar", DTYPES)
def test_a_strided_sum_is_shared_along_its_loop(threads, dtype, scalar):
    # (301, 201)[:, :200]: rows of 200 with gaps; each share of 30100 elements ends or
    # starts mid-row, and adds its whole rows and its part of a row one after another.
    threads(2)
    values = _random(301 * 201, 5, scalar)
    x = torch.tensor(values, dtype=dtype).reshape(301, 201)[:, :200]
    rows = [values[r * 201:r * 201 + 200] for r in range(301)]
    zero = scalar(0.0)
    first = rows[:150] + [rows[150][:100]]
    second = [rows[150][100:]] + rows[151:]
    pieces = [float(zero + _in_turn([torch_order(r, scalar) for r in share], zero))
              for share in (first, second)]
    assert x.sum().item() == float(zero + torch_order(pieces, scalar))


@pytest.mark.parametrize("dtype,scalar", DTYPES)
def test_a_cut_among_lines_groups_them_afresh(threads, dtype, scalar):
    # (9000, 12)[:, ::3] summed over its rows: four lines with gaps between them. On one
    # thread the four are a group, each a plain cascade; two threads take two lines
    # each, too few for a group, so each is added with four interleaved partials.
    values = _random(9000 * 12, 7, scalar)
    x = torch.tensor(values, dtype=dtype).reshape(9000, 12)[:, ::3]
    zero = scalar(0.0)
    columns = [[[scalar(values[r * 12 + 3 * j])] for r in range(9000)] for j in range(4)]
    threads(1)
    assert x.sum(0).tolist() == [float(zero + _cascade(c, zero)[0]) for c in columns]
    threads(2)
    assert x.sum(0).tolist() == [float(zero + _partials(c, zero)[0]) for c in columns]


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("count", [1, 2, 3])
def test_rows_and_columns_of_a_large_table(threads, dtype, scalar, count):
    # Each output is added up as on one thread when the cut falls between outputs, or
    # between groups of 128 bytes of columns side by side.
    threads(count)
    values = _random(40 * 1000, 11, scalar)
    x = torch.tensor(values, dtype=dtype).reshape(40, 1000)
    rows = [values[r * 1000:(r + 1) * 1000] for r in range(40)]
    assert x.sum(1).tolist() == [float(torch_order(r, scalar)) for r in rows]
    lanes = 32 // np.dtype(scalar).itemsize
    plain = 1000 // (4 * lanes) * 4 * lanes
    zero = scalar(0.0)
    columns = [[[scalar(r[j])] for r in rows] for j in range(1000)]
    expected = [float(zero + (_cascade(c, zero) if j < plain else _partials(c, zero))[0])
                for j, c in enumerate(columns)]
    assert x.sum(0).tolist() == expected
