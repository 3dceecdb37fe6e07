"""Black-box tests: torch.lstm, torch.gru, torch.rnn_tanh and torch.rnn_relu, the functions
that run a whole recurrent network from a flat list of weights, padded or packed, and that
nn.LSTM, nn.GRU and nn.RNN call: their values, graphs, gradients and refusals.
"""

import pytest
import torch
from torch import nn
from torch.nn.utils import rnn

from conformance._support import raises

D = torch.float64
_MODULES = {"lstm": nn.LSTM, "gru": nn.GRU, "rnn_tanh": nn.RNN,
            "rnn_relu": lambda *a, **k: nn.RNN(*a, nonlinearity="relu", **k)}


def _network(name, **kwargs):
    torch.manual_seed(0)
    return _MODULES[name](3, 4, dtype=D, **kwargs)


def _state(name, layers, batch, width=4, proj=None):
    torch.manual_seed(1)
    h = torch.randn(layers, batch, proj or width, dtype=D)
    return (h, torch.randn(layers, batch, width, dtype=D)) if name == "lstm" else h


@pytest.mark.parametrize("name", list(_MODULES))
@pytest.mark.parametrize("kwargs", [{}, {"batch_first": True}, {"bidirectional": True},
                                    {"num_layers": 2, "bias": False}])
def test_padded_form_is_what_the_module_computes(name, kwargs):
    module = _network(name, **kwargs)
    layers = module.num_layers * (2 if module.bidirectional else 1)
    x = torch.randn(2, 5, 3, dtype=D) if module.batch_first else torch.randn(5, 2, 3, dtype=D)
    hx = _state(name, layers, 2)
    out, *hidden = getattr(torch, name)(x, hx, module._flat_weights, module.bias,
                                        module.num_layers, 0.0, False, module.bidirectional,
                                        module.batch_first)
    mine, state = module(x, hx)
    assert torch.equal(out, mine)
    for a, b in zip(hidden, state if name == "lstm" else (state,), strict=True):
        assert torch.equal(a, b)
        assert type(a.grad_fn).__name__ == "StackBackward0"
    expected = ("CatBackward0" if module.bidirectional else
                "TransposeBackward0" if module.batch_first and name == "lstm" else
                "TransposeBackward1" if module.batch_first else "StackBackward0")
    assert type(out.grad_fn).__name__ == expected


def test_a_gru_is_its_cell_stepped_over_time():
    gru = _network("gru")
    x, h = torch.randn(4, 2, 3, dtype=D), _state("gru", 1, 2)
    out, last = torch.gru(x, h, gru._flat_weights, True, 1, 0.0, False, False, False)
    state = h[0]
    for t in range(4):
        state = torch.gru_cell(x[t], state, *gru._flat_weights)
        torch.testing.assert_close(out[t], state)
    torch.testing.assert_close(last[0], state)


def test_an_lstm_with_projections_is_told_by_its_state_widths():
    torch.manual_seed(0)
    lstm = nn.LSTM(3, 4, proj_size=2, dtype=D)
    x = torch.randn(5, 2, 3, dtype=D)
    hx = _state("lstm", 1, 2, proj=2)
    out, h, c = torch.lstm(x, hx, lstm._flat_weights, True, 1, 0.0, False, False, False)
    assert (out.shape, h.shape, c.shape) == ((5, 2, 2), (1, 2, 2), (1, 2, 4))
    mine, (h2, c2) = lstm(x, hx)
    assert torch.equal(out, mine) and torch.equal(h, h2) and torch.equal(c, c2)


@pytest.mark.parametrize("name", list(_MODULES))
def test_packed_form_is_what_the_module_computes_on_a_packed_sequence(name):
    module = _network(name, bidirectional=True)
    packed = rnn.pack_padded_sequence(torch.randn(4, 3, 3, dtype=D), [4, 2, 1])
    hx = _state(name, 2, 3)
    out, *hidden = getattr(torch, name)(packed.data, packed.batch_sizes, hx,
                                        module._flat_weights, True, 1, 0.0, False, True)
    mine, state = module(packed, hx)
    assert torch.equal(out, mine.data)
    assert type(out.grad_fn).__name__ == "CatBackward0"
    for a, b in zip(hidden, state if name == "lstm" else (state,), strict=True):
        assert torch.equal(a, b)


def test_dropout_between_layers_draws_as_the_module_does():
    module = _network("gru", num_layers=2, dropout=0.5)
    x = torch.randn(5, 2, 3, dtype=D)
    hx = _state("gru", 2, 2)
    torch.manual_seed(7)
    out = torch.gru(x, hx, module._flat_weights, True, 2, 0.5, True, False, False)[0]
    torch.manual_seed(7)
    assert torch.equal(out, module.train()(x, hx)[0])
    torch.manual_seed(7)
    assert not torch.equal(out, torch.gru(x, hx, module._flat_weights, True, 2, 0.5, False,
                                          False, False)[0])


def test_gradients_of_both_forms():
    module = _network("lstm")
    weights = [w.detach().requires_grad_() for w in module._flat_weights]
    x = torch.randn(3, 2, 3, dtype=D, requires_grad=True)
    h = torch.randn(1, 2, 4, dtype=D, requires_grad=True)
    c = torch.randn(1, 2, 4, dtype=D, requires_grad=True)

    def padded(x, h, c, *w):
        return torch.lstm(x.transpose(0, 1), (h, c), w, True, 1, 0.0, False, False, True)

    def packed(data, h, c, *w):
        return torch.lstm(data, torch.tensor([2, 2, 1]), (h, c), w, True, 1, 0.0, False,
                          False)

    assert torch.autograd.gradcheck(padded, (x, h, c, *weights))
    data = torch.randn(5, 3, dtype=D, requires_grad=True)
    assert torch.autograd.gradcheck(packed, (data, h, c, *weights))


def test_refusals():
    gru, lstm = _network("gru"), _network("lstm")
    x, h = torch.randn(5, 2, 3, dtype=D), torch.zeros(1, 2, 4, dtype=D)
    w, lw = gru._flat_weights, lstm._flat_weights
    with raises(RuntimeError, "lstm expects two hidden states"):
        torch.lstm(x, (h,), lw, True, 1, 0.0, False, False, False)
    with raises(RuntimeError, "got an incorrect number of RNN parameters"):
        torch.gru(x, h, w[:3], True, 1, 0.0, False, False, False)
    with raises(RuntimeError, "Expected more weights in stacked_rnn"):
        torch.gru(x, h, w, False, 1, 0.0, False, False, False)
    with raises(RuntimeError, "Expected more hidden states in stacked_rnn"):
        torch.gru(x, h, w, True, 2, 0.0, False, False, False)
    with raises(RuntimeError, "Odd number of params or hiddens given to a bidirectional RNN"):
        torch.gru(x, h, w, True, 1, 0.0, False, True, False)
    with raises(RuntimeError, "Expected sequence length to be larger than 0 in RNN"):
        torch.gru(x[:0], h, w, True, 1, 0.0, False, False, False)
    with raises(RuntimeError, "expected scalar type Long but found Float"):
        torch.gru(x[0], torch.tensor([1.0, 1.0]), h, w, True, 1, 0.0, False, False)
    with pytest.raises(TypeError) as refused:
        torch.gru(x, (h,), w, True, 1, 0.0, False, False, False)
    lines = str(refused.value).splitlines()
    assert lines[0] == ("gru() received an invalid combination of arguments - got (Tensor, "
                        "tuple, list, bool, int, float, bool, bool, bool), but expected one of:")
    assert lines[1].startswith(" * (Tensor data, Tensor batch_sizes, Tensor hx, tuple of ")
