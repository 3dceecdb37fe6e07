"""Black-box tests: nn.RNNCell, nn.LSTMCell and nn.GRUCell: their parameters and first
values, one step's arithmetic and gradients, single samples, and what they refuse.
"""

import math

import pytest
import torch
from torch import nn

from conformance._support import raises


def _affine(x, w, b):
    return x @ w.t() + b


@pytest.mark.parametrize(("cls", "gates"), [(nn.RNNCell, 1), (nn.LSTMCell, 4),
                                            (nn.GRUCell, 3)])
def test_parameters_their_names_and_bound(cls, gates):
    torch.manual_seed(0)
    cell = cls(3, 5)
    shapes = [(n, tuple(p.shape)) for n, p in cell.named_parameters()]
    assert shapes == [("weight_ih", (5 * gates, 3)), ("weight_hh", (5 * gates, 5)),
                      ("bias_ih", (5 * gates,)), ("bias_hh", (5 * gates,))]
    bound = 1 / math.sqrt(5)
    values = torch.cat([p.detach().flatten() for p in cell.parameters()])
    assert values.abs().max().item() <= bound and values.abs().max().item() > bound / 2
    no_bias = cls(3, 5, bias=False)
    assert list(no_bias.state_dict()) == ["weight_ih", "weight_hh"]
    assert no_bias.bias_ih is None and no_bias.bias_hh is None


def test_draws_follow_the_parameters_order():
    torch.manual_seed(0)
    cell = nn.GRUCell(2, 3)
    torch.manual_seed(0)
    draws = torch.empty(9 * 2 + 9 * 3 + 9 + 9).uniform_(-1 / math.sqrt(3), 1 / math.sqrt(3))
    assert torch.equal(torch.cat([p.detach().flatten() for p in cell.parameters()]), draws)


def test_printed_forms():
    assert repr(nn.RNNCell(3, 4)) == "RNNCell(3, 4)"
    assert repr(nn.RNNCell(3, 4, bias=False, nonlinearity="relu")) == (
        "RNNCell(3, 4, bias=False, nonlinearity=relu)")
    assert repr(nn.LSTMCell(3, 4, bias=False)) == "LSTMCell(3, 4, bias=False)"
    assert repr(nn.GRUCell(2, 7)) == "GRUCell(2, 7)"


def test_rnn_cell_step_and_its_nonlinearity():
    torch.manual_seed(0)
    x, h = torch.randn(4, 3), torch.randn(4, 5)
    for act, name in (("tanh", "TanhBackward0"), ("relu", "ReluBackward0")):
        cell = nn.RNNCell(3, 5, nonlinearity=act)
        out = cell(x, h)
        pre = _affine(h, cell.weight_hh, cell.bias_hh) + _affine(x, cell.weight_ih, cell.bias_ih)
        torch.testing.assert_close(out, pre.tanh() if act == "tanh" else pre.relu())
        assert type(out.grad_fn).__name__ == name


def test_lstm_cell_gates():
    torch.manual_seed(0)
    cell = nn.LSTMCell(3, 2)
    x, h, c = torch.randn(4, 3), torch.randn(4, 2), torch.randn(4, 2)
    hy, cy = cell(x, (h, c))
    gates = _affine(x, cell.weight_ih, cell.bias_ih) + _affine(h, cell.weight_hh, cell.bias_hh)
    i, f, g, o = gates.chunk(4, 1)
    c_next = f.sigmoid() * c + i.sigmoid() * g.tanh()
    torch.testing.assert_close(cy, c_next)
    torch.testing.assert_close(hy, o.sigmoid() * c_next.tanh())
    assert [type(t.grad_fn).__name__ for t in (hy, cy)] == ["MulBackward0", "AddBackward0"]


