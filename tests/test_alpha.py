"""refgrad._ops.alpha: the once-rounded a + alpha * b, its exact fallback, on host and device."""

import math
from fractions import Fraction

import numpy as np
import pytest

import refgrad
from refgrad._ops import alpha
from tests.devices import AVAILABLE, use

# Values the fast float64 path leaves to exact fractions: an infinity, a NaN, a
# product past the largest float64, and one whose rounding error underflows.
EDGES_A = [math.inf, math.nan, -1e308, 1.0, 0.5, -0.0]
EDGES_B = [1.0, 2.0, 1e308, 1e-300, 1e-200, 3.0]
ALPHA = 2.5


def _exact(a, b, scale):
    if not (math.isfinite(a) and math.isfinite(b)):
        return a + scale * b
    value = Fraction(a) + Fraction(scale) * Fraction(b)
    return float(value)


def test_the_fast_path_sends_only_unsafe_elements_to_fractions(monkeypatch):
    a, b = np.array(EDGES_A), np.array(EDGES_B)
    seen = []
    one = alpha._exact_one
    monkeypatch.setattr(alpha, "_exact_one", lambda *args: seen.append(args) or one(*args))
    with np.errstate(all="ignore"):  # as call() runs it: NOTE [Quiet floating point]
        out = alpha.add_scaled(a, b, ALPHA)
    firsts = [x for x, _, _ in seen]  # not 0.5 + 2.5e-200, nor -0.0 + 7.5: those are safe
    assert firsts[0] == math.inf and math.isnan(firsts[1]) and firsts[2:] == [-1e308, 1.0]
    expected = [_exact(x, y, ALPHA) for x, y in zip(EDGES_A, EDGES_B)]
    assert out[0] == math.inf and math.isnan(out[1])
    assert out[2:].tolist() == expected[2:]


def test_an_exact_sum_past_the_largest_float_is_an_infinity():
    assert alpha._exact_one(1e308, 1e308, 2.0) == math.inf
    assert alpha._exact_one(-1e308, 1e308, -2.0) == -math.inf


def test_rounding_to_odd_moves_only_inexact_even_results():
    total = np.array([1.0, 1.0, 1.0, -1.0, np.inf])
    error = np.array([0.0, 1e-20, -1e-20, 1e-20, 1.0])
    out = alpha._rounded_to_odd(total, error)
    assert out[0] == 1.0 and out[4] == np.inf
    assert out[1] == np.nextafter(1.0, 2.0) and out[2] == np.nextafter(1.0, 0.0)
    assert out[3] == np.nextafter(-1.0, 0.0)


@pytest.mark.parametrize("where", AVAILABLE)
def test_exact_elements_of_a_device_tensor_stay_on_the_device(where, monkeypatch):
    counts = use(where, monkeypatch)
    a = refgrad.tensor(EDGES_A, dtype=refgrad.float64)
    b = refgrad.tensor(EDGES_B, dtype=refgrad.float64)
    on_host = refgrad.add(a, b, alpha=ALPHA)
    on_device = refgrad.add(a.cuda(), b.cuda(), alpha=ALPHA)
    assert on_device.is_cuda
    got, want = on_device.cpu().numpy(), on_host.numpy()
    assert np.array_equal(got, want, equal_nan=True)
    if where == "simulated":
        assert counts["to_device"] >= 3  # the operands, then the exact elements coming back
