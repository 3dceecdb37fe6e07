"""Black-box tests: nn.RNN, nn.LSTM and nn.GRU given a PackedSequence: each sequence runs
as if alone, its final state is taken at its own last step, and a given state follows the
sequences' order.
"""

import pytest
import torch
from torch import nn
from torch.nn.utils.rnn import PackedSequence, pack_sequence, pad_packed_sequence

from conformance._support import raises


def _alone(module, seq, state):
    out, hidden = module(seq, state)
    return out, hidden


@pytest.mark.parametrize(("cls", "bidirectional"), [
    (nn.RNN, False), (nn.RNN, True), (nn.LSTM, False), (nn.LSTM, True), (nn.GRU, True)])
def test_each_sequence_runs_as_if_alone(cls, bidirectional):
    torch.manual_seed(0)
    module = cls(3, 4, num_layers=2, bidirectional=bidirectional).double()
    seqs = [torch.randn(n, 3, dtype=torch.float64, requires_grad=True) for n in (2, 5, 3)]
    n = 4 if bidirectional else 2
    h0 = torch.randn(n, 3, 4, dtype=torch.float64, requires_grad=True)
    c0 = torch.randn(n, 3, 4, dtype=torch.float64)
    lstm = cls is nn.LSTM
    packed = pack_sequence(seqs, enforce_sorted=False)
    out, hidden = module(packed, (h0, c0) if lstm else h0)
    assert isinstance(out, PackedSequence)
    assert torch.equal(out.batch_sizes, packed.batch_sizes)
    assert torch.equal(out.sorted_indices, packed.sorted_indices)
    padded, lengths = pad_packed_sequence(out)
    assert lengths.tolist() == [2, 5, 3]
    states = hidden if lstm else (hidden,)
    for i, seq in enumerate(seqs):
        alone_state = (h0[:, i], c0[:, i]) if lstm else h0[:, i]
        alone_out, alone_hidden = _alone(module, seq, alone_state)
        torch.testing.assert_close(padded[:len(seq), i], alone_out)
        assert padded[len(seq):, i].abs().sum() == 0
        for got, want in zip(states, alone_hidden if lstm else (alone_hidden,), strict=True):
            torch.testing.assert_close(got[:, i], want)
    loss = padded.sum() + sum(s.sum() for s in states)
    grads = torch.autograd.grad(loss, [*seqs, h0, *module.parameters()])
    alone_loss = 0
    for i, seq in enumerate(seqs):
        o, h = _alone(module, seq, (h0[:, i], c0[:, i]) if lstm else h0[:, i])
        alone_loss = alone_loss + o.sum() + sum(s.sum() for s in (h if lstm else (h,)))
    alone_grads = torch.autograd.grad(alone_loss, [*seqs, h0, *module.parameters()])
    for a, b in zip(grads, alone_grads, strict=True):
        torch.testing.assert_close(a, b)


def test_missing_state_and_the_refusals_of_packed_input():
    torch.manual_seed(0)
    gru = nn.GRU(3, 4)
    packed = pack_sequence([torch.randn(3, 3), torch.randn(2, 3)])
    out, h = gru(packed)
    assert h.shape == (1, 2, 4) and out.data.shape == (5, 4)
    with raises(RuntimeError, "Expected hidden size (1, 2, 4), got [1, 3, 4]"):
        gru(packed, torch.zeros(1, 3, 4))
    lstm = nn.LSTM(3, 4, proj_size=2)
    out, (h, c) = lstm(packed)
    assert out.data.shape == (5, 2) and h.shape == (1, 2, 2) and c.shape == (1, 2, 4)
