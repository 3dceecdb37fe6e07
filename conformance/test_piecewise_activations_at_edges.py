"""Piecewise activations at NaN and at signed zeros: gradients and values as torch's."""

import math

import pytest
import torch
import torch.nn.functional as F


def test_hardsigmoid_gradient_is_zero_at_nan():
    x = torch.tensor([float("nan"), 0.0, 4.0, -4.0, 1.0], requires_grad=True)
    F.hardsigmoid(x).sum().backward()
    assert x.grad[0].item() == 0.0
    assert x.grad[1].item() == pytest.approx(1 / 6)
    assert x.grad[2:4].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_threshold_keeps_nan(dtype):
    x = torch.tensor([float("nan"), 0.25, 3.0], dtype=dtype)
    out = F.threshold(x, 0.5, 2.0)
    assert math.isnan(out[0].item())
    assert out[1:].tolist() == [2.0, 3.0]
    assert math.isnan(F.threshold(x.clone(), 0.5, 2.0, inplace=True)[0].item())


@pytest.mark.parametrize("call", [
    lambda x: F.relu6(x), lambda x: F.hardtanh(x, 0.0, 6.0), lambda x: torch.nn.ReLU6()(x),
    lambda x: F.relu6(x.double()), lambda x: F.relu6(x.clone(), inplace=True),
], ids=["relu6", "hardtanh", "module", "float64", "inplace"])
@pytest.mark.parametrize("size", [1, 20])
def test_relu6_keeps_negative_zero(call, size):
    out = call(torch.tensor([-0.0] * size))
    assert all(math.copysign(1.0, v) == -1.0 for v in out.tolist())


def test_hardtanh_upper_bound_of_negative_zero_keeps_positive_zero():
    out = F.hardtanh(torch.tensor([0.0]), -1.0, -0.0)
    assert math.copysign(1.0, out.item()) == 1.0
