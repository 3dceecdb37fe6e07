"""Journeys through reinforcement learning and scientific machine learning: Sobol
collocation points, policy gradients, clipped objectives, target networks, squashed
Gaussians, derivatives of a network with respect to its inputs, Hessian-vector products,
an implicit layer's adjoint in a hook, and a neural ODE checked by finite differences."""

import copy
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.autograd.functional import hessian, hvp, vhp
from torch.distributions import Categorical, Normal, TransformedDistribution
from torch.distributions.transforms import TanhTransform
from torch.quasirandom import SobolEngine

RNG = np.random.default_rng(11)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


def filled(module, scale=0.5):
    module.double()
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(arr(*p.shape, scale=scale))
    return module


# --- Sobol points


def test_sobol_points_of_two_dimensions():
    engine = SobolEngine(2)
    points = engine.draw(8)
    assert points.dtype == torch.float32 and points.shape == (8, 2)
    assert points.tolist() == [[0.0, 0.0], [0.5, 0.5], [0.75, 0.25], [0.25, 0.75],
                               [0.375, 0.375], [0.875, 0.875], [0.625, 0.125], [0.125, 0.625]]
    assert engine.num_generated == 8
    assert engine.draw(2, dtype=torch.float64).tolist() == [[0.1875, 0.3125], [0.6875, 0.8125]]
    assert engine.sobolstate.dtype == torch.int64 and engine.sobolstate.shape == (2, 30)
    assert engine.sobolstate[1, :6].tolist() == [536870912, 805306368, 671088640, 1006632960,
                                                 570425344, 855638016]
    assert engine.shift.tolist() == [0, 0]


def radical_inverse(i):
    """The bits of i mirrored about the binary point: the van der Corput sequence."""
    value, place = 0.0, 0.5
    while i:
        value += place * (i & 1)
        i >>= 1
        place /= 2
    return value


def test_the_first_dimension_is_van_der_corput_in_gray_code_order():
    points = SobolEngine(1).draw(1000, dtype=torch.float64)
    want = [radical_inverse(i ^ (i >> 1)) for i in range(1000)]
    assert points[:, 0].tolist() == want


def test_every_carried_dimension_is_balanced():
    points = SobolEngine(101).draw_base2(7, dtype=torch.float64).numpy()
    slices = np.sort(np.floor(points * 128).astype(np.int64), axis=0)
    assert (slices == np.arange(128)[:, None]).all()


def test_the_first_two_dimensions_form_a_net():
    points = SobolEngine(2).draw_base2(6, dtype=torch.float64).numpy()
    for k in range(7):  # boxes of 2^-k by 2^-(6-k) hold one point each
        cells = np.floor(points[:, 0] * 2**k) * 2 ** (6 - k) + np.floor(points[:, 1] * 2 ** (6 - k))
        assert sorted(cells.tolist()) == list(range(64))


