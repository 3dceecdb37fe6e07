"""Oracle test: with one seed, refgrad's and torch's initializers fill the same values.

Both libraries draw the same random numbers for a seed, and the initializers
make the same draws in the same order, so the results agree bit for bit, with
two exceptions: torch fills float32 tensors of 16 or more normal numbers with a
vectorized transform whose logarithm and sines round in their own way (a unit in
the last place, now and then), and orthogonal_ goes through a QR decomposition,
which each library computes its own way.
"""

import math

import numpy as np
import pytest
import torch

import refgrad

CASES = {
    "uniform_": ((7, 3), lambda init, t: init.uniform_(t, -2, 3)),
    "normal_": ((4, 9), lambda init, t: init.normal_(t, 1, 2)),
    "xavier_uniform_": ((5, 3, 2), lambda init, t: init.xavier_uniform_(t, gain=2)),
    "xavier_normal_": ((5, 3), lambda init, t: init.xavier_normal_(t)),
    "kaiming_uniform_": ((6, 3, 2), lambda init, t: init.kaiming_uniform_(t, a=math.sqrt(5))),
    "kaiming_normal_": ((5, 4), lambda init, t: init.kaiming_normal_(t, mode="fan_out")),
    "sparse_": ((8, 5), lambda init, t: init.sparse_(t, 0.4, std=0.5)),
    "trunc_normal_ wide": ((300,), lambda init, t: init.trunc_normal_(t)),
    "trunc_normal_ narrow": ((300,), lambda init, t: init.trunc_normal_(t, 0, 1, 2.0, 2.5)),
    "trunc_normal_ shifted": ((300,), lambda init, t: init.trunc_normal_(t, 0.3, 0.2, 0, 1)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_seed_fills_the_same_values(name, dtype):
    shape, fill = CASES[name]

    def run(lib):
        lib.manual_seed(7)
        t = lib.nn.Parameter(lib.empty(shape, dtype=getattr(lib, dtype)))
        fill(lib.nn.init, t)
        return t.detach().numpy(), t._version, lib.rand(1).item()  # the stream after it too

    ours, theirs = run(refgrad), run(torch)
    assert ours[1:] == theirs[1:]  # as many writes, and the stream left at the same place
    if dtype == "float32" and name in NORMAL_DRAWS:
        np.testing.assert_allclose(ours[0], theirs[0], rtol=3e-7, atol=1e-7)
    else:
        assert np.array_equal(ours[0], theirs[0])


NORMAL_DRAWS = {"normal_", "xavier_normal_", "kaiming_normal_", "sparse_", "trunc_normal_ wide",
                "trunc_normal_ shifted"}


def test_orthogonal_agrees_to_rounding():
    def run(lib):
        lib.manual_seed(3)
        return lib.nn.init.orthogonal_(lib.empty(4, 6), gain=1.5).numpy()

    np.testing.assert_allclose(run(refgrad), run(torch), atol=1e-5)


def test_a_linear_layer_and_its_clipped_gradients_agree():
    def run(lib):
        lib.manual_seed(0)
        layer = lib.nn.Linear(5, 3)
        x = lib.tensor(np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5))
        layer(x).pow(2).sum().backward()
        total = lib.nn.utils.clip_grad_norm_(layer.parameters(), 0.5)
        return total.item(), [p.grad.numpy().copy() for p in layer.parameters()]

    (our_total, ours), (their_total, theirs) = run(refgrad), run(torch)
    assert our_total == pytest.approx(their_total, rel=1e-6)
    for mine, oracle in zip(ours, theirs):
        np.testing.assert_allclose(mine, oracle, rtol=1e-5, atol=1e-7)
