"""Oracle test: refgrad's functional optimizer steps and torch's, fed the same lists, bit for bit.

Every function runs three steps in both libraries from the same state, with foreach off and on.
SGD, Adamax and Rprop take no square root and agree as they are; the others divide by roots,
which torch's CPU build takes with a vector library that is not correctly rounded, so they are
compared with refgrad's roots answered by torch's (as the adaptive optimizers' oracle does).
"""

import contextlib
import importlib

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import torch_roots

CASES = {
    "sgd": (0, dict(weight_decay=0.1, momentum=0.9, lr=0.1, dampening=0.0, nesterov=True,
                    maximize=False)),
    "adam": (3, dict(amsgrad=True, beta1=0.9, beta2=0.99, lr=0.1, weight_decay=0.1, eps=1e-8,
                     maximize=False)),
    "adamw": (3, dict(amsgrad=False, beta1=0.9, beta2=0.99, lr=0.1, weight_decay=0.1, eps=1e-8,
                      maximize=True)),
    "adagrad": (1, dict(lr=0.1, weight_decay=0.1, lr_decay=0.01, eps=1e-10, maximize=False)),
    "adadelta": (2, dict(lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.1, maximize=False)),
    "adamax": (2, dict(eps=1e-8, beta1=0.9, beta2=0.99, lr=0.1, weight_decay=0.1)),
    "asgd": (3, dict(lambd=1e-4, lr=0.1, t0=1.0, alpha=0.75, weight_decay=0.1)),
    "nadam": (3, dict(beta1=0.9, beta2=0.99, lr=0.1, weight_decay=0.1, momentum_decay=4e-3,
                      eps=1e-8)),
    "radam": (2, dict(beta1=0.9, beta2=0.99, lr=0.1, weight_decay=0.1, eps=1e-8)),
    "rmsprop": (3, dict(lr=0.1, alpha=0.99, eps=1e-8, weight_decay=0.1, momentum=0.9,
                        centered=True)),
    "rprop": (2, dict(step_size_min=1e-6, step_size_max=50, etaminus=0.5, etaplus=1.2)),
}
NO_ROOTS = {"sgd", "adamax", "rprop"}


def _state(lib, name, n, rng):
    shapes = [(3,), (2, 2)]
    params = [lib.tensor(rng.standard_normal(s).astype(np.float32)) for s in shapes]
    lists = [[lib.zeros(s) for s in shapes] for _ in range(n)]
    if name == "asgd":  # axs, mus, etas
        lists = [lists[0], [lib.tensor(1.0) for _ in shapes], [lib.tensor(0.1) for _ in shapes]]
    if name == "nadam":
        lists[2] = [lib.tensor(1.0) for _ in shapes]
    if name == "rprop":
        lists[1] = [lib.full(s, 0.01) for s in shapes]
    if name == "sgd":
        lists = [[None, None]]
    steps = [] if name == "sgd" else [[lib.tensor(0.0) for _ in shapes]]
    return params, lists + steps


def _run(lib, name, foreach):
    n, settings = CASES[name]
    rng = np.random.default_rng(11)
    params, lists = _state(lib, name, n, rng)
    function = getattr(importlib.import_module(f"{lib.__name__}.optim.{name}"), name)
    for _ in range(3):
        grads = [lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32))
                 for p in params]
        function(params, grads, *lists, foreach=foreach, **settings)
    return [t.numpy().tobytes() for t in params + [t for ts in lists for t in ts]]


@pytest.mark.parametrize("foreach", [False, True])
@pytest.mark.parametrize("name", sorted(CASES))
def test_functional_step_agrees_with_torch_bit_for_bit(name, foreach):
    roots = contextlib.nullcontext() if name in NO_ROOTS else torch_roots()
    with roots:
        ours = _run(refgrad, name, foreach)
    assert ours == _run(torch, name, foreach)
