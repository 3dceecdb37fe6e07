"""Oracle test: Rprop, ASGD and LBFGS in refgrad and torch, fed the same gradients.

Rprop's and ASGD's updates are elementwise, done with the same operations in the
same order, so their runs agree bit for bit, for every option, in float32 and
float64. LBFGS takes dot products, which torch computes with its BLAS library in
an order of its own, so its runs agree to a few units in the last place.
"""

import itertools

import numpy as np
import pytest
import torch

import refgrad


def _params(lib, dtype, differentiable):
    rng = np.random.default_rng(5)
    values = [rng.standard_normal(s).astype(dtype) for s in [(4, 5), (7,), ()]]
    if differentiable:  # an update that records needs parameters that are not leaves
        return [lib.tensor(v, requires_grad=True).clone() for v in values]
    return [lib.nn.Parameter(lib.tensor(v)) for v in values]


def _run(lib, name, options, dtype, steps=20):
    params = _params(lib, dtype, options.get("differentiable", False))
    if "tensor lr" in options:  # a learning rate given as a tensor, of the given shape
        options = dict(options, lr=lib.full(options["tensor lr"], 0.03, dtype=lib.float64))
        del options["tensor lr"]
    opt = getattr(lib.optim, name)([{"params": params[:2]}, {"params": params[2:], "lr": 0.05}],
                                   **options)
    rng = np.random.default_rng(11)
    history = []
    for i in range(steps):
        for p in params:
            g = rng.standard_normal(tuple(p.shape)).astype(dtype)
            if i % 3 == 2:  # some gradients that keep their sign, so step sizes grow
                g = np.abs(g)
            p.grad = lib.tensor(g)
        opt.step()
        history.append([p.detach().numpy().copy() for p in params])
    state = [{k: (np.asarray(v.detach().numpy()), str(v.dtype)) for k, v in opt.state[p].items()}
             for p in params]
    return history, state, opt.state_dict()["param_groups"]


def _agree(name, options, dtype):
    ours, our_state, our_groups = _run(refgrad, name, options, dtype)
    theirs, their_state, their_groups = _run(torch, name, options, dtype)
    for step, (mine, oracle) in enumerate(zip(ours, theirs)):
        for a, b in zip(mine, oracle):
            assert a.dtype == b.dtype and np.array_equal(a, b), f"step {step}"
    for mine, oracle in zip(our_state, their_state):
        assert list(mine) == list(oracle)
        for key in oracle:
            assert mine[key][1] == oracle[key][1], key
            assert np.array_equal(mine[key][0], oracle[key][0]), key
    assert repr(our_groups) == repr(their_groups)


RPROP_CASES = [dict(lr=lr, etas=etas, step_sizes=sizes, maximize=mx, foreach=fe)
               for lr, etas, sizes, mx, fe in itertools.product(
                   [0.01, 0.3], [(0.5, 1.2), (0.3, 1.7)], [(1e-6, 50), (0.02, 0.25)],
                   [False, True], [None, True])]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("options", RPROP_CASES)
def test_rprop_agrees_bit_for_bit(options, dtype):
    _agree("Rprop", options, dtype)


ASGD_CASES = [dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=wd, maximize=mx,
                   foreach=fe)
              for lr, lambd, alpha, t0, wd, mx, fe in itertools.product(
                  [0.01, 0.2], [1e-4, 0.3], [0.75, 0.3], [1e6, 4], [0, 0.1], [False, True],
                  [None, False, True])]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("options", ASGD_CASES)
def test_asgd_agrees_bit_for_bit(options, dtype):
    _agree("ASGD", options, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, options", [
    ("Rprop", {"tensor lr": ()}), ("Rprop", {"tensor lr": (1,), "foreach": True}),
    ("ASGD", {"tensor lr": (), "t0": 3}), ("ASGD", {"tensor lr": (1, 1), "lambd": 0.1}),
    ("ASGD", {"tensor lr": (), "foreach": True, "t0": 3})])
def test_a_tensor_learning_rate_steps_bit_for_bit(name, options, dtype):
    _agree(name, options, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("foreach", [False, True])
def test_asgd_with_a_square_root_rate(foreach, dtype):
    # alpha=0.5 makes the rate a square root; the list kernel takes it of a float32
    # tensor, with torch's vector library, which is not correctly rounded.
    options = dict(lr=0.2, lambd=0.3, alpha=0.5, t0=4, foreach=foreach)
    if not foreach:
        return _agree("ASGD", options, dtype)
    ours, our_state, _ = _run(refgrad, "ASGD", options, dtype)
    theirs, their_state, _ = _run(torch, "ASGD", options, dtype)
    for mine, oracle in zip(ours[-1], theirs[-1]):
        np.testing.assert_allclose(mine, oracle, rtol=1e-5, atol=1e-6)
    for mine, oracle in zip(our_state, their_state):
        np.testing.assert_allclose(mine["eta"][0], oracle["eta"][0], rtol=3e-7)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, options", [
    ("Rprop", dict(differentiable=True)), ("Rprop", dict(differentiable=True, maximize=True)),
    ("ASGD", dict(differentiable=True, t0=3, weight_decay=0.1)),
    ("ASGD", dict(differentiable=True, maximize=True, t0=3))])
