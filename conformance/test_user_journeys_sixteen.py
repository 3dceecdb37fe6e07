"""Journeys through graphs, energies, self-supervision, capsules, search, rendering, experts
and learned learning rates: a GCN and a GAT by index_add_ and scatter_reduce, a modern
Hopfield network and forces from an energy by autograd.grad inside the forward, BYOL's
moving target with Barlow Twins' and VICReg's losses, capsules routed by agreement, a beam
search whose beams tie, NeRF's volume rendering with hierarchical sampling, a mixture of
experts dispatching tokens sorted by expert, and a learning rate learned through unrolled
steps."""

import contextlib

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from conformance._warned import always_warned

RNG = np.random.default_rng(16)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


@contextlib.contextmanager
def warned(match):
    """A warning torch gives once a process, given here whether or not it was before."""
    with always_warned(torch):
        with pytest.warns(UserWarning, match=match):
            yield


def test_a_graph_network_passes_messages_by_index_add_and_scatter_reduce():
    src, dst = torch.tensor([[0, 1, 1, 2, 3, 4, 0], [1, 0, 2, 1, 4, 3, 2]])
    x, W, a = arr(5, 3).requires_grad_(), arr(3, 4).requires_grad_(), arr(8).requires_grad_()
    deg = torch.zeros(5, dtype=torch.float64).index_add_(0, dst, torch.ones(7, dtype=torch.float64))
    assert deg.tolist() == torch.bincount(dst, minlength=5).tolist() == [1, 2, 2, 1, 1]
    h, norm = x @ W, deg.clamp(min=1).pow(-0.5)
    gcn = torch.zeros(5, 4, dtype=torch.float64).index_add(
        0, dst, h[src] * (norm[src] * norm[dst]).unsqueeze(-1))
    assert gcn.grad_fn.name() == "IndexAddBackward0"
    e = F.leaky_relu(torch.cat([h[src], h[dst]], -1) @ a, 0.2)
    emax = torch.full((5,), -float("inf"), dtype=torch.float64).scatter_reduce(0, dst, e, "amax")
    ex = (e - emax[dst]).exp()
    alpha = ex / torch.zeros(5, dtype=torch.float64).index_add(0, dst, ex)[dst]
    gat = torch.zeros(5, 4, dtype=torch.float64).index_add_(0, dst, alpha[:, None] * h[src])
    assert emax.grad_fn.name() == "ScatterReduceBackward0" and emax.isfinite().all()
    with warned("index_reduce\\(\\) is in beta and the API may change at any time. "
                r"\(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"):
        top = torch.zeros(5, 4, dtype=torch.float64).index_reduce(0, dst, h[src], "amax",
                                                                   include_self=False)
    assert top.grad_fn.name() == "IndexReduceBackward0"
    (gcn.sum() + gat.sum() + top.sum()).backward()
    assert x.grad.shape == (5, 3) and a.grad.abs().sum() > 0
    with pytest.raises(RuntimeError, match="index_add_\\(\\): self \\(Float\\) and source "
                                           "\\(Double\\) must have the same scalar type"):
        torch.zeros(3).index_add_(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="index 3 is out of bounds for dimension 0 with "
                                           "size 3"):
        torch.zeros(3).scatter_add(0, torch.tensor([3]), torch.ones(1))
    with pytest.raises(IndexError, match="index out of range in self"):
        torch.zeros(3).index_add_(0, torch.tensor([5]), torch.ones(1))
    with pytest.raises(RuntimeError, match="bincount only supports 1-d non-negative integral "
                                           "inputs."):
        torch.bincount(torch.tensor([-1, 0]))


class Forces(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(3, 8), nn.Softplus(), nn.Linear(8, 1)).double()

    def forward(self, pos):
        energy = self.f(pos).sum()
        return energy, -torch.autograd.grad(energy, pos, create_graph=self.training)[0]


