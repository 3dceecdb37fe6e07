"""Oracle test: small generative models trained a few steps agree with torch's.

Four walks, each started from the same NumPy weights and the same seed in both libraries
and run in float64: a GAN whose discriminator is spectrally normalised (two optimizers,
``fake.detach()``, the discriminator frozen while the generator steps, a gradient
penalty), a VAE (reparameterised samples from ``Normal.rsample``, ``kl_divergence``), a
RealNVP-like flow with an LU-parametrised linear layer, and a DDPM noise predictor with an
exponential moving average of its weights and a sampling loop. Every loss, gradient,
parameter, buffer and sample must be torch's to rounding. (No bias sits before a batch
norm: the norm cancels it, its gradient is rounding noise, and Adam scales noise up to
whole steps.)
"""

import math

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_walks_agree, filled


def arrays(tensors):
    return [t.detach().numpy().copy() for t in tensors]


def gan_walk(lib):
    nn = lib.nn
    sn = nn.utils.parametrizations.spectral_norm
    rng = np.random.default_rng(10)
    lib.manual_seed(0)
    G = filled(lib, nn.Sequential(nn.Linear(4, 16, bias=False), nn.BatchNorm1d(16), nn.ReLU(),
                                  nn.Linear(16, 2), nn.Tanh()), rng)
    D = filled(lib, nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)), rng)
    sn(D[0])
    sn(D[2])
    rnn = sn(filled(lib, nn.GRU(2, 3), rng), "weight_hh_l0")
    opt_g = lib.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
    opt_d = lib.optim.Adam(list(D.parameters()) + list(rnn.parameters()), lr=2e-3,
                           betas=(0.5, 0.999))
    crit = nn.BCEWithLogitsLoss()
    record = []
    for step in range(3):
        real, z = lib.tensor(rng.standard_normal((8, 2))), lib.tensor(rng.standard_normal((8, 4)))
        fake = G(z)
        opt_d.zero_grad(set_to_none=step != 1)
        alpha = lib.tensor(rng.random((8, 1)))
        interp = (alpha * real + (1 - alpha) * fake.detach()).requires_grad_(True)
        g, = lib.autograd.grad(D(interp).sum(), interp, create_graph=True)
        penalty = ((g.norm(2, dim=1) - 1) ** 2).mean()
        loss_d = (crit(D(real), lib.full((8, 1), 0.9, dtype=lib.float64))
                  + crit(D(fake.detach()), lib.zeros(8, 1, dtype=lib.float64)) + penalty
                  + rnn(real.unsqueeze(1))[0].pow(2).mean())
        loss_d.backward()
        opt_d.step()
        for p in D.parameters():
            p.requires_grad_(False)
        opt_g.zero_grad()
        out = D(fake)
        loss_g = crit(out, lib.ones_like(out))
        loss_g.backward()
        opt_g.step()
        for p in D.parameters():
            p.requires_grad_(True)
        record += arrays([loss_d, loss_g, penalty, *(p.grad for p in G.parameters())])
        record += arrays(p.grad for p in D.parameters())
    record += arrays([*G.parameters(), *D.parameters(), *G.buffers(), *D.buffers(),
                      *rnn.parameters(), *rnn.buffers()])
    D.eval()
    record += arrays([D(lib.tensor(rng.standard_normal((3, 2))))])
    return record


def vae_walk(lib):
    nn, F, dist = lib.nn, lib.nn.functional, lib.distributions
    rng = np.random.default_rng(11)
    enc = filled(lib, nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4)), rng)
    dec = filled(lib, nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 6)), rng)
    opt = lib.optim.Adam([*enc.parameters(), *dec.parameters()], lr=1e-2)
    x = lib.tensor((rng.random((5, 6)) > 0.5).astype(float))
    lib.manual_seed(3)
    record = []
    for _ in range(3):
        mu, logvar = enc(x).chunk(2, dim=1)
        q = dist.Normal(mu, (0.5 * logvar).exp())
        z = q.rsample()
        rec = F.binary_cross_entropy_with_logits(dec(z), x, reduction="sum") / 5
        kl = dist.kl_divergence(q, dist.Normal(0.0, 1.0)).sum(1).mean()
        opt.zero_grad()
        (rec + kl).backward()
        opt.step()
        record += arrays([z, rec, kl, *(p.grad for p in enc.parameters())])
    with lib.inference_mode():
        record += arrays([lib.sigmoid(dec(lib.randn(4, 2, dtype=lib.float64)))])
    return record


