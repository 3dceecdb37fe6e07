"""Oracle test: torch.cond and torch.while_loop in refgrad and torch, fed the same arrays.

The results and the gradients of operands and of closed-over tensors agree bit for bit, in
float32 and float64, whichever branch runs; so do the node's name and its edges. The
branches use only operations whose kernels refgrad matches bit for bit, so that what is
compared is what the operators add: the branch chosen, the replay of its backward, and
where each gradient goes.
"""

import numpy as np
import pytest
import torch

import refgrad


def _case(lib, dtype, take_true):
    rng = np.random.default_rng(7)
    xs, ws = rng.standard_normal((2, 5)).astype(dtype)
    x = lib.tensor(xs, requires_grad=True)
    w = lib.tensor(ws, requires_grad=True)
    y = lib.cond(lib.tensor(take_true), lambda v: (v * w * v, v.exp().sum()),
                 lambda v: (v * w + v, (v * v).sum()), (x,))
    (y[0].sum() + y[1] * 3).backward()
    edges = [None if n is None else type(n).__name__ for n, _ in y[0].grad_fn.next_functions]
    return [y[0], y[1], x.grad, w.grad], type(y[0].grad_fn).__name__, edges


def _loop(lib, dtype):
    rng = np.random.default_rng(11)
    xs, ws = rng.standard_normal((2, 4)).astype(dtype)
    x = lib.tensor(xs, requires_grad=True)
    w = lib.tensor(ws, requires_grad=True)
    i, y = lib.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, v * w + v * v),
                          (lib.tensor(0), x))
    y.sum().backward()
    return [y, x.grad, w.grad], type(y.grad_fn).__name__


def _same_bits(ours, theirs):
    for a, b in zip(ours, theirs):
        assert a.dtype.itemsize == b.dtype.itemsize
        assert np.asarray(a.detach()).tobytes() == b.detach().numpy().tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("take_true", [True, False])
def test_cond_values_and_gradients_bitwise(dtype, take_true):
    ours, name, edges = _case(refgrad, dtype, take_true)
    theirs, t_name, t_edges = _case(torch, dtype, take_true)
    assert (name, edges) == (t_name, t_edges)
    _same_bits(ours, theirs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_while_loop_values_and_gradients_bitwise(dtype):
    ours, name = _loop(refgrad, dtype)
    theirs, t_name = _loop(torch, dtype)
    assert name == t_name
    _same_bits(ours, theirs)
