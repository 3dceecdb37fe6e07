"""F.conv_tbc: a one-dimensional convolution over (time, batch, channels)."""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises


def _as_conv1d(x, w, b, pad):
    if pad < 0:  # a negative pad crops time at both ends
        x, pad = x[-pad:x.shape[0] + pad], 0
    return F.conv1d(x.permute(1, 2, 0), w.permute(2, 1, 0), b, padding=pad).permute(2, 0, 1)


@pytest.mark.parametrize("shapes, pad", [
    (((5, 2, 3), (2, 3, 4)), 1), (((5, 2, 3), (2, 3, 4)), 0), (((4, 1, 2), (3, 2, 5)), 2),
    (((6, 3, 2), (2, 2, 1)), -1), (((2, 2, 2), (1, 2, 3)), 0),
])
def test_values_and_gradients_are_the_moved_conv1d(shapes, pad):
    torch.manual_seed(0)
    (xs, ws) = shapes
    x = torch.randn(xs, dtype=torch.float64, requires_grad=True)
    w = torch.randn(ws, dtype=torch.float64, requires_grad=True)
    b = torch.randn(ws[2], dtype=torch.float64, requires_grad=True)
    y = F.conv_tbc(x, w, b, pad)
    want = _as_conv1d(x, w, b, pad)
    assert y.shape == want.shape and y.dtype == torch.float64 and y.is_contiguous()
    torch.testing.assert_close(y, want)
    assert y.grad_fn.name() == "ConvTbcBackward0"
    assert y.grad_fn._saved_pad == pad % 2 ** 64  # torch shows the pad as an unsigned number
    assert y.grad_fn._saved_self.equal(x) and y.grad_fn._saved_weight.equal(w)
    assert y.grad_fn._saved_bias.equal(b)
    g = torch.randn(y.shape, dtype=torch.float64)
    torch.testing.assert_close(torch.autograd.grad(y, (x, w, b), g),
                               torch.autograd.grad(want, (x, w, b), g))


def test_second_derivatives_are_the_moved_conv1d():
    torch.manual_seed(1)
    x = torch.randn(5, 2, 3, dtype=torch.float64, requires_grad=True)
    w = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(4, dtype=torch.float64, requires_grad=True)
    firsts = [torch.autograd.grad((f(x, w, b, 1) ** 2).sum(), (x, w), create_graph=True)
              for f in (F.conv_tbc, _as_conv1d)]
    seconds = [torch.autograd.grad(gx.sum() + (gw ** 2).sum(), (x, w, b))
               for gx, gw in firsts]
    torch.testing.assert_close(seconds[0], seconds[1])


def test_the_default_pad_the_namespace_and_other_dtypes():
    torch.manual_seed(2)
    x, w, b = torch.randn(5, 2, 3), torch.randn(2, 3, 4), torch.randn(4)
    assert F.conv_tbc is torch.conv_tbc or F.conv_tbc(x, w, b).equal(torch.conv_tbc(x, w, b))
    assert torch.conv_tbc(x, w, b).shape == (4, 2, 4)
    assert torch.conv_tbc(x, w, b, pad=2).shape == (8, 2, 4)
    wide = torch.conv_tbc(x, w, b.double())  # a bias of another dtype is converted
    assert wide.dtype == torch.float32
    torch.testing.assert_close(wide, torch.conv_tbc(x, w, b))
    ints = torch.conv_tbc(torch.ones(3, 1, 2, dtype=torch.long), torch.ones(2, 2, 1,
                          dtype=torch.long), torch.ones(1, dtype=torch.long))
    assert ints.dtype == torch.long and ints.flatten().tolist() == [5, 5]
    empty = torch.conv_tbc(x, torch.randn(0, 3, 4), b)  # no kernel: only the bias
    assert empty.shape == (6, 2, 4) and empty.equal(b.expand(6, 2, 4))


X, W, B = (5, 2, 3), (2, 3, 4), (4,)


@pytest.mark.parametrize("shapes, pad, message", [
    (((5, 2), (2, 3), (3, 1)), 0, "Input must have 3 dims: time, batch, in_channel"),
    ((X, (2, 3), (3, 1)), 0, "Weight tensor must have 3 dims: kernel_width, in_channels, "
     "out_channels."),
    ((X, (2, 4, 4), (3, 1)), 0, "Bias must be 1-D"),
    ((X, (2, 4, 4), (3,)), 0, "Input dim 2 (input channels) is not == dim 1 in the weight "
     "tensor"),
    ((X, W, (3,)), 0, "Bias size must equal dim 2 in the weight tensor (output channels)."),
    ((X, (9, 3, 4), B), 0, "Trying to create tensor with negative dimension -3: [-3, 2, 4]"),
    ((X, W, B), -3, "Trying to create tensor with negative dimension -2: [-2, 2, 4]"),
])
def test_refusals_in_torchs_words(shapes, pad, message):
    with raises(RuntimeError, message):
        torch.conv_tbc(*(torch.ones(s) for s in shapes), pad)


def test_the_input_and_weight_share_a_dtype_and_pad_is_an_int():
    x, w, b = torch.ones(X, dtype=torch.float64), torch.ones(W), torch.ones(B)
    with raises(RuntimeError, "self and mat2 must have the same dtype, but got Double and "
                "Float"):
        torch.conv_tbc(x, w, b)
    with raises(TypeError, "conv_tbc(): argument 'pad' (position 4) must be int, not float"):
        torch.conv_tbc(torch.ones(X), w, b, 1.5)
    with raises(TypeError, "conv_tbc(): argument 'bias' (position 3) must be Tensor, not "
                "NoneType"):
        torch.conv_tbc(torch.ones(X), w, None)
