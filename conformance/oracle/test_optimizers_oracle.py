"""Oracle test: refgrad's and torch's optimizers, fed the same gradients, step for step.

SGD's update is additions and products only, so float32 runs agree bit for bit.
Adam's takes a square root, which torch's CPU build computes with a vector
library that is not correctly rounded (about one element in six is a unit in the
last place away from the exact root), so Adam's runs agree to a few units in the
last place instead; every other step of its update agrees exactly.
"""

import itertools

import numpy as np
import pytest
import torch

import refgrad


def _run(lib, name, options, dtype, steps=20):
    rng = np.random.default_rng(11)
    shapes = [(4, 5), (7,), ()]
    params = [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(dtype))) for s in shapes]
    opt = getattr(lib.optim, name)([{"params": params[:2]}, {"params": params[2:], "lr": 0.05}],
                                   **options)
    history = []
    for _ in range(steps):
        for p in params:
            p.grad = lib.tensor(rng.standard_normal(tuple(p.shape)).astype(dtype))
        opt.step()
        history.append([p.detach().numpy().copy() for p in params])
    state = [{k: np.asarray(v.numpy()) for k, v in opt.state[p].items()} for p in params]
    return history, state


SGD_CASES = [dict(lr=0.1, momentum=m, dampening=d, nesterov=n, weight_decay=wd, maximize=mx)
             for m, d, n, wd, mx in itertools.product([0, 0.9], [0, 0.25], [False, True],
                                                      [0, 0.01], [False, True])
             if not (n and (m == 0 or d != 0))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("options", SGD_CASES)
def test_sgd_agrees_bit_for_bit(options, dtype):
    ours, our_state = _run(refgrad, "SGD", options, dtype)
    theirs, their_state = _run(torch, "SGD", options, dtype)
    for step, (mine, oracle) in enumerate(zip(ours, theirs)):
        for a, b in zip(mine, oracle):
            assert a.dtype == b.dtype and np.array_equal(a, b), f"step {step}"
    assert [sorted(s) for s in our_state] == [sorted(s) for s in their_state]
    for mine, oracle in zip(our_state, their_state):
        for key in oracle:
            assert np.array_equal(mine[key], oracle[key]), key


ADAM_CASES = [(name, dict(lr=0.01, amsgrad=a, weight_decay=wd, maximize=mx))
              for name, a, wd, mx in itertools.product(["Adam", "AdamW"], [False, True],
                                                       [0, 0.1], [False, True])]


@pytest.mark.parametrize("name, options", ADAM_CASES)
def test_adam_agrees_to_the_rounding_of_a_square_root(name, options):
    ours, our_state = _run(refgrad, name, options, np.float32)
    theirs, their_state = _run(torch, name, options, np.float32)
    for mine, oracle in zip(ours[-1], theirs[-1]):
        np.testing.assert_allclose(mine, oracle, rtol=2e-6, atol=1e-7)
    for mine, oracle in zip(our_state, their_state):
        assert sorted(mine) == sorted(oracle)
        assert mine["step"] == oracle["step"] and mine["step"].dtype == oracle["step"].dtype
        np.testing.assert_allclose(mine["exp_avg_sq"], oracle["exp_avg_sq"], rtol=2e-6)


def test_adam_agrees_bit_for_bit_where_the_roots_do():
    # Squares of float32 numbers have exact roots, which every library rounds alike.
    def run(lib):
        w = lib.nn.Parameter(lib.tensor(np.zeros(32, np.float32)))
        opt = lib.optim.Adam([w], lr=0.01, betas=(0.5, 0.0))  # v is g*g each step
        for g in (3.0, -1.5, 0.25):
            w.grad = lib.full((32,), g)
            opt.step()
        return w.detach().numpy(), opt.state[w]["exp_avg"].numpy()

    for mine, oracle in zip(run(refgrad), run(torch)):
        assert np.array_equal(mine, oracle)
