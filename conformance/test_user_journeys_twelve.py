"""Journeys through tutorials for text, sequences and learning to learn: a bag-of-words
classifier on EmbeddingBag offsets, a GRU encoder-decoder with attention and teacher
forcing, a BiLSTM-CRF, knowledge distillation, the double-backward tutorial's Functions,
a learned LSTM optimizer and the state its cells take, influence functions, and CTC."""

import itertools
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

RNG = np.random.default_rng(12)


def arr(*shape, scale=1.0):
    return torch.tensor(RNG.standard_normal(shape) * scale)


# --- a bag of words


def test_embedding_bag_offsets_from_a_collate_function():
    weight = arr(20, 6).requires_grad_()
    texts = [[3, 4, 4], [7], [1, 2, 3, 4, 5]]
    offsets = torch.tensor([0] + [len(t) for t in texts[:-1]]).cumsum(dim=0)
    assert offsets.tolist() == [0, 3, 4] and offsets.dtype == torch.int64
    text = torch.cat([torch.tensor(t, dtype=torch.int64) for t in texts])
    bags = F.embedding_bag(text, weight, offsets)
    assert bags.grad_fn.name() == "EmbeddingBagBackward0"
    for row, t in zip(bags, texts):
        assert torch.allclose(row, weight[t].mean(0))
    bags.sum().backward()
    counts = torch.zeros(20, 1, dtype=torch.float64)
    for t in texts:
        for i in t:
            counts[i] += 1 / len(t)
    assert torch.allclose(weight.grad, counts.expand(20, 6))


def test_embedding_bag_modes_and_weights():
    weight, text = arr(10, 3).requires_grad_(), torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    offsets = torch.tensor([0, 2, 2])
    assert F.embedding_bag(text, weight, offsets, mode="max")[1].tolist() == [0.0] * 3
    ends = torch.tensor([0, 2, 2, 8])
    assert torch.equal(F.embedding_bag(text, weight, ends, mode="sum", include_last_offset=True),
                       F.embedding_bag(text, weight, offsets, mode="sum"))
    scale = arr(8).requires_grad_()
    out = F.embedding_bag(text, weight, offsets, mode="sum", per_sample_weights=scale)
    assert torch.allclose(out[2], (weight[text[2:]] * scale[2:, None]).sum(0))
    pad = F.embedding_bag(torch.tensor([[1, 2, 0], [0, 0, 4]]), weight, padding_idx=0)
    assert torch.allclose(pad[0], weight[[1, 2]].mean(0)) and torch.equal(pad[1], weight[4])


@pytest.mark.parametrize("call, error, message", [
    (lambda w, t: F.embedding_bag(t, w, torch.tensor([1, 4])), RuntimeError,
     "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
     "position 0. However, got 1"),
    (lambda w, t: F.embedding_bag(t, w, torch.tensor([0, 9])), RuntimeError,
     "offsets[-1] can not be greater than input's length 8 but got offsets[-1] of 9"),
    (lambda w, t: F.embedding_bag(t, w), ValueError, "offsets has to be a 1D Tensor but got None"),
    (lambda w, t: F.embedding_bag(t, w, torch.tensor([0]), mode="median"), ValueError,
     "mode has to be one of sum, mean or max"),
    (lambda w, t: F.embedding_bag(t, w, torch.tensor([0]), per_sample_weights=torch.ones(8)),
     NotImplementedError, "embedding_bag: per_sample_weights was not None. per_sample_weights "
     "is only supported for mode='sum' (got mode='mean'). Please open a feature request on "
     "GitHub."),
])
def test_embedding_bag_refusals(call, error, message):
    with pytest.raises(error) as info:
        call(arr(10, 3), torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]))
    assert str(info.value).startswith(message)


# --- sequences


def test_teacher_forcing_feeds_the_target_and_greedy_decoding_its_own_guess():
    emb, gru, out = nn.Embedding(9, 4).double(), nn.GRU(4, 4, batch_first=True).double(), \
        nn.Linear(4, 9).double()
    target, hidden = torch.tensor([[3, 5, 1]]), arr(1, 1, 4)

    def decode(hidden, target=None):
        token, steps = torch.zeros(1, 1, dtype=torch.long), []
        for i in range(3):
            step, hidden = gru(emb(token), hidden)
            steps.append(out(step))
            token = target[:, i].unsqueeze(1) if target is not None else (
                steps[-1].topk(1)[1].squeeze(-1).detach())
        return F.log_softmax(torch.cat(steps, dim=1), dim=-1)

    forced = decode(hidden, target)
    assert forced.shape == (1, 3, 9) and forced.grad_fn.name() == "LogSoftmaxBackward0"
    loss = F.nll_loss(forced.view(-1, 9), target.view(-1))
    loss.backward()
    assert emb.weight.grad[[0, 3, 5]].abs().sum(1).gt(0).all()
    assert emb.weight.grad[[1, 2, 4, 6, 7, 8]].abs().sum() == 0  # the last target is never fed
    with torch.no_grad():
        greedy = decode(hidden)
    assert torch.allclose(greedy[0, 0], forced[0, 0])


