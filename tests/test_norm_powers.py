"""The C library's powers behind the p-norms, and Welford's update through long slices."""

import math

import numpy as np
import pytest

from refgrad._ops import norm_powers, welford_order
from tests._references import c_powf, running


@pytest.mark.parametrize("scale", [1.0, 1e-3, 1e3, 1e-20, 1e20])
@pytest.mark.parametrize("p", [3.0, 0.5, -1.0, 2.0, 7.5, -2.5, 1 / 3])
def test_float32_powers_are_the_c_librarys_powf(scale, p):
    s = np.abs(np.random.default_rng(1).standard_normal(4000) * scale).astype(np.float32)
    s[::100] = 0.0
    s[1] = np.inf
    s[2] = np.nan
    p = float(np.float32(p))
    powf = c_powf()
    expected = np.array([powf(float(v), p) for v in s], dtype=np.float32)
    got = norm_powers._powers(s, np.float32(p))
    assert got.dtype == np.float32
    assert np.array_equal(got, expected, equal_nan=True)
    few = norm_powers._powers(s[:16], np.float32(p))  # powf for each
    assert np.array_equal(few, expected[:16], equal_nan=True)


def test_without_a_c_library_float32_powers_are_float64_powers_rounded(monkeypatch):
    s = np.abs(np.random.default_rng(2).standard_normal(500)).astype(np.float32)
    monkeypatch.setattr(norm_powers, "_c_powf", lambda: None)
    expected = np.power(s.astype(np.float64), 3.0).astype(np.float32)
    assert np.array_equal(norm_powers._powers(s, np.float32(3.0)), expected)


@pytest.mark.parametrize("p", [3.0, 0.5, -1.0, -2.5, 1 / 3])
def test_float64_powers_are_math_pow_and_mind_its_errors(p):
    s = np.abs(np.random.default_rng(3).standard_normal(2000)) * 10.0
    s[:4] = [0.0, np.inf, np.nan, 1e200]  # math.pow raises for 0 ** -p and overflows
    got = norm_powers._powers(s, p)
    expected = [math.pow(v, p) for v in s[4:]]
    assert got[4:].tolist() == expected
    assert got[0] == (0.0 if p > 0 else math.inf)
    assert got[1] == (math.inf if p > 0 else 0.0)
    assert math.isnan(got[2])
    assert got[3] == (math.inf if p > 1 else 1e200 ** p)


@pytest.mark.parametrize("slices", [1, 5, 30])
def test_welford_is_the_same_update_however_the_slices_are_taken(slices):
    b = np.random.default_rng(4).standard_normal((slices, 5000)) * 4.0 + 2.0
    means, m2s = welford_order.welford(b)
    expected = [running(r.tolist())[:2] for r in b]
    assert means.tolist() == [m for m, _ in expected]
    assert m2s.tolist() == [m2 for _, m2 in expected]


def test_welford_keeps_the_leading_shape_and_infinities():
    b = np.full((2, 3, 5000), np.inf)
    means, m2s = welford_order.welford(b)
    assert means.shape == m2s.shape == (2, 3)
    assert np.isnan(means).all()  # the second infinity's distance from the first is nan
