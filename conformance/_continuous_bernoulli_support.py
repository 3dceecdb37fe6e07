"""The continuous Bernoulli's density and a quadrature, in Python's floats, for the
conformance tests of the continuous Bernoulli."""

import math

import torch


def f64(values):
    return torch.tensor(values, dtype=torch.float64)


def cb_log_norm(lam):
    if lam == 0.5:
        return math.log(2.0)
    return math.log(2 * math.atanh(1 - 2 * lam) / (1 - 2 * lam))


def cb_density(lam, x):
    return math.exp(cb_log_norm(lam) + x * math.log(lam) + (1 - x) * math.log1p(-lam))


def integrate(f, low, high, n=4000):
    """Simpson's rule on n (even) intervals."""
    h = (high - low) / n
    total = f(low) + f(high)
    total += sum((4 if i % 2 else 2) * f(low + i * h) for i in range(1, n))
    return total * h / 3
