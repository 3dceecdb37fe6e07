"""torch.optim.lr_scheduler: how last_epoch drives the rates, the warnings, and the saved
state."""

import math
import warnings
from collections import Counter

import pytest
import torch
from torch.optim import lr_scheduler as L

from conformance._support import raises

STEP_ORDER = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value "
    "of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
STEP_REPLACED = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before `lr_scheduler.step()`. "
    "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
EPOCH = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
    "where possible. Please use `scheduler.step()` to step the scheduler. During the "
    "deprecation, if epoch is different from None, the closed form is used instead of the new "
    "chainable form, where available. Please open an issue if you are unable to replicate your "
    "use case: https://github.com/pytorch/pytorch/issues/new/choose.")
GET_LR = "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."
BASE_KEYS = ["base_lrs", "last_epoch", "_step_count", "_is_initial",
             "_get_lr_called_within_step", "_last_lr"]


def _sgd(lrs=(0.1, 0.03), momentum=0.9):
    return torch.optim.SGD([{"params": [torch.nn.Parameter(torch.zeros(2))], "lr": lr}
                            for lr in lrs], lr=0.5, momentum=momentum)


def _lrs(opt):
    return [group["lr"] for group in opt.param_groups]


def test_building_takes_the_first_step_and_records_initial_lr():
    opt = _sgd()
    opt.param_groups[1]["initial_lr"] = 0.25  # kept: a scheduler before this one set it
    sched = L.StepLR(opt, 3)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.25]
    assert sched.base_lrs == [0.1, 0.25]
    assert (sched.last_epoch, sched._step_count) == (0, 1)
    assert sched.get_last_lr() == _lrs(opt) == [0.1, 0.03]
    assert sched.get_last_lr() is not sched.get_last_lr().copy()


