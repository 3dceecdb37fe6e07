"""Black-box tests: nn.BatchNorm1d/2d/3d, nn.InstanceNorm1d/2d/3d and nn.GroupNorm: their
parameters and buffers, running statistics in training and evaluation, what they print,
save and load, their gradients, and what they refuse.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from conformance._support import raises


def test_parameters_and_buffers():
    bn = nn.BatchNorm2d(3)
    assert [n for n, _ in bn.named_parameters()] == ["weight", "bias"]
    assert [n for n, _ in bn.named_buffers()] == [
        "running_mean", "running_var", "num_batches_tracked"]
    assert bn.weight.tolist() == [1.0] * 3 and bn.bias.tolist() == [0.0] * 3
    assert bn.running_mean.tolist() == [0.0] * 3 and bn.running_var.tolist() == [1.0] * 3
    count = bn.num_batches_tracked
    assert count.dtype == torch.int64 and count.dim() == 0 and count.item() == 0
    assert not count.requires_grad and not bn.running_mean.requires_grad
    assert list(bn.state_dict()) == [
        "weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert bn.state_dict()._metadata[""]["version"] == 2


def test_options_remove_parameters_and_buffers():
    bn = nn.BatchNorm1d(4, affine=False, track_running_stats=False)
    assert bn.weight is None and bn.bias is None and bn.running_mean is None
    assert bn.num_batches_tracked is None and list(bn.state_dict()) == []
    assert nn.BatchNorm1d(4, bias=False).bias is None
    inorm = nn.InstanceNorm2d(3)
    assert inorm.weight is None and inorm.running_var is None
    tracked = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
    assert list(tracked.state_dict()) == [
        "weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    gn = nn.GroupNorm(2, 4, affine=False)
    assert gn.weight is None and gn.bias is None and list(gn.state_dict()) == []


def test_dtype_conversion_keeps_the_count_integral():
    bn = nn.BatchNorm1d(3, dtype=torch.float64)
    assert bn.weight.dtype == bn.running_var.dtype == torch.float64
    assert bn.float().running_mean.dtype == torch.float32
    assert bn.num_batches_tracked.dtype == torch.int64


def test_printed_forms():
    assert repr(nn.BatchNorm2d(3)) == (
        "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, "
        "track_running_stats=True)")
    assert repr(nn.BatchNorm1d(4, 1e-3, None, False, False)) == (
        "BatchNorm1d(4, eps=0.001, momentum=None, affine=False, bias=False, "
        "track_running_stats=False)")
    assert repr(nn.InstanceNorm3d(2)) == (
        "InstanceNorm3d(2, eps=1e-05, momentum=0.1, affine=False, bias=False, "
        "track_running_stats=False)")
    assert repr(nn.GroupNorm(2, 4, bias=False)) == (
        "GroupNorm(2, 4, eps=1e-05, affine=True, bias=False)")


def _batch_stats(x):
    dims = [0, *range(2, x.dim())]
    return x.mean(dims), x.var(dims, unbiased=True)


def test_training_updates_running_statistics_with_momentum():
    torch.manual_seed(0)
    bn = nn.BatchNorm2d(3, momentum=0.25)
    x = torch.randn(4, 3, 2, 5, dtype=torch.float64) * 2 + 1
    bn.double()
    out = bn(x)
    mean, var = _batch_stats(x)
    assert torch.allclose(bn.running_mean, 0.25 * mean, rtol=0, atol=1e-12)
    assert torch.allclose(bn.running_var, 0.75 + 0.25 * var, rtol=0, atol=1e-12)
    assert bn.num_batches_tracked.item() == 1
    expected = F.batch_norm(x, None, None, bn.weight, bn.bias, True)
    assert torch.equal(out, expected)


def test_momentum_none_is_a_cumulative_average():
    torch.manual_seed(0)
    bn = nn.BatchNorm1d(2, momentum=None).double()
    batches = [torch.randn(5, 2, dtype=torch.float64) * (i + 1) for i in range(3)]
    for x in batches:
        bn(x)
    means = torch.stack([x.mean(0) for x in batches]).mean(0)
    variances = torch.stack([x.var(0) for x in batches]).mean(0)
    assert torch.allclose(bn.running_mean, means, rtol=0, atol=1e-12)
    assert torch.allclose(bn.running_var, variances, rtol=0, atol=1e-12)
    assert bn.num_batches_tracked.item() == 3


def test_evaluation_uses_and_keeps_running_statistics():
    torch.manual_seed(0)
    bn = nn.BatchNorm1d(3)
    bn(torch.randn(6, 3, 4) * 3 + 2)
    bn.eval()
    kept = (bn.running_mean.clone(), bn.running_var.clone())
    x = torch.randn(2, 3, 4)
    out = bn(x)
    mean, var = kept
    expected = (x - mean[:, None]) / (var[:, None] + bn.eps).sqrt()
    assert torch.allclose(out, expected, rtol=1e-6, atol=1e-6)
    assert torch.equal(bn.running_mean, kept[0]) and torch.equal(bn.running_var, kept[1])
    assert bn.num_batches_tracked.item() == 1


def test_without_running_statistics_the_batch_normalizes_in_both_modes():
    torch.manual_seed(0)
    bn = nn.BatchNorm1d(3, track_running_stats=False)
    x = torch.randn(5, 3)
    trained = bn(x)
    assert torch.equal(bn.eval()(x), trained)


def test_reset_running_stats():
    torch.manual_seed(0)
    bn = nn.BatchNorm1d(2)
    bn(torch.randn(4, 2) + 3)
    with torch.no_grad():
        bn.weight.fill_(2)
    bn.reset_running_stats()
    assert bn.running_mean.tolist() == [0.0, 0.0] and bn.running_var.tolist() == [1.0, 1.0]
    assert bn.num_batches_tracked.item() == 0 and bn.weight.tolist() == [2.0, 2.0]
    bn.reset_parameters()
    assert bn.weight.tolist() == [1.0, 1.0]


def test_seeded_values_and_gradients_are_torchs():
    torch.manual_seed(0)
    bn = nn.BatchNorm2d(3)
    x = torch.randn(4, 3, 2, 2, requires_grad=True)
    y = bn(x)
    (y * torch.arange(48.0).reshape(4, 3, 2, 2)).sum().backward()
    assert type(y.grad_fn).__name__ == "NativeBatchNormBackward0"
    assert [round(v, 4) for v in y[0, 0].flatten().tolist()] == [
        -1.7529, -1.7919, -0.4668, -0.7361]
    assert [round(v, 3) for v in x.grad[0, 0].flatten().tolist()] == [
        -11.875, -10.032, -21.248, -17.2]
    assert [round(v, 3) for v in bn.weight.grad.tolist()] == [104.226, 45.257, -7.399]
    assert bn.bias.grad.tolist() == [312.0, 376.0, 440.0]


def test_double_backward():
    torch.manual_seed(0)
    bn = nn.BatchNorm1d(2).double()
    x = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(bn(x).pow(3).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.pow(2).sum(), x)
    assert [round(v, 6) for v in gg[:, 0].tolist()] == [
        -7.713728, -0.578095, 18.225159, -20.529397, 10.596061]


@pytest.mark.parametrize(("module", "shape", "message"), [
    (nn.BatchNorm1d, (2, 3, 4, 5), "expected 2D or 3D input (got 4D input)"),
    (nn.BatchNorm1d, (3,), "expected 2D or 3D input (got 1D input)"),
    (nn.BatchNorm2d, (2, 3, 4), "expected 4D input (got 3D input)"),
    (nn.BatchNorm3d, (2, 3, 4, 4), "expected 5D input (got 4D input)"),
    (nn.InstanceNorm1d, (2, 3, 4, 5), "expected 2D or 3D input (got 4D input)"),
    (nn.InstanceNorm2d, (3, 4), "expected 3D or 4D input (got 2D input)"),
    (nn.InstanceNorm3d, (1, 3, 2, 2, 2, 2), "expected 4D or 5D input (got 6D input)"),
])
def test_wrong_number_of_dimensions(module, shape, message):
    m = module(3)
    with raises(ValueError, message):
        m(torch.zeros(shape))
    if m.num_batches_tracked is not None:
        assert m.num_batches_tracked.item() == 0


def test_one_value_per_channel_is_refused_in_training_only():
    bn = nn.BatchNorm1d(3)
    with raises(ValueError, "Expected more than 1 value per channel when training, got input "
                            "size torch.Size([1, 3])"):
        bn(torch.ones(1, 3))
    assert bn.num_batches_tracked.item() == 1  # counted before the refusal, as in torch
    assert bn.running_mean.tolist() == [0.0] * 3
    assert bn.eval()(torch.ones(1, 3)).shape == (1, 3)


def test_wrong_number_of_channels():
    with raises(RuntimeError, "running_mean should contain 4 elements not 3"):
        nn.BatchNorm2d(3)(torch.zeros(2, 4, 3, 3))
    with raises(ValueError, "expected input's size at dim=1 to match num_features (3), but "
                            "got: 4."):
        nn.InstanceNorm1d(3, affine=True)(torch.zeros(2, 4, 5))
    with raises(ValueError, "expected input's size at dim=0 to match num_features (3), but "
                            "got: 4."):
        nn.InstanceNorm1d(3, affine=True)(torch.zeros(4, 5))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.InstanceNorm1d(3)(torch.randn(2, 4, 5))
    assert [str(w.message) for w in caught] == [
        "input's size at dim=1 does not match num_features. You can silence this warning by "
        "not passing in num_features, which is not used because affine=False"]


def test_instance_norm_modules():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 4, dtype=torch.float64)
    m = nn.InstanceNorm1d(3, track_running_stats=True, momentum=0.5).double()
    out = m(x)
    assert torch.equal(out, F.instance_norm(x))
    unbatched = nn.InstanceNorm1d(3)(x[0])
    assert torch.allclose(unbatched, out[0], rtol=0, atol=1e-12)
    expected = 0.5 * x.mean(2).mean(0)
    assert torch.allclose(m.running_mean, expected, rtol=0, atol=1e-12)
    assert m.num_batches_tracked.item() == 0  # counted by batch norm only
    m.eval()
    y = m(x)
    var = m.running_var[:, None]
    assert torch.allclose(y, (x - m.running_mean[:, None]) / (var + m.eps).sqrt(), atol=1e-12)
    with raises(ValueError, "Expected more than 1 spatial element when training, got input "
                            "size torch.Size([1, 3, 1])"):
        nn.InstanceNorm1d(3)(torch.ones(3, 1))


def test_group_norm_module():
    torch.manual_seed(0)
    gn = nn.GroupNorm(2, 4)
    assert gn.weight.tolist() == [1.0] * 4 and gn.bias.tolist() == [0.0] * 4
    x = torch.randn(3, 4, 5, requires_grad=True)
    out = gn(x)
    assert type(out.grad_fn).__name__ == "NativeGroupNormBackward0"
    assert torch.equal(out, F.group_norm(x, 2, gn.weight, gn.bias))
    assert torch.equal(gn.eval()(x), out)
    with raises(ValueError, "num_channels (4) must be divisible by num_groups (3)"):
        nn.GroupNorm(3, 4)
    with raises(RuntimeError, "Expected number of channels in input to be divisible by "
                              "num_groups, but got input of shape [2, 3, 4] and num_groups=2"):
        gn(torch.zeros(2, 3, 4))


def test_state_dict_round_trip():
    torch.manual_seed(0)
    source = nn.BatchNorm1d(3)
    source(torch.randn(4, 3) * 2)
    source(torch.randn(4, 3))
    target = nn.BatchNorm1d(3)
    assert str(target.load_state_dict(source.state_dict())) == "<All keys matched successfully>"
    assert torch.equal(target.running_mean, source.running_mean)
    assert torch.equal(target.running_var, source.running_var)
    assert target.num_batches_tracked.item() == 2
    plain = nn.BatchNorm1d(3, track_running_stats=False)
    result = plain.load_state_dict(source.state_dict(), strict=False)
    assert result.unexpected_keys == ["running_mean", "running_var", "num_batches_tracked"]


def _without_count(state):
    return {k: v for k, v in state.items() if not k.endswith("num_batches_tracked")}


def test_a_checkpoint_from_before_the_count_loads():
    source = nn.BatchNorm1d(3)
    with torch.no_grad():
        source.running_mean.fill_(2)
    old = _without_count(source.state_dict())  # a plain dict: no version
    target = nn.BatchNorm1d(3)
    target.num_batches_tracked.fill_(7)
    assert str(target.load_state_dict(old)) == "<All keys matched successfully>"
    assert target.running_mean.tolist() == [2.0] * 3 and target.num_batches_tracked.item() == 7
    assert "num_batches_tracked" not in old
    seq = nn.Sequential(nn.BatchNorm1d(3))
    assert seq.load_state_dict({"0." + k: v for k, v in old.items()}).missing_keys == []


def test_a_current_checkpoint_must_have_the_count():
    state = nn.BatchNorm1d(3).state_dict()
    del state["num_batches_tracked"]
    with raises(RuntimeError, 'Error(s) in loading state_dict for BatchNorm1d:\n\tMissing '
                              'key(s) in state_dict: "num_batches_tracked". '):
        nn.BatchNorm1d(3).load_state_dict(state)
    state._metadata[""]["version"] = 1
    assert nn.BatchNorm1d(3).load_state_dict(state).missing_keys == []
