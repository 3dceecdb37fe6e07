"""Journeys through quantization-aware training: fake quantization per tensor and per
channel, its roundings, its straight-through gradient, what a dispatch mode sees of it, and
its refusals."""

import numpy as np
import pytest
import torch


def test_fake_quantization_rounds_clamps_and_passes_gradients_straight_through():
    w = torch.tensor([-20.0, -1.26, -0.05, 0.05, 0.15, 0.25, 12.7, 20.0], requires_grad=True)
    q = torch.fake_quantize_per_tensor_affine(w, 0.1, 0, -128, 127)
    assert q.grad_fn.name() == "FakeQuantizePerTensorAffineCachemaskBackward0"
    assert q.grad_fn._saved_mask.tolist() == [False] + [True] * 6 + [False]
    levels = np.array([-128, -13, 0, 0, 2, 2, 127, 127], np.float32)
    assert q.tolist() == (levels * np.float32(0.1)).tolist()  # a float product, not 1.3's float
    q.sum().backward()
    assert w.grad.tolist() == [0.0] + [1.0] * 6 + [0.0]
    d = torch.tensor([0.1, float("nan"), float("inf"), -float("inf")], dtype=torch.float64)
    assert torch.fake_quantize_per_tensor_affine(d, 0.1, 0, 0, 255).tolist() == [
        0.10000000149011612, 0.0, 25.5, 0.0]
    h = torch.fake_quantize_per_tensor_affine(torch.tensor([1.0, 2.0]).half(), 0.3, 1, -128, 127)
    assert h.dtype == torch.float16 and h.tolist() == [0.89990234375, 2.099609375]
    t = torch.fake_quantize_per_tensor_affine(w, torch.tensor(0.1), torch.tensor(3), 0, 255)
    assert t.grad_fn.name() == "FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0"
    assert t.detach()[-1].item() == pytest.approx(20.0)
    assert torch.fake_quantize_per_tensor_affine(torch.ones(3, 2).t(), 0.3, 1, 0, 9).stride() == (
        1, 2)


def test_a_dispatch_mode_sees_fake_quantization_as_torch_hands_it():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), [type(a).__name__ for a in args], kwargs or {}))
            return func(*args, **(kwargs or {}))

    x = torch.tensor([1.0, 30.0], requires_grad=True)
    with Seen():
        torch.fake_quantize_per_tensor_affine(x, 0.1, 0, 0, 255).sum().backward()
    assert seen[0] == ("aten.fake_quantize_per_tensor_affine_cachemask.default",
                       ["Tensor", "float", "int", "int", "int"], {})
    assert "aten.mul.Tensor" in [name for name, _, _ in seen]
    assert "aten._to_copy.default" not in [name for name, _, _ in seen]
    assert x.grad.tolist() == [1.0, 0.0]


@pytest.mark.parametrize("args, error, message", [
    ((torch.ones(2), 0.1, 0, 10, -10), RuntimeError,
     "`quant_min` should be less than or         equal to `quant_max`."),
    ((torch.ones(2), 0.1, 300, 0, 255), RuntimeError,
     "`zero_point` must be between `quant_min` and `quant_max`."),
    ((torch.ones(2, dtype=torch.long), 0.1, 0, 0, 255), NotImplementedError,
     '"fake_quantize_tensor_cachemask_kernel_type_handling" not implemented for \'Long\''),
    ((torch.ones(2), torch.ones(2), torch.tensor(0), 0, 255), RuntimeError,
     "a Tensor with 2 elements cannot be converted to Scalar"),
])
def test_fake_quantization_refusals(args, error, message):
    with pytest.raises(error) as info:
        torch.fake_quantize_per_tensor_affine(*args)
    assert str(info.value) == message
    with pytest.raises(TypeError, match="fake_quantize_per_tensor_affine"):
        torch.fake_quantize_per_tensor_affine(torch.ones(2), 0.1, 0.5, 0, 255)


def test_per_channel_fake_quantization_of_a_weight():
    w = torch.tensor([[0.05, 0.15, 1.0], [-1.26, 20.0, float("inf")]], dtype=torch.float64,
                     requires_grad=True)
    scales, points = torch.tensor([0.1, 0.3]), torch.tensor([0, 1], dtype=torch.int32)
    q = torch.fake_quantize_per_channel_affine(w, scales, points, 0, -128, 127)
    assert q.grad_fn.name() == "FakeQuantizePerChannelAffineCachemaskBackward0"
    # mapped back in double from the float scales; an infinity lands on quant_min
    assert q.tolist() == [[0.0, 0.20000000298023224, 1.0000000149011612],
                          [-1.2000000476837158, 20.10000079870224, -38.700001537799835]]
    q.sum().backward()
    assert w.grad.tolist() == [[1.0, 1.0, 1.0], [1.0, 1.0, 0.0]]
    floating = torch.fake_quantize_per_channel_affine(
        torch.ones(2, 2), torch.tensor([0.1, 0.2]), torch.tensor([0.4, -1.6]), 1, -5, 5)
    assert floating.tolist() == [[0.46000000834465027, 0.9200000166893005]] * 2  # clamped at 5
    outside = torch.tensor([0.0, 130.0])  # floating zero points are not checked against the range
    assert torch.fake_quantize_per_channel_affine(torch.ones(2), torch.ones(2), outside, 0, 0, 9
                                                  ).tolist() == [1.0, -121.0]


@pytest.mark.parametrize("args, error, message", [
    ((torch.ones(2, 2), torch.ones(2, dtype=torch.float64), torch.zeros(2, dtype=torch.int32), 0),
     RuntimeError, "Scale must be Float or BFloat16, found Double"),
    ((torch.ones(2, 2), torch.ones(2), torch.zeros(2, dtype=torch.long), 0), RuntimeError,
     "Zero-point must be Int32, Float or Half, found Long"),
    ((torch.ones(2, 2), torch.ones(1, 2), torch.zeros(2, dtype=torch.int32), 0), RuntimeError,
     "scale should be a 1-D tensor"),
    ((torch.ones(2, 2), torch.ones(1), torch.zeros(2, dtype=torch.int32), 0), RuntimeError,
     "scale and zero-point need to have the same dimensions"),
    ((torch.ones(2, 3), torch.ones(2), torch.zeros(2, dtype=torch.int32), -1), RuntimeError,
     "dimensions of scale and zero-point are not consistent with input tensor"),
    ((torch.ones(2, 2), torch.ones(2), torch.zeros(2, dtype=torch.int32), -1), RuntimeError,
     "`axis` must be between 0 and number of dimensions of input"),
    ((torch.ones(2, 2), torch.ones(2), torch.zeros(2, dtype=torch.int32), 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ((torch.ones(2, 2), torch.ones(2), torch.tensor([0, 200], dtype=torch.int32), 0), RuntimeError,
     "`zero_point` must be between `quant_min` and `quant_max`."),
])
def test_per_channel_refusals(args, error, message):
    with pytest.raises(error) as info:
        torch.fake_quantize_per_channel_affine(*args, -128, 127)
    assert str(info.value) == message
