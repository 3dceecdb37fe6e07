"""Oracle test: the control-flow operators in refgrad and torch, fed the same arrays.

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
from conformance._support import compile_side_effects_put_back


@pytest.fixture(autouse=True)
def _compile_side_effects_put_back():
    """torch runs these operators through its compiler, whose first run patches the process."""
    with compile_side_effects_put_back(torch, refgrad):
        yield


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


def _loop(lib, dtype, steps):
    rng = np.random.default_rng(11)
    xs, ws = rng.standard_normal((2, 6)).astype(dtype)
    x = lib.tensor(xs, requires_grad=True)
    w = lib.tensor(ws, requires_grad=True)
    i, y = lib.while_loop(lambda i, v: i < steps, lambda i, v: (i + 1, v * w + w),
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
@pytest.mark.parametrize("steps", [1, 4, 13])
def test_while_loop_values_and_gradients_bitwise(dtype, steps):
    # w's gradient is a sum over the steps, which rounds differently in another order
    ours, name = _loop(refgrad, dtype, steps)
    theirs, t_name = _loop(torch, dtype, steps)
    assert name == t_name
    _same_bits(ours, theirs)


def _scan(lib, hops, dim, reverse):
    rng = np.random.default_rng(3)
    xm = lib.tensor(rng.standard_normal((4, 3)).astype(np.float32), requires_grad=True)
    size = 3 if dim == 0 else 4
    init = lib.tensor(rng.standard_normal(size).astype(np.float32), requires_grad=True)
    w = lib.tensor(rng.standard_normal(size).astype(np.float32), requires_grad=True)
    c, y = hops.scan(lambda c, x: (c * w + x, {"o": c * x}), init, xm, dim=dim, reverse=reverse)
    (c.sum() + y["o"].sum()).backward()
    names = [type(c.grad_fn).__name__, type(y["o"].grad_fn).__name__]
    return [c, y["o"], xm.grad, init.grad, w.grad], names


def _map(lib, hops):
    rng = np.random.default_rng(5)
    xm = lib.tensor(rng.standard_normal((4, 3)).astype(np.float32), requires_grad=True)
    v = lib.tensor(rng.standard_normal(3).astype(np.float32), requires_grad=True)
    w = lib.tensor(rng.standard_normal(3).astype(np.float32), requires_grad=True)
    r = hops.map(lambda x, y, k: (x * y * w + k, x.sum()), xm, v, 2)
    (r[0].sum() + r[1].sum()).backward()
    return [r[0], r[1], xm.grad, v.grad, w.grad], type(r[0].grad_fn).__name__


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # torch's own tracing warns
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("dim, reverse", [(0, False), (0, True), (1, False), (-1, True)])
def test_scan_values_and_gradients_bitwise(dim, reverse):
    import torch._higher_order_ops as torch_hops

    import refgrad._higher_order_ops as refgrad_hops

    ours, names = _scan(refgrad, refgrad_hops, dim, reverse)
    theirs, t_names = _scan(torch, torch_hops, dim, reverse)
    assert names == t_names
    _same_bits(ours, theirs)


def test_map_values_and_gradients_bitwise():
    import torch._higher_order_ops as torch_hops

    import refgrad._higher_order_ops as refgrad_hops

    ours, name = _map(refgrad, refgrad_hops)
    theirs, t_name = _map(torch, torch_hops)
    assert name == t_name
    _same_bits(ours, theirs)


def _associative(lib, hops, n, reverse):
    rng = np.random.default_rng(n)
    x = lib.tensor(rng.standard_normal((n, 3)).astype(np.float32), requires_grad=True)
    y = lib.tensor(rng.standard_normal((3, n)).astype(np.float32), requires_grad=True)
    r = hops.associative_scan(lambda p, q: p * q + q, x, 0, reverse=reverse,
                              combine_mode="generic")
    d = hops.associative_scan(lambda p, q: {"s": p["s"] + q["s"], "m": (p["m"][0] * q["m"][0],)},
                              {"s": y, "m": (y,)}, -1, reverse=reverse, combine_mode="generic")
    (r.sum() + d["s"].sum() + d["m"][0].sum()).backward()
    names = [type(r.grad_fn).__name__, r.grad_fn.next_functions[0][0].name()]
    return [r, d["s"], d["m"][0], x.grad, y.grad], names


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_values_and_gradients_bitwise(n, reverse):
    import torch._higher_order_ops as torch_hops

    import refgrad._higher_order_ops as refgrad_hops

    ours, names = _associative(refgrad, refgrad_hops, n, reverse)
    theirs, t_names = _associative(torch, torch_hops, n, reverse)
    assert names == t_names
    _same_bits(ours, theirs)