def _warnings_of(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [(w.category, str(w.message)) for w in caught], caught


def test_stepping_the_scheduler_first_warns_once_at_the_caller():
    opt = _sgd()
    sched = L.StepLR(opt, 2)
    _, seen, caught = _warnings_of(sched.step)
    assert seen == [(UserWarning, STEP_ORDER)]
    assert caught[0].filename == __file__
    assert _warnings_of(sched.step)[1] == []  # only the first step checks


def test_the_right_order_is_quiet():
    opt = _sgd()
    sched = L.ExponentialLR(opt, 0.5)
    opt.step()
    assert opt._opt_called is True
    assert _warnings_of(sched.step)[1] == []


def test_replacing_the_optimizers_step_afterwards_warns_so():
    opt = _sgd()
    sched = L.StepLR(opt, 2)
    opt.step = lambda *args, **kwargs: None
    assert _warnings_of(sched.step)[1] == [(UserWarning, STEP_REPLACED)]


def test_the_optimizers_step_is_wrapped_once_for_all_its_schedulers():
    opt = _sgd()
    L.StepLR(opt, 2)
    wrapped = opt.step
    L.ExponentialLR(opt, 0.5)
    assert opt.step is wrapped and wrapped._wrapped_by_lr_sched is True
    assert "step" in vars(opt) and wrapped.__name__ == "step"
    assert not hasattr(opt, "_opt_called")


def test_an_epoch_given_to_step_warns_and_uses_the_closed_form():
    opt = _sgd()
    sched = L.ExponentialLR(opt, 0.7)
    opt.step()
    for epoch in range(1, 8):
        _, seen, _ = _warnings_of(lambda e=epoch: sched.step(e))
        assert seen == [(UserWarning, EPOCH)]
    assert sched.get_last_lr() == [0.1 * 0.7**7, 0.03 * 0.7**7]
    assert sched.last_epoch == 7


def test_plain_steps_chain_from_the_current_rate():
    opt = _sgd(lrs=(0.3, 0.03))
    sched = L.ExponentialLR(opt, 0.7)
    expected = [0.3, 0.03]
    for _ in range(7):
        opt.step()
        sched.step()
        expected = [lr * 0.7 for lr in expected]
        assert sched.get_last_lr() == _lrs(opt) == expected
    assert expected[0] != 0.3 * 0.7**7  # the two forms round apart here


def test_a_rate_changed_by_hand_is_where_the_chain_goes_on():
    opt = _sgd()
    sched = L.StepLR(opt, 2, gamma=0.5)
    opt.param_groups[0]["lr"] = 1.0
    for expected in [1.0, 0.5, 0.5, 0.25]:
        opt.step()
        sched.step()
        assert opt.param_groups[0]["lr"] == expected


def test_get_lr_outside_step_warns():
    opt = _sgd()
    sched = L.StepLR(opt, 2)
    assert _warnings_of(sched.get_lr)[1] == [(UserWarning, GET_LR)]
    restarts = L.CosineAnnealingWarmRestarts(_sgd(), 2)
    assert _warnings_of(restarts.get_lr)[1] == [(UserWarning, GET_LR)]
    assert sched._get_lr_called_within_step is False


def test_a_subclass_needs_only_get_lr():
    class Halving(L.LRScheduler):
        def get_lr(self):
            return [base * 0.5**self.last_epoch for base in self.base_lrs]

    opt = _sgd()
    sched = Halving(opt)
    for _ in range(3):
        opt.step()
        sched.step()
    assert sched.get_last_lr() == [0.0125, 0.00375] and sched._step_count == 4
    assert list(sched.state_dict()) == BASE_KEYS


@pytest.mark.parametrize("make, own", [
    (lambda o: L.StepLR(o, 3), ["step_size", "gamma"]),
    (lambda o: L.MultiStepLR(o, [2, 2, 5]), ["milestones", "gamma"]),
    (lambda o: L.LinearLR(o), ["start_factor", "end_factor", "total_iters"]),
    (lambda o: L.CosineAnnealingLR(o, 5), ["T_max", "eta_min"]),
    (lambda o: L.CosineAnnealingWarmRestarts(o, 3), ["T_0", "T_i", "T_mult", "eta_min", "T_cur"]),
])
def test_the_saved_state_is_the_schedulers_attributes(make, own):
    sched = make(_sgd())
    state = sched.state_dict()
    assert list(state) == own + BASE_KEYS
    assert "optimizer" not in state


def test_milestones_are_counted():
    opt = _sgd()
    sched = L.MultiStepLR(opt, [2, 2, 5], gamma=0.5)
    assert sched.milestones == Counter({2: 2, 5: 1})
    for _ in range(2):
        opt.step()
        sched.step()
    assert sched.get_last_lr() == [0.1 * 0.5**2, 0.03 * 0.5**2]


def test_load_state_dict_restores_the_counters():
    opt = _sgd()
    sched = L.MultiStepLR(opt, [2, 4])
    for _ in range(3):
        opt.step()
        sched.step()
    other = L.MultiStepLR(_sgd(), [9])
    other.load_state_dict(sched.state_dict())
    assert (other.milestones, other.last_epoch, other._step_count) == (Counter({2: 1, 4: 1}), 3, 4)
    assert other.get_last_lr() == sched.get_last_lr()


def test_a_lambdas_attributes_are_saved_a_plain_functions_are_not():
    class Decay:
        def __init__(self):
            self.k = 0.5

        def __call__(self, epoch):
            return self.k**epoch

    decay = Decay()
    sched = L.LambdaLR(_sgd(), [decay, lambda e: 1.0])
    decay.k = 0.25
    state = sched.state_dict()
    assert state["lr_lambdas"] == [{"k": 0.25}, None] and list(state)[-1] == "lr_lambdas"
    fresh = Decay()
    L.LambdaLR(_sgd(), [fresh, lambda e: 2.0]).load_state_dict(state)
    assert fresh.k == 0.25 and "lr_lambdas" in state


def test_schedulers_of_schedulers_save_each_ones_state():
    opt = _sgd()
    sched = L.SequentialLR(opt, [L.ConstantLR(opt), L.StepLR(opt, 2)], [3])
    state = sched.state_dict()
    assert list(state) == ["_milestones", "last_epoch", "_last_lr", "_schedulers"]
    assert [list(s)[:2] for s in state["_schedulers"]] == [["factor", "total_iters"],
                                                            ["step_size", "gamma"]]
    chained = L.ChainedScheduler([L.ConstantLR(opt), L.StepLR(opt, 2)])
    assert list(chained.state_dict()) == ["_last_lr", "_schedulers"]


def test_sequential_hands_over_at_the_milestone():
    opt = _sgd(lrs=(1.0,))
    warm = L.LinearLR(opt, start_factor=0.25, total_iters=3)
    decay = L.CosineAnnealingLR(opt, T_max=4)
    sched = L.SequentialLR(opt, [warm, decay], milestones=[3])
    rates = [sched.get_last_lr()[0]]
    for _ in range(5):
        opt.step()
        sched.step()
        rates.append(sched.get_last_lr()[0])
    assert rates[:4] == [0.25, 0.5, 0.75, 1.0]  # the cosine starts from its own epoch 0
    assert math.isclose(rates[5], 0.5) and decay.last_epoch == 2


def test_reduce_on_plateau_waits_for_patience_then_cools_down():
    opt = _sgd()
    sched = L.ReduceLROnPlateau(opt, patience=1, cooldown=1, factor=0.5, min_lr=[0, 0.02])
    seen = []
    for metric in [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]:
        sched.step(metric)
        seen.append(sched.get_last_lr())
    assert seen == [[0.1, 0.03]] * 2 + [[0.05, 0.02]] * 3 + [[0.025, 0.02]] * 2
    assert sched.last_epoch == 7 and sched.best == 1.0
    assert _warnings_of(lambda: sched.step(1.0, 20))[1] == [(UserWarning, EPOCH)]
    assert sched.last_epoch == 20


def test_reduce_on_plateau_and_a_group_added_later():
    opt = _sgd()
    sched = L.ReduceLROnPlateau(opt, patience=0)
    opt.add_param_group({"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 1.0})
    sched.step(1.0)
    sched.step(2.0)
    assert sched.min_lrs == [0, 0, 0] and sched.get_last_lr()[2] == 0.1
    strict = L.ReduceLROnPlateau(_sgd(), patience=0, min_lr=[0, 0])
    strict.optimizer.add_param_group({"params": [torch.nn.Parameter(torch.zeros(1))]})
    strict.step(1.0)
    with raises(RuntimeError, "The number of param groups in the `optimizer` (3) differs from "
                "when `ReduceLROnPlateau` was initialized (2), usually due to a new param group "
                "being added to the optimizer. Please modify the `min_lrs` field to match the "
                "length of the `optimizer` param groups."):
        strict.step(2.0)


def test_one_cycle_refuses_to_step_past_its_end():
    opt = _sgd()
    sched = L.OneCycleLR(opt, 0.1, total_steps=3)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1 / 25] * 2
    assert [(g["max_momentum"], g["base_momentum"]) for g in opt.param_groups] == [(0.95, 0.85)] * 2
    for _ in range(3):
        opt.step()
        sched.step()
    with raises(ValueError, "Tried to step 4 times. The specified number of total steps is 3"):
        sched.step()
    assert sched.last_epoch == 4 and sched._get_lr_called_within_step is False


def test_cyclic_moves_adams_first_beta():
    opt = torch.optim.Adam([torch.nn.Parameter(torch.zeros(2))], lr=0.5, betas=(0.7, 0.99))
    sched = L.CyclicLR(opt, 0.01, 0.1, step_size_up=2)
    assert opt.param_groups[0]["betas"] == (0.9, 0.99) and _lrs(opt) == [0.01]
    opt.step()
    sched.step()
    assert opt.param_groups[0]["betas"] == (0.9 - (0.9 - 0.8) * 0.5, 0.99)
    assert sched.get_last_lr() == [0.01 + (0.1 - 0.01) * 0.5]
    assert sched.state_dict()["_scale_fn_custom"] is None


def test_warm_restarts_keep_no_step_count():
    opt = _sgd()
    sched = L.CosineAnnealingWarmRestarts(opt, 2, T_mult=2)
    for _ in range(5):
        opt.step()
        sched.step()
    assert (sched._step_count, sched.last_epoch, sched.T_cur, sched.T_i) == (0, 5, 3, 4)
    assert _warnings_of(lambda: sched.step(2.5))[1] == []
    assert (sched.last_epoch, sched.T_cur, sched.T_i) == (2, 0.5, 4)


def test_a_tensor_rate_is_filled_in_place():
    lr = torch.tensor(0.01)
    opt = torch.optim.Adam([torch.nn.Parameter(torch.zeros(2))], lr=lr)
    sched = L.StepLR(opt, 2, 0.5)
    initial = opt.param_groups[0]["initial_lr"]
    for _ in range(5):
        opt.step()
        sched.step()
    assert opt.param_groups[0]["lr"] is lr and lr.item() == pytest.approx(0.0025)
    assert initial is not lr and initial.item() == pytest.approx(0.01)
    assert sched.get_last_lr()[0] is not lr and sched.get_last_lr()[0].item() == lr.item()


def test_the_module_lists_torchs_names():
    assert L.__all__ == ["LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR",
                         "LinearLR", "ExponentialLR", "SequentialLR", "CosineAnnealingLR",
                         "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
                         "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR",
                         "LRScheduler"]
    assert torch.optim.lr_scheduler is L and "lr_scheduler" in torch.optim.__all__
    assert issubclass(L._LRScheduler, L.LRScheduler)
    assert L.EPOCH_DEPRECATION_WARNING == EPOCH
