"""Black-box tests: nn.RNN, nn.LSTM and nn.GRU: their parameters and first values, the
layers and directions they run, their states, single sequences, dropout between layers,
what they print, and what they refuse.
"""

import math
import warnings

import pytest
import torch
from torch import nn

from conformance._support import raises


def test_parameter_names_in_torchs_order():
    lstm = nn.LSTM(3, 5, num_layers=2, bidirectional=True, proj_size=2)
    names = [f"{stem}_l{layer}{suffix}" for layer in (0, 1) for suffix in ("", "_reverse")
             for stem in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")]
    assert lstm._flat_weights_names == names == list(lstm.state_dict())
    assert [n for n, _ in lstm.named_parameters()] == names
    assert [len(group) for group in lstm.all_weights] == [5, 5, 5, 5]
    assert lstm.all_weights[3][0] is lstm.weight_ih_l1_reverse
    shapes = {n: tuple(p.shape) for n, p in lstm.named_parameters()}
    assert shapes["weight_ih_l0"] == (20, 3) and shapes["weight_hh_l0"] == (20, 2)
    assert shapes["weight_ih_l1_reverse"] == (20, 4) and shapes["weight_hr_l1"] == (2, 5)
    gru = nn.GRU(3, 4, bias=False)
    assert gru._flat_weights_names == ["weight_ih_l0", "weight_hh_l0"]
    assert tuple(gru.weight_ih_l0.shape) == (12, 3)


def test_seeded_weights_are_uniform_draws_in_that_order():
    torch.manual_seed(0)
    lstm = nn.LSTM(3, 4)
    torch.manual_seed(0)
    bound = 1 / math.sqrt(4)
    draws = torch.empty(16 * 3 + 16 * 4 + 16 + 16).uniform_(-bound, bound)
    assert torch.equal(torch.cat([p.detach().flatten() for p in lstm.parameters()]), draws)


def test_flat_weights_follow_assignment_and_flatten_is_harmless():
    gru = nn.GRU(3, 4)
    gru.weight_hh_l0 = nn.Parameter(torch.zeros(12, 4))
    assert gru._flat_weights[1] is gru.weight_hh_l0
    gru.flatten_parameters()
    assert gru.double()._flat_weights[0].dtype == torch.float64


def test_printed_forms():
    assert repr(nn.LSTM(3, 4)) == "LSTM(3, 4)"
    assert repr(nn.GRU(3, 4, num_layers=2, bias=False, batch_first=True, dropout=0.5,
                       bidirectional=True)) == (
        "GRU(3, 4, num_layers=2, bias=False, batch_first=True, dropout=0.5, bidirectional=True)")
    assert repr(nn.LSTM(3, 4, proj_size=2)) == "LSTM(3, 4, proj_size=2)"
    assert repr(nn.RNN(3, 4, nonlinearity="relu")) == "RNN(3, 4)"
    assert nn.RNN(3, 4, 1, "relu").mode == "RNN_RELU"


def _cells_for(module, layer, reverse):
    """The layer's cell: a cell module holding the same parameters."""
    suffix = f"_l{layer}{'_reverse' if reverse else ''}"
    kind = type(module).__name__
    width = getattr(module, f"weight_ih{suffix}").shape[1]
    cell = {"RNN": nn.RNNCell, "LSTM": nn.LSTMCell, "GRU": nn.GRUCell}[kind](
        width, module.hidden_size, dtype=torch.float64)
    for stem in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
        setattr(cell, stem, getattr(module, stem + suffix))
    return cell


def _by_cells(module, x, states):
    """Run every layer and direction step by step with cells: (output, final states)."""
    finals, directions = [], 2 if module.bidirectional else 1
    for layer in range(module.num_layers):
        outs = []
        for d in range(directions):
            cell, state = _cells_for(module, layer, d == 1), states[layer * directions + d]
            steps = range(x.shape[0] - 1, -1, -1) if d == 1 else range(x.shape[0])
            seq = [None] * x.shape[0]
            for t in steps:
                state = cell(x[t], state)
                seq[t] = state[0] if isinstance(state, tuple) else state
            outs.append(torch.stack(seq))
            finals.append(state)
        x = torch.cat(outs, -1)
    return x, finals


@pytest.mark.parametrize(("cls", "layers", "bidirectional"), [
    (nn.RNN, 1, False), (nn.RNN, 2, True), (nn.LSTM, 2, False), (nn.LSTM, 2, True),
    (nn.GRU, 3, False), (nn.GRU, 2, True)])
def test_layers_and_directions_are_the_cell_run_over_time(cls, layers, bidirectional):
    torch.manual_seed(0)
    module = cls(3, 4, num_layers=layers, bidirectional=bidirectional).double()
    x = torch.randn(5, 2, 3, dtype=torch.float64, requires_grad=True)
    n = layers * (2 if bidirectional else 1)
    h0 = torch.randn(n, 2, 4, dtype=torch.float64, requires_grad=True)
    c0 = torch.randn(n, 2, 4, dtype=torch.float64, requires_grad=True)
    lstm = cls is nn.LSTM
    out, hidden = module(x, (h0, c0) if lstm else h0)
    want, finals = _by_cells(module, x, list(zip(h0, c0, strict=True)) if lstm else list(h0))
    assert out.shape == (5, 2, 4 * (2 if bidirectional else 1))
    torch.testing.assert_close(out, want)
    if lstm:
        torch.testing.assert_close(hidden[0], torch.stack([f[0] for f in finals]))
        torch.testing.assert_close(hidden[1], torch.stack([f[1] for f in finals]))
    else:
        torch.testing.assert_close(hidden, torch.stack(finals))
    leaves = (x, h0, c0, *module.parameters()) if lstm else (x, h0, *module.parameters())
    states = hidden if lstm else (hidden,)
    got = torch.autograd.grad(out.sum() + sum(s.sum() for s in states), leaves)
    cell_states = [f for pair in finals for f in pair] if lstm else finals
    expected = torch.autograd.grad(want.sum() + sum(s.sum() for s in cell_states), leaves)
    for a, b in zip(got, expected, strict=True):
        torch.testing.assert_close(a, b)


def test_the_states_grad_fn_and_the_outputs():
    torch.manual_seed(0)
    x = torch.randn(5, 2, 3)
    for cls in (nn.RNN, nn.GRU):
        out, h = cls(3, 4)(x)
        assert [type(t.grad_fn).__name__ for t in (out, h)] == ["StackBackward0"] * 2
        out, h = cls(3, 4, batch_first=True)(x)
        assert type(out.grad_fn).__name__ == "TransposeBackward1"
        out, h = cls(3, 4)(x[:, 0])
        assert [type(t.grad_fn).__name__ for t in (out, h)] == ["SqueezeBackward1"] * 2
    out, (h, c) = nn.LSTM(3, 4, 2)(x)
    assert [type(t.grad_fn).__name__ for t in (h, c)] == ["StackBackward0"] * 2
    out, _ = nn.LSTM(3, 4, batch_first=True)(x)  # a new view, not a transpose in place
    assert type(out.grad_fn).__name__ == "TransposeBackward0" and out.stride() == (4, 20, 1)
    out, _ = nn.LSTM(3, 4, bidirectional=True)(x)
    assert type(out.grad_fn).__name__ == "CatBackward0"
    out, _ = nn.LSTM(3, 4).double()(x.double())
    assert type(out.grad_fn).__name__ == "StackBackward0"


@pytest.mark.parametrize("cls", [nn.RNN, nn.LSTM, nn.GRU])
def test_batch_first_single_sequences_and_missing_states(cls):
    torch.manual_seed(0)
    module = cls(3, 4, num_layers=2, bidirectional=True)
    x = torch.randn(5, 2, 3)
    out, hidden = module(x)
    zeros = torch.zeros(4, 2, 4)
    given = module(x, (zeros, zeros) if cls is nn.LSTM else zeros)
    assert torch.equal(given[0], out)
    module.batch_first = True
    first, first_hidden = module(x.transpose(0, 1))
    assert torch.equal(first.transpose(0, 1), out)
    one, one_hidden = module(x[:, 1])
    assert one.shape == (5, 8)
    torch.testing.assert_close(one, out[:, 1])
    module.batch_first = False
    states = (one_hidden if cls is nn.LSTM else (one_hidden,))
    assert all(s.shape == (4, 4) for s in states)
    again = module(x[:, 1], one_hidden)
    assert again[0].shape == (5, 8)


def test_lstm_projections_shape_h_but_not_c():
    torch.manual_seed(0)
    lstm = nn.LSTM(3, 5, num_layers=2, proj_size=2, bidirectional=True).double()
    out, (h, c) = lstm(torch.randn(4, 2, 3, dtype=torch.float64))
    assert out.shape == (4, 2, 4) and h.shape == (4, 2, 2) and c.shape == (4, 2, 5)
    torch.testing.assert_close(out[-1, :, :2], h[2])  # the last layer's forward direction
    torch.testing.assert_close(out[0, :, 2:], h[3])  # and its reverse, which ends at step 0


def test_lstm_projections_in_float_warn_once_as_torch_does():
    lstm = nn.LSTM(3, 5, proj_size=2)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        lstm(torch.zeros(2, 1, 3))
        lstm(torch.zeros(2, 1, 3))
    assert [str(w.message) for w in seen] in ([], [
        "LSTM with projections is not supported with oneDNN. Using default implementation. "
        "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)"])


def test_dropout_between_layers_only_while_training():
    torch.manual_seed(0)
    gru = nn.GRU(3, 4, num_layers=3, dropout=0.5)
    plain = nn.GRU(3, 4, num_layers=3)
    plain.load_state_dict(gru.state_dict())
    x = torch.randn(5, 2, 3)
    torch.manual_seed(1)
    first = gru(x)[0]
    torch.manual_seed(1)
    assert torch.equal(gru(x)[0], first)  # the same draws under the same seed
    assert not torch.allclose(first, plain(x)[0])
    gru.eval()
    assert torch.equal(gru(x)[0], plain(x)[0])
    with pytest.warns(UserWarning):
        one_layer = nn.GRU(3, 4, dropout=0.5)  # nothing to drop between layers
    torch.testing.assert_close(one_layer(x)[0], one_layer.eval()(x)[0])


def test_dropout_without_a_second_layer_warns():
    with pytest.warns(UserWarning) as seen:
        nn.LSTM(3, 4, dropout=0.2)
    assert [str(w.message) for w in seen] == [
        "dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
        "expects num_layers greater than 1, but got dropout=0.2 and num_layers=1"]


@pytest.mark.parametrize(("make", "kind", "message"), [
    (lambda: nn.GRU(3, 4, dropout=1.5), ValueError, "dropout should be a number in range "
     "[0, 1] representing the probability of an element being zeroed"),
    (lambda: nn.GRU(3, 4, dropout=True), ValueError, "dropout should be a number in range "
     "[0, 1] representing the probability of an element being zeroed"),
    (lambda: nn.RNN(3, 4, bias=1), TypeError, "bias should be of type bool, got: int"),
    (lambda: nn.RNN(3, 4, batch_first=None), TypeError,
     "batch_first should be of type bool, got: NoneType"),
    (lambda: nn.LSTM(3.0, 4), TypeError, "input_size should be of type int, got: float"),
    (lambda: nn.LSTM(0, 4), ValueError, "input_size must be greater than zero"),
    (lambda: nn.LSTM(3, 4.0), TypeError, "hidden_size should be of type int, got: float"),
    (lambda: nn.LSTM(3, 0), ValueError, "hidden_size must be greater than zero"),
    (lambda: nn.LSTM(3, 4, 0), ValueError, "num_layers must be greater than zero"),
    (lambda: nn.LSTM(3, 4, proj_size=-1), ValueError,
     "proj_size should be a positive integer or zero to disable projections"),
    (lambda: nn.LSTM(3, 4, proj_size=4), ValueError,
     "proj_size has to be smaller than hidden_size"),
    (lambda: nn.GRU(3, 4, proj_size=2), ValueError,
     "proj_size argument is only supported for LSTM, not RNN or GRU"),
    (lambda: nn.RNN(3, 4, 1, "sigmoid"), ValueError,
     "Unknown nonlinearity 'sigmoid'. Select from 'tanh' or 'relu'."),
])
def test_constructor_refusals(make, kind, message):
    with raises(kind, message):
        make()


@pytest.mark.parametrize("cls", [nn.RNN, nn.LSTM, nn.GRU])
def test_forward_refusals(cls):
    module, name = cls(3, 4), cls.__name__
    lstm = cls is nn.LSTM

    def state(*shape, cell=None):
        return (torch.zeros(*shape), torch.zeros(*(cell or shape))) if lstm else torch.zeros(*shape)

    tensor = " tensor" if cls is nn.RNN else ""
    with raises(ValueError, f"{name}: Expected input to be 2D or 3D, got 4D{tensor} instead"):
        module(torch.zeros(2, 2, 2, 3))
    with raises(RuntimeError, "input.size(-1) must be equal to input_size. Expected 3, got 5"):
        module(torch.zeros(2, 2, 5))
    with raises(ValueError, "RNN input dtype (torch.float64) does not match weight dtype "
                "(torch.float32). Convert input: input.to(torch.float32), or convert model: "
                "model.to(torch.float64)"):
        module(torch.zeros(2, 2, 3, dtype=torch.float64))
    with raises(RuntimeError, "Expected hidden[0] size (1, 2, 4), got [1, 3, 4]" if lstm
                else "Expected hidden size (1, 2, 4), got [1, 3, 4]"):
        module(torch.zeros(2, 2, 3), state(1, 3, 4, cell=(1, 2, 4)))
    if lstm:
        with raises(RuntimeError, "Expected hidden[1] size (1, 2, 4), got [1, 2, 5]"):
            module(torch.zeros(2, 2, 3), state(1, 2, 4, cell=(1, 2, 5)))
    pair = " and cx" if lstm else ""
    got = "(2-D, 2-D) tensors" if lstm else "2-D tensor"
    with raises(RuntimeError, f"For batched 3-D input, hx{pair} should also be 3-D but got {got}"):
        module(torch.zeros(2, 2, 3), state(2, 4))
    got = "(3-D, 3-D) tensors" if lstm else "3-D tensor"
    with raises(RuntimeError,
                f"For unbatched 2-D input, hx{pair} should also be 2-D but got {got}"):
        module(torch.zeros(2, 3), state(1, 1, 4))
    with raises(RuntimeError, "Expected sequence length to be larger than 0 in RNN"):
        module(torch.zeros(0, 2, 3))


def test_apply_permutation_is_deprecated_but_reorders():
    from torch.nn.modules.rnn import apply_permutation

    with pytest.warns(FutureWarning) as seen:
        out = apply_permutation(torch.arange(6.0).reshape(2, 3), torch.tensor([2, 0, 1]))
    assert out.tolist() == [[2.0, 0.0, 1.0], [5.0, 3.0, 4.0]]
    assert [str(w.message) for w in seen] == [
        "`apply_permutation` is deprecated, please use `tensor.index_select(dim, permutation)` "
        "instead"]
    assert seen[0].filename == __file__
