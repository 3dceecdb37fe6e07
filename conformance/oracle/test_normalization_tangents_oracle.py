"""Oracle test: the forward-mode tangents of batch norm, layer norm and group norm are
torch's to the bit (NaNs of any sign alike), with torch's graphs, in float32 and float64."""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise, data, torch_roots
from conformance.test_normalization_tangents import graph

DUALS = ["input", "weight", "bias", "all"]


def _tangents(lib, kind, arrays, dual, grad, train, layout):
    x, dx, w, dw, b, db, rm, rv = arrays
    fw = lib.autograd.forward_ad
    xs = lib.tensor(x).contiguous(memory_format=getattr(lib, layout))
    ws, bs = (lib.tensor(a).requires_grad_(grad) for a in (w, b))
    with fw.dual_level():
        xs = fw.make_dual(xs, lib.tensor(dx)) if dual in ("input", "all") else xs
        ws = fw.make_dual(ws, lib.tensor(dw)) if dual in ("weight", "all") else ws
        bs = fw.make_dual(bs, lib.tensor(db)) if dual in ("bias", "all") else bs
        if kind == "batch":
            outs = lib.native_batch_norm(xs, ws, bs, lib.tensor(rm), lib.tensor(rv), train,
                                         0.1, 1e-5)
        elif kind == "layer":
            outs = lib.native_layer_norm(xs, list(x.shape[-1:]), ws, bs, 1e-5)
        else:
            n, c = x.shape[:2]
            outs = lib.native_group_norm(xs, ws, bs, n, c, x[0, 0].size, 1 if c % 2 else 2, 1e-5)
        tangents = [fw.unpack_dual(o).tangent for o in outs]
    return ([None if t is None else t.detach().numpy() for t in tangents],
            [None if t is None else (graph(t), t.requires_grad, t.stride()) for t in tangents])


def _arrays(kind, shape, dtype, bad):
    size = shape[-1] if kind == "layer" else shape[1]
    out = [data(shape, dtype, 1), data(shape, dtype, 2), data(size, dtype, 3),
           data(size, dtype, 4), data(size, dtype, 5), data(size, dtype, 6),
           data(size, dtype, 7, 0.1, 0.0), np.abs(data(size, dtype, 8)) + dtype(0.5)]
    if bad is not None:
        out[0].reshape(-1)[1] = bad
    return out


def _compare(kind, shape, dtype, dual, grad, train=True, layout="contiguous_format", bad=None):
    arrays = _arrays(kind, shape, dtype, bad)
    theirs = _tangents(torch, kind, arrays, dual, grad, train, layout)
    with torch_roots():  # eval's 1 / sqrt(running_var + eps), with torch's roots
        ours = _tangents(refgrad, kind, arrays, dual, grad, train, layout)
    assert ours[1] == theirs[1]
    assert [t is None for t in ours[0]] == [t is None for t in theirs[0]]
    assert_bitwise([t for t in ours[0] if t is not None], [t for t in theirs[0] if t is not None])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 4, 5)])
@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("dual", DUALS)
@pytest.mark.parametrize("grad", [True, False], ids=["params_grad", "plain"])
def test_batch_norm_tangents(dtype, shape, train, dual, grad):
    _compare("batch", shape, dtype, dual, grad, train)


@pytest.mark.parametrize("kind,train", [("batch", True), ("batch", False), ("layer", True),
                                        ("group", True)])
@pytest.mark.parametrize("dual", DUALS)
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan], ids=["inf", "-inf", "nan"])
def test_tangents_with_infinities_and_nans(kind, train, dual, bad):
    _compare(kind, (2, 3, 4, 5), np.float32, dual, True, train, bad=bad)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 4, 5), (4, 2, 6), (2, 4, 3, 2)])
@pytest.mark.parametrize("kind", ["layer", "group"])
@pytest.mark.parametrize("dual", DUALS)
@pytest.mark.parametrize("grad", [True, False], ids=["params_grad", "plain"])
def test_layer_and_group_norm_tangents(dtype, shape, kind, dual, grad):
    _compare(kind, shape, dtype, dual, grad)


@pytest.mark.parametrize("kind", ["batch", "layer"])
@pytest.mark.parametrize("dual", DUALS)
@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
def test_channels_last_tangents(kind, dual, train):
    _compare(kind, (2, 3, 4, 5), np.float32, dual, True, train, layout="channels_last")
