"""Journeys through the training steps of well-known models and the autograd tools around
them: a causal transformer encoder, a VAE, a GAN and its gradient penalty,
torch.autograd.functional, per-sample gradients, schedulers with clipping, and tied and
parametrized weights (checkpoints, custom Functions and higher derivatives are in
test_user_journeys_thirteen_autograd.py)."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from conformance._warned import always_warned

RNG = np.random.default_rng(13)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


# --- a causal transformer encoder


def test_a_causal_mask_hides_the_future_and_padding_hides_the_pad():
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    assert mask.dtype == torch.float32 and mask[0, 1] == float("-inf") and mask[1, 0] == 0
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True).double()
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    x = arr(2, 4, 8)
    out = enc(x, mask=mask.double(), is_causal=True)
    changed = x.clone()
    changed[:, 3] += 1  # the last position cannot reach the earlier ones
    assert torch.allclose(enc(changed, mask=mask.double(), is_causal=True)[:, :3], out[:, :3])
    assert out.grad_fn.name() == "NativeLayerNormBackward0"
    loss = F.cross_entropy(out.reshape(-1, 8), torch.tensor([1, 2, 3, 4] * 2), ignore_index=4,
                           label_smoothing=0.1)
    loss.backward()
    assert loss.grad_fn.name() == "AddBackward0"
    assert enc.layers[1].self_attn.in_proj_weight.grad.abs().sum() > 0


def test_the_inference_path_zeroes_padded_positions():
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    enc = nn.TransformerEncoder(layer, 2)
    assert enc.use_nested_tensor
    x, pad = arr(2, 4, 8).float(), torch.tensor([[False] * 4, [False, False, True, True]])
    trained = enc(x, src_key_padding_mask=pad)
    assert trained[1, 2:].abs().sum() > 0
    enc.eval()
    with always_warned(torch):
        with torch.no_grad(), pytest.warns(UserWarning, match="nested tensors is in prototype"):
            inferred = enc(x, src_key_padding_mask=pad)
    assert torch.equal(inferred[1, 2:], torch.zeros(2, 8))
    assert torch.allclose(inferred[:, :2], trained[:, :2].detach(), atol=1e-6)


@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.TransformerEncoderLayer(8, 3), AssertionError,
     "embed_dim must be divisible by num_heads"),
    (lambda: nn.TransformerEncoderLayer(8, 2, activation="swish"), RuntimeError,
     "activation should be relu/gelu, not swish"),
    (lambda: nn.TransformerDecoderLayer(8, 2, batch_first=True)(arr(1, 3, 8), arr(1, 2, 8),
                                                                tgt_is_causal=True),
     RuntimeError, "Need attn_mask if specifying the is_causal hint."),
    (lambda: nn.TransformerEncoderLayer(8, 2).double()(arr(5, 1, 8), torch.zeros(4, 4)),
     RuntimeError, "The shape of the 2D attn_mask is torch.Size([4, 4]), but should be (5, 5)."),
])
def test_transformer_refusals(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value).startswith(message)


# --- generative models


def test_the_vae_kl_term_in_closed_form_is_the_distributions_kl():
    mu, logvar = arr(4, 2).requires_grad_(), arr(4, 2, scale=0.3).requires_grad_()
    eps = arr(4, 2)
    z = mu + eps * torch.exp(0.5 * logvar)  # the reparameterisation: z is differentiable
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    q = torch.distributions.Normal(mu, torch.exp(0.5 * logvar))
    p = torch.distributions.Normal(torch.zeros_like(mu), torch.ones_like(mu))
    assert torch.allclose(torch.distributions.kl_divergence(q, p).sum(), kld)
    assert kld.grad_fn.name() == "MulBackward0" and z.grad_fn.name() == "AddBackward0"
    (z.sum() + kld).backward()
    assert torch.allclose(mu.grad, 1 + mu.detach())
    assert torch.allclose(logvar.grad, 0.5 * eps * torch.exp(0.5 * logvar.detach())
                          + 0.5 * (logvar.detach().exp() - 1))


def test_a_gan_step_detaches_the_fake_batch_for_the_critic():
    G, D = nn.Linear(3, 4).double(), nn.Linear(4, 1).double()
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    fake, crit = G(arr(6, 3)), nn.BCEWithLogitsLoss()
    loss_d = crit(D(arr(6, 4)), torch.ones(6, 1, dtype=torch.float64)) + crit(
        D(fake.detach()), torch.zeros(6, 1, dtype=torch.float64))
    loss_d.backward()
    opt_d.step()
    assert all(p.grad is None for p in G.parameters())
    loss_g = crit(D(fake), torch.ones(6, 1, dtype=torch.float64))
    assert loss_g.grad_fn.name() == "BinaryCrossEntropyWithLogitsBackward0"
    loss_g.backward()
    assert G.weight.grad is not None
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        loss_g.backward()


def test_the_gradient_penalty_differentiates_a_gradient():
    D = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).double()
    real, fake = arr(5, 4), arr(5, 4).requires_grad_()
    alpha = torch.tensor(RNG.random((5, 1)))
    interp = (alpha * real + (1 - alpha) * fake.detach()).requires_grad_(True)
    out = D(interp)
    grads = torch.autograd.grad(out, interp, torch.ones_like(out), create_graph=True)[0]
    assert grads.grad_fn.name() == "MmBackward0"
    gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    (D(fake).mean() + 10 * gp).backward()
    assert D[0].weight.grad.abs().sum() > 0 and interp.grad.shape == (5, 4)
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require"):
        torch.autograd.grad(D(interp).sum(), [interp, real])


# --- autograd.functional and per-sample gradients


def test_hessian_vector_products_four_ways():
    AF = torch.autograd.functional

    def f(x):
        return (x.sin() * x.pow(2)).sum()

    x, v = arr(4), arr(4)
    H = AF.hessian(f, x)
    assert torch.allclose(AF.hvp(f, x, v)[1], H @ v) and torch.allclose(AF.vhp(f, x, v)[1], v @ H)
    assert torch.allclose(AF.hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode"),
                          H)
    xg = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(f(xg), xg, create_graph=True)
    assert torch.allclose(torch.autograd.grad(g @ v, xg)[0], H @ v)
    J = AF.jacobian(lambda a, b: (a.exp() * b, (a * b).sum()), (x, v))
    assert isinstance(J, tuple) and isinstance(J[0], tuple) and J[1][1].shape == (4,)
    assert AF.jvp(lambda a: a.exp(), xg, v, create_graph=True)[1].grad_fn.name() == "MulBackward0"


@pytest.mark.parametrize("call, error, message", [
    (lambda f, x, v: torch.autograd.functional.hvp(lambda a: a * 2, x, v), RuntimeError,
     "The Tensor returned by the function given to hvp should contain a single element"),
    (lambda f, x, v: torch.autograd.functional.hvp(lambda a: a.sum(), x, v, strict=True),
     RuntimeError, "While computing the hessian, found that the jacobian of the user-provided "
     "function with respect to input 0 is independent of the input."),
    (lambda f, x, v: torch.autograd.functional.hessian(
        f, x, outer_jacobian_strategy="forward-mode"),
     NotImplementedError, "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
     "only implemented for `vectorize=True`."),
    (lambda f, x, v: torch.autograd.functional.vjp(lambda a: a.detach() * 2, x, v, strict=True),
     RuntimeError, "Output 0 of the user-provided function does not require gradients."),
    (lambda f, x, v: torch.autograd.functional.jacobian(lambda a: [a], x), TypeError,
     "The outputs of the user-provided function given to jacobian must be either a Tensor or a "
     "tuple of Tensors but the given outputs of the user-provided function has type "
     "<class 'list'>."),
    (lambda f, x, v: torch.autograd.functional.jvp(lambda a: a, x, arr(3)), RuntimeError,
     "v has invalid size: should be torch.Size([4]) but got torch.Size([3])."),
])
def test_functional_refusals(call, error, message):
    with pytest.raises(error) as info:
        call(lambda a: a.pow(3).sum(), arr(4), arr(4))
    assert str(info.value).startswith(message)


def test_per_sample_gradients_by_a_loop_by_hooks_and_by_vmap():
    model = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)).double()
    x, t = arr(6, 4), torch.tensor([0, 1, 1, 0, 1, 0])
    loop = []
    for i in range(6):
        model.zero_grad()
        F.cross_entropy(model(x[i:i + 1]), t[i:i + 1]).backward()
        loop.append(model[0].weight.grad.clone())
    acts, outs = {}, {}
    handles = [model[0].register_forward_hook(lambda m, i, o: acts.update(a=i[0].detach())),
               model[0].register_full_backward_hook(lambda m, gi, go: outs.update(g=go[0]))]
    model.zero_grad()
    with pytest.warns(UserWarning, match="Full backward hook is firing when gradients are "
                                         "computed with respect to module outputs"):
        F.cross_entropy(model(x), t, reduction="sum").backward()
    assert torch.allclose(torch.einsum("ni,nj->nij", outs["g"], acts["a"]), torch.stack(loop))
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p, xi, ti):
        out = torch.func.functional_call(model, p, (xi.unsqueeze(0),))
        return F.cross_entropy(out, ti.unsqueeze(0))

    with pytest.raises(RuntimeError, match="In order to use an autograd.Function with functorch "
                                           "transforms .* it must override the setup_context"):
        torch.func.grad(loss)(params, x[0], t[0])  # the full backward hook is a Function
    for h in handles:
        h.remove()
    assert not model[0]._forward_hooks and not model[0]._backward_hooks
    grads = torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(params, x, t)
    assert torch.allclose(grads["0.weight"], torch.stack(loop))
    bad = nn.Linear(3, 3).double()
    bad.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match="Backward hook returned an invalid number of "
                                           "grad_input, got 2, but expected 1"):
        bad(arr(2, 3).requires_grad_()).sum().backward()


# --- schedulers, clipping and parametrized weights


def test_one_cycle_over_two_groups_cycles_momentum_and_stops_at_its_end():
    m = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 1)).double()
    opt = torch.optim.SGD([{"params": m[0].parameters(), "lr": 0.1},
                           {"params": m[1].parameters()}], lr=0.01, momentum=0.9, nesterov=True)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.2, 0.05], total_steps=6)
    assert [g["lr"] for g in opt.param_groups] == pytest.approx([0.008, 0.002])
    assert [g["momentum"] for g in opt.param_groups] == [0.95, 0.95]
    x, y = arr(5, 3), arr(5, 1)
    for _ in range(6):
        opt.zero_grad()
        F.mse_loss(m(x), y).backward()
        norm = nn.utils.clip_grad_norm_(m.parameters(), 0.5, foreach=True)
        assert norm.dtype == torch.float64 and norm.dim() == 0
        opt.step()
        sched.step()
    assert sched.get_last_lr()[0] == pytest.approx(0.02669550603776612)
    with pytest.raises(ValueError, match="Tried to step 7 times. The specified number of total "
                                         "steps is 6"):
        sched.step()


def test_cosine_schedules_on_two_optimizers():
    w, b = arr(3).requires_grad_(), arr(1).requires_grad_()
    a, s = torch.optim.AdamW([w], lr=0.1), torch.optim.SGD([b], lr=0.1)
    sa = torch.optim.lr_scheduler.CosineAnnealingLR(a, T_max=3, eta_min=0.01)
    sb = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(s, T_0=2, T_mult=2)
    lrs = []
    for _ in range(5):
        a.step()
        s.step()
        sa.step()
        sb.step()
        lrs.append((sa.get_last_lr()[0], sb.get_last_lr()[0]))
    assert lrs[2][0] == pytest.approx(0.01) and lrs[4][0] == pytest.approx(0.0775)
    assert lrs[1][1] == pytest.approx(0.1) and lrs[2][1] == pytest.approx(0.085355339)
    with pytest.raises(ValueError, match="Expected integer T_mult >= 1, but got 1.5"):
        torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(s, T_0=2, T_mult=1.5)


def test_tied_weights_and_parametrizations():
    emb, dec = nn.Embedding(7, 4).double(), nn.Linear(4, 7).double()
    dec.weight = emb.weight
    model = nn.ModuleDict({"emb": emb, "dec": dec})
    assert sorted(dict(model.named_parameters())) == ["dec.bias", "emb.weight"]
    assert sorted(model.state_dict()) == ["dec.bias", "dec.weight", "emb.weight"]
    lin = nn.utils.parametrizations.orthogonal(nn.Linear(4, 4).double())
    W = lin.weight
    assert torch.allclose(W @ W.T, torch.eye(4, dtype=torch.float64))
    assert type(lin).__name__ == "ParametrizedLinear"
    assert sorted(lin.state_dict()) == ["bias", "parametrizations.weight.0.base",
                                        "parametrizations.weight.original"]
    wn = nn.utils.parametrizations.weight_norm(nn.Linear(3, 5).double())
    with nn.utils.parametrize.cached():
        assert wn.weight is wn.weight
    nn.utils.parametrize.remove_parametrizations(wn, "weight")
    assert type(wn).__name__ == "Linear" and not nn.utils.parametrize.is_parametrized(wn)
    with pytest.raises(NotImplementedError, match="It is not possible to assign to the matrix "
                                                  "exponential or the Cayley parametrizations"):
        nn.utils.parametrizations.orthogonal(nn.Linear(3, 3), use_trivialization=False).weight = (
            torch.eye(3))

