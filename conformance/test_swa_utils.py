"""torch.optim.swa_utils: the averaged model's module and buffer, its updates, SWALR's
rates and refusals, and update_bn."""

import math
import warnings

import pytest
import torch
import torch.optim.swa_utils
from torch.optim.swa_utils import SWALR, AveragedModel, get_swa_avg_fn, update_bn

from conformance._support import raises


def _model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(3))


def test_the_package_exports_the_module_and_its_names():
    assert "swa_utils" in torch.optim.__all__ and torch.optim.swa_utils.SWALR is SWALR
    assert sorted(torch.optim.swa_utils.__all__) == sorted([
        "AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn",
        "get_ema_avg_fn", "get_swa_avg_fn"])


def test_an_averaged_model_holds_a_copy_and_a_count():
    model = _model()
    averaged = AveragedModel(model)
    assert repr(averaged) == (
        "AveragedModel(\n  (module): Sequential(\n"
        "    (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "    (1): BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, "
        "track_running_stats=True)\n  )\n)")
    assert list(averaged.state_dict()) == [
        "n_averaged", "module.0.weight", "module.0.bias", "module.1.weight", "module.1.bias",
        "module.1.running_mean", "module.1.running_var", "module.1.num_batches_tracked"]
    n = averaged.n_averaged
    assert (n.dtype, n.shape, n.item()) == (torch.int64, torch.Size([]), 0)
    assert averaged.module[0].weight is not model[0].weight
    assert torch.equal(averaged.module[0].weight, model[0].weight)
    x = torch.ones(4, 2)
    assert torch.equal(averaged(x), averaged.module(x))


def test_the_first_update_copies_and_the_later_ones_average():
    model = _model()
    averaged = AveragedModel(model)
    with torch.no_grad():
        model[0].bias.copy_(torch.tensor([3.0, 6.0, 9.0]))
    averaged.update_parameters(model)
    assert averaged.module[0].bias.tolist() == [3.0, 6.0, 9.0] and averaged.n_averaged.item() == 1
    with torch.no_grad():
        model[0].bias.zero_()
        model[1].running_mean.fill_(5.0)
    averaged.update_parameters(model)
    assert averaged.module[0].bias.tolist() == [1.5, 3.0, 4.5]
    assert averaged.module[1].running_mean.tolist() == [5.0] * 3  # buffers copied, not averaged
    assert averaged.n_averaged.item() == 2 and averaged.module[0].bias.requires_grad


def test_buffers_are_averaged_when_asked():
    model = _model()
    averaged = AveragedModel(model, use_buffers=True)
    averaged.update_parameters(model)
    with torch.no_grad():
        model[1].running_mean.fill_(4.0)
    averaged.update_parameters(model)
    assert averaged.module[1].running_mean.tolist() == [2.0] * 3


def test_averaging_functions_are_refused_as_in_torch():
    with raises(AssertionError, "Only one of avg_fn and multi_avg_fn should be provided"):
        AveragedModel(_model(), avg_fn=get_swa_avg_fn(),
                      multi_avg_fn=torch.optim.swa_utils.get_swa_multi_avg_fn())
    for make in (torch.optim.swa_utils.get_ema_avg_fn, torch.optim.swa_utils.get_ema_multi_avg_fn):
        with raises(ValueError, "Invalid decay value 1.5 provided. Please provide a value in "
                                "[0,1] range."):
            make(1.5)


def test_the_one_tensor_average_is_a_new_tensor_made_without_recording():
    a, b = torch.ones(2, requires_grad=True), torch.full((2,), 4.0, requires_grad=True)
    out = get_swa_avg_fn()(a, b, torch.tensor(2))
    assert out.tolist() == [2.0, 2.0] and out.grad_fn is None


def _optimizer():
    a, b = torch.zeros(1, requires_grad=True), torch.zeros(1, requires_grad=True)
    return torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.2}], lr=0.6)


def test_swalr_anneals_to_swa_lr_along_a_cosine_and_then_holds():
    opt = _optimizer()
    sched = SWALR(opt, swa_lr=0.1, anneal_epochs=2)
    assert [g["swa_lr"] for g in opt.param_groups] == [0.1, 0.1]
    rates = [sched.get_last_lr()]
    for _ in range(3):
        opt.step()
        sched.step()
        rates.append(sched.get_last_lr())
    assert rates[0] == [0.6, 0.2]
    half = (1 - math.cos(math.pi * 0.5)) / 2
    assert math.isclose(rates[1][0], 0.1 * half + 0.6 * (1 - half))
    assert rates[2] == rates[3] and math.isclose(rates[3][0], 0.1)
    assert list(sched.state_dict()) == [  # neither the optimizer nor the annealing function
        "_anneal_strategy", "anneal_epochs", "base_lrs", "last_epoch", "_step_count",
        "_is_initial", "_get_lr_called_within_step", "_last_lr"]


def test_swalr_reloads_its_annealing_function_by_name():
    opt = _optimizer()
    sched = SWALR(opt, swa_lr=0.1, anneal_strategy="linear")
    other = SWALR(_optimizer(), swa_lr=0.1)
    other.load_state_dict(sched.state_dict())
    assert other.anneal_func(0.25) == 0.25


@pytest.mark.parametrize("options, message", [
    ({"swa_lr": [0.1]}, "swa_lr must have the same length as optimizer.param_groups. swa_lr "
                        "has 1 values, param_groups has 2."),
    ({"swa_lr": 0.1, "anneal_strategy": "step", "anneal_epochs": -1},
     "anneal_strategy must be one of 'cos' or 'linear', instead got step"),
    ({"swa_lr": 0.1, "anneal_epochs": -1}, "anneal_epochs must be equal or greater than 0, got -1"),
    ({"swa_lr": 0.1, "anneal_epochs": 2.0},
     "anneal_epochs must be equal or greater than 0, got 2.0"),
])
def test_swalr_refuses_in_torchs_order(options, message):
    with raises(ValueError, message):
        SWALR(_optimizer(), **options)


def test_swalr_get_lr_outside_a_step_warns():
    sched = SWALR(_optimizer(), swa_lr=0.1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sched.get_lr()
    assert [str(w.message) for w in caught] == [
        "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."]


def test_update_bn_resets_the_statistics_and_restores_momentum_and_mode():
    model = _model()
    model.eval()
    with torch.no_grad():
        model[1].running_mean.fill_(7.0)
    update_bn([[torch.ones(5, 2)], [torch.ones(5, 2)]], model)
    norm = model[1]
    assert norm.momentum == 0.1 and not model.training
    assert norm.num_batches_tracked.item() == 2
    assert torch.allclose(norm.running_mean, model[0](torch.ones(1, 2)).squeeze(0).detach())
    update_bn([torch.ones(1, 2)], torch.nn.Linear(2, 2))  # no batch norm: nothing to do
