"""Oracle test: float16 gradients of tanh, silu and mish against torch's, over every finite
float16, in a row-major and a strided layout."""

import numpy as np
import pytest
import torch

import refgrad

FINITE = np.arange(0, 0x7C00, dtype=np.uint16).view(np.float16)
VALUES = np.concatenate([FINITE, -FINITE])
SEEDS = np.random.default_rng(7).standard_normal(VALUES.size).astype(np.float16)
LAYOUTS = {"row-major": lambda t: t, "every other": lambda t: t.repeat_interleave(2)[::2]}


def gradient(library, name, layout, create_graph=False):
    x = LAYOUTS[layout](library.tensor(VALUES)).requires_grad_()
    f = library.tanh if name == "tanh" else getattr(library.nn.functional, name)
    g, = library.autograd.grad(f(x), x, library.tensor(SEEDS), create_graph=create_graph)
    return g.detach().numpy()


def parted(ours, theirs) -> int:
    same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
    return int((~same).sum())


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("create_graph", [False, True])
def test_float16_tanh_gradient_bit_for_bit(layout, create_graph):
    # the gradient reads tanh's result, which agrees bit for bit: only tanh_backward differs
    x = torch.tensor(VALUES)
    assert parted(refgrad.tensor(VALUES).tanh().numpy(), x.tanh().numpy()) == 0
    assert parted(gradient(refgrad, "tanh", layout, create_graph),
                  gradient(torch, "tanh", layout, create_graph)) == 0


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(("name", "most"), [("silu", 2), ("mish", 5)])
def test_float16_fused_gradients_part_only_in_the_exponentials_last_digit(layout, name, most):
    assert parted(gradient(refgrad, name, layout), gradient(torch, name, layout)) <= most
