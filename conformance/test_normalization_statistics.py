"""The statistics native_layer_norm and native_batch_norm return beside their output.

Both return three tensors: the output, the mean and one over the deviation (batch_norm's
two empty in evaluation). Only the output is differentiated: the statistics require no
grad, have no grad_fn and no tangent, the node has one gradient slot, and it keeps them as
_saved_result1 and _saved_result2. These tests check those, and the statistics' values
(against float64 formulas), dtypes and shapes, for float64, float32 and float16 inputs.
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

DTYPES = [torch.float64, torch.float32, torch.float16]
EPS = 1e-5


def values(*shape, dtype=torch.float64):
    k = torch.arange(2 * 4 * 3, dtype=torch.float64)[: int(torch.tensor(shape).prod())]
    return (k * 0.37 % 1.0 + 0.01 * k).reshape(shape).to(dtype)


def expected(x, dims):
    wide = x.detach().double()
    mean = wide.mean(dims, keepdim=True)
    rstd = ((wide - mean).pow(2).mean(dims, keepdim=True) + EPS).rsqrt()
    return mean, rstd


def close(a, b, dtype):
    tol = {torch.float64: 1e-12, torch.float32: 1e-6, torch.float16: 2e-3}[dtype]
    return torch.allclose(a.double(), b.double(), rtol=tol, atol=tol)


CALLS = {
    "layer_norm": lambda x: F.layer_norm(x, (3,)),
    "layer_norm_affine": lambda x: F.layer_norm(
        x, (3,), torch.ones(3, dtype=x.dtype), torch.zeros(3, dtype=x.dtype)),
    "batch_norm": lambda x: F.batch_norm(x, None, None, training=True),
    "batch_norm_running": lambda x: F.batch_norm(
        x, torch.zeros(4, dtype=x.dtype), torch.ones(4, dtype=x.dtype), training=True),
    "batch_norm_eval": lambda x: F.batch_norm(
        x, torch.zeros(4, dtype=x.dtype), torch.ones(4, dtype=x.dtype), training=False),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(CALLS))
def test_node_keeps_the_statistics(name, dtype):
    x = values(2, 4, 3, dtype=dtype).requires_grad_()
    node = CALLS[name](x).grad_fn
    saved = sorted(a for a in dir(node) if a.startswith("_saved"))
    assert {"_saved_input", "_saved_result1", "_saved_result2", "_saved_weight"} <= set(saved)
    mean, rstd = node._saved_result1, node._saved_result2
    assert not mean.requires_grad and mean.grad_fn is None
    assert mean.dtype == rstd.dtype == dtype
    if name.startswith("layer_norm"):
        assert tuple(mean.shape) == tuple(rstd.shape) == (2, 4, 1)
        assert mean.stride() == (4, 1, 1)
        want = expected(x, (2,))
    elif name == "batch_norm_eval":
        assert tuple(mean.shape) == tuple(rstd.shape) == (0,)
        return
    else:
        assert tuple(mean.shape) == tuple(rstd.shape) == (4,)
        want = tuple(t.reshape(4) for t in expected(x, (0, 2)))
    assert close(mean, want[0], dtype) and close(rstd, want[1], dtype)


def native_calls(x, training=True):
    running = torch.zeros(4, dtype=x.dtype), torch.ones(4, dtype=x.dtype)
    return {
        "native_layer_norm": torch.native_layer_norm(x, (3,), None, None, EPS),
        "native_batch_norm": torch.native_batch_norm(x, None, None, *running, training, 0.1,
                                                     EPS),
    }


@pytest.mark.parametrize("training", [True, False])
def test_only_the_output_is_differentiated(training):
    x = values(2, 4, 3).requires_grad_()
    for name, (out, mean, rstd) in native_calls(x, training).items():
        assert out.requires_grad and type(out.grad_fn).__name__ == (
            "NativeLayerNormBackward0" if "layer" in name else "NativeBatchNormBackward0")
        for t in (mean, rstd):
            assert not t.requires_grad and t.grad_fn is None
        assert len(out.grad_fn._saved_result1.shape) == mean.ndim
        assert torch.equal(out.grad_fn._saved_result1, mean)
        assert torch.equal(out.grad_fn._saved_result2, rstd)


def test_a_hook_sees_one_grad_output():
    x = values(2, 4, 3).requires_grad_()
    for out, _, _ in native_calls(x).values():
        seen = []
        out.grad_fn.register_prehook(lambda grads, seen=seen: seen.append(len(grads)))
        out.grad_fn.register_hook(
            lambda grads_in, grads_out, seen=seen: seen.append(len(grads_out)))
        out.sum().backward()
        assert seen == [1, 1]


@pytest.mark.parametrize("dtype", DTYPES)
def test_native_statistics_dtypes(dtype):
    x = values(2, 4, 3, dtype=dtype)
    for out, mean, rstd in native_calls(x).values():
        assert out.dtype == mean.dtype == rstd.dtype == dtype
    want = torch.float64 if dtype is torch.float64 else torch.float32  # float32 beside narrower
    out, mean, rstd = torch.native_batch_norm(
        x, None, None, torch.zeros(4, dtype=want), torch.ones(4, dtype=want), False, 0.1, EPS)
    assert (mean.dtype, rstd.dtype, tuple(mean.shape)) == (want, want, (0,))


def test_float16_beside_float32_parameters_keeps_float32_statistics():
    x = values(2, 4, 3, dtype=torch.float16)
    _, mean, rstd = torch.native_layer_norm(x, (3,), torch.ones(3), None, EPS)
    assert mean.dtype == rstd.dtype == torch.float32
    _, mean, rstd = torch.native_batch_norm(x, torch.ones(4), None, None, None, True, 0.1, EPS)
    assert mean.dtype == rstd.dtype == torch.float32
    assert close(mean, expected(x, (0, 2))[0].reshape(4), torch.float32)


def test_functional_forms_return_the_output_alone():
    x = values(2, 4, 3)
    assert torch.equal(F.layer_norm(x, (3,)), torch.native_layer_norm(x, (3,), None, None, EPS)[0])
    assert torch.equal(F.batch_norm(x, None, None, training=True),
                       torch.native_batch_norm(x, None, None, None, None, True, 0.1, EPS)[0])


def test_statistics_carry_no_tangent():
    x = values(2, 4, 3)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, torch.ones_like(x))
        for out, mean, rstd in native_calls(dual).values():
            assert fwAD.unpack_dual(out).tangent is not None
            assert fwAD.unpack_dual(mean).tangent is None
            assert fwAD.unpack_dual(rstd).tangent is None


def test_empty_input_while_training_is_refused():
    with pytest.raises(RuntimeError, match=r"input_sizes = \[0, 3\]"):
        torch.native_batch_norm(torch.zeros(0, 3), None, None, None, None, True, 0.1, EPS)
    out, mean, rstd = torch.native_batch_norm(
        torch.zeros(0, 3), None, None, torch.zeros(3), torch.ones(3), False, 0.1, EPS)
    assert [tuple(t.shape) for t in (out, mean, rstd)] == [(0, 3), (0,), (0,)]


def test_a_dispatch_mode_sees_three_results():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Recording(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if "norm" in str(func):
                shapes = [tuple(t.shape) for t in out] if isinstance(out, tuple) else None
                seen.append((str(func), shapes))
            return out

    x = values(2, 4, 3).requires_grad_()
    with Recording():
        F.layer_norm(x, (3,))
        F.batch_norm(x, None, None, training=True)
    assert seen == [("aten.native_layer_norm.default", [(2, 4, 3), (2, 4, 1), (2, 4, 1)]),
                    ("aten.native_batch_norm.default", [(2, 4, 3), (4,), (4,)])]


@pytest.mark.parametrize("name", ["layer_norm", "batch_norm", "batch_norm_eval"])
def test_the_gradient_node_keeps_the_forward_statistics(name):
    x = values(2, 4, 3, dtype=torch.float16).requires_grad_()
    y = CALLS[name](x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    kept = g.grad_fn._saved_mean if name == "layer_norm" else g.grad_fn._saved_save_mean
    assert kept.dtype == y.grad_fn._saved_result1.dtype == torch.float16
    assert torch.equal(kept, y.grad_fn._saved_result1)


def test_layer_norm_saves_in_torchs_order():
    x = values(2, 3).requires_grad_()
    w, b = (values(3) + 1.0).requires_grad_(), (values(3) + 2.0).requires_grad_()
    seen = []

    def pack(t):
        seen.append("x" if t is x else "w" if t is w else "b" if t is b else tuple(t.shape))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        F.layer_norm(x, (3,), w, b)
    assert seen == ["b", "x", "w", (2, 1), (2, 1)]
