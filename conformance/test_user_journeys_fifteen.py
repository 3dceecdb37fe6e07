"""Journeys through styles, adapters, solvers, samplers and quantization: style transfer by
Gram matrices and LBFGS, LoRA through parametrize, a Siamese network's embedding losses, a
neural ODE by RK4 with a Hutchinson trace, a causal language model with tied weights
generating under inference_mode, adversarial examples and attributions, a Gaussian process
by Cholesky factors, and Sinkhorn's optimal transport; fake quantization has a file of its own."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
import torch.nn.utils.parametrize as P
from torch import nn

RNG = np.random.default_rng(15)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


def gram(x):
    b, c, h, w = x.size()
    f = x.view(b * c, h * w)
    return torch.mm(f, f.t()).div(b * c * h * w)


def test_style_transfer_optimises_an_image_by_lbfgs():
    conv = nn.Conv2d(3, 4, 3, padding=1).double().requires_grad_(False)
    style = gram(conv(arr(1, 3, 6, 6))).detach()
    img = arr(1, 3, 6, 6).requires_grad_()
    opt = torch.optim.LBFGS([img], lr=0.5, max_iter=4, history_size=3)
    calls = []

    def closure():
        with torch.no_grad():
            img.clamp_(0, 1)
        opt.zero_grad()
        loss = 1e3 * F.mse_loss(gram(conv(img)), style) + img.pow(2).mean()
        loss.backward()
        calls.append(loss.item())
        return loss

    first = opt.step(closure)
    assert first.item() == calls[0] and opt.state[img]["func_evals"] == len(calls)
    assert sorted(opt.state[img]) == ["H_diag", "al", "d", "func_evals", "n_iter", "old_dirs",
                                      "old_stps", "prev_flat_grad", "prev_loss", "ro", "t"]
    assert gram(conv(img)).grad_fn.name() == "DivBackward0"
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        conv(img).transpose(2, 3).view(4, -1)
    with pytest.raises(ValueError, match=r"LBFGS doesn't support per-parameter options"):
        torch.optim.LBFGS([{"params": [img]}, {"params": [arr(2).requires_grad_()]}])
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        torch.optim.LBFGS([img], line_search_fn="armijo").step(closure)


class LoRA(nn.Module):
    def __init__(self, fan_out, fan_in, rank=2):
        super().__init__()
        self.A = nn.Parameter(arr(rank, fan_in, scale=0.1))
        self.B = nn.Parameter(torch.zeros(fan_out, rank, dtype=torch.float64))

    def forward(self, W):
        return W + (self.B @ self.A) * 2.0


def test_lora_trains_a_low_rank_correction_through_parametrize():
    lin = nn.Linear(4, 3).double()
    before = lin.weight.detach().clone()
    P.register_parametrization(lin, "weight", LoRA(3, 4))
    assert type(lin).__name__ == "ParametrizedLinear" and P.is_parametrized(lin, "weight")
    assert [n for n, _ in lin.named_parameters()] == [
        "bias", "parametrizations.weight.original", "parametrizations.weight.0.A",
        "parametrizations.weight.0.B"]
    assert lin.weight.grad_fn.name() == "AddBackward0" and torch.equal(lin.weight, before)
    lin.parametrizations.weight.original.requires_grad_(False)
    F.mse_loss(lin(arr(5, 4)), arr(5, 3)).backward()
    assert lin.parametrizations.weight.original.grad is None
    assert lin.parametrizations.weight[0].B.grad.abs().sum() > 0
    with P.cached():
        assert lin.weight is lin.weight
    with pytest.raises(RuntimeError, match="LoRA does not implement right_inverse."):
        lin.weight = torch.zeros(3, 4, dtype=torch.float64)
    P.remove_parametrizations(lin, "weight", leave_parametrized=True)
    assert type(lin).__name__ == "Linear" and [n for n, _ in lin.named_parameters()] == [
        "bias", "weight"]
    with pytest.raises(ValueError, match="may not change the shape of the tensor"):
        P.register_parametrization(nn.Linear(4, 3), "weight", type(
            "Cut", (nn.Module,), {"forward": lambda self, W: W[:2]})())


def test_a_siamese_network_with_embedding_losses():
    ea, eb = arr(6, 4).requires_grad_(), arr(6, 4)
    y = torch.tensor([1, -1, 1, -1, 1, 1])
    loss = F.cosine_embedding_loss(ea, eb, y, margin=0.2)
    cos = F.cosine_similarity(ea, eb, dim=1)
    by_hand = torch.where(y == 1, 1 - cos, (cos - 0.2).clamp(min=0)).mean()
    assert loss.grad_fn.name() == "MeanBackward0" and torch.allclose(loss, by_hand)
    d = F.pairwise_distance(ea, eb)
    lab = (y > 0).double()
    (lab * d.pow(2) + (1 - lab) * F.relu(1.0 - d).pow(2)).mean().backward()
    assert ea.grad.shape == (6, 4)
    with pytest.raises(RuntimeError, match=r"1D target tensor expects 2D input tensors, but found "
                                           r"inputs with sizes \[1, 6, 4\] and \[1, 6, 4\]."):
        F.cosine_embedding_loss(ea[None], eb[None], y)
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        F.multi_margin_loss(ea, torch.tensor([0, 1, 2, 3, 0, 1]), p=3)


def test_a_neural_ode_by_rk4_with_a_hutchinson_trace():
    f = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2)).double()

    def rk4(y, ts):
        ys = [y]
        for t0, t1 in zip(ts[:-1], ts[1:]):
            h = t1 - t0
            k1 = f(y)
            k2 = f(y + h * k1 / 2)
            k3 = f(y + h * k2 / 2)
            y = y + h * (k1 + 2 * k2 + 2 * k3 + f(y + h * k3)) / 6
            ys.append(y)
        return torch.stack(ys)

    y0 = arr(4, 2).requires_grad_()
    traj = rk4(y0, torch.linspace(0, 1, 5, dtype=torch.float64))
    assert traj.grad_fn.name() == "StackBackward0" and traj.shape == (5, 4, 2)
    eps, z = torch.tensor(RNG.choice([-1.0, 1.0], size=(4, 2))), y0
    vjp = torch.autograd.grad(f(z), z, eps, create_graph=True)[0]
    jac = torch.func.vmap(torch.func.jacrev(f))(z.detach())
    assert torch.allclose(vjp, torch.einsum("bi,bij->bj", eps, jac))
    assert vjp.requires_grad and (vjp * eps).sum(1).grad_fn.name() == "SumBackward1"
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad(traj.sum(), [arr(2).requires_grad_()])


def test_a_tied_language_model_generates_under_inference_mode():
    emb, head = nn.Embedding(7, 4).double(), nn.Linear(4, 7, bias=False).double()
    head.weight = emb.weight
    model = nn.ModuleDict({"emb": emb, "head": head})
    assert sum(p.numel() for p in model.parameters()) == 28
    assert list(model.state_dict()) == ["emb.weight", "head.weight"]
    with torch.inference_mode():
        tokens = torch.tensor([[1, 2, 3]])
        for _ in range(3):
            logits = head(emb(tokens))[:, -1]
            top, _ = torch.topk(logits, 3)
            logits[logits < top[:, [-1]]] = -float("inf")
            tokens = torch.cat([tokens, logits.softmax(-1).argmax(-1, keepdim=True)], dim=1)
    assert tokens.is_inference() and tokens.shape == (1, 6) and not logits.requires_grad
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        head(emb(tokens))
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside "
                                           "InferenceMode is not allowed"):
        logits.add_(1)
    with pytest.raises(RuntimeError, match="Inference tensors do not track version counter."):
        logits._version  # noqa: B018
    assert not logits.clone().is_inference()


def test_adversarial_steps_and_attributions_read_input_gradients():
    net = nn.Sequential(nn.Flatten(), nn.Linear(12, 3)).double()
    x, y = torch.tensor(RNG.uniform(size=(4, 3, 2, 2)), requires_grad=True), torch.tensor([0, 1,
                                                                                           2, 0])
    F.cross_entropy(net(x), y).backward()
    adv = torch.clamp(x + 0.1 * x.grad.data.sign(), 0, 1)
    assert adv.grad_fn.name() == "ClampBackward1"
    lo, hi = x.detach() - 0.05, x.detach() + 0.05
    assert torch.equal(torch.max(torch.min(adv, hi), lo), torch.clamp(adv, min=lo, max=hi))
    with pytest.raises(TypeError, match="clamp"):
        torch.clamp(adv, min=lo, max=0.5)
    with pytest.warns(UserWarning, match="reduction: 'mean' divides the total loss"):
        F.kl_div(F.log_softmax(net(adv), 1), F.softmax(net(x), 1))
    conv, store = nn.Conv2d(3, 4, 2, padding=1).double(), {}
    conv.register_forward_hook(lambda m, i, o: store.__setitem__("act", o))
    conv.register_full_backward_hook(lambda m, gi, go: store.__setitem__("g", go[0]))
    with pytest.warns(UserWarning, match="Full backward hook is firing when gradients are "
                                         "computed with respect to module outputs"):
        conv(x.detach()).mean().backward()
    assert torch.allclose(store["g"], torch.full((4, 4, 3, 3), 1 / 144, dtype=torch.float64))


def test_a_gaussian_process_by_its_cholesky_factor():
    X, y = arr(8, 2), arr(8)
    log_ls = nn.Parameter(torch.tensor(0.0, dtype=torch.float64))
    K = torch.exp(-0.5 * torch.cdist(X / log_ls.exp(), X / log_ls.exp()).pow(2)) + 0.1 * torch.eye(
        8, dtype=torch.float64)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y[:, None], L)
    nlml = 0.5 * (y[:, None] * alpha).sum() + L.diagonal().log().sum() + 4 * math.log(2 * math.pi)
    assert L.grad_fn.name() == "LinalgCholeskyExBackward0"
    assert alpha.grad_fn.name() == "CholeskySolveBackward0"
    mvn = torch.distributions.MultivariateNormal(torch.zeros(8, dtype=torch.float64),
                                                 scale_tril=L)
    assert torch.allclose(-mvn.log_prob(y), nlml)
    nlml.backward()
    assert log_ls.grad is not None
    with pytest.raises(torch.linalg.LinAlgError, match=r"\(Batch element 1\): The factorization "
                                                       "could not be completed"):
        torch.linalg.cholesky(torch.stack([torch.eye(2), -torch.eye(2)]))


def test_sinkhorn_transports_mass_in_the_log_domain():
    x, z = arr(5, 2).requires_grad_(), arr(4, 2)
    C = torch.cdist(x, z) ** 2
    la, lb = torch.full((5,), -math.log(5), dtype=torch.float64), torch.full(
        (4,), -math.log(4), dtype=torch.float64)
    f, g = torch.zeros(5, dtype=torch.float64), torch.zeros(4, dtype=torch.float64)
    for _ in range(50):
        f = -0.1 * torch.logsumexp((g[None, :] - C) / 0.1 + lb[None, :], dim=1)
        g = -0.1 * torch.logsumexp((f[:, None] - C) / 0.1 + la[:, None], dim=0)
    plan = torch.exp((f[:, None] + g[None, :] - C) / 0.1 + la[:, None] + lb[None, :])
    assert torch.allclose(plan.sum(0), lb.exp()) and C.grad_fn.name() == "PowBackward0"
    (plan * C).sum().backward()
    assert x.grad.shape == (5, 2)
    xi = torch.tensor([float("inf"), 1.0], requires_grad=True)
    torch.logsumexp(xi, 0).backward()
    assert torch.isnan(xi.grad).tolist() == [True, False]
    with pytest.raises(RuntimeError, match="cdist only supports floating-point dtypes, X1 got: "
                                           "Long"):
        torch.cdist(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2, dtype=torch.long))