def test_hopfield_retrieval_and_forces_from_an_energy_inside_the_forward():
    X, xi = arr(6, 4), arr(2, 4).requires_grad_()
    for _ in range(3):
        xi = torch.softmax(2.0 * xi @ X.T, dim=-1) @ X
    energy = -torch.logsumexp(2.0 * xi @ X.T, -1) / 2.0 + 0.5 * (xi * xi).sum(-1)
    assert xi.grad_fn.name() == "MmBackward0" and energy.grad_fn.name() == "AddBackward0"
    net, pos = Forces(), arr(4, 3).requires_grad_()
    e, force = net(pos)
    assert force.grad_fn.name() == "NegBackward0" and e.grad_fn.name() == "SumBackward0"
    (F.mse_loss(force, arr(4, 3)) + 0.1 * e.pow(2)).backward()
    assert all(p.grad is not None for p in net.parameters())
    net.eval()
    assert not net(arr(4, 3).requires_grad_())[1].requires_grad
    with torch.no_grad():
        z = arr(3, 3)
        for _ in range(3):
            with torch.enable_grad():
                z = z.detach().requires_grad_()
                g, = torch.autograd.grad(net.f(z).sum(), z)
            z = z - 0.1 * g
    assert not z.requires_grad
    out = net.f(arr(2, 3))
    torch.autograd.grad(out.sum(), net.f[0].weight)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        torch.autograd.grad(out.sum(), net.f[0].weight)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar "
                                           "outputs"):
        torch.autograd.grad(out, net.f[0].weight)


def off_diagonal(m):
    n = m.shape[0]
    return m.flatten()[:-1].view(n - 1, n + 1)[:, 1:].flatten()


def test_byol_moves_its_target_and_barlow_twins_and_vicreg_decorrelate():
    import copy

    online = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 4)).double()
    target, pred = copy.deepcopy(online).requires_grad_(False), nn.Linear(4, 4).double()
    x1, x2 = arr(6, 4), arr(6, 4)
    p1 = F.normalize(pred(online(x1)), dim=-1)
    with torch.no_grad():
        z2 = F.normalize(target(x2), dim=-1)
    loss = 2 - 2 * (p1 * z2).sum(-1).mean()
    assert loss.grad_fn.name() == "RsubBackward1" and not z2.requires_grad
    loss.backward()
    before = [p.clone() for p in target.parameters()]
    with torch.no_grad():
        torch._foreach_lerp_(list(target.parameters()), list(online.parameters()), 0.01)
    assert all(torch.allclose(t, b + 0.01 * (o - b)) for t, b, o in
               zip(target.parameters(), before, online.parameters()))
    za, zb = online(x1), online(x2)
    za_n, zb_n = (za - za.mean(0)) / za.std(0), (zb - zb.mean(0)) / zb.std(0)
    c = za_n.T @ zb_n / 6
    on, off = torch.diagonal(c).add_(-1).pow_(2).sum(), off_diagonal(c).pow_(2).sum()
    assert on.grad_fn.name() == off.grad_fn.name() == "SumBackward0"
    assert off_diagonal(c).grad_fn.name() == "UnsafeViewBackward0"
    cov = (za - za.mean(0)).T @ (za - za.mean(0)) / 5
    assert torch.allclose(torch.cov(za.T), cov)
    vicreg = F.relu(1 - torch.sqrt(za.var(dim=0) + 1e-4)).mean() + off_diagonal(cov).pow(2).sum()
    (on + 0.005 * off + vicreg + F.mse_loss(za, zb)).backward()
    with pytest.raises(RuntimeError, match="view size is not compatible with input tensor's "
                                           "size and stride"):
        c.T[:, :3].view(-1)
    with pytest.warns(UserWarning, match="std\\(\\): degrees of freedom is <= 0"):
        torch.tensor([1.0]).std()


def squash(s):
    n2 = (s ** 2).sum(-1, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)


def test_capsules_route_by_agreement_and_train_by_a_margin_loss():
    u_hat, b = arr(2, 6, 3, 4).requires_grad_(), torch.zeros(2, 6, 3, dtype=torch.float64)
    for i in range(3):
        v = squash((F.softmax(b, dim=2).unsqueeze(-1) * u_hat).sum(1))
        if i < 2:
            b = b + (u_hat * v.unsqueeze(1)).sum(-1)
    lengths = v.norm(dim=-1)
    assert v.grad_fn.name() == "DivBackward0" and lengths.grad_fn.name() == (
        "LinalgVectorNormBackward0") and bool((lengths < 1).all())
    yoh = F.one_hot(torch.tensor([0, 2]), 3).double()
    margin = (yoh * F.relu(0.9 - lengths) ** 2 + 0.5 * (1 - yoh) * F.relu(lengths - 0.1) ** 2)
    margin.sum(1).mean().backward()
    assert u_hat.grad.shape == (2, 6, 3, 4)
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor"):
        F.one_hot(torch.tensor([0.0]), 3)
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes."):
        F.one_hot(torch.tensor([3]), 3)
    with pytest.raises(RuntimeError, match="linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2"):
        v.norm(p="nuc")


