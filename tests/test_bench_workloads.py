"""The benchmark's MLP step keeps its parameters across steps, as a training loop does.

Nothing here is timed: the tests look at what a step leaves behind.
"""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent / "bench"))
import workloads  # noqa: E402

import refgrad  # noqa: E402


def _step_grads(weights):
    workloads.w2_mlp_step(refgrad, weights)
    params, _, _ = workloads._mlp(refgrad, weights)
    return params, [p.grad.numpy().copy() for p in params]


def test_mlp_step_keeps_its_parameters_and_starts_each_step_without_gradients():
    weights = workloads.mlp_weights((8, 6, 5, 3), batch=4)
    first, grads = _step_grads(weights)
    second, again = _step_grads(weights)
    assert all(a is b for a, b in zip(first, second))  # the same parameters
    for g, h in zip(grads, again):  # set to None between steps, not accumulated
        np.testing.assert_array_equal(g, h)


def test_mlp_step_gradients_are_the_losss():
    weights = workloads.mlp_weights((8, 6, 5, 3), batch=4, seed=1)
    params, grads = _step_grads(weights)
    x, target = refgrad.tensor(weights["x"]), refgrad.tensor(weights["y"])
    h = x
    for i in range(0, len(params) - 2, 2):
        h = (h @ params[i] + params[i + 1]).relu()
    loss = ((h @ params[-2] + params[-1] - target) ** 2).mean()
    for g, want in zip(grads, refgrad.autograd.grad(loss, params)):
        np.testing.assert_array_equal(g, want.numpy())
