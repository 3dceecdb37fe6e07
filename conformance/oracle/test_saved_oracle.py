"""Oracle test: real pack and unpack hooks, on every op case, in refgrad and torch.

For each case of the op oracle, the same expression runs on both libraries
inside ``saved_tensors_hooks`` whose hooks log what they see. The two must
agree on the number of packs, on what each packed tensor is (which leaf, or
the shape, dtype and values of an intermediate) in order, and on the unpacks
a backward performs, in order.
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle.test_ops_oracle import CASES, Case, _fixed, _leaves

# The arithmetic, shape and function rows of chapters 14 to 16.
BASIC = [
    Case("mul", ((3,), (3,)), lambda T, x, y: x * y),
    Case("mul_self", ((3,),), lambda T, x: x * x),
    Case("mul_number", ((3,),), lambda T, x: x * 2),
    Case("mul_constant", ((3,),), lambda T, x: x * T.tensor(2.0, dtype=T.float64)),
    Case("div", ((3,), (3,)), lambda T, x, y: x / y, 0.5, 3.0),
    Case("div_number", ((3,),), lambda T, x: x / 2),
    Case("add_sub", ((2, 3), (3,)), lambda T, x, y: x + y - x),
    Case("exp", ((3,),), lambda T, x: x.exp()),
    Case("log", ((3,),), lambda T, x: x.log(), 0.5, 3.0),
    Case("sin_cos", ((3,),), lambda T, x: x.sin() + x.cos()),
    Case("pow", ((3,),), lambda T, x: x.pow(2)),
    Case("pow_tensor", ((3,), (3,)), lambda T, x, y: x ** y, 0.5, 2.0),
    Case("reciprocal", ((3,),), lambda T, x: x.reciprocal(), 0.5, 3.0),
    Case("neg_clone_sum", ((2, 3),), lambda T, x: (-x).clone().sum(1)),
    Case("view_reshape", ((2, 3),), lambda T, x: x.view(3, 2).reshape(6).view_as(x)),
    Case("expand_unsqueeze", ((3,),), lambda T, x: x.unsqueeze(0).expand(2, 3)),
    Case("to_float32", ((3,),), lambda T, x: x.to(T.float32) * 3),
    Case("matmul", ((2, 3), (3, 4)), lambda T, x, y: x @ y),
]


def _run(T, case, arrays):
    leaves = _leaves(T, arrays, case.transposed)
    ids = {}
    log = []

    def describe(t):
        for i, leaf in enumerate(leaves):
            if t is leaf:
                return f"in{i}"
        values = np.round(np.asarray(t.detach().tolist(), dtype=float), 6)
        # None for nan, which would not equal itself in the compared lists
        return (tuple(t.shape), str(t.dtype).split(".")[-1], t.grad_fn is not None,
                np.where(np.isnan(values), None, values).tolist())

    def pack(t):
        assert not T.is_grad_enabled()
        ids[len(ids)] = describe(t)
        log.append(("pack", ids[len(ids) - 1]))
        return (len(ids) - 1, t.detach())

    def unpack(packed):
        log.append(("unpack", ids[packed[0]]))
        return packed[1]

    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = case.fn(T, *leaves)
    outs = out if isinstance(out, tuple | list) else (out,)
    total = sum(o.sum() for o in outs if isinstance(o, T.Tensor) and o.requires_grad)
    total.backward()
    return log, [leaf.grad for leaf in leaves]


@pytest.mark.parametrize("case", BASIC + CASES, ids=lambda c: c.name)
def test_pack_and_unpack_agree_with_torch(case):
    arrays = _fixed(case, 0)
    theirs, their_grads = _run(torch, case, arrays)
    ours, our_grads = _run(refgrad, case, arrays)
    assert ours == theirs
    for g, h in zip(our_grads, their_grads):
        assert (g is None) == (h is None)
        if g is not None:
            np.testing.assert_allclose(g.numpy(), h.numpy(), rtol=1e-7, atol=1e-12)
