"""SyncBatchNorm with no process group running: batch norm over the local batch for any input
of two or more dimensions, its own refusals, and convert_sync_batchnorm handing each batch norm's
tensors to its replacement. The same assertions run on torch."""

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from conformance._support import raises


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 3, 2, 2), (2, 3, 2, 1, 2, 2)])
def test_it_is_batch_norm_over_the_local_batch(shape):
    torch.manual_seed(0)
    norm = nn.SyncBatchNorm(3)
    x = torch.randn(*shape, requires_grad=True)
    mean, var = torch.zeros(3), torch.ones(3)
    out = norm(x)
    want = F.batch_norm(x, mean, var, norm.weight, norm.bias, True, 0.1, 1e-5)
    assert out.grad_fn.name() == "NativeBatchNormBackward0"
    assert torch.equal(out, want)
    assert torch.equal(norm.running_mean, mean) and torch.equal(norm.running_var, var)
    assert norm.num_batches_tracked.item() == 1
    g1, = torch.autograd.grad(out.sum(), x)
    g2, = torch.autograd.grad(want.sum(), x)
    assert torch.equal(g1, g2)
    norm.eval()
    assert torch.equal(norm(x), F.batch_norm(x, mean, var, norm.weight, norm.bias, False, 0.1,
                                             1e-5))


def test_a_cumulative_average_without_momentum():
    torch.manual_seed(0)
    norm = nn.SyncBatchNorm(3, momentum=None)
    a, b = torch.randn(4, 3), torch.randn(4, 3)
    norm(a)
    norm(b)
    torch.testing.assert_close(norm.running_mean, (a.mean(0) + b.mean(0)) / 2)
    assert norm.num_batches_tracked.item() == 2


def test_what_it_holds_and_prints():
    norm = nn.SyncBatchNorm(3, process_group="group")
    assert norm.process_group == "group" and nn.SyncBatchNorm(3).process_group is None
    assert list(norm.state_dict()) == ["weight", "bias", "running_mean", "running_var",
                                       "num_batches_tracked"]
    assert repr(norm) == ("SyncBatchNorm(3, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                          "track_running_stats=True)")
    assert nn.SyncBatchNorm(3, bias=False).bias is None
    plain = nn.SyncBatchNorm(3, affine=False, track_running_stats=False)
    assert list(plain.state_dict()) == [] and plain(torch.randn(4, 3)).shape == (4, 3)
    assert nn.SyncBatchNorm is torch.nn.modules.batchnorm.SyncBatchNorm
    assert isinstance(norm, torch.nn.modules.batchnorm._BatchNorm)


def test_it_refuses_one_dimension_and_no_channels():
    norm = nn.SyncBatchNorm(3)
    with raises(ValueError, "expected at least 2D input (got 1D input)"):
        norm(torch.randn(3))
    with raises(ValueError, "SyncBatchNorm number of input channels should be non-zero"):
        norm(torch.randn(4, 0))
    assert norm.num_batches_tracked.item() == 0


def test_convert_puts_one_in_place_of_each_batch_norm():
    inner = nn.BatchNorm2d(3, affine=False)
    first = nn.BatchNorm1d(3, momentum=None)
    first.qconfig = "kept"
    model = nn.Sequential(nn.Linear(2, 3), first, nn.Sequential(inner), nn.InstanceNorm1d(3))
    inner.eval()
    out = nn.SyncBatchNorm.convert_sync_batchnorm(model, process_group="g")
    assert out is model and type(out[0]) is nn.Linear and type(out[3]) is nn.InstanceNorm1d
    assert type(out[1]) is nn.SyncBatchNorm and type(out[2][0]) is nn.SyncBatchNorm
    assert out[1].weight is first.weight and out[1].running_mean is first.running_mean
    assert out[1].num_batches_tracked is first.num_batches_tracked
    assert out[1].momentum is None and out[1].process_group == "g" and out[1].qconfig == "kept"
    assert out[2][0].training is False and out[2][0].bias is None
    alone = nn.BatchNorm1d(2, track_running_stats=False)
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(alone)
    assert converted is not alone and converted.running_mean is None
