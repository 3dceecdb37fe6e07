"""The lazy convolutions, batch norms and instance norms: settings, first call and values."""

import inspect

import pytest
import torch
from torch import nn

from conformance._support import raises

CONVS = {
    "LazyConv1d": (nn.Conv1d, (2, 3, 6)), "LazyConv2d": (nn.Conv2d, (3, 5, 5)),
    "LazyConv3d": (nn.Conv3d, (1, 2, 4, 4, 4)),
    "LazyConvTranspose1d": (nn.ConvTranspose1d, (2, 3, 5)),
    "LazyConvTranspose2d": (nn.ConvTranspose2d, (3, 4, 4)),
    "LazyConvTranspose3d": (nn.ConvTranspose3d, (1, 2, 3, 3, 3)),
}
NORMS = {
    "LazyBatchNorm1d": (nn.BatchNorm1d, (4, 3)), "LazyBatchNorm2d": (nn.BatchNorm2d, (2, 3, 2, 2)),
    "LazyBatchNorm3d": (nn.BatchNorm3d, (2, 3, 1, 2, 2)),
    "LazyInstanceNorm1d": (nn.InstanceNorm1d, (2, 3, 5)),
    "LazyInstanceNorm2d": (nn.InstanceNorm2d, (2, 3, 4, 4)),
    "LazyInstanceNorm3d": (nn.InstanceNorm3d, (2, 3, 2, 2, 2)),
}


def _parameters(lazy):
    return list(inspect.signature(lazy.__init__).parameters)


def test_constructors_take_the_plain_arguments_but_the_inferred_one():
    conv = ["self", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups",
            "bias", "padding_mode", "device", "dtype"]
    transposed = ["self", "out_channels", "kernel_size", "stride", "padding", "output_padding",
                  "groups", "bias", "dilation", "padding_mode", "device", "dtype"]
    norm = ["self", "eps", "momentum", "affine", "track_running_stats", "device", "dtype",
            "bias"]
    assert _parameters(nn.LazyLinear) == ["self", "out_features", "bias", "device", "dtype"]
    for name in CONVS:
        assert _parameters(getattr(nn, name)) == (transposed if "Transpose" in name else conv)
    for name in NORMS:
        assert _parameters(getattr(nn, name)) == norm


def test_the_modules_torch_defines_them_in():
    from torch.nn.modules.batchnorm import LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d
    from torch.nn.modules.conv import LazyConv1d, LazyConv2d, LazyConv3d
    from torch.nn.modules.instancenorm import InstanceNorm2d, LazyInstanceNorm2d
    from torch.nn.modules.linear import LazyLinear

    assert (LazyLinear, LazyConv1d, LazyConv2d, LazyConv3d) == (
        nn.LazyLinear, nn.LazyConv1d, nn.LazyConv2d, nn.LazyConv3d)
    assert (LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d) == (
        nn.LazyBatchNorm1d, nn.LazyBatchNorm2d, nn.LazyBatchNorm3d)
    assert (InstanceNorm2d, LazyInstanceNorm2d) == (nn.InstanceNorm2d, nn.LazyInstanceNorm2d)
    import torch.nn.modules.instancenorm as instancenorm

    assert instancenorm.__all__ == ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
                                    "LazyInstanceNorm1d", "LazyInstanceNorm2d",
                                    "LazyInstanceNorm3d"]


@pytest.mark.parametrize("name", sorted(CONVS))
def test_a_convolution_reads_its_channels_and_draws_as_the_plain_one(name):
    plain_cls, shape = CONVS[name]
    torch.manual_seed(0)
    lazy = getattr(nn, name)(4, 3)
    kernel = (3,) * int(name[-2])
    assert repr(lazy) == f"{name}(0, 4, kernel_size={kernel}, stride={(1,) * len(kernel)})"
    assert list(lazy.state_dict()) == ["weight", "bias"] and lazy.has_uninitialized_params()
    x = torch.randn(*shape)
    y = lazy(x)
    torch.manual_seed(0)
    torch.randn(*shape)
    channels = shape[-len(kernel) - 1]
    plain = plain_cls(channels, 4, 3)
    assert type(lazy) is plain_cls and repr(lazy) == repr(plain)
    assert lazy.in_channels == channels and lazy.weight.shape == plain.weight.shape
    assert torch.equal(lazy.weight, plain.weight) and torch.equal(lazy.bias, plain.bias)
    torch.testing.assert_close(y, plain(x))
    y.sum().backward()
    plain(x).sum().backward()
    torch.testing.assert_close(lazy.weight.grad, plain.weight.grad)


@pytest.mark.parametrize("name", sorted(CONVS))
def test_a_convolution_refuses_an_input_of_the_wrong_rank(name):
    n = int(name[-2])
    with raises(RuntimeError, f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to "
                f"{name}, but got input of size: torch.Size([2])"):
        getattr(nn, name)(4, 3)(torch.randn(2))


