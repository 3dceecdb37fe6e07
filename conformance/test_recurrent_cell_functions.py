"""Black-box tests: torch.lstm_cell, torch.gru_cell, torch.rnn_tanh_cell and
torch.rnn_relu_cell, the single steps the cell modules call: their values, graphs and
refusals, by name and position.
"""

import pytest
import torch
from torch import nn

from conformance._support import raises

D = torch.float64
_CELLS = [("lstm_cell", nn.LSTMCell, {}), ("gru_cell", nn.GRUCell, {}),
          ("rnn_tanh_cell", nn.RNNCell, {}), ("rnn_relu_cell", nn.RNNCell,
                                              {"nonlinearity": "relu"})]


def _cell(cls, kwargs):
    torch.manual_seed(0)
    return cls(3, 4, dtype=D, **kwargs)


def _state(name, batch=2):
    torch.manual_seed(1)
    h = torch.randn(batch, 4, dtype=D)
    return (h, torch.randn(batch, 4, dtype=D)) if name == "lstm_cell" else h


@pytest.mark.parametrize(("name", "cls", "kwargs"), _CELLS)
def test_the_function_is_the_module_step(name, cls, kwargs):
    cell = _cell(cls, kwargs)
    x, hx = torch.randn(2, 3, dtype=D), _state(name)
    function = getattr(torch, name)
    out = function(x, hx, cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    mine = cell(x, hx)
    for a, b in zip(out if name == "lstm_cell" else (out,),
                    mine if name == "lstm_cell" else (mine,), strict=True):
        assert torch.equal(a, b)
    by_name = function(input=x, hx=hx, w_ih=cell.weight_ih, w_hh=cell.weight_hh)
    without_biases = function(x, hx, cell.weight_ih, cell.weight_hh)
    first = by_name[0] if name == "lstm_cell" else by_name
    assert torch.equal(first, without_biases[0] if name == "lstm_cell" else without_biases)


def test_graphs_end_with_the_step_s_last_operation():
    names = {}
    for name, cls, kwargs in _CELLS:
        cell = _cell(cls, kwargs)
        out = getattr(torch, name)(torch.randn(2, 3, dtype=D), _state(name),
                                   cell.weight_ih, cell.weight_hh)
        names[name] = [type(t.grad_fn).__name__ for t in (out if isinstance(out, tuple)
                                                          else (out,))]
    assert names == {"lstm_cell": ["MulBackward0", "AddBackward0"],
                     "gru_cell": ["AddBackward0"], "rnn_tanh_cell": ["TanhBackward0"],
                     "rnn_relu_cell": ["ReluBackward0"]}


def test_gradients():
    cell = _cell(nn.GRUCell, {})
    w = [p.detach().requires_grad_() for p in cell.parameters()]
    x = torch.randn(2, 3, dtype=D, requires_grad=True)
    h = torch.randn(2, 4, dtype=D, requires_grad=True)
    assert torch.autograd.gradcheck(torch.gru_cell, (x, h, *w))
    c = torch.randn(2, 4, dtype=D, requires_grad=True)
    lw = [p.detach().requires_grad_() for p in _cell(nn.LSTMCell, {}).parameters()]
    assert torch.autograd.gradcheck(lambda x, h, c, *w: torch.lstm_cell(x, (h, c), *w),
                                    (x, h, c, *lw))


def test_an_lstm_cell_state_is_hidden1_in_refusals():
    cell = _cell(nn.LSTMCell, {})
    x, h = torch.randn(3, 3, dtype=D), torch.randn(3, 4, dtype=D)
    w = (cell.weight_ih, cell.weight_hh)
    with raises(RuntimeError, "Input batch size 3 doesn't match hidden1 batch size 2"):
        torch.lstm_cell(x, (h, h[:2]), *w)
    with raises(RuntimeError, "hidden1 has inconsistent hidden_size: got 3, expected 4"):
        torch.lstm_cell(x, (h, h[:, :3]), *w)
    with raises(RuntimeError, "hidden1 has inconsistent hidden_size: got 3, expected 4"):
        cell(x, (h, h[:, :3]))
    with raises(RuntimeError, "Input batch size 3 doesn't match hidden0 batch size 2"):
        cell(x, (h[:2], h))
    with raises(RuntimeError, "lstm_cell expects two hidden states"):
        torch.lstm_cell(x, (h,), *w)


@pytest.mark.parametrize(("name", "cls", "kwargs"), _CELLS)
def test_arguments_refused_by_name_and_position(name, cls, kwargs):
    cell = _cell(cls, kwargs)
    x, hx = torch.randn(2, 3, dtype=D), _state(name)
    function = getattr(torch, name)
    with raises(TypeError, f"{name}() missing 4 required positional argument: "
                           '"input", "hx", "w_ih", "w_hh"'):
        function()
    with raises(TypeError, f"{name}(): argument 'w_ih' (position 3) must be Tensor, not list"):
        function(x, hx, list(cell.weight_ih), cell.weight_hh)
    with raises(TypeError, f"{name}(): argument 'b_ih' (position 5) must be Tensor, not str"):
        function(x, hx, cell.weight_ih, cell.weight_hh, "a")
    with raises(TypeError, f"{name}() got an unexpected keyword argument 'foo'"):
        function(x, hx, cell.weight_ih, cell.weight_hh, foo=1)
    if name != "lstm_cell":
        with raises(TypeError, f"{name}(): argument 'hx' (position 2) must be Tensor, not list"):
            function(x, [hx], cell.weight_ih, cell.weight_hh)