def test_a_beam_search_keeps_tied_beams_as_torch_orders_them():
    V, K = 5, 3
    emb = torch.tensor([[0.5, -1.0], [0.5, -1.0], [1.0, 0.0], [0.0, 1.0], [0.5, -1.0]],
                       dtype=torch.float64)
    Wo = torch.tensor([[1.0, 0.0, 2.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 1.0]], dtype=torch.float64)
    beams, scores, picked = torch.tensor([[2]]), torch.zeros(1, dtype=torch.float64), []
    for _ in range(3):
        logp = F.log_softmax(emb[beams[:, -1]] @ Wo, -1)
        top, idx = (scores[:, None] + logp).view(-1).topk(K)
        beams = torch.cat([beams[torch.div(idx, V, rounding_mode="floor")], (idx % V)[:, None]], 1)
        scores, picked = top, picked + [idx.tolist()]
    # tokens 1, 3 and 4 tie after token 2: torch's selection keeps 4
    assert picked == [[2, 0, 4], [2, 0, 7], [2, 0, 12]]
    assert beams.tolist() == [[2, 2, 2, 2], [2, 2, 2, 0], [2, 0, 2, 2]]
    assert torch.tensor([[0.25] * 4]).topk(2).indices.tolist() == [[2, 3]]
    assert torch.zeros(100).topk(2).indices.tolist() == [67, 66]
    assert torch.tensor([3.0, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3]).topk(
        3, sorted=False).indices.tolist() == [14, 12, 5]
    assert torch.gather(logp, 1, (idx % V)[:, None]).shape == (3, 1)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        logp.view(-1).topk(100)
    assert torch.gather(logp, 1, (idx % V)[:, None].int()).dtype == torch.float64
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of "
                                           "dimensions as input tensor"):
        torch.gather(logp, 1, idx % V)
    with pytest.raises(RuntimeError, match="div expected rounding_mode to be one of None, "
                                           "'trunc', or 'floor' but found 'round'"):
        torch.div(idx, V, rounding_mode="round")


def test_nerf_renders_by_cumprod_and_resamples_by_searchsorted():
    def posenc(x):
        xb = x[..., None] * (2.0 ** torch.arange(3, dtype=torch.float64) * torch.pi)
        return torch.cat([x, torch.sin(xb).flatten(-2), torch.cos(xb).flatten(-2)], -1)

    o, d = arr(4, 3), F.normalize(arr(4, 3), dim=-1)
    t = torch.linspace(2.0, 6.0, 8, dtype=torch.float64).expand(4, 8) + torch.tensor(
        RNG.uniform(0, 0.5, (4, 8)))
    mlp = nn.Sequential(nn.Linear(21, 16), nn.ReLU(), nn.Linear(16, 4)).double()
    raw = mlp(posenc(o[..., None, :] + d[..., None, :] * t[..., :, None]))
    sigma, rgb = F.relu(raw[..., 0]), torch.sigmoid(raw[..., 1:])
    delta = torch.cat([t[..., 1:] - t[..., :-1], torch.full((4, 1), 1e10, dtype=torch.float64)], -1)
    alpha = 1 - torch.exp(-sigma * delta)
    trans = torch.cumprod(torch.cat([torch.ones(4, 1, dtype=torch.float64), 1 - alpha + 1e-10],
                                    -1), -1)[..., :-1]
    w = alpha * trans
    color, depth = (w[..., None] * rgb).sum(-2), (w * t).sum(-1)
    assert trans.grad_fn.name() == "SliceBackward0" and color.grad_fn.name() == "SumBackward1"
    assert bool((w.sum(-1) <= 1 + 1e-9).all()) and depth.shape == (4,)
    F.mse_loss(color, torch.full((4, 3), 0.5, dtype=torch.float64)).backward()
    assert mlp[0].weight.grad.shape == (16, 21)
    pdf = (w.detach() + 1e-5) / (w.detach() + 1e-5).sum(-1, keepdim=True)
    cdf = torch.cat([torch.zeros(4, 1, dtype=torch.float64), torch.cumsum(pdf, -1)], -1)
    u = torch.linspace(0, 1, 6, dtype=torch.float64).expand(4, 6).contiguous()
    inds = torch.searchsorted(cdf, u, right=True)
    assert inds.dtype == torch.int64 and inds[:, 0].tolist() == [1, 1, 1, 1]
    with warned(r"torch.searchsorted\(\): input value tensor is non-contiguous, this will lower "
                r"the performance .* \(Triggered internally at /__w/pytorch/pytorch/aten/src/"
                r"ATen/native/BucketizationUtils.h:32.\)"):
        assert torch.equal(torch.searchsorted(cdf, u.t().contiguous().t(), right=True), inds)
    with warned(r"torch.searchsorted\(\): boundary tensor is non-contiguous"):
        torch.bucketize(u, cdf[0, ::2])
    with warned(r"torch.meshgrid: in an upcoming release, it will be required to pass the "
                r"indexing argument. \(Triggered internally at /__w/pytorch/pytorch/aten/"):
        torch.meshgrid(torch.arange(3), torch.arange(2))
    with pytest.raises(RuntimeError, match="side and right can't be set to opposites"):
        torch.searchsorted(cdf, u, side="left", right=True)