def test_convolution_settings_and_groups():
    conv = nn.LazyConv2d(4, 3, stride=2, padding=1, dilation=2, groups=2, bias=False,
                         padding_mode="reflect")
    assert repr(conv) == ("LazyConv2d(0, 4, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), "
                          "dilation=(2, 2), groups=2, bias=False, padding_mode=reflect)")
    assert list(conv.state_dict()) == ["weight"]
    conv(torch.randn(1, 6, 9, 9))
    assert conv.weight.shape == (4, 3, 3, 3) and conv.in_channels == 6
    with raises(ValueError, "in_channels must be divisible by groups"):
        nn.LazyConv2d(4, 3, groups=2)(torch.randn(1, 3, 5, 5))
    transposed = nn.LazyConvTranspose2d(4, 3, stride=2, output_padding=1, groups=2, dilation=2)
    assert repr(transposed) == (
        "LazyConvTranspose2d(0, 4, kernel_size=(3, 3), stride=(2, 2), dilation=(2, 2), "
        "output_padding=(1, 1), groups=2)")
    transposed(torch.randn(1, 6, 3, 3))
    assert transposed.weight.shape == (6, 2, 3, 3)
    with raises(ValueError, 'Only "zeros" padding mode is supported for LazyConvTranspose1d'):
        nn.LazyConvTranspose1d(4, 3, padding_mode="reflect")


@pytest.mark.parametrize("name", sorted(NORMS))
def test_a_norm_reads_num_features_and_fills_as_the_plain_one(name):
    plain_cls, shape = NORMS[name]
    lazy = getattr(nn, name)()
    assert repr(lazy) == (f"{name}(0, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                          "track_running_stats=True)")
    state = lazy.state_dict()
    assert list(state) == ["weight", "bias", "running_mean", "running_var",
                           "num_batches_tracked"]
    assert [repr(state[k]) for k in list(state)[:4]] == ["<UninitializedParameter>"] * 2 + [
        "<UninitializedBuffer>"] * 2
    assert torch.equal(state["num_batches_tracked"], torch.tensor(0))
    x = torch.randn(*shape, dtype=torch.float64)
    lazy.to(torch.float64)
    y = lazy(x)
    plain = plain_cls(3, affine=True, track_running_stats=True, dtype=torch.float64)
    expected = plain(x)
    assert type(lazy) is plain_cls and repr(lazy) == repr(plain) and lazy.num_features == 3
    for key, value in plain.state_dict().items():
        torch.testing.assert_close(lazy.state_dict()[key], value)
    torch.testing.assert_close(y, expected)
    assert type(lazy.running_mean) is torch.Tensor and type(lazy.weight) is nn.Parameter
    y.pow(2).sum().backward()
    expected.pow(2).sum().backward()
    torch.testing.assert_close(lazy.weight.grad, plain.weight.grad)


def test_norm_settings():
    norm = nn.LazyBatchNorm1d(eps=1e-3, momentum=None, affine=False, bias=False,
                              dtype=torch.float64)
    assert repr(norm) == ("LazyBatchNorm1d(0, eps=0.001, momentum=None, affine=False, "
                          "bias=False, track_running_stats=True)")
    assert list(norm.state_dict()) == ["running_mean", "running_var", "num_batches_tracked"]
    norm(torch.randn(4, 5, dtype=torch.float64))
    assert norm.running_mean.shape == (5,) and norm.running_mean.dtype == torch.float64
    untracked = nn.LazyInstanceNorm1d(affine=False, track_running_stats=False)
    assert not untracked.has_uninitialized_params() and list(untracked.state_dict()) == []
    with raises(ValueError, "expected 4D input (got 2D input)"):
        nn.LazyBatchNorm2d()(torch.randn(2, 3))
    with raises(IndexError, "tuple index out of range"):
        nn.LazyBatchNorm1d()(torch.randn(3))


def test_an_unbatched_instance_norm_reads_dimension_one():
    norm = nn.LazyInstanceNorm1d()
    with raises(ValueError, "expected input's size at dim=0 to match num_features (5), but "
                "got: 3."):
        norm(torch.randn(3, 5))
    assert type(norm) is nn.InstanceNorm1d and norm.num_features == 5


def test_loading_a_plain_state_fills_a_lazy_norm_and_convolution():
    source = nn.BatchNorm2d(3)
    source(torch.randn(2, 3, 2, 2))
    norm = nn.LazyBatchNorm2d()
    norm.load_state_dict(source.state_dict())
    assert type(norm) is nn.LazyBatchNorm2d and norm.num_features == 0
    for key, value in source.state_dict().items():
        assert torch.equal(norm.state_dict()[key], value)
    assert type(norm.running_mean) is torch.Tensor and type(norm.weight) is nn.Parameter
    norm.eval()
    torch.testing.assert_close(norm(torch.ones(1, 3, 2, 2)), source.eval()(torch.ones(1, 3, 2, 2)))
    assert type(norm) is nn.BatchNorm2d and norm.num_features == 0  # nothing was left to fill
    conv_source = nn.Conv1d(2, 4, 3)
    conv = nn.LazyConv1d(4, 3)
    conv.load_state_dict(conv_source.state_dict())
    assert conv.weight.shape == (4, 2, 3) and torch.equal(conv.bias, conv_source.bias)
    torch.testing.assert_close(conv(torch.ones(1, 2, 5)), conv_source(torch.ones(1, 2, 5)))
    assert type(conv) is nn.Conv1d and conv.in_channels == 0
