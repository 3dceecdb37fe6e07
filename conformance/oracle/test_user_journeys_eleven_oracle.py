"""Oracle test: reinforcement-learning and scientific-ML walks agree with torch's.

Each walk starts from the same NumPy weights and data in both libraries, in float64, and
takes its permutations and actions from NumPy (refgrad's random streams are its own):
PPO's clipped objective over minibatches with gradient clipping, DQN with a softly
updated target network, a Burgers PINN trained by Adam and then LBFGS, and a neural ODE
integrated by RK4. Every loss, gradient and parameter must be torch's to rounding; the
plain Sobol sequence, which draws no random numbers, must be torch's to the bit.
"""

import math

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_walks_agree
from conformance.oracle._bits import filled as filled_at


def filled(lib, module, rng, scale=0.5):
    return filled_at(lib, module, rng, scale)


def mlp(lib, rng, sizes):
    nn = lib.nn
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.Tanh()]
    return filled(lib, nn.Sequential(*layers[:-1]), rng)


def params(module):
    return [p.detach().numpy().copy() for p in module.parameters()]


def ppo(lib):
    rng = np.random.default_rng(3)
    pol = mlp(lib, rng, [3, 16, 4])
    S, A = lib.tensor(rng.standard_normal((12, 3))), lib.tensor(rng.integers(0, 4, 12))
    ADV = lib.tensor(rng.standard_normal(12))
    Categorical = lib.distributions.Categorical
    with lib.no_grad():
        old = Categorical(logits=pol(S)).log_prob(A)
    opt = lib.optim.Adam(pol.parameters(), lr=3e-2, eps=1e-5)
    record = []
    for _ in range(3):
        for mb in lib.tensor(rng.permutation(12)).split(4):
            d = Categorical(logits=pol(S[mb]))
            ratio = (d.log_prob(A[mb]) - old[mb]).exp()
            loss = -lib.min(ratio * ADV[mb], lib.clamp(ratio, 0.8, 1.2) * ADV[mb]).mean()
            loss = loss - 0.01 * d.entropy().mean()
            opt.zero_grad()
            loss.backward()
            norm = lib.nn.utils.clip_grad_norm_(pol.parameters(), 0.5)
            opt.step()
            record += [loss.detach().numpy(), norm.numpy()]
    return record + params(pol)


def dqn(lib):
    rng = np.random.default_rng(4)
    q, target = mlp(lib, rng, [4, 16, 2]), mlp(lib, rng, [4, 16, 2])
    target.load_state_dict(q.state_dict())
    opt = lib.optim.Adam(q.parameters(), lr=1e-2)
    record = []
    for _ in range(3):
        s, s2 = lib.tensor(rng.standard_normal((8, 4))), lib.tensor(rng.standard_normal((8, 4)))
        a, r = lib.tensor(rng.integers(0, 2, 8)), lib.tensor(rng.standard_normal(8))
        done = lib.tensor(rng.integers(0, 2, 8), dtype=lib.bool)
        qv = q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with lib.no_grad():
            y = r + 0.99 * target(s2).max(1)[0] * (~done)
        loss = lib.nn.functional.smooth_l1_loss(qv, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with lib.no_grad():
            for tp, p in zip(target.parameters(), q.parameters()):
                tp.mul_(0.95).add_(p, alpha=0.05)
        record.append(loss.detach().numpy())
    return record + params(q) + params(target)


def pinn(lib):
    rng = np.random.default_rng(5)
    net = mlp(lib, rng, [2, 10, 10, 1])
    xt = lib.tensor(rng.uniform(-1, 1, (16, 2))).requires_grad_()
    x0 = lib.linspace(-1, 1, 8, dtype=lib.float64).unsqueeze(1)

    def loss_fn():
        u = net(xt)
        g, = lib.autograd.grad(u, xt, lib.ones_like(u), create_graph=True)
        u_xx, = lib.autograd.grad(g[:, :1], xt, lib.ones_like(u), create_graph=True)
        f = g[:, 1:] + u * g[:, :1] - 0.01 / math.pi * u_xx[:, :1]
        u0 = net(lib.cat([x0, lib.zeros_like(x0)], 1))
        return f.pow(2).mean() + (u0 + lib.sin(math.pi * x0)).pow(2).mean()

    adam = lib.optim.Adam(net.parameters(), lr=1e-2)
    record = []
    for _ in range(3):
        adam.zero_grad()
        loss = loss_fn()
        loss.backward()
        adam.step()
        record.append(loss.detach().numpy())
    lbfgs = lib.optim.LBFGS(net.parameters(), max_iter=5, line_search_fn="strong_wolfe")

    def closure():
        lbfgs.zero_grad()
        loss = loss_fn()
        loss.backward()
        return loss

    for _ in range(2):
        record.append(lbfgs.step(closure).detach().numpy())
    return record + params(net)


def neural_ode(lib):
    rng = np.random.default_rng(6)
    net = mlp(lib, rng, [2, 8, 2])
    y = lib.tensor(rng.standard_normal((3, 2))).requires_grad_()
    target = lib.tensor(rng.standard_normal((3, 2)))
    t = lib.linspace(0, 1, 6, dtype=lib.float64)
    y0 = y
    for i in range(5):
        h = t[i + 1] - t[i]
        k1 = net(y)
        k2 = net(y + h * k1 / 2)
        k3 = net(y + h * k2 / 2)
        k4 = net(y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    loss = lib.nn.functional.mse_loss(y, target)
    loss.backward()
    return [loss.detach().numpy(), y0.grad.numpy()] + [p.grad.numpy() for p in net.parameters()]


@pytest.mark.parametrize("walk", [ppo, dqn, pinn, neural_ode])
def test_walk_matches_torch(walk):
    ours, theirs = walk(refgrad), walk(torch)
    assert_walks_agree(ours, theirs)


@pytest.mark.parametrize("dimension", [1, 2, 5, 21, 101])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sobol_points_are_torchs_to_the_bit(dimension, dtype):
    ours = refgrad.quasirandom.SobolEngine(dimension)
    theirs = torch.quasirandom.SobolEngine(dimension)
    assert np.array_equal(ours.sobolstate.numpy(), theirs.sobolstate.numpy())
    for step in [("draw", 1), ("draw", 6), ("fast_forward", 9), ("draw", 300), ("draw", 700)]:
        name, n = step
        if name == "fast_forward":
            ours.fast_forward(n)
            theirs.fast_forward(n)
            continue
        a = ours.draw(n, dtype=getattr(refgrad, dtype)).numpy()
        b = theirs.draw(n, dtype=getattr(torch, dtype)).numpy()
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert np.array_equal(ours.quasi.numpy(), theirs.quasi.numpy())
