"""Reductions of a 0-d tensor along its dim 0 (or -1): forwards and gradients."""

import math
import warnings

import pytest
import torch

from conformance._support import raises

DIMS = [0, -1, (0,), [-1]]


def _grad(f, value=3.0):
    x = torch.tensor(value, dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # var's warning of no degrees of freedom
        y = f(x)
    y = y[0] if isinstance(y, tuple) else y
    (y * 2.5).backward()
    return y.item(), x.grad.item()


@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("name", ["var", "std", "var_mean", "std_mean"])
def test_spread_of_a_0d_tensor_along_a_dim(name, dim):
    f = getattr(torch, name)
    value, grad = _grad(lambda x: f(x, dim))  # correction 1: no degrees of freedom
    assert math.isnan(value) and math.isnan(grad)
    assert _grad(lambda x: f(x, dim, correction=0)) == (0.0, 0.0)
    assert _grad(lambda x: f(x, dim, correction=0, keepdim=True), 0.0) == (0.0, 0.0)


def test_var_of_a_0d_tensor_along_a_dim_warns():
    x = torch.tensor(3.0, requires_grad=True)
    with pytest.warns(UserWarning, match=r"var\(\): degrees of freedom is <= 0"):
        x.var(0)


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dim", [0, -1])
def test_prod_of_a_0d_zero_along_a_dim_passes_the_gradient_on(dim, keepdim):
    assert _grad(lambda x: torch.prod(x, dim, keepdim=keepdim), 0.0) == (0.0, 2.5)
    assert _grad(lambda x: x.prod(dim, keepdim=keepdim), 3.0) == (3.0, 2.5)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_of_a_0d_tensor_takes_dims_0_and_minus_1_only(name):
    f = getattr(torch, name)
    assert _grad(lambda x: f(x, -1)) == (1.0 if name == "softmax" else 0.0, 0.0)
    for dim in (1, -2):
        with raises(IndexError, "Dimension out of range (expected to be in range of "
                                f"[-1, 0], but got {dim})"):
            f(torch.tensor(3.0), dim)