def log_sum_exp(vec):
    top = vec[0, vec.argmax(1).item()]
    return top + torch.log(torch.sum(torch.exp(vec - top.view(1, -1).expand(1, vec.size(1)))))


def test_a_crf_forward_algorithm_sums_every_path():
    K, feats, trans = 3, arr(4, 3).requires_grad_(), arr(3, 3)
    alpha = feats[0].view(1, -1)
    for feat in feats[1:]:
        alpha = torch.cat([log_sum_exp(alpha + trans[k].view(1, -1) + feat[k]).view(1)
                           for k in range(K)]).view(1, -1)
    paths = [sum(feats[i, p[i]] + (trans[p[i], p[i - 1]] if i else 0) for i in range(4))
             for p in itertools.product(range(K), repeat=4)]
    assert torch.allclose(log_sum_exp(alpha), log_sum_exp(torch.stack(paths).view(1, -1)))
    assert log_sum_exp(alpha).grad_fn.name() == "AddBackward0"


def test_a_crf_score_reads_transitions_by_tensor_indices():
    trans = arr(5, 5).requires_grad_()
    tags = torch.cat([torch.tensor([3]), torch.tensor([0, 2, 2])])
    score = torch.zeros(1, dtype=torch.float64)
    for i in range(3):
        score = score + trans[tags[i + 1], tags[i]]
    score.backward()
    assert trans.grad[0, 3] == 1 and trans.grad[2, 0] == 1 and trans.grad[2, 2] == 1
    assert trans.grad.sum() == 3


# --- distillation and double backward


def test_distillation_soft_target_loss_is_kl_div_batchmean():
    teacher, student, T = arr(6, 4), arr(6, 4).requires_grad_(), 2
    soft_targets = F.softmax(teacher / T, dim=-1)
    soft_prob = F.log_softmax(student / T, dim=-1)
    by_hand = torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size()[0]
    by_hand = by_hand * T**2
    kl = F.kl_div(soft_prob, soft_targets, reduction="batchmean") * T**2
    log_kl = F.kl_div(soft_prob, soft_targets.log(), reduction="batchmean", log_target=True) * T**2
    assert torch.allclose(by_hand, kl) and torch.allclose(by_hand, log_kl)
    g1, = torch.autograd.grad(by_hand, student)
    assert torch.allclose(g1, (F.softmax(student / T, -1) - soft_targets) * T / 6)
    hidden = F.cosine_embedding_loss(arr(6, 8), arr(6, 8), torch.ones(6))
    assert hidden.grad_fn is None and hidden.dtype == torch.float64


def test_cosine_embedding_loss_refusals():
    a = arr(4, 5)
    with pytest.raises(RuntimeError, match=r"^0D or 1D target tensor expected, multi-target "):
        F.cosine_embedding_loss(a, a, torch.ones(2, 2))
    with pytest.raises(RuntimeError, match=r"^1D target tensor expects 2D input tensors, but "
                       r"found inputs with sizes \[2, 2, 5\] and \[2, 2, 5\]\.$"):
        F.cosine_embedding_loss(a.view(2, 2, 5), a.view(2, 2, 5), torch.ones(4))


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)


class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return grad_out * 3 * x**2

    @staticmethod
    def backward(ctx, grad_out):
        x, sav_grad_out = ctx.saved_tensors
        return grad_out * 3 * x**2, grad_out * sav_grad_out * 6 * x


def test_a_backward_written_as_a_function_is_differentiated_by_its_own_backward():
    x = torch.tensor(RNG.random((3, 3)), requires_grad=True)
    assert torch.autograd.gradcheck(Cube.apply, x) and torch.autograd.gradgradcheck(Cube.apply, x)
    g, = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "CubeBackwardBackward"
    gg, = torch.autograd.grad(g.sum(), x)
    assert torch.allclose(gg, 6 * x)


# --- learning to learn


