"""Reductions given no dims, keepdim alone, or nothing to reduce."""

import math

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("dim", [(), []])
@pytest.mark.parametrize("shape", [(1,), (3,), (1, 1), (2, 3), (2, 2, 2)])
def test_logsumexp_over_no_dims_refuses_a_result_without_them(shape, dim):
    x = torch.ones(shape)
    ones = ", ".join("1" * len(shape))
    with raises(RuntimeError, f"output with shape [] doesn't match the broadcast shape [{ones}]"):
        torch.logsumexp(x, dim)
    with raises(RuntimeError, f"output with shape [] doesn't match the broadcast shape [{ones}]"):
        x.int().logsumexp(dim)
    kept = torch.logsumexp(x, dim, keepdim=True)
    assert kept.shape == (1,) * len(shape)
    assert kept.item() == pytest.approx(1 + math.log(x.numel()))


@pytest.mark.parametrize("shape", [(), (0,), (2, 0)])
def test_logsumexp_over_no_dims_of_a_0d_or_empty_tensor(shape):
    x = torch.zeros(shape, requires_grad=True)
    y = torch.logsumexp(x, ())
    assert y.shape == ()
    assert y.item() == (0.0 if shape == () else -math.inf)
    y.backward()
    assert x.grad.shape == shape
    assert x.grad.tolist() == (1.0 if shape == () else torch.zeros(shape).tolist())


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_of_nothing_is_nan_cast(name, shape):
    f = getattr(torch, name)
    assert f(torch.zeros(shape, dtype=torch.bool)).item() is True
    assert f(torch.zeros(shape, dtype=torch.int64)).item() == -2 ** 63
    assert f(torch.zeros(shape, dtype=torch.int32)).item() == -2 ** 31
    assert f(torch.zeros(shape, dtype=torch.int8)).item() == 0
    assert f(torch.zeros(shape, dtype=torch.uint8)).item() == 0
    assert math.isnan(f(torch.zeros(shape)).item())
    with raises(NotImplementedError, "\"median_cpu\" not implemented for 'Bool'"):
        f(torch.tensor([True, False]))


_FORMS = ("but expected one of:\n * (*, torch.dtype dtype = None)\n"
          " * (tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)\n")


@pytest.mark.parametrize("keepdim", [False, True])
def test_the_sum_method_refuses_keepdim_without_dim(keepdim):
    x = torch.tensor([1.0, 2.0])
    with raises(TypeError, "sum() received an invalid combination of arguments - got "
                           "(keepdim=bool, ), " + _FORMS):
        x.sum(keepdim=keepdim)
    with raises(TypeError, 'sum() missing 1 required positional arguments: "dim"'):
        x.sum(keepdim=keepdim, dtype=torch.float64)
    with raises(TypeError, "mean() received an invalid combination of arguments - got "
                           "(keepdim=bool, ), " + _FORMS):
        x.mean(keepdim=keepdim)
    assert x.sum().item() == 3.0
    assert x.sum(0, keepdim=keepdim).tolist() == ([3.0] if keepdim else 3.0)
    assert x.sum(dtype=torch.float64).dtype == torch.float64


def _signs(t):
    return [str(v) for v in t.flatten().tolist()]


def test_logcumsumexp_of_a_leading_negative_zero_is_zero():
    assert _signs(torch.logcumsumexp(torch.tensor([-0.0]), 0)) == ["0.0"]
    assert _signs(torch.logcumsumexp(torch.tensor([[-0.0, 1.0]]), 0)) == ["0.0", "1.0"]
    assert _signs(torch.logcumsumexp(torch.tensor([-0.0], dtype=torch.float64), 0)) == ["0.0"]
    assert _signs(torch.logcumsumexp(torch.tensor(-0.0), 0)) == ["-0.0"]  # a 0-d copy
