"""nll_loss's checks of the weight and the target: the weight must have the input's dtype
(no promotion), the two kernels word the weight's size differently, and each check comes
in torch's order.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

TARGET = [0, 1, 2, 1]


def _rows(dtype):
    return (torch.arange(12, dtype=torch.float64).reshape(4, 3) * 0.3).sin().to(dtype)


def _images(dtype=torch.float64):
    return (torch.arange(96, dtype=torch.float64).reshape(2, 3, 4, 4) * 0.13).sin().to(dtype)


IMAGE_TARGET = [[[(i + j + k) % 3 for k in range(4)] for j in range(4)] for i in range(2)]


@pytest.mark.parametrize(("dtype", "weight_dtype", "names"), [
    (torch.float16, torch.float32, ("Half", "Float")),
    (torch.float64, torch.float32, ("Double", "Float")),
    (torch.float32, torch.float64, ("Float", "Double")),
    (torch.float32, torch.int64, ("Float", "Long")),
    (torch.float32, torch.bool, ("Float", "Bool"))])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_a_weight_of_another_dtype_is_refused(dtype, weight_dtype, names, reduction):
    weight = torch.tensor([0.5, 1.5, 2.0]).to(weight_dtype)
    message = f"expected scalar type {names[0]} but found {names[1]}"
    with raises(RuntimeError, message):
        F.nll_loss(_rows(dtype), torch.tensor(TARGET), weight=weight, reduction=reduction)
    with raises(RuntimeError, message):
        F.nll_loss(_rows(dtype)[0], torch.tensor(1), weight=weight, reduction=reduction)
    with raises(RuntimeError, message):
        F.nll_loss(_images(dtype), torch.tensor(IMAGE_TARGET), weight=weight,
                   reduction=reduction)
    with raises(RuntimeError, message):
        F.cross_entropy(_rows(dtype), torch.tensor(TARGET), weight=weight, reduction=reduction)


@pytest.mark.parametrize("target", [[0, 1, 7, 1], [-100] * 4])
def test_the_weight_dtype_is_checked_before_the_targets_are_read(target):
    with raises(RuntimeError, "expected scalar type Double but found Float"):
        F.nll_loss(_rows(torch.float64), torch.tensor(target), weight=torch.rand(3))
    with raises(RuntimeError, "expected scalar type Double but found Float"):
        F.nll_loss(_rows(torch.float64)[:0], torch.tensor(target)[:0], weight=torch.rand(3))


def test_the_weight_size_comes_before_the_input_dtype_and_the_weight_dtype():
    rows = "weight tensor should be defined either for all 3 classes or no classes but got " \
        "weight tensor of shape: [4]"
    with raises(RuntimeError, rows):
        F.nll_loss(_rows(torch.float16), torch.tensor(TARGET), weight=torch.rand(4))
    with raises(RuntimeError, rows):
        F.nll_loss(torch.zeros(4, 3, dtype=torch.int64), torch.tensor(TARGET),
                   weight=torch.rand(4))
    images = "weight tensor should be defined either for all or no classes"
    with raises(RuntimeError, images):
        F.nll_loss(_images(), torch.tensor(IMAGE_TARGET), weight=torch.rand(5))
    with raises(RuntimeError, images):
        F.nll_loss(_images().long(), torch.tensor(IMAGE_TARGET), weight=torch.rand(2, 2))
    with raises(NotImplementedError, '"nll_loss2d_forward_out_frame" not implemented for '
                "'Long'"):
        F.nll_loss(_images().long(), torch.tensor(IMAGE_TARGET), weight=torch.rand(3))


def test_nll_loss_wants_a_flat_weight_and_nll_loss2d_counts_its_elements():
    with raises(RuntimeError, "weight tensor should be defined either for all 3 classes or no "
                "classes but got weight tensor of shape: [1, 3]"):
        F.nll_loss(_rows(torch.float64), torch.tensor(TARGET),
                   weight=torch.ones(1, 3, dtype=torch.float64))
    x = _images().requires_grad_()
    weight = torch.tensor([[0.5, 1.5, 2.0]], dtype=torch.float64)
    out = F.nll_loss(x, torch.tensor(IMAGE_TARGET), weight=weight, reduction="sum")
    flat = F.nll_loss(x, torch.tensor(IMAGE_TARGET), weight=weight.flatten(), reduction="sum")
    assert out.item() == flat.item()
    assert out.grad_fn._saved_weight.shape == (1, 3)
    (grad,) = torch.autograd.grad(out, x)
    (expected,) = torch.autograd.grad(flat, x)
    assert torch.equal(grad, expected)


def test_the_target_dtype_comes_before_the_spatial_shapes():
    with raises(RuntimeError, "expected target dtype to be Long or Byte, but got Int"):
        F.nll_loss(_images(), torch.zeros(2, 4, 5, dtype=torch.int32))
    with raises(RuntimeError, "size mismatch (got input: [2, 3, 4, 4] , target: [2, 4, 5]"):
        F.nll_loss(_images(), torch.zeros(2, 4, 5, dtype=torch.int64),
                   weight=torch.rand(3, dtype=torch.float32))


def test_a_zero_dimensional_target_counts_as_a_batch_of_none():
    with raises(ValueError, "Expected input batch_size (1) to match target batch_size (0)."):
        F.nll_loss(_rows(torch.float64)[:1], torch.tensor(1))
    with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
        F.nll_loss(_rows(torch.float64)[:0], torch.tensor(1))
