"""Black-box tests: normal numbers with an infinite or very large mean or std.

torch scales each standard normal number with one fused multiply-add, so an infinite std
gives an infinity of the number's sign, and a result past the largest double an infinity;
each case is compared with the standard numbers drawn under the same seed.
"""

import math
from fractions import Fraction

import pytest
import torch


def _standard(n, dtype):
    torch.manual_seed(0)
    return torch.empty(n, dtype=dtype).normal_(0.0, 1.0).tolist()


def _drawn(n, dtype, mean, std):
    torch.manual_seed(0)
    return torch.empty(n, dtype=dtype).normal_(mean, std).tolist()


def _signed(z, infinity):
    return math.nan if z == 0 else math.copysign(infinity, z)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64])
@pytest.mark.parametrize("n", [3, 20])
def test_an_infinite_std_gives_infinities_of_each_numbers_sign(dtype, n):
    expected = [_signed(z, math.inf) for z in _standard(n, dtype)]
    assert _drawn(n, dtype, 2.0, math.inf) == expected
    assert _drawn(n, dtype, 0.0, math.inf) == expected


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64])
@pytest.mark.parametrize("n", [3, 20])
def test_an_infinite_mean_gives_that_infinity(dtype, n):
    assert _drawn(n, dtype, math.inf, 2.0) == [math.inf] * n
    assert _drawn(n, dtype, -math.inf, 1.0) == [-math.inf] * n
    plus_and_minus = _drawn(n, dtype, -math.inf, math.inf)
    assert [math.isnan(v) for v in plus_and_minus] == [z > 0 for z in _standard(n, dtype)]


def test_normal_with_a_number_mean_takes_it_whole():
    torch.manual_seed(0)
    assert torch.normal(math.inf, 1.0, (2,)).tolist() == [math.inf, math.inf]
    torch.manual_seed(0)
    assert torch.normal(-math.inf, 1.0, (20,)).tolist() == [-math.inf] * 20


@pytest.mark.parametrize("n", [3, 20])
def test_a_double_past_the_largest_is_an_infinity_and_the_rest_exact(n):
    expected = []
    for z in _standard(n, torch.float64):
        exact = Fraction(z) * Fraction(1e308) + Fraction(1e308)
        expected.append(math.inf if exact > Fraction(1.7976931348623157e308) else float(exact))
    assert _drawn(n, torch.float64, 1e308, 1e308) == expected
