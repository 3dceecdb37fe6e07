"""Oracle test: fake quantization, per tensor and per channel, agrees with torch's bit for
bit, and a quantization-aware training walk with it agrees to rounding.

The values are drawn over several magnitudes, scales, zero points and ranges, with NaNs,
infinities and values half a step apart, in float16, float32 and float64; outputs and
gradients must be torch's bits. The walk trains a small network whose weights and
activations pass through fake quantization, from the same NumPy weights in both libraries.
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise, assert_walks_agree, filled


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_fake_quantization_is_torchs_bit_for_bit(dtype):
    rng = np.random.default_rng(15)
    for trial in range(60):
        values = (rng.standard_normal(40) * rng.choice([0.1, 1, 10, 100])).astype(dtype)
        if trial == 0:
            values[:6] = [np.nan, np.inf, -np.inf, 0.05, -0.05, 0.15]
        scale = float(rng.choice([0.1, 0.3, 0.007, 1.7, rng.uniform(0.001, 2)]))
        zero_point = int(rng.integers(-5, 6))
        low, high = sorted(rng.integers(-200, 256, size=2).tolist())
        args = (scale, zero_point, min(low, zero_point), max(high, zero_point))
        ours, theirs = [], []
        for lib, record in ((refgrad, ours), (torch, theirs)):
            x = lib.tensor(values, requires_grad=True)
            q = lib.fake_quantize_per_tensor_affine(x, *args)
            (q * lib.tensor(np.arange(40.0).astype(dtype))).sum().backward()
            record += [q.detach().numpy().copy(), x.grad.numpy().copy()]
        assert_bitwise(ours, theirs)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("points", [np.int32, np.float32, np.float16])
def test_per_channel_fake_quantization_is_torchs_bit_for_bit(dtype, points):
    rng = np.random.default_rng(16)
    for trial in range(30):
        values = (rng.standard_normal((3, 5)) * rng.choice([0.1, 1, 10, 100])).astype(dtype)
        if trial == 0:
            values[0] = [np.nan, np.inf, -np.inf, 0.05, -0.05]
        axis = int(rng.integers(0, 2))
        scales = rng.choice([0.1, 0.3, 0.007, 1.7], size=values.shape[axis]).astype(np.float32)
        zeros = (rng.integers(-5, 6, size=scales.size) if points == np.int32 else
                 rng.uniform(-5, 5, size=scales.size)).astype(points)
        limits = (-6 - int(rng.integers(0, 200)), 6 + int(rng.integers(0, 200)))
        ours, theirs = [], []
        for lib, record in ((refgrad, ours), (torch, theirs)):
            x = lib.tensor(values, requires_grad=True)
            q = lib.fake_quantize_per_channel_affine(x, lib.tensor(scales), lib.tensor(zeros),
                                                     axis, *limits)
            q.sum().backward()
            record += [q.detach().numpy().copy(), x.grad.numpy().copy()]
        assert_bitwise(ours, theirs)


def quantized_training(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(5)
    net = filled(lib, nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)), rng)
    opt = lib.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    record = []
    for _ in range(4):
        x, y = lib.tensor(rng.standard_normal((8, 4))), lib.tensor(rng.integers(0, 3, 8))
        h = x
        for layer in net:
            if isinstance(layer, nn.Linear):
                scales = lib.full((layer.out_features,), 0.02, dtype=lib.float32)
                w = lib.fake_quantize_per_channel_affine(
                    layer.weight, scales, lib.zeros(layer.out_features, dtype=lib.int32), 0, -128,
                    127)
                h = F.linear(lib.fake_quantize_per_tensor_affine(h, 0.05, 3, 0, 255), w,
                             layer.bias)
            else:
                h = layer(h)
        loss = F.cross_entropy(h, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        record += [loss.detach().numpy().copy(), net[0].weight.grad.numpy().copy()]
    return record + [p.detach().numpy().copy() for p in net.parameters()]


def test_quantization_aware_training_agrees_with_torchs():
    assert_walks_agree(quantized_training(refgrad), quantized_training(torch))
