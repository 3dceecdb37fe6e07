"""Black-box tests: a padded convolution's gradient by an infinite weight, and other
leftovers. The same assertions run on torch.
"""

import math

import pytest
import torch
import torch.nn.functional as F


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("stride, padding", [(1, 0), (1, 1), (2, 1)])
def test_conv_input_gradient_never_multiplies_padding(batch, dtype, stride, padding):
    x = torch.arange(batch * 2 * 5, dtype=dtype).reshape(batch, 2, 5).requires_grad_()
    w = torch.tensor([[[1.0, 0.5, float("inf")], [0.5, 2.0, -1.0]]], dtype=dtype)
    F.conv1d(x, w, stride=stride, padding=padding).sum().backward()
    assert not x.grad.isnan().any()
    assert x.grad[:, 0].isinf().any()


def test_conv1d_same_even_kernel_gradient_seed_476709():
    v0 = torch.tensor([[-1.5, 0.0], [2.0, float("inf")]]).requires_grad_(True)
    with pytest.warns(UserWarning, match="even kernel lengths"):
        v1 = F.conv1d(v0.unsqueeze(0), v0.unsqueeze(0)[..., :2], padding="same")
    (v1 * v0).sum().backward()
    grad = v0.grad.flatten().tolist()
    assert math.isnan(grad[0]) and math.isnan(grad[1]) and math.isnan(grad[3])
    assert grad[2] == math.inf


def test_conv2d_input_gradient_by_an_infinite_weight():
    x = torch.ones(1, 1, 3, 3, requires_grad=True)
    w = torch.tensor([[[[1.0, 1.0], [1.0, float("inf")]]]])
    F.conv2d(x, w).sum().backward()
    assert x.grad[0, 0, 0].tolist() == [1.0, 2.0, 1.0]
    assert x.grad[0, 0, 1:, 1:].isinf().all() and not x.grad.isnan().any()
