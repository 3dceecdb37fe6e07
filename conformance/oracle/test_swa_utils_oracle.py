"""Oracle test: torch.optim.swa_utils in refgrad and torch, fed the same weights.

An average is elementwise arithmetic, done with the same operations in the same
order, so the averaged weights and buffers agree bit for bit, for every averaging
function, in float32 and float64; SWALR's rates are Python floats, compared by repr.
"""

import numpy as np
import pytest
import torch

import refgrad


def _model(lib, dtype):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.Linear(4, 2))
    return model.to(getattr(lib, np.dtype(dtype).name))


AVERAGES = {
    "mean": lambda su: {},
    "mean, buffers too": lambda su: {"use_buffers": True},
    "ema": lambda su: {"avg_fn": su.get_ema_avg_fn(0.9)},
    "ema list": lambda su: {"multi_avg_fn": su.get_ema_multi_avg_fn(0.95), "use_buffers": True},
    "swa one by one": lambda su: {"avg_fn": su.get_swa_avg_fn()},
    "swa list": lambda su: {"multi_avg_fn": su.get_swa_multi_avg_fn()},
}


def _averages(lib, dtype, name, updates=12):
    model = _model(lib, dtype)
    averaged = lib.optim.swa_utils.AveragedModel(model, **AVERAGES[name](lib.optim.swa_utils))
    rng = np.random.default_rng(2)
    seen = []
    for _ in range(updates):
        with lib.no_grad():
            for t in list(model.parameters()) + list(model.buffers()):
                if t.is_floating_point():
                    t.copy_(lib.tensor(rng.standard_normal(tuple(t.shape)).astype(dtype)))
                else:
                    t.add_(1)
        averaged.update_parameters(model)
        seen.append({k: (v.numpy().copy(), str(v.dtype)) for k, v in averaged.state_dict().items()})
    return seen


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(AVERAGES))
def test_averaged_weights_agree_bit_for_bit(name, dtype):
    ours, theirs = _averages(refgrad, dtype, name), _averages(torch, dtype, name)
    assert [list(s) for s in ours] == [list(s) for s in theirs]
    for mine, oracle in zip(ours, theirs):
        for key, (value, kind) in oracle.items():
            assert mine[key][1] == kind and np.array_equal(mine[key][0], value), key


def test_the_initial_parameters_are_torchs_draws():
    ours, theirs = _model(refgrad, np.float32), _model(torch, np.float32)
    for a, b in zip(ours.parameters(), theirs.parameters()):
        assert np.array_equal(a.detach().numpy(), b.detach().numpy())


SCHEDULES = [dict(swa_lr=0.05), dict(swa_lr=[0.01, 0.2], anneal_epochs=4),
             dict(swa_lr=0.02, anneal_strategy="linear", anneal_epochs=7),
             dict(swa_lr=0.3, anneal_epochs=0), dict(swa_lr=0.3, anneal_epochs=1)]


def _rates(lib, options, steps=15):
    a, b = lib.zeros(1, requires_grad=True), lib.zeros(1, requires_grad=True)
    opt = lib.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.9}], lr=0.5)
    sched = lib.optim.swa_utils.SWALR(opt, **options)
    seen = [repr(sched.get_last_lr())]
    for _ in range(steps):
        opt.step()
        sched.step()
        seen.append((repr(sched.get_last_lr()), [repr(g["lr"]) for g in opt.param_groups]))
    state = {k: repr(v) for k, v in sched.state_dict().items()}
    return seen, state


@pytest.mark.parametrize("options", SCHEDULES)
def test_swalr_rates_agree_to_the_bit(options):
    assert _rates(refgrad, options) == _rates(torch, options)


def test_update_bn_recomputes_the_statistics_as_torch_does():
    def run(lib):
        model = _model(lib, np.float64)
        rng = np.random.default_rng(4)
        batches = [lib.tensor(rng.standard_normal((6, 3))) for _ in range(3)]
        model.eval()
        lib.optim.swa_utils.update_bn([(x, None) for x in batches], model)
        norm = model[1]
        return (norm.running_mean.numpy(), norm.running_var.numpy(),
                int(norm.num_batches_tracked), norm.momentum, model.training)

    ours, theirs = run(refgrad), run(torch)
    assert ours[2:] == theirs[2:]
    for mine, oracle in zip(ours[:2], theirs[:2]):  # through a matrix product: BLAS's order
        np.testing.assert_allclose(mine, oracle, rtol=1e-12)
