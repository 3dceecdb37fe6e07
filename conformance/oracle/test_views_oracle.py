"""Oracle test: gradients through random views and in-place writes, refgrad against torch.

Collected only in the oracle session. Hypothesis writes a small program: a leaf
``x`` (float64), a non-leaf base ``y = x * 2``, then a sequence of steps, each
either taking a view of the current tensor (select, slice, transpose,
unsqueeze, view, diagonal) or writing into it in place (mul_, add_, sin_, a
``__setitem__``). The program runs once on each library, with view replay off
or on; the loss is a weighted sum of the base. The ``grad_fn`` names of the
base and of the last view, and the gradient of ``x``, must agree.
"""

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

import refgrad

VIEWS = ("select", "slice", "transpose", "unsqueeze", "view", "diagonal")
WRITES = ("mul_", "add_", "sin_", "setitem")


def take_view(name, t):
    if t.dim() == 0:
        return t
    if name == "select":
        return t[0]
    if name == "slice":
        return t[1:] if t.shape[0] > 1 else t[:]
    if name == "transpose":
        return t.transpose(0, -1)
    if name == "unsqueeze":
        return t.unsqueeze(0) if t.dim() < 4 else t
    if name == "view":
        return t.view(-1) if t.is_contiguous() else t
    return t.diagonal() if t.dim() >= 2 else t


def write(name, t):
    if name == "mul_":
        t.mul_(1.5)
    elif name == "add_":
        t.add_(0.25)
    elif name == "sin_":
        t.sin_()
    elif t.dim():
        t[0] = 3.0


def run(lib, steps, replay, weights):
    x = lib.tensor(np.arange(1.0, 13.0).reshape(3, 4), requires_grad=True)
    y = x * 2
    current = y
    with lib.autograd.grad_mode._force_original_view_tracking(replay):
        for kind, name in steps:
            if kind == "view":
                current = take_view(name, current)
            else:
                write(name, current)
    loss = (y * lib.tensor(weights)).sum()
    loss.backward()
    last = current.grad_fn.name() if current.grad_fn is not None else None
    return y.grad_fn.name(), last, x.grad.numpy()


steps = st.lists(
    st.one_of(st.tuples(st.just("view"), st.sampled_from(VIEWS)),
              st.tuples(st.just("write"), st.sampled_from(WRITES))),
    min_size=1, max_size=6,
)


@given(steps, st.booleans(), st.integers(0, 2**32 - 1))
def test_views_and_writes_agree_with_torch(program, replay, seed):
    weights = np.random.default_rng(seed).standard_normal((3, 4))
    theirs = run(torch, program, replay, weights)
    ours = run(refgrad, program, replay, weights)
    assert ours[:2] == theirs[:2], (program, replay)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-10, atol=1e-12)