def flow_walk(lib):
    nn, dist = lib.nn, lib.distributions

    class Coupling(nn.Module):
        def __init__(self, mask):
            super().__init__()
            self.register_buffer("mask", mask)
            self.s = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 3))
            self.t = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 3))

        def forward(self, x):
            kept = x * self.mask
            s = self.s(kept) * (1 - self.mask)
            return kept + (1 - self.mask) * (x * s.exp() + self.t(kept)), s.sum(1)

    rng = np.random.default_rng(12)
    masks = [lib.tensor([1.0, 0.0, 1.0]), lib.tensor([0.0, 1.0, 0.0])]
    layers = nn.ModuleList([filled(lib, Coupling(m.double()), rng) for m in masks])
    p, lower, upper = lib.linalg.lu(lib.tensor(np.linalg.qr(rng.standard_normal((3, 3)))[0]))
    log_s = nn.Parameter(upper.diagonal().abs().log())
    sign = upper.diagonal().sign()
    lo, up = nn.Parameter(lower.clone()), nn.Parameter(upper.triu(1))
    below = lib.tril(lib.ones(3, 3, dtype=lib.float64), -1)
    prior = dist.MultivariateNormal(lib.zeros(3, dtype=lib.float64),
                                    lib.eye(3, dtype=lib.float64))
    opt = lib.optim.Adam([*layers.parameters(), log_s, lo, up], lr=1e-2)
    x = lib.tensor(rng.standard_normal((16, 3)) * [2.0, 0.5, 1.0] + 1)
    record = []
    for _ in range(3):
        w = p @ (lo * below + lib.eye(3, dtype=lib.float64)) @ (
            up * below.T + lib.diag(sign * log_s.exp()))
        z, log_det = x @ w.T, lib.linalg.slogdet(w).logabsdet.expand(16)
        for layer in layers:
            z, ld = layer(z)
            log_det = log_det + ld
        loss = -(prior.log_prob(z) + log_det).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        record += arrays([loss, log_s.grad, lo.grad, up.grad])
    return record + arrays([*layers.parameters(), log_s, lo, up])


def diffusion_walk(lib):
    nn, F = lib.nn, lib.nn.functional
    swa = lib.optim.swa_utils
    rng = np.random.default_rng(13)
    steps = 20
    betas = lib.linspace(1e-4, 0.02, steps, dtype=lib.float64)
    alphas_cumprod = lib.cumprod(1 - betas, dim=0)

    def at(a, t):
        return a.gather(-1, t).reshape(-1, 1)

    def embed(t, dim=8):
        freqs = lib.exp(-math.log(10000) * lib.arange(dim // 2, dtype=lib.float64) / (dim // 2))
        args = t[:, None].double() * freqs[None]
        return lib.cat([args.sin(), args.cos()], dim=-1)

    time = filled(lib, nn.Sequential(nn.Linear(8, 16), nn.SiLU()), rng)
    body = filled(lib, nn.Sequential(nn.Linear(2, 16), nn.GroupNorm(4, 16), nn.Mish(),
                                     nn.Linear(16, 2)), rng)
    model = nn.ModuleDict({"time": time, "body": body})
    ema = swa.AveragedModel(model, multi_avg_fn=swa.get_ema_multi_avg_fn(0.9))
    by_hand = [p.detach().clone() for p in model.parameters()]
    opt = lib.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
    sched = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)

    def predict(m, x, t):
        return m["body"][1:](m["body"][0](x) + m["time"](embed(t)))

    data = lib.tensor(rng.standard_normal((32, 2)) * 0.5 + [1.0, -1.0])
    record = []
    for _ in range(4):
        t, noise = lib.tensor(rng.integers(0, steps, 32)), lib.tensor(rng.standard_normal((32, 2)))
        x_t = at(alphas_cumprod.sqrt(), t) * data + at((1 - alphas_cumprod).sqrt(), t) * noise
        loss = F.mse_loss(predict(model, x_t, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        ema.update_parameters(model)
        with lib.no_grad():
            lib._foreach_lerp_(by_hand, list(model.parameters()), 0.1)
        record += arrays([loss, *(p.grad for p in model.parameters())])
    record += arrays([*model.parameters(), *ema.module.parameters(), *by_hand])
    x = lib.tensor(rng.standard_normal((6, 2)))
    with lib.no_grad():
        for i in reversed(range(steps)):
            t = lib.full((6,), i, dtype=lib.long)
            eps = predict(ema.module, x, t)
            mean = (x - at(betas, t) / at((1 - alphas_cumprod).sqrt(), t) * eps) / at(
                (1 - betas).sqrt(), t)
            x = mean + (at(betas, t).sqrt() * lib.tensor(rng.standard_normal((6, 2))) if i else 0)
    return record + arrays([x])


@pytest.mark.parametrize("walk", [gan_walk, vae_walk, flow_walk, diffusion_walk])
def test_generative_walk_matches_torch(walk):
    ours, theirs = walk(refgrad), walk(torch)
    assert_walks_agree(ours, theirs)