def test_draws_fast_forward_and_reset_walk_one_sequence():
    whole = SobolEngine(5).draw(13)
    engine = SobolEngine(5)
    parts = torch.cat([engine.draw(1), engine.draw(4), engine.draw(8)])
    assert torch.equal(parts, whole)
    assert engine.reset() is engine and engine.num_generated == 0
    assert torch.equal(engine.fast_forward(6).draw(7), whole[6:])
    assert torch.equal(engine.reset().fast_forward(0).draw(2), whole[:2])
    out = torch.empty(1)
    assert engine.reset().draw(4, out=out) is out and torch.equal(out, whole[:4])
    assert engine.draw(0).shape == (0, 5)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: SobolEngine(0), ValueError,
     "Supported range of dimensionality for SobolEngine is [1, 21201]"),
    (lambda: SobolEngine(21202), ValueError,
     "Supported range of dimensionality for SobolEngine is [1, 21201]"),
    (lambda: SobolEngine(2).draw(3, dtype=torch.float16), NotImplementedError,
     "\"_sobol_engine_draw\" not implemented for 'Half'"),
    (lambda: SobolEngine(2).draw(3, dtype=torch.int64), NotImplementedError,
     "\"_sobol_engine_draw\" not implemented for 'Long'"),
    (lambda: SobolEngine(3).draw(0), RuntimeError,
     "Trying to create tensor with negative dimension -1: [-1, 3]"),
    (lambda: SobolEngine(2).draw(2.0), TypeError,
     "_sobol_engine_draw(): argument 'n' (position 2) must be int, not float"),
    (lambda: SobolEngine(2).fast_forward(5).draw_base2(2), ValueError,
     "The balance properties of Sobol' points require n to be a power of 2. 5 points have been "
     "previously generated, then: n=5+2**2=9. If you still want to do this, please use "
     "'SobolEngine.draw()' instead."),
])
def test_sobol_refusals(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_sobol_reprs():
    assert repr(SobolEngine(2)) == "SobolEngine(dimension=2)"
    assert repr(SobolEngine(3, scramble=True)) == "SobolEngine(dimension=3, scramble=True)"
    assert repr(SobolEngine(3, scramble=True, seed=4)) == \
        "SobolEngine(dimension=3, scramble=True, seed=4)"
    assert repr(SobolEngine(2, seed=5)) == "SobolEngine(dimension=2, seed=5)"
    assert (SobolEngine.MAXBIT, SobolEngine.MAXDIM) == (30, 21201)


def test_scrambled_points_repeat_with_a_seed_and_stay_a_net():
    a, b = SobolEngine(4, scramble=True, seed=7), SobolEngine(4, scramble=True, seed=7)
    first = a.draw_base2(5, dtype=torch.float64)
    assert torch.equal(first, b.draw_base2(5, dtype=torch.float64))
    assert not torch.equal(first, SobolEngine(4).draw_base2(5, dtype=torch.float64))
    slices = np.sort(np.floor(first.numpy() * 32).astype(np.int64), axis=0)
    assert (slices == np.arange(32)[:, None]).all()
    assert a.shift.dtype == torch.int64 and bool((a.shift >= 0).all() & (a.shift < 2**30).all())


def test_a_scrambled_first_point_is_divided_in_the_default_dtype():
    engine = SobolEngine(3, scramble=True, seed=2)
    shift = engine.shift.numpy()
    want = (shift.astype(np.float32) / np.float32(2**30)).astype(np.float64)
    assert engine.draw(1, dtype=torch.float64).numpy()[0].tolist() == want.tolist()


def test_collocation_points_from_sobol_train_a_pinn():
    torch.set_default_dtype(torch.float64)
    try:
        xt = SobolEngine(2).draw(32) * torch.tensor([2.0, 1.0]) - torch.tensor([1.0, 0.0])
    finally:
        torch.set_default_dtype(torch.float32)
    assert xt.dtype == torch.float64
    net = filled(nn.Sequential(nn.Linear(2, 10), nn.Tanh(), nn.Linear(10, 1)))
    xt.requires_grad_()
    u = net(xt)
    g, = torch.autograd.grad(u, xt, torch.ones_like(u), create_graph=True)
    u_xx, = torch.autograd.grad(g[:, 0], xt, torch.ones_like(g[:, 0]), create_graph=True)
    loss = (g[:, 1] - 0.1 * u_xx[:, 0]).pow(2).mean()
    loss.backward()
    assert (g.grad_fn.name(), u_xx.grad_fn.name()) == ("MmBackward0", "MmBackward0")
    assert [n for n, p in net.named_parameters() if p.grad is None] == ["2.bias"]  # u + c: same u_x


# --- Reinforcement learning


def test_reinforce_gradient_is_the_softmax_formula():
    policy = filled(nn.Linear(4, 3, bias=False))
    states, actions = arr(6, 4), torch.tensor([0, 2, 1, 1, 0, 2])
    R, returns = 0.0, []
    for r in reversed([1.0, 0.0, -1.0, 0.5, 0.0, 2.0]):
        R = r + 0.99 * R
        returns.insert(0, R)
    returns = torch.tensor(returns, dtype=torch.float64)
    adv = (returns - returns.mean()) / (returns.std() + 1e-8)
    dist = Categorical(logits=policy(states))
    logp = dist.log_prob(actions)
    assert logp.grad_fn.name() == "SqueezeBackward1"
    assert dist.probs.grad_fn.name() == "SoftmaxBackward0"
    assert dist.logits.grad_fn.name() == "SubBackward0"
    (-(logp * adv).sum()).backward()
    p = dist.probs.detach().numpy()
    onehot = np.eye(3)[actions.numpy()]
    want = -((onehot - p) * adv.numpy()[:, None]).T @ states.numpy()
    np.testing.assert_allclose(policy.weight.grad.numpy(), want, rtol=1e-12)
    assert repr(dist) == "Categorical(probs: torch.Size([6, 3]), logits: torch.Size([6, 3]))"


def test_categorical_refusals():
    d = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
    with pytest.raises(ValueError, match=r"^Expected value argument \(Tensor of shape \(\)\) to be "
                       r"within the support \(IntegerInterval\(lower_bound=0, upper_bound=2\)\)"):
        d.log_prob(torch.tensor(3))
    with pytest.raises(ValueError, match=r"^Either `probs` or `logits` must be specified, "
                       r"but not both\.$"):
        Categorical(probs=torch.tensor([0.2, 0.8]), logits=torch.tensor([0.2, 0.8]))
    with pytest.raises(ValueError, match=r"to satisfy the constraint Simplex\(\)"):
        Categorical(probs=torch.tensor([0.2, -0.3]))


def test_masked_logits_keep_a_finite_entropy():
    logits = arr(2, 4)
    mask = torch.tensor([[True, False, True, True], [False, False, True, True]])
    d = Categorical(logits=logits.masked_fill(~mask, float("-inf")))
    assert bool(torch.isfinite(d.entropy()).all())
    assert d.probs[~mask].tolist() == [0.0] * 3
    kept = torch.softmax(logits[1, 2:], 0)
    assert torch.allclose(d.probs[1, 2:], kept)


def test_ppo_clipped_objective_stops_gradients_outside_the_clip():
    pol = filled(nn.Linear(3, 4))
    S, A, ADV = arr(12, 3), torch.tensor(RNG.integers(0, 4, 12)), arr(12)
    with torch.no_grad():
        old_logp = Categorical(logits=pol(S)).log_prob(A) - 0.5 * torch.sign(arr(12))
    ratio = (Categorical(logits=pol(S)).log_prob(A) - old_logp).exp()
    ratio.retain_grad()
    loss = -torch.min(ratio * ADV, torch.clamp(ratio, 0.8, 1.2) * ADV).mean()
    loss.backward()
    clipped = ((ratio > 1.2) & (ADV > 0)) | ((ratio < 0.8) & (ADV < 0))
    assert bool(clipped.any()) and bool((~clipped).any())
    assert ratio.grad[clipped].tolist() == [0.0] * int(clipped.sum())
    np.testing.assert_allclose(ratio.grad[~clipped].numpy(), -ADV[~clipped].numpy() / 12)
    norm = nn.utils.clip_grad_norm_(pol.parameters(), 0.01)
    after = torch.cat([p.grad.flatten() for p in pol.parameters()]).norm()
    assert norm.dtype == torch.float64 and float(norm) > 0.01
    assert abs(float(after) - 0.01) < 1e-6


def test_dqn_target_network_and_soft_updates():
    q = filled(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
    target = filled(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
    assert repr(target.load_state_dict(q.state_dict())) == "<All keys matched successfully>"
    frozen = copy.deepcopy(q)
    s, a, s2 = arr(8, 4), torch.tensor(RNG.integers(0, 2, 8)), arr(8, 4)
    qv = q(s).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        best = target(s2).max(1)
        y = arr(8) + 0.99 * best[0]
    assert type(best).__name__ == "max" and best.indices.dtype == torch.int64
    assert qv.grad_fn.name() == "SqueezeBackward1" and not y.requires_grad
    F.smooth_l1_loss(qv, y).backward()
    torch.optim.SGD(q.parameters(), lr=0.1).step()
    with torch.no_grad():
        for tp, p in zip(target.parameters(), q.parameters()):
            tp.mul_(0.9).add_(p, alpha=0.1)
    for tp, fp, p in zip(target.parameters(), frozen.parameters(), q.parameters()):
        torch.testing.assert_close(tp, 0.9 * fp + 0.1 * p)
        assert tp.requires_grad and tp.grad is None
    with pytest.raises(RuntimeError, match="^Index tensor must have the same number of dimensions"):
        q(s).gather(1, a)


def test_a_squashed_gaussian_log_prob_three_ways():
    mu, std = arr(5, 2).requires_grad_(), arr(5, 2, scale=0.3).exp()
    u = mu + std * arr(5, 2)
    a = torch.tanh(u)
    base = Normal(mu, std).log_prob(u)
    softplus_form = base - 2 * (math.log(2) - u - F.softplus(-2 * u))
    squashed = TransformedDistribution(Normal(mu, std), [TanhTransform(cache_size=1)])
    torch.testing.assert_close(squashed.log_prob(a), softplus_form)
    torch.testing.assert_close(base - torch.log(1 - a.pow(2)), softplus_form)
    sample = squashed.rsample()
    assert sample.grad_fn.name() == "TanhBackward0"
    assert squashed.log_prob(sample).grad_fn.name() == "AddBackward0"


# --- Scientific machine learning


def test_pinn_derivatives_match_finite_differences():
    net = filled(nn.Sequential(nn.Linear(2, 12), nn.Tanh(), nn.Linear(12, 1)))
    x = torch.linspace(-1, 1, 7, dtype=torch.float64).unsqueeze(1).requires_grad_()
    t = torch.full((7, 1), 0.3, dtype=torch.float64, requires_grad=True)
    u = net(torch.cat([x, t], 1))
    u_t, = torch.autograd.grad(u, t, torch.ones_like(u), create_graph=True)
    u_x, = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)
    u_xx, = torch.autograd.grad(u_x, x, torch.ones_like(u_x), create_graph=True)
    assert [g.grad_fn.name() for g in (u_t, u_x, u_xx)] == ["SliceBackward0"] * 3
    h = 1e-4
    with torch.no_grad():
        f = lambda dx, dt: net(torch.cat([x + dx, t + dt], 1))  # noqa: E731
        fd_x = (f(h, 0) - f(-h, 0)) / (2 * h)
        fd_t = (f(0, h) - f(0, -h)) / (2 * h)
        fd_xx = (f(h, 0) - 2 * f(0, 0) + f(-h, 0)) / h**2
    np.testing.assert_allclose(u_x.detach().numpy(), fd_x.numpy(), atol=1e-7)
    np.testing.assert_allclose(u_t.detach().numpy(), fd_t.numpy(), atol=1e-7)
    np.testing.assert_allclose(u_xx.detach().numpy(), fd_xx.numpy(), atol=1e-5)


def test_adam_then_lbfgs_lowers_a_poisson_loss():
    net = filled(nn.Sequential(nn.Linear(2, 10), nn.Tanh(), nn.Linear(10, 1)))
    corners = torch.tensor(RNG.uniform(0, 1, (16, 2)))
    source = -2 * math.pi**2 * torch.sin(math.pi * corners).prod(1)
    xy = corners.requires_grad_()

    def loss_fn():  # u vanishes on the square's edges by construction
        u = (xy * (1 - xy)).prod(1) * net(xy).squeeze(1)
        g, = torch.autograd.grad(u.sum(), xy, create_graph=True)
        lap = sum(torch.autograd.grad(g[:, i].sum(), xy, create_graph=True)[0][:, i]
                  for i in range(2))
        return (lap - source).pow(2).mean()

    adam = torch.optim.Adam(net.parameters(), lr=1e-2)
    first = None
    for _ in range(3):
        adam.zero_grad()
        loss = loss_fn()
        loss.backward()
        adam.step()
        first = loss.item() if first is None else first
    lbfgs = torch.optim.LBFGS(net.parameters(), max_iter=6, line_search_fn="strong_wolfe")

    calls = []

    def closure():
        lbfgs.zero_grad()
        loss = loss_fn()
        calls.append(loss.item())
        loss.backward()
        return loss

    returned = lbfgs.step(closure)
    assert returned.grad_fn.name() == "MeanBackward0"
    assert loss_fn().item() < first
    state = lbfgs.state_dict()["state"][0]
    assert sorted(state) == ["H_diag", "al", "d", "func_evals", "n_iter", "old_dirs", "old_stps",
                             "prev_flat_grad", "prev_loss", "ro", "t"]
    assert 1 <= state["n_iter"] <= 6 and state["func_evals"] == len(calls)
    assert returned.item() == calls[0]  # the loss before the step


def energy(q):
    """A chain of unit springs in the plane, held near the origin."""
    r = (q[1:] - q[:-1]).norm(dim=-1)
    return 0.5 * ((r - 1.0) ** 2).sum() + 0.1 * (q**2).sum()


def test_hessian_vector_products_agree_every_way():
    def f(x):
        return (x.sin() * x.roll(1)).sum() + (x**4).sum() / 4

    x, v = arr(5), arr(5)
    xg = x.clone().requires_grad_()
    g, = torch.autograd.grad(f(xg), xg, create_graph=True)
    double, = torch.autograd.grad(g, xg, v)
    H = hessian(f, x)
    value, by_hvp = hvp(f, x, v)
    _, by_vhp = vhp(f, x, v)
    torch.testing.assert_close(by_hvp, H @ v)
    torch.testing.assert_close(by_vhp, v @ H)
    torch.testing.assert_close(double, H @ v)
    assert torch.equal(value, f(x)) and torch.equal(H, H.T)
    with pytest.raises(RuntimeError) as info:
        hvp(lambda x: x * 2, x, v)
    assert str(info.value) == ("The Tensor returned by the function given to hvp should contain "
                               "a single element")
    with pytest.raises(RuntimeError) as info:
        hvp(f, x, v[:3])
    assert str(info.value) == ("v has invalid size: should be torch.Size([5]) but got "
                               "torch.Size([3]).")


def test_forces_and_hessian_of_a_spring_energy():
    q = arr(4, 2)
    forces = -torch.func.jacrev(energy)(q)
    qg = q.clone().requires_grad_()
    energy(qg).backward()
    torch.testing.assert_close(forces, -qg.grad)
    H = torch.func.hessian(energy)(q).reshape(8, 8)
    torch.testing.assert_close(H, H.T)
    torch.testing.assert_close(H, torch.func.jacrev(torch.func.jacrev(energy))(q).reshape(8, 8))
    torch.testing.assert_close(H, hessian(energy, q).reshape(8, 8))


def first_nodes(t, n=3):
    names, node = [], t.grad_fn
    while node is not None and len(names) < n:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


def test_forward_jacobians_end_in_torchs_nodes():
    W, x = arr(2, 2).requires_grad_(), arr(2)
    j = torch.func.jacfwd(lambda x: (W @ x).tanh())(x)
    assert first_nodes(j) == ["ViewBackward0", "SplitWithSizesBackward0", "PermuteBackward0"]
    assert j.stride() == (1, 2)
    jx, jy = torch.func.jacfwd(lambda x, y: (W @ x).tanh() * y, argnums=(0, 1))(
        x, torch.tensor(2.0, dtype=torch.float64))
    assert (jx.shape, jy.shape) == ((2, 2), (2,))
    assert first_nodes(jy, 2) == ["SqueezeBackward1", "SplitWithSizesBackward0"]
    h = torch.func.hessian(lambda x: (W @ x).tanh().sum())(x.reshape(2, 1))
    assert h.shape == (2, 1, 2, 1) and h.stride() == (1, 4, 2, 2)
    assert first_nodes(h, 2) == ["ViewBackward0", "SplitWithSizesBackward0"]
    h.sum().backward()
    assert W.grad is not None


def test_an_implicit_layer_solves_its_adjoint_in_a_hook():
    W, x = arr(4, 4, scale=0.2).requires_grad_(), arr(3, 4).requires_grad_()

    def f(z, x, W):
        return torch.tanh(z @ W.T + x)

    with torch.no_grad():
        z = torch.zeros_like(x)
        for _ in range(80):
            z = f(z, x, W)
    z = f(z, x, W)
    z0 = z.detach().requires_grad_()
    f0 = f(z0, x, W)
    seen = []

    def adjoint(g):
        seen.append(g.requires_grad)
        y = g
        for _ in range(80):
            y = torch.autograd.grad(f0, z0, y, retain_graph=True)[0] + g
        return y

    z.register_hook(adjoint)
    (z**2).sum().backward()
    x2, W2 = x.detach().clone().requires_grad_(), W.detach().clone().requires_grad_()
    zz = torch.zeros_like(x2)
    for _ in range(160):
        zz = f(zz, x2, W2)
    (zz**2).sum().backward()
    assert seen == [False]
    torch.testing.assert_close(x.grad, x2.grad)
    torch.testing.assert_close(W.grad, W2.grad)


def rk4(func, y, t):
    ys = [y]
    for i in range(len(t) - 1):
        h, t0 = t[i + 1] - t[i], t[i]
        k1 = func(t0, y)
        k2 = func(t0 + h / 2, y + h * k1 / 2)
        k3 = func(t0 + h / 2, y + h * k2 / 2)
        k4 = func(t0 + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


def test_a_neural_ode_gradient_matches_central_differences():
    net = filled(nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2)))
    y0, target = arr(3, 2), arr(3, 2)
    t = torch.linspace(0, 1, 6, dtype=torch.float64)
    func = lambda t, y: net(y) * (1 + 0.1 * t)  # noqa: E731
    ys = rk4(func, y0, t)
    assert ys.grad_fn.name() == "StackBackward0" and ys.shape == (6, 3, 2)
    F.mse_loss(ys[-1], target).backward()
    w = net[0].weight
    with torch.no_grad():
        for idx in [(0, 0), (3, 1), (7, 0)]:
            old = w[idx].item()
            w[idx] = old + 1e-6
            up = F.mse_loss(rk4(func, y0, t)[-1], target).item()
            w[idx] = old - 1e-6
            down = F.mse_loss(rk4(func, y0, t)[-1], target).item()
            w[idx] = old
            assert abs((up - down) / 2e-6 - w.grad[idx].item()) < 1e-7
    solve = lambda y: rk4(func, y, t[:3])[-1]  # noqa: E731
    assert torch.autograd.gradcheck(solve, (y0.clone().requires_grad_(),))
    assert torch.autograd.gradgradcheck(solve, (y0.clone().requires_grad_(),))
