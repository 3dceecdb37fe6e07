"""Oracle test: training steps of well-known models, and the autograd tools around them, agree
with torch's.

Each walk starts from the same NumPy weights and data in both libraries, in float64, with
dropout off (refgrad's random streams are its own): a causal transformer encoder trained by
AdamW with a padding mask and label smoothing, a VAE with its reparameterisation and KL term,
a GAN's two optimizers, a WGAN-GP critic, Hessian-vector products, per-sample gradients
clipped as DP-SGD clips them, one-cycle and cosine schedules over clipped steps, orthogonal
and weight-normed layers, checkpointed residual blocks, and a physics-informed network fitted
by LBFGS. Every loss, gradient and parameter must be torch's to rounding.
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_walks_agree, filled


def arrays(tensors):
    return [np.asarray(t.detach().numpy() if hasattr(t, "detach") else t).copy()
            for t in tensors]


def transformer(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(1)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    enc = filled(lib, nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8),
                                            enable_nested_tensor=False), rng)
    head = filled(lib, nn.Linear(8, 11), rng)
    opt = lib.optim.AdamW(list(enc.parameters()) + list(head.parameters()), lr=1e-2)
    mask = nn.Transformer.generate_square_subsequent_mask(5, dtype=lib.float64)
    x, tgt = lib.tensor(rng.standard_normal((3, 5, 8))), lib.tensor(rng.integers(0, 11, (3, 5)))
    pad = lib.tensor([[False] * 5, [False] * 4 + [True], [False] * 3 + [True] * 2])
    record = []
    for _ in range(3):
        opt.zero_grad()
        out = enc(x, mask=mask, is_causal=True, src_key_padding_mask=pad.double() * -1e9)
        loss = F.cross_entropy(head(out).reshape(-1, 11), tgt.reshape(-1), ignore_index=4,
                               label_smoothing=0.1)
        loss.backward()
        opt.step()
        record += arrays([out, loss, enc.layers[0].self_attn.in_proj_weight.grad])
    return record + arrays(enc.parameters())


def vae(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(2)
    enc, mu_of, logvar_of = nn.Linear(12, 8), nn.Linear(8, 2), nn.Linear(8, 2)
    dec = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 12), nn.Sigmoid())
    model = filled(lib, nn.ModuleList([enc, mu_of, logvar_of, dec]), rng)
    opt = lib.optim.Adam(model.parameters(), lr=1e-2)
    x, record = lib.sigmoid(lib.tensor(rng.standard_normal((4, 12)))), []
    for _ in range(3):
        h = F.relu(enc(x))
        mu, logvar = mu_of(h), logvar_of(h)
        z = mu + lib.tensor(rng.standard_normal((4, 2))) * lib.exp(0.5 * logvar)
        recon = dec(z)
        kld = -0.5 * lib.sum(1 + logvar - mu.pow(2) - logvar.exp())
        loss = F.binary_cross_entropy(recon, x, reduction="sum") + kld
        opt.zero_grad()
        loss.backward()
        opt.step()
        record += arrays([recon, kld, loss, enc.weight.grad])
    return record + arrays(model.parameters())


def gan_and_penalty(lib):
    nn, rng = lib.nn, np.random.default_rng(3)
    G = filled(lib, nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 4),
                                  nn.Tanh()), rng)
    D = filled(lib, nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)), rng)
    opt_g = lib.optim.Adam(G.parameters(), lr=1e-2, betas=(0.5, 0.999))
    opt_d = lib.optim.Adam(D.parameters(), lr=1e-2, betas=(0.5, 0.999))
    bce, record = nn.BCEWithLogitsLoss(), []
    for step in range(4):
        real, fake = lib.tensor(rng.standard_normal((6, 4))), G(lib.tensor(
            rng.standard_normal((6, 3))))
        opt_d.zero_grad()
        if step % 2:  # a WGAN-GP critic step
            alpha = lib.tensor(rng.random((6, 1)))
            mixed = (alpha * real + (1 - alpha) * fake.detach()).requires_grad_(True)
            out = D(mixed)
            grads = lib.autograd.grad(out, mixed, lib.ones_like(out), create_graph=True)[0]
            penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
            loss_d = D(fake.detach()).mean() - D(real).mean() + 10 * penalty
        else:
            ones, zeros = lib.ones(6, 1, dtype=lib.float64), lib.zeros(6, 1, dtype=lib.float64)
            loss_d = bce(D(real), ones) + bce(D(fake.detach()), zeros)
        loss_d.backward()
        opt_d.step()
        opt_g.zero_grad()
        loss_g = -D(fake).mean()
        loss_g.backward()
        opt_g.step()
        record += arrays([loss_d, loss_g, D[0].weight.grad, G[0].weight.grad])
    return record + arrays(list(G.parameters()) + list(D.parameters()))


def products_and_per_sample(lib):
    nn, F, AF, rng = lib.nn, lib.nn.functional, lib.autograd.functional, np.random.default_rng(4)
    x, v = lib.tensor(rng.standard_normal(4)), lib.tensor(rng.standard_normal(4))

    def f(a):
        return (a.sin() * a.pow(2)).sum()

    record = arrays([*AF.hvp(f, x, v), *AF.vhp(f, x, v), AF.hessian(f, x),
                     *AF.vjp(lambda a: a.exp() * 2, x, v), *AF.jvp(lambda a: a.exp() * 2, x, v)])
    model = filled(lib, nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)), rng)
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    data, target = lib.tensor(rng.standard_normal((6, 4))), lib.tensor(rng.integers(0, 2, 6))
    for _ in range(2):
        summed = [lib.zeros_like(p) for p in model.parameters()]
        for i in range(6):  # DP-SGD: each sample's gradient clipped to norm 1, then summed
            model.zero_grad()
            F.cross_entropy(model(data[i:i + 1]), target[i:i + 1]).backward()
            norm = lib.cat([p.grad.flatten() for p in model.parameters()]).norm()
            for s, p in zip(summed, model.parameters()):
                s += p.grad / (norm / 1.0).clamp(min=1.0)
            record += arrays([norm])
        for s, p in zip(summed, model.parameters()):
            p.grad = s / 6
        opt.step()
    return record + arrays(model.parameters())


def schedules(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(5)
    m = filled(lib, nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 1)), rng)
    sgd = lib.optim.SGD([{"params": m[0].parameters(), "lr": 0.1},
                         {"params": [m[1].weight]}], lr=0.01, momentum=0.9, nesterov=True)
    adam = lib.optim.AdamW([m[1].bias], lr=0.1)
    one = lib.optim.lr_scheduler.OneCycleLR(sgd, max_lr=[0.2, 0.05], total_steps=6)
    cos = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(adam, T_0=2, T_mult=2)
    x, y, record = lib.tensor(rng.standard_normal((5, 3))), lib.tensor(
        rng.standard_normal((5, 1))), []
    for _ in range(6):
        sgd.zero_grad()
        adam.zero_grad()
        F.mse_loss(m(x), y).backward()
        norm = nn.utils.clip_grad_norm_(m.parameters(), 0.5, foreach=True)
        sgd.step()
        adam.step()
        one.step()
        cos.step()
        record += arrays([norm, np.array(one.get_last_lr() + cos.get_last_lr()),
                          np.array([g["momentum"] for g in sgd.param_groups])])
    return record + arrays(m.parameters())


def parametrized_and_checkpointed(lib):
    nn, P, rng = lib.nn, lib.nn.utils.parametrizations, np.random.default_rng(6)
    from_lib = lib.utils.checkpoint.checkpoint
    blocks = [filled(lib, nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.LayerNorm(4)), rng)
              for _ in range(2)]
    ortho = P.orthogonal(filled(lib, nn.Linear(4, 4), rng))
    normed = P.weight_norm(filled(lib, nn.Linear(4, 4), rng))
    params = [p for m in [*blocks, ortho, normed] for p in m.parameters()]
    opt, record = lib.optim.Adam(params, lr=1e-2), []
    x = lib.tensor(rng.standard_normal((3, 4)))
    for step in range(3):
        h = ortho(x)
        for block in blocks:
            h = h + from_lib(block, h, use_reentrant=bool(step % 2))
        loss = normed(h).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        record += arrays([loss, ortho.weight, normed.weight, *[p.grad for p in params]])
    return record


def pinn(lib):
    nn, rng = lib.nn, np.random.default_rng(7)
    net = filled(lib, nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(),
                                    nn.Linear(8, 1)), rng)
    xt = lib.tensor(rng.random((6, 2))).requires_grad_(True)

    def residual():
        u = net(xt)
        du = lib.autograd.grad(u, xt, lib.ones_like(u), create_graph=True)[0]
        u_xx = lib.autograd.grad(du[:, :1], xt, lib.ones_like(u), create_graph=True)[0][:, :1]
        return du[:, 1:] + u * du[:, :1] - 0.01 / np.pi * u_xx

    opt = lib.optim.LBFGS(net.parameters(), lr=0.5, max_iter=4, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = residual().pow(2).mean()
        loss.backward()
        return loss

    record = arrays([residual(), opt.step(closure)])
    return record + arrays([residual(), *net.parameters()])


@pytest.mark.parametrize("walk", [transformer, vae, gan_and_penalty, products_and_per_sample,
                                  schedules, parametrized_and_checkpointed, pinn])
def test_training_walk_matches_torch(walk):
    assert_walks_agree(walk(refgrad), walk(torch))
