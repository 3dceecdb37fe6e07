"""Oracle test: training walks through graphs, experts, embeddings and augmentations agree
with torch's.

Each walk starts from the same NumPy weights and data in both libraries, in float64, with
random draws replaced by arrays: a GAT-style network trained on message passing, a top-2
mixture of experts with its balancing loss, SimCLR's loss over a projection head, a focal
loss with smoothed and weighted cross-entropy, ViT patches under mixup, stochastic depth
under layer-wise learning rates, and SAM wrapped around SGD with momentum. Every loss,
gradient and parameter must be torch's to rounding.
"""

import math

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_walks_agree, filled


def arrays(tensors):
    return [t.detach().numpy().copy() for t in tensors]


def graph(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(1)
    lin, att = filled(lib, nn.Linear(3, 4), rng), filled(lib, nn.Linear(8, 1), rng)
    opt = lib.optim.Adam(list(lin.parameters()) + list(att.parameters()), lr=1e-2)
    src, dst = lib.tensor([0, 1, 2, 3, 4, 0, 2, 1]), lib.tensor([1, 2, 3, 4, 0, 2, 0, 1])
    x, record = lib.tensor(rng.standard_normal((5, 3))), []
    for _ in range(3):
        h = lin(x)
        e = F.leaky_relu(att(lib.cat([h[src], h[dst]], 1)).squeeze(1), 0.2)
        top = lib.zeros(5, dtype=e.dtype).scatter_reduce(0, dst, e, "amax", include_self=False)
        ex = (e - top[dst]).exp()
        alpha = ex / lib.zeros(5, dtype=e.dtype).index_add(0, dst, ex)[dst]
        out = lib.zeros(5, 4, dtype=h.dtype).index_add(0, dst, alpha[:, None] * h[src])
        loss = F.cross_entropy(out, lib.tensor([0, 1, 2, 3, 0]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        record += arrays([alpha, loss, lin.weight.grad])
    return record + arrays([*lin.parameters(), *att.parameters()])


def experts(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(2)
    gate = filled(lib, nn.Linear(4, 3, bias=False), rng)
    team = filled(lib, nn.ModuleList([nn.Linear(4, 4) for _ in range(3)]), rng)
    opt = lib.optim.SGD([*gate.parameters(), *team.parameters()], lr=0.1, momentum=0.9)
    record = []
    for _ in range(3):
        x = lib.tensor(rng.standard_normal((6, 4)))
        probs = gate(x).softmax(-1)
        w, idx = probs.topk(2, dim=-1)
        w = w / w.sum(-1, keepdim=True)
        out = lib.zeros_like(x)
        for e in range(3):
            rows, slot = lib.where(idx == e)
            out = out.index_add(0, rows, team[e](x[rows]) * w[rows, slot, None])
        aux = 3 * (F.one_hot(idx[:, 0], 3).double().mean(0) * probs.mean(0)).sum()
        loss = out.pow(2).mean() + 0.01 * aux + 1e-3 * lib.logsumexp(gate(x), -1).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        record += arrays([out, loss, gate.weight.grad])
    return record + arrays(team.parameters())


def contrastive_and_focal(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(3)
    head = filled(lib, nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)), rng)
    opt = lib.optim.AdamW(head.parameters(), lr=1e-2)
    w, record = lib.tensor([1.0, 2.0, 0.5], dtype=lib.float64), []
    for _ in range(3):
        views = lib.tensor(rng.standard_normal((8, 4)))
        z = F.normalize(head(views), dim=1)
        sim = (z @ z.T / 0.5).masked_fill(lib.eye(8, dtype=lib.bool), float("-inf"))
        nt_xent = F.cross_entropy(sim, lib.cat([lib.arange(4, 8), lib.arange(0, 4)]))
        t = lib.tensor([0, 2, -100, 1, 1, 0, 2, -100])
        ce = F.cross_entropy(head(views), t, weight=w, label_smoothing=0.1, reduction="none")
        focal = ((1 - lib.exp(-ce)) ** 2 * ce).mean()
        opt.zero_grad()
        (nt_xent + focal).backward()
        opt.step()
        record += arrays([nt_xent, focal, head[0].weight.grad])
    return record + arrays(head.parameters())


def patches_and_depth(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(4)
    embed, blocks = filled(lib, nn.Linear(12, 6), rng), [
        filled(lib, nn.Linear(6, 6), rng) for _ in range(3)]
    groups = [{"params": b.parameters(), "lr": 1e-2 * 0.65 ** (2 - i), "weight_decay": 0.05}
              for i, b in enumerate(blocks)]
    opt, record = lib.optim.AdamW([{"params": embed.parameters()}, *groups], lr=1e-2), []
    for _ in range(3):
        img, lam = lib.tensor(rng.standard_normal((4, 3, 4, 4))), 0.7
        mixed = lib.lerp(img[lib.tensor([2, 0, 3, 1])], img, lam)
        h = embed(F.unfold(mixed, 2, stride=2).transpose(1, 2))
        for b in blocks:
            keep = lib.tensor(rng.random((4, 1, 1)) < 0.8).double().div_(0.8)
            h = h + b(h) * keep
        loss = h.mean(1).pow(2).sum() * lam + math.log1p(lam)
        opt.zero_grad()
        loss.backward()
        opt.step()
        record += arrays([h, loss, embed.weight.grad])
    return record + arrays([p for b in blocks for p in b.parameters()])


def sam(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(5)
    model = filled(lib, nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2)), rng)
    opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    X, Y = lib.tensor(rng.standard_normal((8, 3))), lib.tensor(rng.integers(0, 2, 8))
    record = []
    for _ in range(3):
        opt.zero_grad()
        F.cross_entropy(model(X), Y).backward()
        with lib.no_grad():
            norm = lib.norm(lib.stack([p.grad.norm(p=2) for p in model.parameters()]), p=2)
            old = [p.data.clone() for p in model.parameters()]
            for p in model.parameters():
                p.add_(p.grad * (0.05 / (norm + 1e-12)))
        opt.zero_grad()
        F.cross_entropy(model(X), Y).backward()
        for p, o in zip(model.parameters(), old):
            p.data = o
        opt.step()
        record += arrays([norm, model[0].weight.grad])
    return record + arrays(model.parameters())


@pytest.mark.parametrize("walk", [graph, experts, contrastive_and_focal, patches_and_depth, sam])
def test_training_walk_matches_torch(walk):
    assert_walks_agree(walk(refgrad), walk(torch))
