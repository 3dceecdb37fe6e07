"""torch.nn.utils' batch norm folding (fuse_conv_bn_eval, fuse_linear_bn_eval and their
weight forms) and skip_init. The same assertions run on torch."""

import pytest
import torch
from torch import nn
from torch.nn.utils import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
    skip_init,
)


def _batch_norm(cls, features):
    bn = cls(features).eval()
    bn.running_mean.uniform_(-1.0, 1.0)
    bn.running_var.uniform_(0.5, 2.0)
    with torch.no_grad():
        bn.weight.uniform_()
        bn.bias.uniform_()
    return bn


@pytest.mark.parametrize("bias", [True, False])
def test_a_folded_convolution_computes_both_layers(bias):
    torch.manual_seed(0)
    conv, bn = nn.Conv2d(3, 4, 3, bias=bias).eval(), _batch_norm(nn.BatchNorm2d, 4)
    folded = fuse_conv_bn_eval(conv, bn)
    x = torch.randn(2, 3, 5, 5)
    torch.testing.assert_close(folded(x), bn(conv(x)))
    inverse_std = torch.rsqrt(bn.running_var + bn.eps)
    conv_bias = conv.bias if bias else torch.zeros(4)
    assert torch.equal(folded.weight, conv.weight * (bn.weight * inverse_std).reshape(-1, 1, 1, 1))
    assert torch.equal(folded.bias, (conv_bias - bn.running_mean) * inverse_std * bn.weight
                       + bn.bias)
    assert (type(folded.weight), type(folded.bias)) == (nn.Parameter, nn.Parameter)
    assert (folded.weight.requires_grad, folded.bias.requires_grad) == (True, bias)
    assert folded is not conv and conv.bias is not folded.bias


def test_a_transposed_convolution_scales_its_second_dimension():
    torch.manual_seed(1)
    conv, bn = nn.ConvTranspose2d(4, 3, 2).eval(), _batch_norm(nn.BatchNorm2d, 3)
    folded = fuse_conv_bn_eval(conv, bn, transpose=True)
    x = torch.randn(1, 4, 3, 3)
    torch.testing.assert_close(folded(x), bn(conv(x)))


def test_a_folded_linear_layer_computes_both_layers():
    torch.manual_seed(2)
    linear, bn = nn.Linear(3, 4).eval(), _batch_norm(nn.BatchNorm1d, 4)
    folded = fuse_linear_bn_eval(linear, bn)
    x = torch.randn(5, 3)
    torch.testing.assert_close(folded(x), bn(linear(x)))
    scale = bn.weight * torch.rsqrt(bn.running_var + bn.eps)
    assert torch.equal(folded.bias, (linear.bias - bn.running_mean) * scale + bn.bias)


def test_the_weight_forms_fill_what_is_missing_and_keep_dtypes():
    weight, bias = fuse_conv_bn_weights(torch.ones(2, 1, 1), None, torch.zeros(2),
                                        torch.ones(2), 1e-5, None, None)
    assert (weight.shape, bias.tolist(), bias.requires_grad) == ((2, 1, 1), [0.0, 0.0], False)
    weight, bias = fuse_linear_bn_weights(torch.ones(2, 3, dtype=torch.float64), None,
                                          torch.zeros(2), torch.ones(2), 1e-5, torch.ones(2),
                                          torch.zeros(2))
    assert (weight.dtype, bias.dtype) == (torch.float64, torch.float64)


def test_folding_refusals():
    conv, bn = nn.Conv2d(3, 4, 1), nn.BatchNorm2d(4)
    with pytest.raises(AssertionError, match="^Fusion only for eval!$"):
        fuse_conv_bn_eval(conv, bn)
    with pytest.raises(AssertionError, match="^bn.running_mean and bn.running_var must not be "
                       "None$"):
        fuse_conv_bn_eval(conv.eval(), nn.BatchNorm2d(4, track_running_stats=False).eval())
    with pytest.raises(AssertionError, match=r"^To fuse, linear.out_features == bn.num_features "
                       r"or bn.num_features == 1, got linear.out_features=5 and "
                       r"bn.num_features=4$"):
        fuse_linear_bn_eval(nn.Linear(3, 5).eval(), nn.BatchNorm1d(4).eval())


def test_skip_init_draws_nothing_and_keeps_shapes():
    torch.manual_seed(3)
    before = torch.get_rng_state()
    layer = skip_init(nn.Linear, 3, 2, bias=False, dtype=torch.float64)
    assert torch.equal(before, torch.get_rng_state())
    assert (layer.weight.shape, layer.weight.dtype, layer.bias) == ((2, 3), torch.float64, None)
    assert type(layer.weight) is nn.Parameter and layer.weight.requires_grad


def test_skip_init_refusals():
    with pytest.raises(RuntimeError, match="^Expected a Module; got <class 'int'>$"):
        skip_init(int)

    class NoDevice(nn.Module):
        def __init__(self, n):
            super().__init__()

    with pytest.raises(RuntimeError, match="^Module must support a 'device' arg to skip "
                       "initialization$"):
        skip_init(NoDevice, 3)
