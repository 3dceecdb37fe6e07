"""Journeys through graphs, experts, embeddings and augmentations: a GCN and a GAT step by
index_add and scatter_reduce, SimCLR's and CLIP's contrastive losses, Gumbel-softmax with a
straight-through estimator copied from torch's own source, a top-2 mixture of experts,
triplets with hard negatives, ArcFace, weighted and smoothed cross-entropy with focal
losses, ViT patches by unfold and fold, mixup and cutmix, stochastic depth under layer-wise
learning rates, SAM as a custom optimizer, and writes in place under vmap."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

RNG = np.random.default_rng(14)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


# --- message passing


def test_a_gcn_and_a_gat_step_aggregate_by_destination():
    src, dst = torch.tensor([0, 1, 2, 3, 4, 0, 2, 1]), torch.tensor([1, 2, 3, 4, 0, 2, 0, 1])
    x, W = arr(5, 3).requires_grad_(), arr(3, 4).requires_grad_()
    h = x @ W
    agg = torch.zeros(5, 4, dtype=h.dtype).index_add(0, dst, h[src])
    by_scatter = torch.zeros(5, 4, dtype=h.dtype).scatter_add(0, dst[:, None].expand(-1, 4),
                                                              h[src])
    assert torch.allclose(agg, by_scatter) and agg.grad_fn.name() == "IndexAddBackward0"
    deg = torch.zeros(5, dtype=h.dtype).index_add_(0, dst, torch.ones(8, dtype=h.dtype))
    mean = torch.zeros(5, 4, dtype=h.dtype).scatter_reduce(
        0, dst[:, None].expand(-1, 4), h[src], reduce="mean", include_self=False)
    assert torch.allclose(mean, agg / deg[:, None])
    e = F.leaky_relu(torch.cat([h[src], h[dst]], dim=1) @ arr(8), 0.2)
    top = torch.zeros(5, dtype=e.dtype).scatter_reduce(0, dst, e, reduce="amax",
                                                       include_self=False)
    ex = (e - top[dst]).exp()
    alpha = ex / torch.zeros(5, dtype=e.dtype).index_add(0, dst, ex)[dst]
    assert torch.allclose(torch.zeros(5, dtype=e.dtype).index_add(0, dst, alpha),
                          torch.ones(5, dtype=e.dtype))
    (agg * deg.clamp(min=1).rsqrt()[:, None]).pow(2).sum().backward()
    assert mean.grad_fn.name() == "ScatterReduceBackward0" and x.grad.shape == (5, 3)


@pytest.mark.parametrize("call, message", [
    (lambda: torch.zeros(5, 4).index_add(0, torch.tensor([0, 5]), torch.ones(2, 4)),
     "index 5 is out of bounds for dimension 0 with size 5"),
    (lambda: torch.zeros(5, 4).index_add(0, torch.tensor([0, 1]), torch.ones(2, 3)),
     "source tensor shape must match self tensor shape, excluding the specified dimension. "
     "Got self.shape = [5, 4] source.shape = [2, 3]"),
    (lambda: torch.zeros(5).scatter_add(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)),
     "scatter(): Expected self.dtype to be equal to src.dtype"),
])
def test_message_passing_refusals(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message


# --- contrastive losses


def test_nt_xent_masks_each_view_from_itself():
    z = F.normalize(torch.cat([arr(4, 3), arr(4, 3)]).requires_grad_(), dim=1)
    sim = (z @ z.T / 0.5).masked_fill(torch.eye(8, dtype=torch.bool), float("-inf"))
    labels = torch.cat([torch.arange(4, 8), torch.arange(0, 4)])
    loss = F.cross_entropy(sim, labels)
    assert z.grad_fn.name() == "DivBackward0" and loss.grad_fn.name() == "NllLossBackward0"
    cos = F.cosine_similarity(z[:, None, :], z[None, :, :], dim=-1)
    assert torch.allclose(cos, z @ z.T)
    scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))
    logits = scale.exp() * z[:4] @ z[4:].t()
    clip = (F.cross_entropy(logits, torch.arange(4)) + F.cross_entropy(logits.t(),
                                                                      torch.arange(4))) / 2
    clip.backward()
    assert scale.grad.dtype == torch.float32 and scale.grad.shape == ()


# --- Gumbel-softmax


def test_gumbel_softmax_straight_through_as_torch_writes_it():
    logits = arr(4, 5).requires_grad_()
    y_soft = ((logits + torch.tensor(-np.log(RNG.exponential(size=(4, 5))))) / 0.5).softmax(-1)
    index = y_soft.max(-1, keepdim=True)[1]
    y_hard = torch.zeros_like(logits, memory_format=torch.legacy_contiguous_format).scatter_(
        -1, index, 1.0)
    ret = y_hard - y_soft.detach() + y_soft
    assert torch.legacy_contiguous_format is torch.contiguous_format
    assert repr(torch.legacy_contiguous_format) == "torch.contiguous_format"
    assert ret.grad_fn.name() == "AddBackward0" and torch.equal(ret.detach(), y_hard)
    hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
    assert hard.grad_fn.name() == "AddBackward0" and torch.equal(hard.sum(-1), torch.ones(
        4, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes."):
        F.one_hot(torch.tensor([0, 5]), 4)


# --- a mixture of experts


def test_a_top_two_gate_routes_each_token_to_two_experts():
    gate, experts = nn.Linear(4, 3, bias=False).double(), [nn.Linear(4, 4).double()
                                                          for _ in range(3)]
    x = arr(6, 4).requires_grad_()
    probs = gate(x).softmax(-1)
    w, idx = probs.topk(2, dim=-1)
    assert w.grad_fn.name() == "TopkBackward0" and torch.equal(torch.gather(probs, 1, idx), w)
    w = w / w.sum(-1, keepdim=True)
    out = torch.zeros_like(x)
    for e in range(3):
        rows, slot = torch.where(idx == e)
        if rows.numel():
            out.index_add_(0, rows, experts[e](x[rows]) * w[rows, slot, None])
    aux = 3 * (F.one_hot(idx[:, 0], 3).double().mean(0) * probs.mean(0)).sum()
    (out.pow(2).mean() + 0.01 * aux).backward()
    assert out.grad_fn.name() == "IndexAddBackward0" and gate.weight.grad.abs().sum() > 0
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        probs.topk(4)


# --- metric learning


def test_triplets_with_the_hardest_negatives_and_arcface():
    z, lab = arr(6, 3).requires_grad_(), torch.tensor([0, 0, 1, 1, 2, 2])
    d = torch.cdist(z, z)
    same = lab[:, None] == lab[None, :]
    loss = F.relu((d * same).max(1)[0] - d.masked_fill(same, float("inf")).min(1)[0] + 0.3)
    assert d.grad_fn.name() == "CdistBackward0" and loss.grad_fn.name() == "ReluBackward0"
    a, p, n = arr(4, 3).requires_grad_(), arr(4, 3), arr(4, 3)
    crit = nn.TripletMarginLoss(margin=0.2, swap=True)
    assert repr(crit) == "TripletMarginLoss()"
    crit(a, p, n).backward()
    with pytest.raises(ValueError, match="TripletMarginWithDistanceLoss: expected margin to be "
                                         "greater than 0, got -1.0 instead"):
        nn.TripletMarginWithDistanceLoss(margin=-1.0)
    cosine = F.linear(F.normalize(arr(5, 4)), F.normalize(nn.Parameter(arr(3, 4))))
    sine = torch.sqrt((1.0 - torch.pow(cosine, 2)).clamp(0, 1))
    phi = cosine * math.cos(0.5) - sine * math.sin(0.5)
    phi = torch.where(cosine > math.cos(math.pi - 0.5), phi, cosine - math.sin(math.pi - 0.5) * 0.5)
    one_hot = torch.zeros(cosine.size(), dtype=cosine.dtype).scatter_(1, lab[:5, None], 1)
    assert ((one_hot * phi) + ((1.0 - one_hot) * cosine)).grad_fn.name() == "AddBackward0"
    x = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
    torch.acos(x).sum().backward()
    assert x.grad[0] == float("-inf") and x.grad[1] == float("-inf")


# --- weighted, smoothed and focal losses


def test_class_weights_smoothing_and_ignored_targets_together():
    logits, w = arr(6, 4).requires_grad_(), torch.tensor([1.0, 2.0, 0.5, 3.0],
                                                          dtype=torch.float64)
    t = torch.tensor([0, 3, -100, 2, 1, 3])
    loss = F.cross_entropy(logits, t, weight=w, label_smoothing=0.1)
    logp, keep = logits.log_softmax(-1), t != -100
    nll = -(w[t[keep]] * logp[keep, t[keep]]).sum() / w[t[keep]].sum()
    smooth = -(logp[keep] * w).sum() / w[t[keep]].sum() / 4
    assert torch.allclose(loss, 0.9 * nll + 0.1 * smooth) and loss.grad_fn.name() == "AddBackward0"
    ignored = F.cross_entropy(logits, torch.full((6,), -100), weight=w, label_smoothing=0.1)
    assert ignored.isnan()
    ce = F.cross_entropy(logits, t.clamp(min=0), reduction="none")
    ((1 - torch.exp(-ce)) ** 2 * ce).mean().backward()
    assert logits.grad.shape == (6, 4)
    with pytest.raises(RuntimeError, match="ignore_index is not supported for floating point"):
        F.cross_entropy(logits, arr(6, 4).softmax(-1), ignore_index=1)


# --- patches


def test_vit_patches_by_unfold_are_a_strided_convolution():
    img, W = arr(2, 3, 8, 8).requires_grad_(), arr(48, 5)
    tokens = F.unfold(img, kernel_size=4, stride=4).transpose(1, 2)
    conv = nn.Conv2d(3, 5, 4, stride=4, bias=False).double()
    with torch.no_grad():
        conv.weight.copy_(W.T.reshape(5, 3, 4, 4))
    assert torch.allclose(tokens @ W, conv(img).flatten(2).transpose(1, 2))
    assert tokens.grad_fn.name() == "TransposeBackward0"
    assert tokens.grad_fn.next_functions[0][0].name() == "Im2ColBackward0"
    ones = F.fold(F.unfold(torch.ones(1, 1, 8, 8), 3, padding=1, stride=2), (8, 8), 3,
                  padding=1, stride=2)
    assert ones[0, 0, :3, :3].tolist() == [[1, 2, 1], [2, 4, 2], [1, 2, 1]]
    assert repr(nn.Fold(output_size=5, kernel_size=2)) == (
        "Fold(output_size=5, kernel_size=2, dilation=1, padding=0, stride=1)")
    with pytest.raises(RuntimeError, match="Expected size of input's dimension 1 to be "
                                           "divisible by the product of kernel_size"):
        F.fold(arr(1, 5, 4), (4, 4), 2, stride=2)


# --- augmentations and deep networks


def test_mixup_by_soft_targets_and_cutmix_by_a_pasted_box():
    x, y, perm, lam = arr(4, 3, 6, 6), torch.tensor([0, 2, 1, 2]), torch.tensor([2, 0, 3, 1]), 0.7
    assert torch.allclose(lam * x + (1 - lam) * x[perm], torch.lerp(x[perm], x, lam))
    out = arr(4, 3).requires_grad_()
    soft = lam * F.one_hot(y, 3).double() + (1 - lam) * F.one_hot(y[perm], 3).double()
    assert torch.allclose(F.cross_entropy(out, soft), lam * F.cross_entropy(out, y)
                          + (1 - lam) * F.cross_entropy(out, y[perm]))
    beta = torch.distributions.Beta(torch.tensor(0.4), torch.tensor(0.4))
    assert repr(beta) == "Beta()" and 0 <= float(beta.sample()) <= 1
    leaf = x.clone().requires_grad_()
    mixed = leaf.clone()
    mixed[:, :, 1:3, 2:4] = leaf[perm, :, 1:3, 2:4]
    mixed.sum().backward()
    assert mixed.grad_fn.name() == "torch::autograd::CopySlices" and leaf.grad.sum() == leaf.numel()


def test_stochastic_depth_under_layer_wise_learning_rates():
    x = arr(4, 3, 5).requires_grad_()
    mask = torch.tensor([1.0, 0.0, 1.0, 1.0], dtype=torch.float64).view(4, 1, 1).div_(0.75)
    (x * mask).sum().backward()
    assert x.grad[:, 0, 0].tolist() == [4 / 3, 0.0, 4 / 3, 4 / 3]
    blocks = [nn.Linear(5, 5).double() for _ in range(3)]
    groups = [{"params": b.parameters(), "lr": 1e-3 * 0.65 ** (2 - i)}
              for i, b in enumerate(blocks)]
    opt = torch.optim.AdamW(groups, lr=1e-3)
    assert [round(g["lr"], 8) for g in opt.param_groups] == [0.0004225, 0.00065, 0.001]
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter"):
        opt.add_param_group({"params": blocks[0].weight})
    with pytest.raises(RuntimeError, match="bernoulli_ expects p to be in"):
        torch.empty(3).bernoulli_(1.5)


class SAM(torch.optim.Optimizer):
    """Sharpness-aware minimisation as its best-known implementation writes it, trimmed."""

    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        super().__init__(params, dict(rho=rho, **kwargs))
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups
        self.defaults.update(self.base_optimizer.defaults)

    @torch.no_grad()
    def step(self, closure=None):
        closure = torch.enable_grad()(closure)
        grads = [p.grad for g in self.param_groups for p in g["params"] if p.grad is not None]
        scale = self.param_groups[0]["rho"] / (torch.norm(torch.stack([
            g.norm(p=2) for g in grads]), p=2) + 1e-12)
        for p in self.param_groups[0]["params"]:
            self.state[p]["old_p"] = p.data.clone()
            p.add_(p.grad * scale.to(p))
        self.zero_grad()
        closure()
        for p in self.param_groups[0]["params"]:
            p.data = self.state[p]["old_p"]
        self.base_optimizer.step()


def test_sam_wraps_an_optimizer_and_shares_its_groups():
    model = nn.Linear(3, 2).double()
    opt = SAM(model.parameters(), torch.optim.SGD, lr=0.1, momentum=0.9)
    assert opt.defaults["rho"] == 0.05 and opt.defaults["momentum"] == 0.9
    X, Y = arr(8, 3), torch.tensor(RNG.integers(0, 2, 8))
    before = model.weight.detach().clone()
    F.cross_entropy(model(X), Y).backward()
    opt.step(lambda: F.cross_entropy(model(X), Y).backward())
    assert sorted(opt.base_optimizer.state[model.weight]) == ["momentum_buffer"]
    assert sorted(opt.state[model.weight]) == ["old_p"] and not torch.equal(model.weight, before)
    assert sorted(opt.state_dict()["param_groups"][0]) == [
        "dampening", "differentiable", "foreach", "fused", "lr", "maximize", "momentum",
        "nesterov", "params", "rho", "weight_decay"]
