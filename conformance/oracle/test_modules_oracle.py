"""Oracle test: a model built after the same seed is the same model in both libraries."""

import numpy as np
import torch

import refgrad


def _build(lib):
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Embedding(10, 6, padding_idx=0), nn.Linear(6, 8), nn.GELU(),
                          nn.LayerNorm(8), nn.PReLU(), nn.Linear(8, 4), nn.LogSoftmax(-1))
    tokens = lib.tensor([[1, 2, 0], [9, 4, 4]])
    return model, tokens


def test_same_parameters_same_outputs_same_gradients():
    results = []
    for lib in (refgrad, torch):
        model, tokens = _build(lib)
        state = {k: v.numpy().copy() for k, v in model.state_dict().items()}
        out = model(tokens)
        loss = lib.nn.NLLLoss()(out.reshape(-1, 4), lib.tensor([0, 1, 2, 3, 2, 1]))
        loss.backward()
        grads = {n: p.grad.numpy().copy() for n, p in model.named_parameters()}
        results.append((state, out.detach().numpy(), loss.item(), grads, repr(model)))
    (state, out, loss, grads, text), (t_state, t_out, t_loss, t_grads, t_text) = results
    assert list(state) == list(t_state) and text == t_text
    for key in t_state:
        if key == "0.weight":  # float32 normal numbers, 16 or more at a time: to the last bit or so
            np.testing.assert_allclose(state[key], t_state[key], rtol=3e-7, atol=1e-7)
        else:
            assert np.array_equal(state[key], t_state[key]), key
    np.testing.assert_allclose(out, t_out, rtol=1e-5, atol=1e-6)
    assert abs(loss - t_loss) < 1e-5
    for name in t_grads:
        np.testing.assert_allclose(grads[name], t_grads[name], rtol=1e-4, atol=1e-6)
