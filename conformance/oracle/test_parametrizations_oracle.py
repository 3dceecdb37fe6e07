"""Oracle test: after one seed, spectral_norm draws and refines torch's very vectors, and the
parametrized weights, their gradients and states agree."""

import numpy as np
import pytest
import torch

import refgrad

MODULES = {
    "linear": lambda lib: lib.nn.Linear(5, 3),
    "conv": lambda lib: lib.nn.Conv2d(2, 4, 3),
    "transposed": lambda lib: lib.nn.ConvTranspose2d(2, 3, 2),
}


def run(lib, name, which):
    lib.manual_seed(0)
    module = MODULES[name](lib)
    if which == "spectral_norm":
        lib.nn.utils.parametrizations.spectral_norm(module, n_power_iterations=2)
    elif which == "weight_norm":
        lib.nn.utils.parametrizations.weight_norm(module)
    else:
        lib.nn.utils.spectral_norm(module)
    shape = (1, 5) if name == "linear" else (1, 2, 6, 6)
    x = lib.linspace(-1, 1, int(np.prod(shape))).reshape(shape)
    module(x).pow(2).sum().backward()
    state = {k: v.detach().numpy().copy() for k, v in module.state_dict().items()}
    grads = {n: p.grad.numpy().copy() for n, p in module.named_parameters()}
    return state, grads, repr(module), lib.rand(1).item()


@pytest.mark.parametrize("which", ["spectral_norm", "weight_norm", "hook spectral_norm"])
@pytest.mark.parametrize("name", sorted(MODULES))
def test_the_same_seed_gives_the_same_parametrized_module(name, which):
    (state, grads, text, after), (t_state, t_grads, t_text, t_after) = (
        run(refgrad, name, which), run(torch, name, which))
    assert list(state) == list(t_state) and list(grads) == list(t_grads) and text == t_text
    assert after == t_after  # as many draws
    for key in t_state:
        np.testing.assert_allclose(state[key], t_state[key], rtol=1e-5, atol=1e-6)
    for key in t_grads:
        np.testing.assert_allclose(grads[key], t_grads[key], rtol=1e-4, atol=1e-5)
