"""clamp between two number bounds, one of them NaN: the result is all NaN, and the other
bound is never converted to the result's dtype, so one too big for float16 or float32 is no
overflow error. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

NAN = float("nan")
HALF_OVERFLOW = "value cannot be converted to type c10::Half without overflow"


@pytest.mark.parametrize("dtype, big", [(torch.float16, 2**40), (torch.float16, -1e10),
                                        (torch.float32, 1e300)])
@pytest.mark.parametrize("nan_is_max", [True, False])
def test_an_overflowing_bound_beside_nan_gives_nan(dtype, big, nan_is_max):
    x = torch.tensor([1.0, -2.0, 3.0], dtype=dtype)
    low, high = (big, NAN) if nan_is_max else (NAN, big)
    for out in (torch.clamp(x, min=low, max=high), torch.clip(x, low, high),
                x.clamp(low, high), x.clone().clamp_(low, high)):
        assert out.dtype == dtype and out.isnan().all()
    written = torch.zeros(3, dtype=dtype)
    torch.clamp(x, low, high, out=written)
    assert written.isnan().all()
    # the same NaN result as with a bound that fits
    fits = torch.clamp(x, *((1.0, NAN) if nan_is_max else (NAN, 1.0)))
    assert fits.isnan().all()


def test_without_nan_the_overflowing_bound_is_still_refused():
    x = torch.ones(2, dtype=torch.float16)
    with raises(RuntimeError, HALF_OVERFLOW):
        torch.clamp(x, min=2**40)
    with raises(RuntimeError, HALF_OVERFLOW):
        torch.clamp(x, 2**40, float("inf"))


def test_an_int_too_big_for_any_dtype_is_still_refused():
    with raises(OverflowError, "int too big to convert"):
        torch.clamp(torch.tensor([1, 2]), NAN, 2**70)


def test_the_gradient_is_zero_and_the_bounds_are_kept_as_given():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float16, requires_grad=True)
    y = torch.clamp(x.t(), 2**40, NAN)
    assert y.grad_fn.name() == "ClampBackward1"
    assert y.grad_fn._saved_min == 2**40 and y.grad_fn._saved_max != y.grad_fn._saved_max
    assert y.stride() == x.t().stride()
    y.sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]