def test_differentiable_steps_agree_bit_for_bit(name, options, dtype):
    _agree(name, options, dtype)


def _lbfgs_run(lib, options, dtype, steps=4):
    rng = np.random.default_rng(3)
    values = [rng.standard_normal(s).astype(dtype) for s in [(3, 4), (5,)]]
    params = [lib.nn.Parameter(lib.tensor(v)) for v in values]
    scale, centre = (lib.tensor(rng.uniform(0.5, 3, s).astype(dtype)) for s in [(12,), (12,)])
    opt = lib.optim.LBFGS(params, **options)

    def closure():  # elementwise only, so that each library's gradient is the same
        opt.zero_grad()
        w = lib.cat([params[0].reshape(-1), params[1], params[1][:2] * params[0][0, :2] ** 2])
        w = w[:12]
        loss = (scale * (w - centre) ** 2).sum() + 0.1 * (w**4).sum()
        loss.backward()
        return loss

    seen = []
    for _ in range(steps):
        loss = opt.step(closure).detach()
        state = opt.state[params[0]]
        seen.append((loss.item(), [p.detach().numpy().copy() for p in params], list(state),
                     state["func_evals"], state["n_iter"], len(state["old_dirs"])))
    return seen


LBFGS_CASES = [dict(lr=lr, max_iter=it, history_size=h, line_search_fn=ls)
               for lr, it, h, ls in itertools.product([1, 0.5], [1, 6, 20], [2, 100],
                                                      [None, "strong_wolfe"])]
LBFGS_CASES += [dict(tolerance_grad=1e-3, tolerance_change=1e-5, max_eval=9),
                dict(line_search_fn="strong_wolfe", max_eval=4, max_iter=10)]


@pytest.mark.parametrize("dtype, rtol", [(np.float32, 2e-4), (np.float64, 1e-10)])
@pytest.mark.parametrize("options", LBFGS_CASES)
def test_lbfgs_agrees_to_the_order_of_a_dot_product(options, dtype, rtol):
    if dtype is np.float32:
        # a float32 run would meet the default tolerances only in its last bits, where a
        # dot product's rounding may stop one library an iteration before the other
        options = dict(dict(tolerance_grad=1e-2, tolerance_change=1e-4), **options)
    ours, theirs = _lbfgs_run(refgrad, options, dtype), _lbfgs_run(torch, options, dtype)
    for mine, oracle in zip(ours, theirs):
        assert mine[2:] == oracle[2:]  # state keys, evaluations, iterations, history
        np.testing.assert_allclose(mine[0], oracle[0], rtol=rtol, atol=rtol)
        for a, b in zip(mine[1], oracle[1]):
            assert a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)


def _resumed(lib, name, options, dtype, interrupt):
    """Ten steps, then ten more: straight on, or through state_dict() into a new optimizer."""
    params = _params(lib, dtype, False)
    make = getattr(lib.optim, name)
    opt = make(params, **options)
    rng = np.random.default_rng(8)
    for i in range(20):
        if i == 10 and interrupt:
            saved = opt.state_dict()
            params = [lib.nn.Parameter(p.detach().clone()) for p in params]
            opt = make(params, lr=0.5)
            opt.load_state_dict(saved)
        for p in params:
            p.grad = lib.tensor(rng.standard_normal(tuple(p.shape)).astype(dtype))
        if name == "LBFGS":
            opt.step(lambda ps=params: sum((p * p.grad).sum() for p in ps).detach())
        else:
            opt.step()
    return [p.detach().numpy() for p in params], repr(opt.state_dict()["param_groups"])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, options", [
    ("Rprop", dict(lr=0.1, etas=(0.4, 1.5))), ("ASGD", dict(lr=0.1, t0=5)),
    ("ASGD", dict(lr=0.1, t0=5, foreach=True)), ("LBFGS", dict(lr=0.1, max_iter=1))])
def test_a_run_resumed_from_its_saved_state_goes_on_bit_for_bit(name, options, dtype):
    for lib in (refgrad, torch):
        straight, resumed = (_resumed(lib, name, options, dtype, cut) for cut in (False, True))
        assert straight[1] == resumed[1]
        for a, b in zip(straight[0], resumed[0]):
            assert np.array_equal(a, b)
    ours, theirs = _resumed(refgrad, name, options, dtype, True), _resumed(torch, name, options,
                                                                           dtype, True)
    assert ours[1] == theirs[1]
    for a, b in zip(ours[0], theirs[0]):
        if name == "LBFGS":  # its dot products round as torch's BLAS does
            np.testing.assert_allclose(a, b, rtol=1e-5 if dtype is np.float32 else 1e-12)
        else:
            assert np.array_equal(a, b)
