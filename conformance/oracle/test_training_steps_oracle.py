"""Oracle test: in-place writes into pieces of one tensor that interleave without sharing
an element (a recurrent cell's gates), and into pieces that do share elements, give
torch's bits, gradients, versions and nodes; a GRU's outputs and gradients stay torch's.
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise, data

WRITES = {
    "add_": lambda a, b: a.add_(b, alpha=0.5),
    "sub_": lambda a, b: a.sub_(b),
    "mul_": lambda a, b: a.mul_(b),
    "div_": lambda a, b: a.div_(b),
    "addcmul_": lambda a, b: a.addcmul_(b, b, value=0.25),
}
PIECES = [((5, 48), 1), ((4, 6, 24), 2), ((3, 12, 8), 1), ((7, 102), 1)]


def _gates(lib, array, dim, name):
    leaf = lib.tensor(array, requires_grad=True)
    first, second, third = (leaf * 1).unsafe_chunk(3, dim)
    written = WRITES[name](second, third)
    result = written + first
    (result * result).sum().backward()
    return leaf, written, result


@pytest.mark.parametrize("name", sorted(WRITES))
@pytest.mark.parametrize("shape,dim", PIECES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_writes_into_interleaved_gates_are_torchs(name, shape, dim, dtype):
    array = data(shape, dtype, seed=len(name) + shape[-1])
    ours = _gates(refgrad, array, dim, name)
    theirs = _gates(torch, array, dim, name)
    assert_bitwise([ours[1].detach().numpy(), ours[0].grad.numpy()],
                   [theirs[1].detach().numpy(), theirs[0].grad.numpy()])
    assert ours[1]._version == theirs[1]._version
    assert ours[1].stride() == theirs[1].stride()
    assert ours[1].grad_fn.name() == theirs[1].grad_fn.name()


def _shared(lib, array, name):
    flat = lib.tensor(array).reshape(-1)
    WRITES[name](flat[2::2], flat[:-2:2])  # neither dense: torch writes, reading back
    return flat


@pytest.mark.parametrize("name", ["add_", "mul_", "sub_"])
@pytest.mark.parametrize("size", [10, 64, 203])
def test_writes_that_read_their_own_elements_stay_in_torchs_order(name, size):
    array = data((size,), np.float32, seed=size, scale=0.5, shift=1.0)
    assert_bitwise([_shared(refgrad, array, name).numpy()], [_shared(torch, array, name).numpy()])


def _gru(lib, kwargs, shape, seed):
    module = lib.nn.GRU(16, 32, **kwargs)
    rng = np.random.default_rng(seed)
    with lib.no_grad():
        for p in module.parameters():
            p.copy_(lib.tensor(rng.uniform(-0.2, 0.2, tuple(p.shape)).astype(np.float32)))
    x = lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)
    out, last = module(x)
    (out.sum() + (last * last).sum()).backward()
    grads = [x.grad] + [p.grad for p in module.parameters()]
    return [out, last], grads


@pytest.mark.parametrize("kwargs,shape", [
    ({"num_layers": 2}, (30, 4, 16)),
    ({"bidirectional": True, "batch_first": True}, (3, 7, 16)),
])
def test_a_gru_step_stays_torchs(kwargs, shape):
    ours, our_grads = _gru(refgrad, kwargs, shape, seed=3)
    theirs, their_grads = _gru(torch, kwargs, shape, seed=3)
    assert [t.grad_fn.name() for t in ours] == [t.grad_fn.name() for t in theirs]
    for a, b in zip(ours + our_grads, theirs + their_grads):
        assert a.stride() == b.stride()
        # torch's float32 sigmoid and tanh are vectorised kernels, a rounding apart
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(),
                                   rtol=1e-4, atol=1e-5)
