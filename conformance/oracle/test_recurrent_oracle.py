"""Oracle test: recurrent layers built after the same seed hold the same weights, compute the
same outputs and states, draw the same dropout masks, and send back the same gradients in
both libraries.
"""

import warnings

import numpy as np
import pytest
import torch

import refgrad

_CASES = [
    (lambda nn: nn.RNN(3, 4, 2, nonlinearity="relu", bidirectional=True), (5, 2, 3), None),
    (lambda nn: nn.LSTM(3, 5, num_layers=2, bidirectional=True, proj_size=2,
                        batch_first=True), (2, 5, 3), None),
    (lambda nn: nn.GRU(3, 4, 3, bias=False), (5, 2, 3), None),
    (lambda nn: nn.GRU(3, 4, 3, dropout=0.5), (5, 2, 3), None),
    (lambda nn: nn.LSTM(3, 4, 2, dropout=0.5, bidirectional=True), (5, 3, 3), [3, 5, 2]),
    (lambda nn: nn.RNN(3, 4, 2, bidirectional=True), (5, 3, 3), [5, 4, 1]),
]


def _run(lib, make, x_values, lengths):
    lib.manual_seed(0)
    module = make(lib.nn)
    x = lib.tensor(x_values, requires_grad=True)
    rnn = lib.nn.utils.rnn
    inp = x if lengths is None else rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an LSTM with projections warns once per process
        out, hidden = module(inp)
    if lengths is not None:
        out = rnn.pad_packed_sequence(out)[0]
    states = hidden if isinstance(hidden, tuple) else (hidden,)
    ((out * out).sum() + sum((s * 1.5).sum() for s in states)).backward()
    return {
        "params": [p.detach().numpy().copy() for p in module.parameters()],
        "out": out.detach().numpy(), "states": [s.detach().numpy() for s in states],
        "grads": [p.grad.numpy().copy() for p in module.parameters()] + [x.grad.numpy()],
        "keys": list(module.state_dict()), "repr": repr(module),
        "names": [type(s.grad_fn).__name__ for s in states],
    }


@pytest.mark.parametrize(("make", "shape", "lengths"), _CASES)
def test_same_weights_outputs_states_and_gradients(make, shape, lengths):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    mine, theirs = _run(refgrad, make, x, lengths), _run(torch, make, x, lengths)
    assert mine["keys"] == theirs["keys"] and mine["repr"] == theirs["repr"]
    assert mine["names"] == theirs["names"]
    for a, b in zip(mine["params"], theirs["params"], strict=True):
        assert np.array_equal(a, b)
    np.testing.assert_allclose(mine["out"], theirs["out"], rtol=1e-5, atol=1e-6)
    for key in ("states", "grads"):
        for a, b in zip(mine[key], theirs[key], strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cells_hold_the_same_weights_and_step_alike(name):
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    results = []
    for lib in (refgrad, torch):
        lib.manual_seed(0)
        cell = getattr(lib.nn, name)(3, 5)
        out = cell(lib.tensor(x))
        out = out[0] + out[1] if isinstance(out, tuple) else out
        results.append(([p.detach().numpy().copy() for p in cell.parameters()],
                        out.detach().numpy()))
    (params, out), (t_params, t_out) = results
    assert all(np.array_equal(a, b) for a, b in zip(params, t_params, strict=True))
    np.testing.assert_allclose(out, t_out, rtol=1e-5, atol=1e-6)