def test_a_mixture_of_experts_dispatches_tokens_sorted_by_expert():
    experts = nn.ModuleList(nn.Linear(3, 3).double() for _ in range(4))
    gate, x = nn.Linear(3, 4, bias=False).double(), arr(20, 3)
    weight, expert = gate(x).softmax(-1).max(-1)
    order = expert.argsort()
    counts = torch.bincount(expert, minlength=4).tolist()
    parts = [experts[e](chunk) for e, chunk in enumerate(x[order].split(counts))]
    out = torch.empty_like(x).index_copy(0, order, torch.cat(parts)) * weight[:, None]
    assert out.grad_fn.name() == "MulBackward0" and sum(counts) == 20
    out.pow(2).mean().backward()
    assert gate.weight.grad is not None
    # untrained gates give tokens equal experts: torch's default sort is not stable past 16
    expert = torch.tensor([2, 0, 1, 2, 0, 0, 1, 2, 2, 0, 1, 1, 0, 2, 2, 0, 1, 0, 2, 1])
    assert expert.argsort().tolist() == [1, 17, 4, 5, 15, 12, 9, 19, 16, 11, 10, 6, 2, 8, 7,
                                         13, 14, 3, 18, 0]
    assert expert.sort(stable=True).indices.tolist()[:7] == [1, 4, 5, 9, 12, 15, 17]
    assert torch.zeros(20).sort(descending=True).indices[:3].tolist() == [10, 19, 18]
    assert torch.full((2, 8), 0.125).topk(2).indices.tolist() == [[6, 5], [6, 5]]
    load = torch.tensor([1.0] + [2.0] * 18 + [3.0], requires_grad=True)
    torch.quantile(load, 0.5).backward()  # read from the sort: the tie torch's puts there
    assert load.grad.nonzero().flatten().tolist() == [10, 11]
    with pytest.raises(RuntimeError, match="split_with_sizes expects split_sizes to sum "
                                           "exactly to 20"):
        x.split([5, 5])


def test_a_learning_rate_learned_through_unrolled_steps():
    w0 = arr(3, 1)
    log_lr = torch.tensor(-2.0, dtype=torch.float64, requires_grad=True)
    xt, yt, xv, yv = arr(8, 3), arr(8, 1), arr(8, 3), arr(8, 1)
    meta = torch.optim.Adam([log_lr], lr=0.1)
    for _ in range(3):
        w = w0.clone().requires_grad_()
        for _ in range(3):
            g, = torch.autograd.grad(F.mse_loss(xt @ w, yt), w, create_graph=True)
            w = w - log_lr.exp() * g
        val = F.mse_loss(xv @ w, yv)
        meta.zero_grad()
        val.backward()
        meta.step()
    assert w.grad_fn.name() == "SubBackward0" and log_lr.grad is not None
    assert sorted(meta.state[log_lr]) == ["exp_avg", "exp_avg_sq", "step"]
    hyper = torch.func.grad(lambda lr: F.mse_loss(
        xv @ (w0 - lr * torch.func.grad(lambda v: F.mse_loss(xt @ v, yt))(w0)), yv))
    assert hyper(torch.tensor(0.1, dtype=torch.float64)).shape == ()
    with pytest.raises(RuntimeError, match="The differentiated Tensor at index 0 appears to "
                                           "not have been used in the graph"):
        torch.autograd.grad(val, arr(1).requires_grad_())
