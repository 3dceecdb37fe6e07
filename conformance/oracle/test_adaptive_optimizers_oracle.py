"""Oracle test: refgrad's adaptive optimizers and torch's, fed the same gradients, step for step.

Every option combination of RMSprop, Adagrad, Adamax, NAdam, RAdam and Adadelta runs twenty
steps in both libraries, in float32 and float64, with foreach off and on. Adamax takes no
square root and agrees bit for bit. The others divide by square roots, which torch's CPU
build takes with a vector library that is not correctly rounded (NumPy's roots are exact),
so their parameters agree to a few units in the last place; every state tensor computed
before the first root (averages of squares, sums, step counts, NAdam's product of
momentum factors) still agrees to the bit. And given torch's roots (refgrad's sqrt
answered by torch's), every run of every optimizer agrees to the bit. Adagrad's fused
kernel takes correctly rounded roots, and agrees bit for bit as it is.
"""

import itertools

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import torch_roots

OPTIONS = {
    "RMSprop": dict(lr=[0.01], momentum=[0, 0.9], centered=[False, True],
                    weight_decay=[0, 0.1], maximize=[False, True]),
    "Adagrad": dict(lr=[0.1], lr_decay=[0, 0.05], weight_decay=[0, 0.1],
                    initial_accumulator_value=[0, 0.5], maximize=[False, True]),
    "Adamax": dict(lr=[0.02], betas=[(0.9, 0.999), (0.5, 0.9)], weight_decay=[0, 0.1],
                   maximize=[False, True]),
    "NAdam": dict(lr=[0.02], momentum_decay=[4e-3, 0.1], weight_decay=[0, 0.1],
                  decoupled_weight_decay=[False, True], maximize=[False, True]),
    "RAdam": dict(lr=[0.02], betas=[(0.9, 0.999), (0.8, 0.7)], weight_decay=[0, 0.1],
                  decoupled_weight_decay=[False, True], maximize=[False, True]),
    "Adadelta": dict(lr=[1.0, 0.5], rho=[0.9, 0.5], weight_decay=[0, 0.1],
                     maximize=[False, True]),
}
# the state that no square root has touched, when no weight decay couples the parameter in
BEFORE_ROOTS = {"RMSprop": ["step", "square_avg", "grad_avg"], "Adagrad": ["step", "sum"],
                "Adamax": ["step", "exp_avg", "exp_inf"],
                "NAdam": ["step", "mu_product", "exp_avg", "exp_avg_sq"],
                "RAdam": ["step", "exp_avg", "exp_avg_sq"], "Adadelta": ["step", "square_avg"]}
CASES = [(name, dict(zip(space, values)), foreach)
         for name, space in OPTIONS.items() for values in itertools.product(*space.values())
         for foreach in (False, True)]


def _run(lib, name, options, dtype, foreach, steps=20):
    rng = np.random.default_rng(5)
    shapes = [(4, 5), (7,), ()]
    params = [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(dtype))) for s in shapes]
    groups = [{"params": params[:2]}, {"params": params[2:], "lr": options.get("lr", 1.0) / 2}]
    opt = getattr(lib.optim, name)(groups, foreach=foreach, **options)
    history = []
    for _ in range(steps):
        for p in params:
            p.grad = lib.tensor(rng.standard_normal(tuple(p.shape)).astype(dtype))
        opt.step()
        history.append([p.detach().numpy().copy() for p in params])
    state = [{k: (v.numpy().copy(), str(v.dtype), tuple(v.shape)) for k, v in opt.state[p].items()}
             for p in params]
    return history, state


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, options, foreach", CASES)
def test_adaptive_optimizer_agrees_with_torch(name, options, foreach, dtype):
    ours, our_state = _run(refgrad, name, options, dtype, foreach)
    theirs, their_state = _run(torch, name, options, dtype, foreach)
    exact = name == "Adamax"
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    for step, (mine, oracle) in enumerate(zip(ours, theirs)):
        for a, b in zip(mine, oracle):
            assert a.dtype == b.dtype
            if exact:
                assert np.array_equal(a, b), f"step {step}"
            else:
                np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol, err_msg=f"step {step}")
    for mine, oracle in zip(our_state, their_state):
        assert list(mine) == list(oracle)  # the same keys, made in the same order
        for key, (value, kind, shape) in oracle.items():
            assert (mine[key][1], mine[key][2]) == (kind, shape)
            if key in BEFORE_ROOTS[name] and (exact or options["weight_decay"] == 0):
                assert np.array_equal(mine[key][0], value), key
            else:
                np.testing.assert_allclose(mine[key][0], value, rtol=rtol, atol=rtol)


