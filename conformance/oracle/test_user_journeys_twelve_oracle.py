"""Oracle test: tutorial walks through text, sequences and learning to learn agree with torch's.

Each walk starts from the same NumPy weights and data in both libraries, in float64, with
dropout off (refgrad's random streams are its own): a bag-of-words classifier on
``EmbeddingBag`` offsets, a GRU encoder-decoder with attention trained by teacher forcing
and decoded greedily, a BiLSTM-CRF trained on its forward algorithm and decoded by
Viterbi, a learned LSTM optimizer meta-trained through its unrolled steps with second
derivatives, influence functions by a Hessian, per-sample gradients and LiSSA, and a
bidirectional LSTM trained by CTC on packed sequences. Every loss, gradient, parameter and
decoded sequence must be torch's to rounding.
"""

import math

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_walks_agree


def filled(lib, module, rng, scale=0.4):
    module.double()
    with lib.no_grad():
        for p in module.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)) * scale))
    return module.eval()


def arrays(tensors):
    return [np.asarray(t.detach().numpy() if hasattr(t, "detach") else t).copy()
            for t in tensors]


def text_classifier(lib):
    nn, rng = lib.nn, np.random.default_rng(0)
    bag, fc = nn.EmbeddingBag(20, 6), nn.Linear(6, 4)
    model = filled(lib, nn.ModuleDict({"bag": bag, "fc": fc}), rng).train()
    data = [(int(rng.integers(0, 4)), rng.integers(0, 20, rng.integers(1, 7)).tolist())
            for _ in range(24)]

    def collate(batch):
        offsets = lib.tensor([0] + [len(t) for _, t in batch[:-1]]).cumsum(dim=0)
        text = lib.cat([lib.tensor(t, dtype=lib.int64) for _, t in batch])
        return lib.tensor([label for label, _ in batch]), text, offsets

    loader = lib.utils.data.DataLoader(data, batch_size=8, collate_fn=collate)
    opt = lib.optim.SGD(model.parameters(), lr=5.0)
    sched = lib.optim.lr_scheduler.StepLR(opt, 1.0, gamma=0.1)
    record = []
    for _ in range(2):
        for label, text, offsets in loader:
            opt.zero_grad()
            logits = fc(bag(text, offsets))
            loss = lib.nn.functional.cross_entropy(logits, label)
            loss.backward()
            norm = lib.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
            opt.step()
            record += arrays([logits, loss, norm, bag.weight.grad])
        sched.step()
    return record + arrays(model.parameters())


