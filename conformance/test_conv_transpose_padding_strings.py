"""ConvTranspose takes a padding string as the tuple of its letters, and refuses it in forward."""

import pytest
import torch

from conformance._support import raises

nn = torch.nn
MODULES = [(nn.ConvTranspose1d, 1), (nn.ConvTranspose2d, 2), (nn.ConvTranspose3d, 3)]


@pytest.mark.parametrize("module, n", MODULES)
@pytest.mark.parametrize("padding", ["same", "valid", "foo"])
@pytest.mark.parametrize("stride", [1, 2])
def test_a_padding_string_becomes_its_letters(module, n, padding, stride):
    conv = module(4, 4, 3, stride=stride, padding=padding)
    assert conv.padding == tuple(padding)
    kernel, strides = (3,) * n, (stride,) * n
    assert repr(conv) == (f"{module.__name__}(4, 4, kernel_size={kernel}, stride={strides}, "
                          f"padding={tuple(padding)})")
    message = (f"conv_transpose{n}d(): argument 'padding' (position 5) must be tuple of ints, "
               "but found element of type str at pos 0")
    with raises(TypeError, message):
        conv(torch.ones(1, 4, *(5,) * n))


def test_other_checks_still_come_first():
    with raises(ValueError, 'Only "zeros" padding mode is supported for ConvTranspose2d'):
        nn.ConvTranspose2d(4, 4, 3, padding="same", padding_mode="reflect")
    with raises(ValueError, "in_channels must be divisible by groups"):
        nn.ConvTranspose2d(4, 4, 3, padding="same", groups=3)


def test_a_convolution_still_refuses_same_with_a_stride():
    with raises(ValueError, "padding='same' is not supported for strided convolutions"):
        nn.Conv2d(4, 4, 3, stride=2, padding="same")
