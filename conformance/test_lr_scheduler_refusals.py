"""torch.optim.lr_scheduler's refusals: the checks a scheduler makes as it is built, in
torch's words and in torch's order."""

import pytest
import torch
from torch.optim import lr_scheduler as L

from conformance._support import raises

NO_INITIAL_LR = (
    "param 'initial_lr' is not specified in param_groups[0] when resuming scheduler with "
    "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from a "
    "checkpoint but haven't properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
    "for a fresh training run (not recommended)")


def _sgd(lrs=(0.1, 0.03), momentum=0.9):
    return torch.optim.SGD([{"params": [torch.nn.Parameter(torch.zeros(2))], "lr": lr}
                            for lr in lrs], lr=0.5, momentum=momentum)


# Checks made when a scheduler is built, in torch's words.
@pytest.mark.parametrize("make, kind, message", [
    (lambda o: L.StepLR("x", 3), TypeError, "str is not an Optimizer"),
    (lambda o: L.ReduceLROnPlateau(object()), TypeError, "object is not an Optimizer"),
    (lambda o: L.CyclicLR(3, 0.1, 0.2), TypeError, "int is not an Optimizer"),
    (lambda o: L.OneCycleLR(3, 0.1, 10), TypeError, "int is not an Optimizer"),
    (lambda o: L.LambdaLR(o, [lambda e: 1]), ValueError, "Expected 2 lr_lambdas, but got 1"),
    (lambda o: L.MultiplicativeLR(o, (abs,) * 3), ValueError, "Expected 2 lr_lambdas, but got 3"),
    (lambda o: L.MultiplicativeLR(o, 0.5), TypeError,
     "lr_lambda should be a function, but got float"),
    (lambda o: L.ConstantLR(o, factor=1.5), ValueError,
     "Constant multiplicative factor expected to be between 0 and 1."),
    (lambda o: L.LinearLR(o, start_factor=0), ValueError,
     "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."),
    (lambda o: L.LinearLR(o, end_factor=1.1), ValueError,
     "Ending multiplicative factor expected to be between 0 and 1."),
    (lambda o: L.SequentialLR(o, [], []), ValueError,
     "SequentialLR expects at least one scheduler, but got no scheduler."),
    (lambda o: L.SequentialLR(o, [3], []), TypeError,
     "SequentialLR at index 0 should have `optimizer` as its attribute."),
    (lambda o: L.SequentialLR(o, [L.ReduceLROnPlateau(o)], []), ValueError,
     "SequentialLR does not support `ReduceLROnPlateau` scheduler as it requires additional "
     "kwargs to be specified when calling `step`, but got one at index 0 in the given "
     "schedulers sequence."),
    (lambda o: L.SequentialLR(o, [L.StepLR(o, 2)], [3]), ValueError,
     "Sequential Schedulers expects number of schedulers provided to be one more than the "
     "number of milestone points, but got number of schedulers 1 and the number of milestones "
     "to be equal to 1"),
    (lambda o: L.ChainedScheduler([]), ValueError,
     "ChainedScheduler expects at least one scheduler to be chained, but got no scheduler."),
    (lambda o: L.ReduceLROnPlateau(o, factor=1.0), ValueError, "Factor should be < 1.0."),
    (lambda o: L.ReduceLROnPlateau(o, min_lr=[0.1]), ValueError, "expected 2 min_lrs, got 1"),
    (lambda o: L.ReduceLROnPlateau(o, mode="mid"), ValueError, "mode mid is unknown!"),
    (lambda o: L.ReduceLROnPlateau(o, threshold_mode="x"), ValueError,
     "threshold mode x is unknown!"),
    (lambda o: L.CyclicLR(o, 0.1, 0.2, mode="zig"), ValueError,
     "mode is invalid and scale_fn is None"),
    (lambda o: L.CyclicLR(o, [0.1], 0.2), ValueError,
     "base_lr must have the same length as optimizer.param_groups. base_lr has 1 values, "
     "param_groups has 2."),
    (lambda o: L.CyclicLR(o, 0.1, 0.2, base_momentum=[0.1], max_momentum=[1]), ValueError,
     "base_momentum must have the same length as optimizer.param_groups. base_momentum has 1 "
     "values, param_groups has 2."),
    (lambda o: L.OneCycleLR(o, 0.1, 10, base_momentum=[0.1], max_momentum=[1]), ValueError,
     "max_momentum must have the same length as optimizer.param_groups. max_momentum has 1 "
     "values, param_groups has 2."),
    (lambda o: L.OneCycleLR(o, 0.1, total_steps=2.0), ValueError,
     "Expected positive integer total_steps, but got 2.0"),
    (lambda o: L.OneCycleLR(o, 0.1), ValueError,
     "You must define either total_steps OR (epochs AND steps_per_epoch)"),
    (lambda o: L.OneCycleLR(o, 0.1, epochs=0, steps_per_epoch=3), ValueError,
     "Expected positive integer epochs, but got 0"),
    (lambda o: L.OneCycleLR(o, 0.1, epochs=2, steps_per_epoch=-3), ValueError,
     "Expected positive integer steps_per_epoch, but got -3"),
    (lambda o: L.OneCycleLR(o, 0.1, 10, pct_start=1), ValueError,
     "Expected float between 0 and 1 pct_start, but got 1"),
    (lambda o: L.OneCycleLR(o, 0.1, 10, anneal_strategy="sin"), ValueError,
     "anneal_strategy must be one of 'cos' or 'linear', instead got sin"),
    (lambda o: L.OneCycleLR(_plain_sgd_without_momentum(), 0.1, 10), ValueError,
     "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"),
    (lambda o: L.CosineAnnealingWarmRestarts(o, 2.0), ValueError,
     "Expected positive integer T_0, but got 2.0"),
    (lambda o: L.CosineAnnealingWarmRestarts(o, 2, T_mult=0), ValueError,
     "Expected integer T_mult >= 1, but got 0"),
    (lambda o: L.CosineAnnealingWarmRestarts(o, 2, eta_min="a"), ValueError,
     "Expected float or int eta_min, but got a of type <class 'str'>"),
    (lambda o: L.CosineAnnealingWarmRestarts(o, 2).step(-1), ValueError,
     "Expected non-negative epoch, but got -1"),
    (lambda o: L.LRScheduler(o), NotImplementedError, ""),
])
def test_refusals(make, kind, message):
    with raises(kind, message):
        make(_sgd())


def _plain_sgd_without_momentum():
    """An optimizer whose defaults hold neither a momentum nor betas."""
    opt = _sgd(momentum=0)
    del opt.defaults["momentum"]
    return opt


def test_schedulers_of_another_optimizer_are_refused_naming_it():
    opt, other = _sgd(), _sgd()
    for make, kind in [(lambda s: L.SequentialLR(opt, s, [1]), "SequentialLR"),
                       (lambda s: L.ChainedScheduler(s), "ChainedScheduler")]:
        schedulers = [L.ConstantLR(opt), L.StepLR(other, 2)]
        with raises(ValueError, f"{kind} expects all schedulers to belong to the same optimizer, "
                    f"but got scheduler StepLR at index 1 has {other}, which is different from "
                    "SGD."):
            make(schedulers)


def test_resuming_needs_initial_lr_in_every_group():
    with pytest.raises(KeyError) as caught:
        L.StepLR(_sgd(), 3, last_epoch=4)
    assert caught.value.args == (NO_INITIAL_LR,)