def meta_loss(cell, head, W, y, theta, second_order):
    state, total = None, 0
    for _ in range(3):
        loss = ((W @ theta - y) ** 2).sum()
        g, = torch.autograd.grad(loss, theta, create_graph=second_order, retain_graph=True)
        state = cell(torch.stack([(g * 0.1).tanh(), g.sign()], dim=1), state)
        theta = theta + head(state[0]).squeeze(1) * 0.1
        total = total + loss
    return total, theta


def test_a_learned_optimizer_meta_gradient_by_differences():
    cell, head = nn.LSTMCell(2, 4).double(), nn.Linear(4, 1).double()
    W, y = arr(3, 3), arr(3)
    theta = arr(3).requires_grad_()
    total, last = meta_loss(cell, head, W, y, theta, True)
    assert last.grad_fn.name() == "AddBackward0" and total.grad_fn.name() == "AddBackward0"
    total.backward()
    first = meta_loss(cell, head, W, y, theta, False)[0]
    assert not torch.allclose(torch.autograd.grad(first, cell.weight_ih)[0], cell.weight_ih.grad)
    def moved(by):
        with torch.no_grad():
            cell.weight_hh[1, 2] += by
        return meta_loss(cell, head, W, y, theta.detach().requires_grad_(), True)[0].item()

    eps = 1e-6
    up, down = moved(eps), moved(-2 * eps)
    moved(eps)
    assert math.isclose((up - down) / (2 * eps), cell.weight_hh.grad[1, 2].item(),
                        rel_tol=1e-5, abs_tol=1e-8)


# --- influence functions and CTC


def test_influence_by_solve_and_by_lissa_agree():
    X, Y = arr(12, 3), torch.tensor(RNG.integers(0, 2, 12))
    w = arr(6)

    def loss_at(v, x, y):
        return F.cross_entropy(x @ v.view(3, 2), y)

    def total(v):
        return loss_at(v, X, Y) + 0.5 * (v ** 2).sum()

    H = torch.func.hessian(total)(w)
    assert torch.allclose(H, H.T) and torch.linalg.eigvalsh(H).min() > 0
    g_test = torch.func.grad(loss_at)(w, X[:2], Y[:2])
    s_test = torch.linalg.solve(H, g_test)
    s, scale = g_test.clone(), torch.linalg.eigvalsh(H).max().item()
    for _ in range(30):
        s = g_test + s - torch.func.jvp(torch.func.grad(total), (w,), (s,))[1] / scale
    assert torch.allclose(s / scale, s_test)
    assert torch.allclose(torch.autograd.functional.hvp(total, w, s_test)[1], g_test)
    per_sample = torch.func.vmap(torch.func.grad(loss_at), in_dims=(None, 0, 0))(
        w, X.unsqueeze(1), Y.unsqueeze(1))
    assert per_sample.shape == (12, 6)
    assert torch.allclose(per_sample[5], torch.func.grad(loss_at)(w, X[5:6], Y[5:6]))


def test_ctc_loss_sums_every_alignment():
    logits = arr(4, 1, 3).requires_grad_()
    logp, target = logits.log_softmax(2), [1, 2]
    paths = []
    for path in itertools.product(range(3), repeat=4):
        collapsed = [k for i, k in enumerate(path) if k and (i == 0 or k != path[i - 1])]
        if collapsed == target:
            paths.append(sum(logp[t, 0, k] for t, k in enumerate(path)))
    want = -torch.logsumexp(torch.stack(paths), 0)
    got = F.ctc_loss(logp, torch.tensor([target]), [4], [2], reduction="sum")
    assert torch.allclose(got, want) and got.grad_fn.name() == "SumBackward0"
    # NOTE [CTC's gradient assumes log_softmax]: torch's backward is the gradient through a
    # log_softmax, so only the logits' gradients agree with the sum over alignments
    assert torch.allclose(torch.autograd.grad(got, logits, retain_graph=True)[0],
                          torch.autograd.grad(want, logits)[0])


def test_ctc_loss_of_an_impossible_alignment():
    logp = arr(3, 1, 3).log_softmax(2).requires_grad_()
    targets = torch.tensor([[1, 1, 1]])  # repeats need blanks between them: 5 frames
    assert F.ctc_loss(logp, targets, [3], [3], reduction="sum").item() == math.inf
    zeroed = F.ctc_loss(logp, targets, [3], [3], zero_infinity=True)
    assert zeroed.item() == 0 and torch.autograd.grad(zeroed, logp)[0].abs().sum() == 0