def test_gru_cell_gates():
    torch.manual_seed(0)
    cell = nn.GRUCell(3, 2)
    x, h = torch.randn(4, 3), torch.randn(4, 2)
    out = cell(x, h)
    x_r, x_z, x_n = _affine(x, cell.weight_ih, cell.bias_ih).chunk(3, 1)
    h_r, h_z, h_n = _affine(h, cell.weight_hh, cell.bias_hh).chunk(3, 1)
    r, z = (x_r + h_r).sigmoid(), (x_z + h_z).sigmoid()
    n = (x_n + r * h_n).tanh()
    torch.testing.assert_close(out, (1 - z) * n + z * h)
    assert type(out.grad_fn).__name__ == "AddBackward0"


def _by_hand(cls, cell, x, h, c):
    w_ih, w_hh, b_ih, b_hh = cell.parameters()
    if cls is nn.RNNCell:
        return (_affine(x, w_ih, b_ih) + _affine(h, w_hh, b_hh)).tanh()
    if cls is nn.LSTMCell:
        i, f, g, o = (_affine(x, w_ih, b_ih) + _affine(h, w_hh, b_hh)).chunk(4, 1)
        c_next = f.sigmoid() * c + i.sigmoid() * g.tanh()
        return o.sigmoid() * c_next.tanh() + c_next
    x_r, x_z, x_n = _affine(x, w_ih, b_ih).chunk(3, 1)
    h_r, h_z, h_n = _affine(h, w_hh, b_hh).chunk(3, 1)
    z = (x_z + h_z).sigmoid()
    n = (x_n + (x_r + h_r).sigmoid() * h_n).tanh()
    return (1 - z) * n + z * h


@pytest.mark.parametrize("cls", [nn.RNNCell, nn.LSTMCell, nn.GRUCell])
def test_gradients_to_every_weight_the_input_and_the_state(cls):
    torch.manual_seed(0)
    cell = cls(3, 2).double()
    x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    h = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    c = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    leaves = (x, h, c, *cell.parameters()) if cls is nn.LSTMCell else (x, h, *cell.parameters())
    out = cell(x, (h, c)) if cls is nn.LSTMCell else cell(x, h)
    loss = (out[0] + out[1]).sum() if cls is nn.LSTMCell else out.sum()
    got = torch.autograd.grad(loss, leaves)
    want = torch.autograd.grad(_by_hand(cls, cell, x, h, c).sum(), leaves)
    for a, b in zip(got, want, strict=True):
        torch.testing.assert_close(a, b)
        assert a.abs().sum() > 0


@pytest.mark.parametrize("cls", [nn.RNNCell, nn.LSTMCell, nn.GRUCell])
def test_a_single_sample_and_a_missing_state(cls):
    torch.manual_seed(0)
    cell = cls(3, 2)
    x = torch.randn(3)
    one = cell(x)
    batch = cell(x.unsqueeze(0))
    for a, b in zip(one if cls is nn.LSTMCell else (one,),
                    batch if cls is nn.LSTMCell else (batch,), strict=True):
        assert a.shape == (2,) and torch.equal(a, b[0])
        assert type(a.grad_fn).__name__ == "SqueezeBackward1"
    zeros = torch.zeros(1, 2)
    given = cell(x.unsqueeze(0), (zeros, zeros) if cls is nn.LSTMCell else zeros)
    assert all(torch.equal(a, b) for a, b in zip(given, batch, strict=True))


@pytest.mark.parametrize(("cls", "name", "hidden"), [
    (nn.RNNCell, "RNNCell", "hidden"), (nn.LSTMCell, "LSTMCell", "hx[0]"),
    (nn.GRUCell, "GRUCell", "hidden")])
def test_refusals(cls, name, hidden):
    cell = cls(3, 4)

    def state(*shape):
        t = torch.zeros(*shape)
        return (t, t) if cls is nn.LSTMCell else t

    with raises(ValueError, f"{name}: Expected input to be 1D or 2D, got 3D instead"):
        cell(torch.zeros(2, 3, 1))
    with raises(ValueError, f"{name}: Expected {hidden} to be 1D or 2D, got 3D instead"):
        cell(torch.zeros(2, 3), state(2, 2, 4))
    with raises(RuntimeError, "input has inconsistent input_size: got 5 expected 3"):
        cell(torch.zeros(2, 5))
    with raises(RuntimeError, "Input batch size 2 doesn't match hidden0 batch size 3"):
        cell(torch.zeros(2, 3), state(3, 4))
    with raises(RuntimeError, "hidden0 has inconsistent hidden_size: got 5, expected 4"):
        cell(torch.zeros(2, 3), state(2, 5))
    with raises(RuntimeError, "hidden0 has inconsistent hidden_size: got 5, expected 4"):
        cell(torch.zeros(3), state(5))  # a single sample, and its state, batched as one


