"""Oracle test: refgrad's and torch's learning-rate schedulers give the same rates, step for step.

A schedule is Python float arithmetic on the rates the parameter groups hold, so the two
libraries agree to the bit when they do the same operations in the same order: the rates
are compared by their reprs, with the momenta a cyclic schedule writes, the epoch
counters, the warnings and the saved state.
"""

import warnings

import pytest
import torch

import refgrad

CASES = {
    "LambdaLR": lambda L, o: L.LambdaLR(o, lambda e: 0.95**e),
    "LambdaLR per group": lambda L, o: L.LambdaLR(
        o, [lambda e: 0.95**e, lambda e: 1 / (e + 1), lambda e: 0.5]),
    "MultiplicativeLR": lambda L, o: L.MultiplicativeLR(o, lambda e: 0.93),
    "StepLR": lambda L, o: L.StepLR(o, 3, gamma=0.7),
    "MultiStepLR": lambda L, o: L.MultiStepLR(o, [3, 7, 7, 20], gamma=0.3),
    "ConstantLR": lambda L, o: L.ConstantLR(o, factor=0.3, total_iters=6),
    "LinearLR": lambda L, o: L.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=13),
    "LinearLR defaults": lambda L, o: L.LinearLR(o),
    "ExponentialLR": lambda L, o: L.ExponentialLR(o, 0.91),
    "CosineAnnealingLR": lambda L, o: L.CosineAnnealingLR(o, T_max=7, eta_min=0.001),
    "CosineAnnealingLR to zero": lambda L, o: L.CosineAnnealingLR(o, T_max=10),
    "PolynomialLR": lambda L, o: L.PolynomialLR(o, total_iters=17, power=2.3),
    "SequentialLR": lambda L, o: L.SequentialLR(
        o, [L.LinearLR(o, 0.2, total_iters=5), L.CosineAnnealingLR(o, 9),
            L.ExponentialLR(o, 0.9)], milestones=[5, 15]),
    "ChainedScheduler": lambda L, o: L.ChainedScheduler(
        [L.ConstantLR(o, 0.2, total_iters=4), L.ExponentialLR(o, 0.9), L.StepLR(o, 5, 0.5)]),
    "CosineAnnealingWarmRestarts": lambda L, o: L.CosineAnnealingWarmRestarts(
        o, 4, T_mult=2, eta_min=0.0001),
    "CosineAnnealingWarmRestarts T_mult=1": lambda L, o: L.CosineAnnealingWarmRestarts(o, 5),
    "OneCycleLR": lambda L, o: L.OneCycleLR(o, max_lr=[0.5, 1.0, 2.0], total_steps=41),
    "OneCycleLR three phases": lambda L, o: L.OneCycleLR(
        o, max_lr=0.5, epochs=5, steps_per_epoch=9, three_phase=True, anneal_strategy="linear"),
    "CyclicLR": lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=4, step_size_down=6),
    "CyclicLR triangular2": lambda L, o: L.CyclicLR(
        o, [0.01, 0.02, 0.03], 0.1, step_size_up=5, mode="triangular2"),
    "CyclicLR exp_range": lambda L, o: L.CyclicLR(
        o, 0.01, 0.1, step_size_up=3, mode="exp_range", gamma=0.97),
    "CyclicLR scale_fn": lambda L, o: L.CyclicLR(
        o, 0.01, 0.1, step_size_up=3, scale_fn=lambda x: 0.9**x, scale_mode="iterations",
        cycle_momentum=False),
}
# the schedules that have a closed form, which step(epoch) uses
CLOSED = ["StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
          "CosineAnnealingLR", "PolynomialLR", "LambdaLR", "MultiplicativeLR",
          "CosineAnnealingWarmRestarts"]


def _optimizer(lib, kind):
    params = [lib.nn.Parameter(lib.zeros(2)) for _ in range(3)]
    groups = [{"params": [params[0]]}, {"params": [params[1]], "lr": 0.03},
              {"params": [params[2]], "lr": 0.7}]
    if kind == "Adam":
        return lib.optim.Adam(groups, lr=0.1)
    return lib.optim.SGD(groups, lr=0.1, momentum=0.9)


def _history(lib, make, kind="SGD", step=lambda s, i: s.step(), steps=40):
    """Everything a run shows, each float by its repr."""
    opt = _optimizer(lib, kind)
    seen = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sched = make(lib.optim.lr_scheduler, opt)
        for i in range(-1, steps):
            if i >= 0:
                opt.step()
                step(sched, i)
            seen.append(([repr(x) for x in sched.get_last_lr()],
                         [repr(g["lr"]) for g in opt.param_groups],
                         [repr(g.get("momentum", g.get("betas"))) for g in opt.param_groups],
                         getattr(sched, "last_epoch", None), getattr(sched, "_step_count", None)))
    state = {k: repr(v) for k, v in sched.state_dict().items()}
    groups = [sorted(k for k in g if k != "params") for g in opt.param_groups]
    initial = [repr(g.get("initial_lr")) for g in opt.param_groups]
    return seen, [(w.category, str(w.message)) for w in caught], state, groups, initial


@pytest.mark.parametrize("name", list(CASES))
def test_the_rates_step_for_step(name):
    assert _history(refgrad, CASES[name]) == _history(torch, CASES[name])


@pytest.mark.parametrize("name", ["OneCycleLR", "CyclicLR"])
def test_adams_first_beta_cycles_as_momentum(name):
    assert _history(refgrad, CASES[name], "Adam") == _history(torch, CASES[name], "Adam")


@pytest.mark.parametrize("name", CLOSED)
def test_an_epoch_given_to_step_uses_the_closed_form(name):
    def step(sched, i):
        sched.step(i + 1)

    ours = _history(refgrad, CASES[name], step=step)
    assert ours == _history(torch, CASES[name], step=step)


@pytest.mark.parametrize("options", [
    dict(patience=2, cooldown=1, factor=0.5, min_lr=[0, 0.01, 0.2]),
    dict(mode="max", threshold_mode="abs", patience=1, threshold=0.1),
    dict(mode="max", patience=0, eps=0.02),
])
def test_reduce_on_plateau_follows_the_metric(options):
    def make(L, o):
        return L.ReduceLROnPlateau(o, **options)

    def step(sched, i):
        sched.step(1.0 + (i % 3) if i % 7 else 0.5 / (i + 1))

    assert _history(refgrad, make, step=step) == _history(torch, make, step=step)


def test_warm_restarts_at_fractional_epochs():
    def run(lib):
        opt = _optimizer(lib, "SGD")
        sched = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 3, T_mult=2)
        seen = []
        for epoch in [0.5, 1.7, 3.2, 9.9, 21.0, 4, 100.25]:
            sched.step(epoch)
            seen.append(([repr(x) for x in sched.get_last_lr()], repr(sched.T_cur),
                         sched.T_i, sched.last_epoch))
        return seen

    assert run(refgrad) == run(torch)


def test_a_resumed_scheduler_continues_the_schedule():
    def run(lib):
        opt = _optimizer(lib, "SGD")
        L = lib.optim.lr_scheduler
        first = L.CosineAnnealingLR(opt, 11)
        for _ in range(4):
            opt.step()
            first.step()
        again = L.CosineAnnealingLR(opt, 11, last_epoch=first.last_epoch)
        seen = [[repr(x) for x in again.get_last_lr()]]
        for _ in range(10):
            opt.step()
            again.step()
            seen.append([repr(x) for x in again.get_last_lr()])
        return seen, again.last_epoch, again._step_count

    assert run(refgrad) == run(torch)
