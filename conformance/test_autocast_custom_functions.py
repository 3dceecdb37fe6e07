"""torch.amp.custom_fwd and custom_bwd: a custom Function's backward runs as its forward did."""

import pytest
import torch

from conformance._support import raises

HALF = torch.float16


class _Product(torch.autograd.Function):
    seen: list = []

    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, a):
        return a.mm(a)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        _Product.seen.append((torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"),
                              g.dtype))
        return g.mm(torch.ones(2, 2))


class _Doubled(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a):
        return a * 2, torch.is_autocast_enabled("cpu")

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g, _):
        return g


def test_the_backward_runs_in_a_region_like_the_forwards():
    a = torch.ones(2, 2, requires_grad=True)
    _Product.seen.clear()
    with torch.autocast("cpu", dtype=HALF):
        y = _Product.apply(a)
    assert y.dtype is HALF
    y.sum().backward()
    assert _Product.seen == [(True, HALF, HALF)] and a.grad.dtype is torch.float32


def test_cast_inputs_casts_and_turns_autocast_off_inside_a_region_only():
    with torch.autocast("cpu", dtype=HALF):
        inside, on = _Doubled.apply(torch.ones(2, dtype=HALF))
    outside, still = _Doubled.apply(torch.ones(2, dtype=HALF))
    assert (inside.dtype, on, outside.dtype, still) == (torch.float32, False, HALF, False)


@pytest.mark.parametrize("decorator", [torch.amp.custom_fwd, torch.amp.custom_bwd])
def test_the_device_type_must_be_a_string(decorator):
    with raises(ValueError, "Expected `device_type` of type `str`, got: `<class 'int'>`"):
        decorator(device_type=3)