def test_an_unknown_nonlinearity_is_refused_at_the_call():
    cell = nn.RNNCell(3, 4, nonlinearity="sigmoid")
    assert repr(cell) == "RNNCell(3, 4, nonlinearity=sigmoid)"
    with raises(RuntimeError, "Unknown nonlinearity: sigmoid"):
        cell(torch.zeros(2, 3))


@pytest.mark.parametrize(("cls", "function"), [
    (nn.RNNCell, "rnn_tanh_cell"), (nn.LSTMCell, "lstm_cell"), (nn.GRUCell, "gru_cell")])
def test_the_namespace_steps_are_the_modules(cls, function):
    torch.manual_seed(0)
    cell = cls(3, 4)
    x, h = torch.randn(2, 3), torch.randn(2, 4)
    state = (h, h * 2) if cls is nn.LSTMCell else h
    got = getattr(torch, function)(x, state, *cell.parameters())
    want = cell(x, state)
    for a, b in zip(got if cls is nn.LSTMCell else (got,),
                    want if cls is nn.LSTMCell else (want,), strict=True):
        assert torch.equal(a, b) and type(a.grad_fn) is type(b.grad_fn)
    relu = torch.rnn_relu_cell(x, h, cell.weight_ih[:4], cell.weight_hh[:4])
    assert type(relu.grad_fn).__name__ == "ReluBackward0" and relu.min() >= 0


def test_the_namespace_steps_refusals():
    x, h = torch.zeros(2, 3), torch.zeros(2, 4)
    with raises(RuntimeError, "lstm_cell expects two hidden states"):
        torch.lstm_cell(x, (h,), torch.zeros(16, 3), torch.zeros(16, 4))
    with raises(RuntimeError, "Input batch size 2 doesn't match hidden0 batch size 1"):
        torch.gru_cell(x, h[:1], torch.zeros(12, 3), torch.zeros(12, 4))
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                "got 1)"):
        torch.rnn_tanh_cell(torch.zeros(3), torch.zeros(4), torch.zeros(4, 3), torch.zeros(4, 4))


@pytest.mark.parametrize("state, error, message", [
    (lambda z: z(4, 3), TypeError,
     "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not Tensor"),
    (lambda z: (t for t in [z(4, 3), z(4, 3)]), TypeError,
     "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not generator"),
    (lambda z: (z(4, 3),) * 3, RuntimeError, "lstm_cell expects two hidden states"),
    (lambda z: (None, z(4, 3)), AttributeError, "'NoneType' object has no attribute 'dim'"),
])
def test_an_lstm_cell_refuses_a_batch_state_that_is_not_a_pair(state, error, message):
    with pytest.raises(error) as info:
        nn.LSTMCell(2, 3)(torch.zeros(4, 2), state(torch.zeros))
    assert str(info.value) == message


def test_an_lstm_cell_reads_a_single_samples_state_by_its_first_two_items():
    cell, x = nn.LSTMCell(2, 3), torch.randn(2)
    h, c = torch.randn(3), torch.randn(3)
    want = cell(x, (h, c))
    for state in ([h, c], (h, c, torch.randn(3)), torch.stack([h, c])):
        assert all(torch.equal(a, b) for a, b in zip(cell(x, state), want))
    assert cell(x.unsqueeze(0), [h.unsqueeze(0), c.unsqueeze(0)])[0].shape == (1, 3)
    with pytest.raises(IndexError, match="^tuple index out of range$"):
        cell(x, (h,))