def seq2seq(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(2)
    H, L = 8, 5
    emb_in, enc = nn.Embedding(11, H), nn.GRU(H, H, batch_first=True)
    emb_out, dec, out = nn.Embedding(9, H), nn.GRU(2 * H, H, batch_first=True), nn.Linear(H, 9)
    Wa, Ua, Va = nn.Linear(H, H), nn.Linear(H, H), nn.Linear(H, 1)
    model = filled(lib, nn.ModuleList([emb_in, enc, emb_out, dec, out, Wa, Ua, Va]), rng)
    src, tgt = lib.tensor(rng.integers(1, 11, (3, L))), lib.tensor(rng.integers(1, 9, (3, L)))

    def decode(keys, hidden, target=None):
        token, outputs = lib.zeros(3, 1, dtype=lib.long), []
        for i in range(L):
            query = hidden.permute(1, 0, 2)
            scores = Va(lib.tanh(Wa(query) + Ua(keys))).squeeze(2).unsqueeze(1)
            context = lib.bmm(F.softmax(scores, dim=-1), keys)
            step, hidden = dec(lib.cat((emb_out(token), context), dim=2), hidden)
            outputs.append(out(step))
            token = target[:, i].unsqueeze(1) if target is not None else (
                outputs[-1].topk(1)[1].squeeze(-1).detach())
        return F.log_softmax(lib.cat(outputs, dim=1), dim=-1)

    opt, record = lib.optim.Adam(model.parameters(), lr=1e-2), []
    for _ in range(3):
        opt.zero_grad()
        keys, hidden = enc(emb_in(src))
        logp = decode(keys, hidden, tgt)
        loss = F.nll_loss(logp.view(-1, 9), tgt.view(-1))
        loss.backward()
        opt.step()
        record += arrays([logp, loss, *(p.grad for p in model.parameters())])
    with lib.no_grad():
        keys, hidden = enc(emb_in(src))
        record += arrays([decode(keys, hidden).argmax(-1)])
    return record + arrays(model.parameters())


def crf(lib):
    nn, rng = lib.nn, np.random.default_rng(4)
    K, START, STOP = 5, 3, 4
    emb, lstm, proj = nn.Embedding(14, 5), nn.LSTM(5, 2, bidirectional=True), nn.Linear(4, K)
    model = filled(lib, nn.ModuleList([emb, lstm, proj]), rng, 0.5)
    trans = nn.Parameter(lib.tensor(rng.standard_normal((K, K))))
    trans.data[START, :], trans.data[:, STOP] = -10000, -10000

    def log_sum_exp(vec):
        top = vec[0, vec.argmax(1).item()]
        return top + lib.log(lib.sum(lib.exp(vec - top.view(1, -1).expand(1, K))))

    def nll(words, tags):
        feats = proj(lstm(emb(words).view(len(words), 1, -1))[0].view(len(words), 4))
        alpha = lib.full((1, K), -10000.0, dtype=lib.float64)
        alpha[0][START] = 0.0
        for feat in feats:
            alpha = lib.cat([log_sum_exp(alpha + trans[k].view(1, -1) + feat[k].view(1, -1)
                                         .expand(1, K)).view(1) for k in range(K)]).view(1, -1)
        gold, tags = lib.zeros(1, dtype=lib.float64), lib.cat([lib.tensor([START]), tags])
        for i, feat in enumerate(feats):
            gold = gold + trans[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        return log_sum_exp(alpha + trans[STOP]) - gold - trans[STOP, tags[-1]], feats

    sentences = [(rng.integers(0, 14, 11), rng.integers(0, 3, 11)),
                 (rng.integers(0, 14, 7), rng.integers(0, 3, 7))]
    opt, record = lib.optim.SGD([*model.parameters(), trans], lr=0.01, weight_decay=1e-4), []
    for _ in range(3):
        for words, tags in sentences:
            opt.zero_grad()
            loss, feats = nll(lib.tensor(words), lib.tensor(tags))
            loss.backward()
            opt.step()
            record += arrays([loss, feats, trans.grad, *(p.grad for p in model.parameters())])
    return record + arrays([trans, *model.parameters()])


def learned_optimizer(lib):
    nn, rng = lib.nn, np.random.default_rng(7)
    cell1, cell2, head = nn.LSTMCell(2, 6), nn.LSTMCell(6, 6), nn.Linear(6, 1)
    net = filled(lib, nn.ModuleList([cell1, cell2, head]), rng, 0.3)
    meta_opt = lib.optim.Adam(net.parameters(), lr=1e-2)
    W, y = lib.tensor(rng.standard_normal((5, 5))), lib.tensor(rng.standard_normal(5))
    theta = lib.tensor(rng.standard_normal(5), requires_grad=True)
    state = [(lib.zeros(5, 6, dtype=lib.float64),) * 2] * 2
    record = []
    for _ in range(3):
        meta_loss = 0
        for _ in range(4):
            loss = ((W @ theta - y) ** 2).sum()
            g, = lib.autograd.grad(loss, theta, create_graph=True)
            mask = (g.abs() >= math.exp(-10)).to(g.dtype)
            features = lib.stack([mask * g.abs().clamp(min=1e-12).log() / 10 - (1 - mask),
                                  mask * g.sign() + (1 - mask) * math.exp(10) * g], dim=1)
            state = [cell1(features, state[0])]
            state.append(cell2(state[0][0], state[1] if len(state) > 1 else None))
            theta = theta + head(state[1][0]).squeeze(1) * 0.1
            meta_loss = meta_loss + loss
        meta_opt.zero_grad()
        meta_loss.backward()
        norm = lib.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        meta_opt.step()
        record += arrays([meta_loss, theta, norm, *(p.grad for p in net.parameters())])
        theta = theta.detach().requires_grad_()
        state = [(h.detach(), c.detach()) for h, c in state]
    return record + arrays(net.parameters())


def influence(lib):
    F, func, rng = lib.nn.functional, lib.func, np.random.default_rng(8)
    X, Y = lib.tensor(rng.standard_normal((20, 4))), lib.tensor(rng.integers(0, 3, 20))
    model = filled(lib, lib.nn.Linear(4, 3), rng, 0.3)
    opt = lib.optim.LBFGS(model.parameters(), max_iter=20)

    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(model(X), Y) + 1e-2 * sum((p ** 2).sum() for p in model.parameters())
        loss.backward()
        return loss

    record = arrays([opt.step(closure)])
    flat = lib.cat([p.detach().reshape(-1) for p in model.parameters()])

    def loss_at(v, x, y):
        params = {"weight": v[:12].view(3, 4), "bias": v[12:]}
        return F.cross_entropy(func.functional_call(model, params, (x,)), y)

    def total(v):
        return loss_at(v, X, Y) + 1e-2 * (v ** 2).sum()

    H = func.hessian(total)(flat)
    per_sample = func.vmap(func.grad(loss_at), in_dims=(None, 0, 0))(
        flat, X.unsqueeze(1), Y.unsqueeze(1))
    g_test = func.grad(lambda v: loss_at(v, X[:2] + 0.1, Y[:2]))(flat)
    s_test = lib.linalg.solve(H, g_test)
    s = g_test.clone()
    for _ in range(50):
        s = g_test + s - func.jvp(func.grad(total), (flat,), (s,))[1] / 10
    return record + arrays([H, per_sample, s_test, -per_sample @ s_test, s / 10])


def ctc(lib):
    nn, F, rng = lib.nn, lib.nn.functional, np.random.default_rng(9)
    lstm, fc = nn.LSTM(4, 6, batch_first=True, bidirectional=True), nn.Linear(12, 5)
    model = filled(lib, nn.ModuleList([lstm, fc]), rng)
    x, lengths = lib.tensor(rng.standard_normal((3, 12, 4))), lib.tensor([12, 9, 7])
    targets = lib.tensor([[1, 2, 2, 3], [4, 1, 0, 0], [3, 3, 0, 0]])
    target_lengths = lib.tensor([4, 2, 2])
    opt, record = lib.optim.AdamW(model.parameters(), lr=1e-2), []
    for _ in range(3):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True,
                                                   enforce_sorted=False)
        out, out_lengths = nn.utils.rnn.pad_packed_sequence(lstm(packed)[0], batch_first=True)
        logp = F.log_softmax(fc(out), dim=-1)
        loss = F.ctc_loss(logp.transpose(0, 1), targets, out_lengths, target_lengths,
                          zero_infinity=True)
        opt.zero_grad()
        loss.backward()
        opt.step()
        record += arrays([logp, loss, *(p.grad for p in model.parameters())])
    return record + arrays(model.parameters())


@pytest.mark.parametrize("walk", [text_classifier, seq2seq, crf, learned_optimizer, influence,
                                  ctc])
def test_tutorial_walk_matches_torch(walk):
    assert_walks_agree(walk(refgrad), walk(torch))
