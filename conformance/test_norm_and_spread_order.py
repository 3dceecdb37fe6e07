"""Norms of orders other than 2, and Welford's update over long slices, to the bit. torch
adds pow(|x|, p) (the C library's pow, powf for float32) one term after another in the
input's dtype, walking memory, and raises the sum to 1/p; with one output of 32768
elements or more each thread adds its share apart and the shares are added in turn.
Welford's update runs element by element in float64 through slices of any length, and
a share of each thread is merged in turn. The references use Python floats, NumPy
float32 scalars and the C library's powf.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
import torch

from tests._references import c_powf, running

_powf = c_powf()


def pow_in(scalar, x, p):
    if scalar is np.float32:
        return np.float32(_powf(float(x), float(p)))
    return math.pow(x, p) if x else (0.0 if p > 0 else math.inf)


def p_norm(values, p, scalar, shares=1):
    """The terms added in turn (in shares, then the shares in turn), raised to 1/p."""
    p = scalar(p)
    terms = [abs(scalar(v)) if p == 1 else pow_in(scalar, abs(scalar(v)), p) for v in values]
    step = -(-len(terms) // shares)
    total = scalar(0.0)
    for begin in range(0, len(terms), step):
        share = scalar(0.0)
        for t in terms[begin:begin + step]:
            share = scalar(share + t)
        total = scalar(total + share)
    return float(total if p == 1 else pow_in(scalar, total, scalar(1) / p))


DTYPES = [(torch.float32, np.float32), (torch.float64, np.float64)]


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("p", [1, 3, 0.5, -1, 2.5])
def test_a_p_norm_adds_the_c_librarys_powers_in_turn(dtype, scalar, p):
    a = np.random.default_rng(7).standard_normal((3, 700)).astype(scalar)
    a[1, ::50] = 0.0
    x = torch.from_numpy(a)
    rows = [p_norm(r, p, scalar) for r in a]
    assert torch.linalg.vector_norm(x, p, dim=1).tolist() == rows
    assert x.t().norm(p, dim=0).tolist() == rows  # the same rows, by their strides
    assert torch.norm(x, p).item() == p_norm(a.reshape(-1), p, scalar)
    columns = [p_norm(a[:, c], p, scalar) for c in range(700)]
    assert torch.linalg.vector_norm(x, p, 0, keepdim=True).flatten().tolist() == columns


@pytest.mark.parametrize("dtype,scalar", DTYPES)
@pytest.mark.parametrize("p", [1, 3, -1])
def test_a_long_p_norm_is_shared_among_threads(threads, dtype, scalar, p):
    a = np.random.default_rng(8).standard_normal(70001).astype(scalar)
    x = torch.from_numpy(a)
    threads(1)
    assert torch.linalg.vector_norm(x, p).item() == p_norm(a, p, scalar)
    threads(2)
    assert torch.linalg.vector_norm(x, p).item() == p_norm(a, p, scalar, shares=2)


def fma(x, y, z):
    return float(Fraction(x) * Fraction(y) + Fraction(z))


def merged(a, b):
    """torch's parallel update, its last product and sum fused (rounded once)."""
    delta = b[0] - a[0]
    count = a[2] + b[2]
    weight = b[2] / count
    return fma(delta, weight, a[0]), fma(delta * delta * a[2], weight, a[1] + b[1]), count


def test_welford_runs_through_slices_longer_than_4096():
    a = np.random.default_rng(9).standard_normal((3, 9000)) * 2.0 + 5.0
    x = torch.from_numpy(a)
    expected = [running([float(v) for v in r]) for r in a]
    assert x.var(1).tolist() == [m2 / (n - 1) for _, m2, n in expected]
    assert x.t().std(0, correction=0).tolist() == [math.sqrt(m2 / n) for _, m2, n in expected]
    variance, mean = torch.var_mean(x, 1, correction=2)
    assert variance.tolist() == [m2 / (n - 2) for _, m2, n in expected]
    assert mean.tolist() == [m for m, _, _ in expected]


def test_a_long_var_mean_is_shared_among_threads(threads):
    a = np.random.default_rng(10).standard_normal(70001) * 3.0 + 1.0
    x = torch.from_numpy(a)
    values = [float(v) for v in a]
    threads(1)
    mean, m2, n = running(values)
    assert [t.item() for t in torch.var_mean(x)] == [m2 / (n - 1), mean]
    threads(2)
    mean, m2, n = merged(running(values[:35001]), running(values[35001:]))
    assert [t.item() for t in torch.var_mean(x)] == [m2 / (n - 1), mean]
    assert torch.std_mean(x, 0)[0].item() == math.sqrt(m2 / (n - 1))


@pytest.mark.parametrize("seed", [16, 18])  # the plain form parts: in the mean, the variance
def test_four_shares_with_far_apart_means_are_merged_with_fused_steps(threads, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(100000) * 2.0
    a[50000:] += 17.0
    a[:25000] -= 9.0
    x = torch.from_numpy(a)
    values = [float(v) for v in a]
    threads(4)
    total = running(values[:25000])
    for begin in (25000, 50000, 75000):
        total = merged(total, running(values[begin:begin + 25000]))
    mean, m2, n = total
    assert [t.item() for t in torch.var_mean(x, correction=0)] == [m2 / n, mean]
