"""Oracle test: a float32 LSTM's one-node-per-layer graph gives torch's outputs, states and
gradients (to a tolerance: torch's forward and backward are oneDNN's kernels), and the same
graph of node names, first and second derivative alike.
"""

import numpy as np
import pytest
import torch

import refgrad

_CASES = [
    ({}, (5, 2, 3)),
    ({"num_layers": 2, "bidirectional": True}, (4, 3, 3)),
    ({"num_layers": 3, "batch_first": True, "bias": False}, (2, 6, 3)),
    ({"num_layers": 2, "dropout": 0.5}, (5, 2, 3)),
]


def _names(fn, depth=0):
    if fn is None or depth > 6:
        return [None]
    return [fn.name()] + [n for f, _ in fn.next_functions for n in _names(f, depth + 1)]


def _run(lib, kwargs, shape):
    lib.manual_seed(0)
    module = lib.nn.LSTM(3, 4, **kwargs)
    x = lib.tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32),
                   requires_grad=True)
    out, (h, c) = module(x)
    loss = (out * out).sum() + (h * 1.5).sum() + (c * c).sum()
    leaves = (x, *module.parameters())
    grads = lib.autograd.grad(loss, leaves, create_graph=True)
    second = lib.autograd.grad(sum((g * g).sum() for g in grads), leaves)
    return {
        "values": [t.detach().numpy() for t in (out, h, c)],
        "grads": [g.detach().numpy() for g in grads],
        "second": [g.numpy() for g in second],
        "names": [_names(t.grad_fn) for t in (out, h, c, *grads)],
    }


@pytest.mark.parametrize(("kwargs", "shape"), _CASES)
def test_values_gradients_and_graphs_agree(kwargs, shape):
    mine, theirs = _run(refgrad, kwargs, shape), _run(torch, kwargs, shape)
    assert mine["names"] == theirs["names"]
    for a, b in zip(mine["values"], theirs["values"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    for key in ("grads", "second"):
        for a, b in zip(mine[key], theirs[key], strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
