"""Black-box tests: nn.Conv1d/2d/3d and the pooling modules: parameters, their initial
values under a seed, what they print, what they compute, and what they refuse.
"""

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from conformance._support import raises


@pytest.mark.parametrize(("module", "weight"), [
    (lambda: nn.Conv1d(3, 4, 2), (4, 3, 2)),
    (lambda: nn.Conv2d(4, 6, (3, 2), groups=2), (6, 2, 3, 2)),
    (lambda: nn.Conv3d(2, 4, 1, bias=False), (4, 2, 1, 1, 1)),
])
def test_parameters_and_their_bound(module, weight):
    torch.manual_seed(0)
    conv = module()
    assert conv.weight.shape == weight and conv.weight.requires_grad
    fan_in = weight[1] * math.prod(weight[2:])
    bound = 1 / math.sqrt(fan_in)
    assert conv.weight.abs().max().item() <= bound
    assert conv.weight.abs().max().item() > bound / 2  # drawn over the whole range
    names = [name for name, _ in conv.named_parameters()]
    assert names == (["weight"] if conv.bias is None else ["weight", "bias"])
    if conv.bias is not None:
        assert conv.bias.shape == (weight[0],) and conv.bias.abs().max().item() <= bound


def test_seeded_weights_are_torchs_draws():
    torch.manual_seed(0)
    conv = nn.Conv2d(4, 6, 3, groups=2)
    assert [round(v, 6) for v in conv.weight.flatten()[:3].tolist()] == [
        -0.001765, 0.126441, -0.193994]
    assert [round(v, 6) for v in conv.bias[:2].tolist()] == [-0.012987, 0.03539]


def test_printed_forms():
    assert repr(nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2)) == (
        "Conv2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), groups=2)")
    assert repr(nn.Conv1d(3, 4, 2)) == "Conv1d(3, 4, kernel_size=(2,), stride=(1,))"
    assert repr(nn.Conv3d(2, 2, (1, 2, 3), bias=False, padding="same")) == (
        "Conv3d(2, 2, kernel_size=(1, 2, 3), stride=(1, 1, 1), padding=same, bias=False)")
    assert repr(nn.Conv2d(2, 2, 3, padding=1, dilation=2, padding_mode="reflect")) == (
        "Conv2d(2, 2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), dilation=(2, 2), "
        "padding_mode=reflect)")
    assert repr(nn.MaxPool2d(3, 2, 1, 2, True, True)) == (
        "MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True)")
    assert repr(nn.MaxPool1d(2)) == (
        "MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)")
    assert repr(nn.AvgPool2d(3, 2, 1, True, False, 2)) == (
        "AvgPool2d(kernel_size=3, stride=2, padding=1)")
    assert repr(nn.AvgPool1d(2)) == "AvgPool1d(kernel_size=(2,), stride=(2,), padding=(0,))"
    assert repr(nn.AdaptiveAvgPool2d((2, None))) == "AdaptiveAvgPool2d(output_size=(2, None))"
    assert repr(nn.AdaptiveMaxPool3d(3)) == "AdaptiveMaxPool3d(output_size=3)"


def test_modules_compute_what_the_functions_compute():
    torch.manual_seed(1)
    x = torch.randn(2, 2, 6, 5)
    conv = nn.Conv2d(2, 4, 3, stride=(2, 1), padding=1, dilation=(1, 2))
    assert torch.equal(conv(x), F.conv2d(x, conv.weight, conv.bias, (2, 1), 1, (1, 2)))
    reflect = nn.Conv2d(2, 4, 3, padding=(1, 2), padding_mode="reflect")
    expected = F.conv2d(F.pad(x, (2, 2, 1, 1), mode="reflect"), reflect.weight, reflect.bias)
    assert torch.equal(reflect(x), expected)
    same = nn.Conv1d(2, 2, 4, padding="same", padding_mode="circular")
    line = x[0, :, 0]
    expected = F.conv1d(F.pad(line, (1, 2), mode="circular"), same.weight, same.bias)
    assert torch.equal(same(line), expected)
    values, indices = nn.MaxPool2d(2, return_indices=True)(x)
    assert torch.equal(values, F.max_pool2d(x, 2)) and indices.dtype == torch.int64
    assert torch.equal(nn.AvgPool3d(2, divisor_override=3)(x),
                       F.avg_pool3d(x, 2, divisor_override=3))
    assert torch.equal(nn.AdaptiveMaxPool1d(2, True)(x[0])[1],
                       F.adaptive_max_pool1d(x[0], 2, True)[1])


def test_a_small_network_trains():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(4, 2, 3), nn.AdaptiveAvgPool2d(1))
    images = torch.randn(8, 1, 8, 8)
    loss = net(images).square().mean()
    loss.backward()
    assert all(p.grad is not None and p.grad.shape == p.shape for p in net.parameters())
    with torch.no_grad():
        for p in net.parameters():
            p -= 0.05 * p.grad
    assert net(images).square().mean().item() < loss.item()


@pytest.mark.parametrize(("make", "message"), [
    (lambda: nn.Conv2d(4, 6, 3, groups=4), "out_channels must be divisible by groups"),
    (lambda: nn.Conv2d(5, 6, 3, groups=2), "in_channels must be divisible by groups"),
    (lambda: nn.Conv2d(4, 6, 3, groups=0), "groups must be a positive integer"),
    (lambda: nn.Conv2d(4, 6, 3, padding="same", stride=2),
     "padding='same' is not supported for strided convolutions"),
])
def test_refusals(make, message):
    with raises(ValueError, message):
        make()
    with pytest.raises(ValueError, match=r"^padding_mode must be one of \{"):
        nn.Conv2d(4, 6, 3, padding_mode="bad")
    # torch prints a set, in an order that changes from run to run
    with pytest.raises(ValueError, match=r"^Invalid padding string 'foo', should be one of "
                                         r"\{'(valid|same)', '(valid|same)'\}$"):
        nn.Conv2d(4, 6, 3, padding="foo")
