"""float16 sums, to the bit: torch's kernel sums each line of its loop in float32, rounds
that to float16 and adds it into the float16 output, rounding again. sum converts the
input to float32 first when the loop's two innermost dimensions are both summed;
nansum never does. The references write the order out with NumPy scalars.
"""

import numpy as np
import pytest
import torch

from conformance.test_sum_order import _in_turn, _partials

F16, F32 = np.float16, np.float32


def _halves(shape, seed, scale=30.0):
    values = np.random.default_rng(seed).standard_normal(shape) * scale
    return values.astype(F16)


def half_line(values):
    """One line's float32 sum: loads of sixteen float16 elements, their two halves
    added lane by lane into eight lanes, then as a float32 row; under sixteen
    elements, four interleaved partials of scalars."""
    zero = F32(0.0)
    row = [F32(v) for v in values]
    count = len(row) // 16
    if not count:
        return zero + _partials([[v] for v in row], zero)[0]
    vectors = [[row[16 * i + j] + row[16 * i + 8 + j] for j in range(8)] for i in range(count)]
    return zero + _in_turn(row[16 * count:] + _partials(vectors, zero), zero)


def rounded_in_turn(line_sums):
    out = F16(0.0)
    for s in line_sums:
        out = F16(F32(out) + F32(F16(s)))
    return float(out)


def test_nansum_over_two_dimensions_rounds_each_line():
    a = _halves((2, 3, 5, 7), 1)
    a[0, 1, 2, 3] = np.nan
    x = torch.from_numpy(a.copy())
    zeroed = np.where(np.isnan(a), F16(0.0), a)
    # the loop: lines of five down dimension 2, two of them (dimension 0) per output
    expected = [[rounded_in_turn([half_line(zeroed[i, j, :, k]) for i in range(2)])
                 for k in range(7)] for j in range(3)]
    assert x.nansum((0, 2)).tolist() == expected
    assert x.nansum((2, 0), keepdim=True).flatten().tolist() == sum(expected, [])


def test_the_linspace_example():
    x = (torch.linspace(0.1, 3.3, 210) ** 2).half().reshape(2, 3, 5, 7)
    assert x.nansum((0, 2))[0, 2].item() == 19.875
    assert x.sum((0, 2))[0, 2].item() == 19.890625  # converted to float32 first
    assert torch.equal(x.sum((0, 2)), x.float().sum((0, 2)).half())


@pytest.mark.parametrize("width", [5, 16, 40, 77])
def test_a_line_of_halves_is_read_sixteen_at_a_time(width):
    a = _halves((6, width), width)
    x = torch.from_numpy(a)
    expected = [float(F16(half_line(r))) for r in a]
    assert x.sum(-1).tolist() == expected
    assert x.nansum(-1).tolist() == expected


@pytest.mark.parametrize("n", [40000, 70001])
def test_a_large_half_sum_rounds_each_threads_share(threads, n):
    differ = 0
    for seed in range(6):
        a = _halves((n,), n + seed, 1.0)
        x = torch.from_numpy(a)
        threads(1)
        whole = float(F16(half_line(a)))
        assert x.sum().item() == whole and x.nansum().item() == whole
        threads(2)
        step = -(-n // 2)
        shares = [F16(half_line(a[:step])), F16(half_line(a[step:]))]
        expected = float(F16(_in_turn([F32(s) for s in shares], F32(0.0))))
        assert x.sum().item() == expected and x.nansum().item() == expected
        differ += expected != whole
    assert differ  # the two orders part on some of these
