"""Products to the bit: torch's reduction kernel multiplies a contiguous line in blocks of
four 32-byte vectors (the blocks one after another, then (v0*v1)*(v2*v3) and the lanes
in turn), then the elements after the last block one at a time, into an output that
starts at one. The references write that order out with NumPy scalars.
"""

import numpy as np
import pytest
import torch

DTYPES = [(torch.float64, np.float64), (torch.float32, np.float32)]


def _factors(n, seed, scalar):
    return np.random.default_rng(seed).uniform(0.5, 1.5, n).astype(scalar)


def line_factors(row, scalar):
    """The factors a contiguous line gives its output, in order."""
    lanes = 32 // np.dtype(scalar).itemsize
    width = 4 * lanes
    count = len(row) // width
    if not count:
        return list(row)
    vectors = [list(row[k * lanes:(k + 1) * lanes]) for k in range(4)]
    for b in range(1, count):
        for k in range(4):
            start = b * width + k * lanes
            vectors[k] = [p * q for p, q in zip(vectors[k], row[start:start + lanes])]
    v01 = [p * q for p, q in zip(vectors[0], vectors[1])]
    v23 = [p * q for p, q in zip(vectors[2], vectors[3])]
    lanes_product = [p * q for p, q in zip(v01, v23)]
    block = lanes_product[0]
    for p in lanes_product[1:]:
        block = block * p
    return [block, *row[count * width:]]


def in_turn(factors, scalar):
    out = scalar(1.0)
    for f in factors:
        out = out * f
    return float(out)


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("n", [7, 31, 32, 33, 100, 257, 1000])
def test_a_contiguous_line_is_multiplied_in_blocks_of_four_vectors(dtype, scalar, n):
    rows = np.stack([_factors(n, n + r, scalar) for r in range(3)])
    x = torch.from_numpy(rows)
    expected = [in_turn(line_factors(r, scalar), scalar) for r in rows]
    assert x.prod(-1).tolist() == expected
    assert x.prod(1, keepdim=True).flatten().tolist() == expected
    assert x.t().prod(0).tolist() == expected  # the same lines, by their strides
    assert x[0].prod().item() == expected[0]
    assert x.prod().item() == in_turn(line_factors(rows.reshape(-1), scalar), scalar)


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("width", [40, 70])
def test_lines_of_one_output_multiply_into_it_in_turn(dtype, scalar, width):
    # (4, width) rows with a gap after each: four lines, each giving its factors in turn
    a = _factors(4 * (width + 1), width, scalar).reshape(4, width + 1)
    x = torch.from_numpy(a)[:, :width]
    factors = sum((line_factors(a[r, :width], scalar) for r in range(4)), [])
    assert x.prod().item() == in_turn(factors, scalar)


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("n", [40000, 70001])
def test_a_large_product_is_shared_among_threads(threads, dtype, scalar, n):
    a = _factors(n, n, scalar) ** 0.001  # near one: no overflow over so many
    x = torch.from_numpy(a)
    threads(1)
    assert x.prod().item() == in_turn(line_factors(a, scalar), scalar)
    threads(2)
    step = -(-n // 2)
    shares = [in_turn(line_factors(a[:step], scalar), scalar),
              in_turn(line_factors(a[step:], scalar), scalar)]
    assert x.prod().item() == in_turn([scalar(s) for s in shares], scalar)


@pytest.mark.parametrize("dtype,scalar", DTYPES)
def test_a_strided_line_is_multiplied_element_by_element(dtype, scalar):
    a = _factors(6 * 90, 9, scalar).reshape(6, 90)
    x = torch.from_numpy(a)[:, ::2]
    assert x.prod(1).tolist() == [in_turn(r[::2], scalar) for r in a]
    assert x.prod().item() == in_turn(a[:, ::2].reshape(-1), scalar)
