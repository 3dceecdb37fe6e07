"""Normalizations with parameters of another dtype than the input: torch's CPU rule."""

import itertools

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises
from conformance._warned import caught_always

PARAMETER = "mixed dtype (CPU): expect parameter to have scalar type of Float"
SHARED = "mixed dtype (CPU): all inputs must share same datatype."
F16, F32, F64 = torch.float16, torch.float32, torch.float64


def _layer(x, w, b):
    return F.layer_norm(x, (4,), w, b)


def _group(x, w, b):
    return F.group_norm(x, 2, w, b)


def _batch(x, w, b):
    return F.batch_norm(x, None, None, w, b, training=True)


def _expected(di, dw, db):
    given = [d for d in (dw, db) if d is not None]
    if not given or given[0] == di:
        bad = [d for d in given if d != di]
        return (RuntimeError, None) if bad else (None, di)
    if any(d != F32 for d in given):
        return RuntimeError, PARAMETER
    return (None, di) if di == F16 else (RuntimeError, SHARED)


@pytest.mark.parametrize("norm", [_layer, _group, _batch], ids=["layer", "group", "batch"])
@pytest.mark.parametrize(("di", "dw", "db"), [
    (di, dw, db) for di in (F16, F32, F64)
    for dw, db in itertools.product((None, F16, F32, F64), repeat=2)])
def test_mixed_dtypes(norm, di, dw, db):
    x = torch.tensor([[1.0, 2.0, 3.5, -1.0], [0.5, -1.0, 2.0, 0.0]], dtype=di)
    w = None if dw is None else torch.tensor([1.0, 0.5, 2.0, 1.5], dtype=dw)
    b = None if db is None else torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=db)
    error, outcome = _expected(di, dw, db)
    if error is None:
        out = norm(x, w, b)
        assert out.dtype == outcome
        wide = norm(x.double(), None if w is None else w.double(),
                    None if b is None else b.double())
        assert torch.allclose(out.double(), wide, atol=1e-2 if di == F16 else 1e-5)
    elif outcome is None:
        with pytest.raises(RuntimeError, match="expected scalar type"):
            norm(x, w, b)
    else:
        with raises(error, outcome):
            norm(x, w, b)


def test_layer_norm_float32_weight_on_float16_has_float32_gradients():
    x = torch.tensor([[1.0, 2.0, 3.5]], dtype=F16, requires_grad=True)
    w = torch.tensor([1.0, 0.5, 2.0], requires_grad=True)
    out = F.layer_norm(x, (3,), w)
    out.sum().backward()
    assert (out.dtype, x.grad.dtype, w.grad.dtype) == (F16, F16, F32)


@pytest.mark.parametrize("bad", ["float", "tensor"])
def test_batch_norm_running_stats_of_another_dtype_are_checked_first(bad):
    x = torch.ones(2, 4, dtype=F64)
    mean = torch.zeros(4, dtype=F16)
    var = torch.ones(4, dtype=F16) if bad == "float" else torch.ones(4, dtype=F32)
    with raises(RuntimeError, PARAMETER):
        F.batch_norm(x, mean, var)


def test_integer_input_beside_float32_weight():
    with raises(RuntimeError, SHARED):
        F.layer_norm(torch.ones(2, 4, dtype=torch.int64), (4,), torch.ones(4))


@pytest.mark.parametrize(("di", "dw", "names"), [
    (F32, F64, ("float", "double")), (F16, F32, ("c10::Half", "float")),
    (F64, torch.int64, ("double", "long int"))])
def test_rms_norm_warns_of_a_mismatched_weight(di, dw, names):
    with caught_always(torch) as caught:
        out = F.rms_norm(torch.ones(2, 3, dtype=di), (3,), torch.ones(3, dtype=dw))
        F.rms_norm(torch.ones(2, 3, dtype=di), (3,), torch.ones(3, dtype=di))
    assert out.dtype == di
    assert [str(w.message) for w in caught] == [
        f"Mismatch dtype between input and weight: input dtype = {names[0]}, weight dtype = "
        f"{names[1]}, Cannot dispatch to fused implementation. (Triggered internally at "
        "/__w/pytorch/pytorch/aten/src/ATen/native/layer_norm.cpp:346.)"]
    assert caught[0].category is UserWarning