FUSED = [dict(zip(OPTIONS["Adagrad"], values))
         for values in itertools.product(*OPTIONS["Adagrad"].values())]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("options", FUSED)
def test_fused_adagrad_agrees_with_torch_bit_for_bit(options, dtype):
    # torch's fused kernel takes correctly rounded roots, as NumPy does: no root to forgive.
    ours, our_state = _run(refgrad, "Adagrad", dict(options, fused=True), dtype, None)
    theirs, their_state = _run(torch, "Adagrad", dict(options, fused=True), dtype, None)
    for step, (mine, oracle) in enumerate(zip(ours, theirs)):
        for a, b in zip(mine, oracle):
            assert np.array_equal(a, b), f"step {step}"
    for mine, oracle in zip(our_state, their_state):
        assert list(mine) == list(oracle)
        for key, (value, kind, shape) in oracle.items():
            assert mine[key][1:] == (kind, shape) and np.array_equal(mine[key][0], value), key


DIFFERENTIABLE = [(name, dict(zip(space, values))) for name, space in OPTIONS.items()
                  for values in itertools.product(*space.values())
                  if dict(zip(space, values)).get("maximize") is False]


def _learned(lib, name, options, lr_tensor):
    """Seven differentiable steps of a computed parameter; its gradients, or the refusal."""
    w = lib.tensor([1.0, -2.0, 0.5, 3.0], dtype=lib.float64, requires_grad=True)
    lr = lib.tensor(options["lr"], dtype=lib.float64, requires_grad=True)
    a = w * 1.0
    opt = getattr(lib.optim, name)([a], differentiable=True,
                                   **dict(options, lr=lr if lr_tensor else options["lr"]))
    try:
        for i in range(7):
            a.grad = lib.tensor([0.3, -0.1, 0.2, 0.05], dtype=lib.float64) * (i + 1)
            opt.step()
        (a * a).sum().backward()
    except (RuntimeError, TypeError) as error:
        return type(error).__name__, str(error).split(":")[0]
    return a.detach().numpy(), w.grad.numpy(), None if lr.grad is None else lr.grad.numpy()


@pytest.mark.parametrize("lr_tensor", [False, True])
@pytest.mark.parametrize("name, options", DIFFERENTIABLE)
def test_differentiable_steps_agree_with_torch(name, options, lr_tensor):
    mine, oracle = _learned(refgrad, name, options, lr_tensor), _learned(torch, name, options,
                                                                         lr_tensor)
    if isinstance(oracle[0], str):  # refused: the same error, in the same words
        assert mine == oracle
        return
    for a, b in zip(mine, oracle):
        assert (a is None) == (b is None)
        if b is not None:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, options, foreach", [c for c in CASES if c[0] != "Adamax"])
def test_every_other_step_agrees_bit_for_bit_given_torchs_roots(name, options, foreach, dtype):
    # With the one operation whose rounding is the platform's taken from torch, the rest of
    # each update (its order, its intermediate roundings) is refgrad's own, and must agree.
    with torch_roots():
        ours, our_state = _run(refgrad, name, options, dtype, foreach)
    theirs, their_state = _run(torch, name, options, dtype, foreach)
    for step, (mine, oracle) in enumerate(zip(ours, theirs)):
        for a, b in zip(mine, oracle):
            assert np.array_equal(a, b), f"step {step}"
    for mine, oracle in zip(our_state, their_state):
        for key, (value, _, _) in oracle.items():
            assert np.array_equal(mine[key][0], value), key
