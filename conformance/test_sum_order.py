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


# Other dimensions and layouts: torch's loop hands its kernel a table of rows and
# columns. Summing down the columns of a row-major table, it takes the columns in
# groups of four vectors with a plain cascade of levels each, and the columns left
# over (all of them under one vector) with four interleaved partials each.


def down_columns(table, scalar):
    zero = scalar(0.0)
    lanes = 32 // np.dtype(scalar).itemsize
    width = len(table[0])
    plain = width // (4 * lanes) * 4 * lanes if width >= lanes else width // 4 * 4
    sums = []
    for j in range(width):
        column = [[scalar(row[j])] for row in table]
        part = _cascade(column, zero) if j < plain else _partials(column, zero)
        sums.append(float(zero + part[0]))
    return sums


def _table(rows, width, seed, dtype):
    values = [_values(width, seed + r) for r in range(rows)]
    return values, torch.tensor(values, dtype=torch.float64).to(dtype)


SHAPES = [(2, 3), (5, 7), (9, 16), (33, 40), (70, 9), (300, 37), (1100, 12)]


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("rows,width", SHAPES)
def test_a_sum_over_the_leading_dimension_goes_down_the_columns(dtype, scalar, rows, width):
    values, x = _table(rows, width, 0.7, dtype)
    expected = down_columns(values, scalar)
    assert x.sum(0).tolist() == expected
    assert x.sum(0, keepdim=True).flatten().tolist() == expected
    assert x.t().sum(1).tolist() == expected  # the same table, by its strides
    assert x.t().sum(0).tolist() == [float(torch_order(r, scalar)) for r in values]
    zero = scalar(0.0)  # a line with gaps: four interleaved partials of scalars
    strided = [float(zero + _partials([[scalar(v)] for v in r[::2]], zero)[0]) for r in values]
    assert x[:, ::2].sum(1).tolist() == strided
    assert x.mean(0).tolist() == [float(scalar(e) / scalar(rows)) for e in expected]
    three = x.reshape(rows, 1, width).expand(rows, 2, width).contiguous()
    both = down_columns([r for r in values for _ in range(2)], scalar)
    assert three.sum((0, 1)).tolist() == both  # two leading dimensions: one longer one


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("rows,width", SHAPES)
def test_a_broadcast_gradient_is_summed_down_the_columns(dtype, scalar, rows, width):
    values, g = _table(rows, width, 1.9, dtype)
    a = torch.zeros(rows, width, dtype=dtype, requires_grad=True)
    b = torch.zeros(width, dtype=dtype, requires_grad=True)
    (a + b).backward(g)
    assert b.grad.tolist() == down_columns(values, scalar)


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("inner", [3, 11, 40])
def test_middle_and_outer_dimensions(dtype, scalar, inner):
    blocks = [_table(6, inner, 3.1 + k, dtype) for k in range(4)]
    x = torch.stack([t for _, t in blocks])  # (4, 6, inner)
    assert x.sum(1).tolist() == [down_columns(v, scalar) for v, _ in blocks]
    zero = scalar(0.0)
    # over the first and last: each row in torch's order, the rows added in turn
    expected = [float(_in_turn([torch_order(v[r], scalar) for v, _ in blocks], zero))
                for r in range(6)]
    assert x.sum((0, 2)).tolist() == expected
    assert x.permute(1, 0, 2).sum((1, 2)).tolist() == expected  # the same loop


@pytest.mark.parametrize("n", [5, 13, 37, 300])
def test_a_float32_sum_in_float64_adds_the_converted_values(n):
    values = [float(np.float32(v)) for v in _values(n, 2.3)]
    x = torch.tensor(values, dtype=torch.float32)
    expected = float(torch_order(values, np.float64))
    assert x.sum(dtype=torch.float64).item() == expected
    assert x.mean(dtype=torch.float64).item() == expected / n
    assert x.reshape(1, n).sum(-1, dtype=torch.float64).tolist() == [expected]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape, cut", [((140,), (slice(None, None, 2),)),
                                        ((260, 3), (slice(None, None, 2),)),
                                        ((37, 9), (slice(None), slice(None, None, 2)))])
def test_nansum_adds_in_sums_order_over_the_inputs_own_strides(dtype, shape, cut):
    values = torch.tensor(_values(math.prod(shape), 0.3), dtype=dtype).reshape(shape)
    values[values.abs() < 0.02] = 0.0
    with_nan = values.clone()
    with_nan[values == 0] = math.nan
    x, y = values[cut], with_nan[cut]
    assert y.isnan().any()
    for dims in [(), (0,), (-1,)]:
        assert torch.equal(y.nansum(dims), x.sum(dims)) and torch.equal(x.nansum(dims), x.sum(dims))
    assert torch.equal(x.sum(0, dtype=dtype), x.sum(0)) and torch.equal(x.sum(dtype=dtype), x.sum())


@pytest.mark.parametrize("rows", [17, 70, 300])
def test_a_float16_sum_adds_in_float32_and_rounds_once(rows):
    values = [math.sin(k * 1.37) * 0.9 + 1.1 for k in range(rows * 2)]
    x = torch.tensor(values, dtype=torch.float64).reshape(rows, 2).to(torch.float16)
    wide = x.to(torch.float32)
    for dims in [(0,), (1,), ()]:
        assert torch.equal(x.sum(dims), wide.sum(dims).to(torch.float16))
        assert torch.equal(x.t().sum(dims), wide.t().sum(dims).to(torch.float16))
