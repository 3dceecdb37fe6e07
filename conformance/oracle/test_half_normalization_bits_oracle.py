"""Oracle test: float16 normalizations' gradients (and the statistics they read) are
torch's to the bit, on one thread and on several."""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise, data

PARAMETERS = [np.float16, np.float32, None]
PARAMETER_IDS = ["half", "float", "none"]


def same_bits(ours, theirs):
    """The same bits, NaN payloads included."""
    assert_bitwise(ours, theirs, nans_alike=False)


def _tensors(lib, arrays):
    return [None if a is None else lib.tensor(a, requires_grad=True) for a in arrays]


LAYER_SHAPES = [((37, 53), 1), ((4, 6, 9, 11), 2), ((5, 1000), 1), ((3, 1), 1), ((6, 3), 1),
                ((2, 8), 1), ((4, 13), 1), ((3, 4, 5), 3), ((2, 1031), 1), ((64, 17), 1),
                ((9, 16), 1), ((7, 47), 1)]


def _layer_norm_all(lib, x, shape, weight, bias, grad):
    xt, wt, bt = _tensors(lib, (x, weight, bias))
    out, mean, rstd = lib.native_layer_norm(xt, list(shape), wt, bt, 1e-5)
    out.backward(lib.tensor(grad))
    grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
    return [out.detach().numpy(), mean.detach().numpy(), rstd.detach().numpy(), *grads]


@pytest.mark.parametrize("shape,kept", LAYER_SHAPES)
@pytest.mark.parametrize("parameters", PARAMETERS, ids=PARAMETER_IDS)
def test_float16_layer_norm_gradients(shape, kept, parameters, both_threads):
    normalized = shape[len(shape) - kept:]
    x, grad = data(shape, np.float16, 1), data(shape, np.float16, 2, 1.0, 0.0)
    weight = None if parameters is None else data(normalized, parameters, 3)
    bias = None if parameters is None else data(normalized, parameters, 4)
    same_bits(_layer_norm_all(refgrad, x, normalized, weight, bias, grad),
              _layer_norm_all(torch, x, normalized, weight, bias, grad))


@pytest.mark.parametrize("parameters", [np.float16, np.float32], ids=["half", "float"])
@pytest.mark.parametrize("given", ["weight", "bias"])
def test_float16_layer_norm_with_one_parameter(parameters, given, both_threads):
    if given == "bias" and parameters == np.float32:
        parameters = np.float16  # torch refuses a float32 bias without a weight
    x, grad = data((20, 45), np.float16, 5), data((20, 45), np.float16, 6, 1.0, 0.0)
    p = data(45, parameters, 7)
    weight, bias = (p, None) if given == "weight" else (None, p)
    same_bits(_layer_norm_all(refgrad, x, (45,), weight, bias, grad),
              _layer_norm_all(torch, x, (45,), weight, bias, grad))


GROUP_SHAPES = [((4, 6, 9, 11), 3), ((3, 40, 13), 2), ((2, 4, 21), 2), ((2, 4, 5, 5), 1),
                ((5, 6, 3, 7), 3), ((2, 6, 101), 3), ((3, 8), 4), ((6, 8), 2),
                ((2, 64, 3, 3), 16), ((3, 34, 17), 2), ((2, 48, 40), 2)]


def _group_norm_all(lib, x, groups, weight, bias, grad):
    xt, wt, bt = _tensors(lib, (x, weight, bias))
    out = lib.nn.functional.group_norm(xt, groups, wt, bt, 1e-5)
    mean, rstd = out.grad_fn._saved_result1, out.grad_fn._saved_result2
    out.backward(lib.tensor(grad))
    grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
    return [out.detach().numpy(), mean.detach().numpy(), rstd.detach().numpy(), *grads]


@pytest.mark.parametrize("shape,groups", GROUP_SHAPES)
@pytest.mark.parametrize("parameters", PARAMETERS, ids=PARAMETER_IDS)
def test_float16_group_norm_gradients(shape, groups, parameters, both_threads):
    x, grad = data(shape, np.float16, 10), data(shape, np.float16, 11, 1.0, 0.0)
    weight = None if parameters is None else data(shape[1], parameters, 12)
    bias = None if parameters is None else data(shape[1], parameters, 13)
    same_bits(_group_norm_all(refgrad, x, groups, weight, bias, grad),
              _group_norm_all(torch, x, groups, weight, bias, grad))


def test_float16_group_norm_with_a_float32_bias_frozen():
    """float32 statistics without a weight: torch's kernel reads them as float32."""
    x, grad = data((3, 40, 13), np.float16, 14), data((3, 40, 13), np.float16, 15, 1.0, 0.0)
    bias = data(40, np.float32, 16)

    def run(lib):
        xt = lib.tensor(x, requires_grad=True)
        out = lib.nn.functional.group_norm(xt, 2, None, lib.tensor(bias))
        out.backward(lib.tensor(grad))
        return [out.detach().numpy(), xt.grad.numpy()]

    same_bits(run(refgrad), run(torch))


def _batch_norm_all(lib, x, weight, bias, running, training, grad, layout=None):
    xt = lib.tensor(x)
    if layout is not None:
        xt = xt.contiguous(memory_format=getattr(lib, layout))
    xt.requires_grad_()
    wt, bt = _tensors(lib, (weight, bias))
    mean, var = (None, None) if running is None else (lib.tensor(r) for r in running)
    out, save_mean, save_invstd = lib.native_batch_norm(xt, wt, bt, mean, var, training,
                                                        0.1, 1e-5)
    g = lib.tensor(grad)
    out.backward(g if layout is None else g.contiguous(memory_format=getattr(lib, layout)))
    grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
    stats = [] if running is None else [mean.numpy(), var.numpy()]
    return [out.detach().numpy(), save_mean.numpy(), save_invstd.numpy(), *stats, *grads,
            np.array(out.stride() + xt.grad.stride())]


BATCH_SHAPES = [(4, 6, 9, 11), (16, 5), (37, 3), (2, 3, 7), (5, 12, 4, 4), (3, 4, 13),
                (7, 4, 1), (8, 20), (2, 40), (3, 3000), (2, 17), (4, 3, 40), (6, 33)]


def _running(channels, dtype):
    rng = np.random.default_rng(15)
    return (rng.standard_normal(channels).astype(dtype),
            rng.uniform(0.5, 2.0, channels).astype(dtype))


@pytest.mark.parametrize("shape", BATCH_SHAPES)
@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
@pytest.mark.parametrize("parameters", PARAMETERS, ids=PARAMETER_IDS)
def test_float16_batch_norm(shape, training, parameters, both_threads):
    x, grad = data(shape, np.float16, 16), data(shape, np.float16, 17, 1.0, 0.0)
    weight = None if parameters is None else data(shape[1], parameters, 18)
    bias = None if parameters is None else data(shape[1], parameters, 19)
    running = _running(shape[1], parameters or np.float16)
    same_bits(_batch_norm_all(refgrad, x, weight, bias, running, training, grad),
              _batch_norm_all(torch, x, weight, bias, running, training, grad))


@pytest.mark.parametrize("shape", [(4, 6, 9, 11), (2, 20, 3, 3), (3, 5, 2, 7), (2, 3, 4, 5, 2),
                                   (2, 40, 3, 3)])
@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
@pytest.mark.parametrize("parameters", [np.float16, np.float32], ids=["half", "float"])
def test_float16_channels_last_batch_norm(shape, training, parameters, both_threads):
    x, grad = data(shape, np.float16, 20), data(shape, np.float16, 21, 1.0, 0.0)
    weight, bias = data(shape[1], parameters, 22), data(shape[1], parameters, 23)
    running = _running(shape[1], parameters)
    layout = "channels_last" if len(shape) == 4 else "channels_last_3d"
    same_bits(_batch_norm_all(refgrad, x, weight, bias, running, training, grad, layout),
              _batch_norm_all(torch, x, weight, bias, running, training, grad, layout))


def test_float16_batch_norm_without_running_statistics(both_threads):
    x, grad = data((6, 5, 8), np.float16, 24), data((6, 5, 8), np.float16, 25, 1.0, 0.0)
    same_bits(_batch_norm_all(refgrad, x, None, None, None, True, grad),
              _batch_norm_all(torch, x, None, None, None, True, grad))


@pytest.mark.parametrize("shape", [(4, 6, 9, 11), (2, 3, 17)])
def test_float16_instance_norm(shape):
    x, grad = data(shape, np.float16, 26), data(shape, np.float16, 27, 1.0, 0.0)
    weight = data(shape[1], np.float16, 28)

    def run(lib):
        xt, wt = _tensors(lib, (x, weight))
        out = lib.nn.functional.instance_norm(xt, weight=wt)
        out.backward(lib.tensor(grad))
        return [out.detach().numpy(), xt.grad.numpy(), wt.grad.numpy()]

    same_bits(run(refgrad), run(torch))


CHANNELS_LAST_GROUPS = [((4, 6, 9, 11), 3), ((2, 4, 5, 5), 1), ((5, 6, 3, 7), 3),
                        ((2, 64, 3, 3), 16), ((2, 48, 4, 5), 2), ((3, 34, 2, 3), 2),
                        ((2, 20, 3, 3), 4), ((2, 3, 4, 5, 2), 1), ((2, 24, 5, 5), 1),
                        ((1, 8, 30, 40), 2), ((2, 6, 32, 40), 3), ((1, 4, 48, 48), 2),
                        ((2, 6, 32, 64), 3)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,groups", CHANNELS_LAST_GROUPS)
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_channels_last_group_norm(dtype, shape, groups, affine, both_threads):
    x, grad = data(shape, dtype, 30), data(shape, dtype, 31, 1.0, 0.0)
    weight = data(shape[1], dtype, 32) if affine else None
    bias = data(shape[1], dtype, 33) if affine else None

    def run(lib):
        layout = lib.channels_last if len(shape) == 4 else lib.channels_last_3d
        xt = lib.tensor(x).contiguous(memory_format=layout).requires_grad_()
        wt, bt = _tensors(lib, (weight, bias))
        out = lib.nn.functional.group_norm(xt, groups, wt, bt, 1e-5)
        mean, rstd = out.grad_fn._saved_result1, out.grad_fn._saved_result2
        out.backward(lib.tensor(grad).contiguous(memory_format=layout))
        grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
        return [out.detach().numpy(), mean.detach().numpy(), rstd.detach().numpy(), *grads,
                np.array(out.stride() + xt.grad.stride())]

    same_bits(run(refgrad), run(torch))


def _laid_out_otherwise(lib, x, kind):
    """A batch laid out neither row-major nor channels-last: a transposed matrix, or a
    batch whose last two dimensions were swapped."""
    if kind == "transposed":
        return lib.tensor(np.ascontiguousarray(x.T)).T
    return lib.tensor(np.ascontiguousarray(x.swapaxes(2, 3))).transpose(2, 3)


STRIDED_CASES = [("transposed", (16, 5)), ("transposed", (37, 3)), ("transposed", (8, 20)),
                 ("transposed", (3, 300)), ("swapped", (4, 6, 9, 11)), ("swapped", (2, 3, 5, 7)),
                 ("swapped", (5, 12, 4, 4))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind,shape", STRIDED_CASES)
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
@pytest.mark.parametrize("same_layout", [True, False], ids=["grad_alike", "grad_rowmajor"])
def test_batch_norm_of_a_batch_laid_out_otherwise(dtype, kind, shape, affine, same_layout,
                                                  both_threads):
    x, grad = data(shape, dtype, 40), data(shape, dtype, 41, 1.0, 0.0)
    weight = data(shape[1], dtype, 42) if affine else None
    bias = data(shape[1], dtype, 43) if affine else None
    running = _running(shape[1], dtype)

    def run(lib):
        xt = _laid_out_otherwise(lib, x, kind).requires_grad_()
        wt, bt = _tensors(lib, (weight, bias))
        mean, var = (lib.tensor(r) for r in running)
        out = lib.nn.functional.batch_norm(xt, mean, var, wt, bt, True, 0.1, 1e-5)
        out.backward(_laid_out_otherwise(lib, grad, kind) if same_layout else lib.tensor(grad))
        grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
        return [out.detach().numpy(), mean.numpy(), var.numpy(), *grads,
                np.array(out.stride() + xt.grad.stride())]

    same_bits(run(refgrad), run(torch))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind,shape", STRIDED_CASES)
def test_gradient_of_batch_norm_laid_out_otherwise_in_evaluation(dtype, kind, shape):
    """In evaluation the gradient's one over the deviation is a scalar sqrt: torch's bits."""
    x, grad = data(shape, dtype, 44), data(shape, dtype, 45, 1.0, 0.0)
    weight = data(shape[1], dtype, 46)
    running = _running(shape[1], dtype)

    def run(lib):
        xt = _laid_out_otherwise(lib, x, kind).requires_grad_()
        wt = lib.tensor(weight, requires_grad=True)
        mean, var = (lib.tensor(r) for r in running)
        out = lib.nn.functional.batch_norm(xt, mean, var, wt, None, False, 0.1, 1e-5)
        out.backward(lib.tensor(grad))
        return [xt.grad.numpy(), wt.grad.numpy(), np.array(xt.grad.stride())]

    same_bits(run(refgrad), run(torch))


@pytest.mark.parametrize("shape,groups", CHANNELS_LAST_GROUPS)
@pytest.mark.parametrize("parameters", PARAMETERS, ids=PARAMETER_IDS)
def test_float16_channels_last_group_norm(shape, groups, parameters, both_threads):
    x, grad = data(shape, np.float16, 34), data(shape, np.float16, 35, 1.0, 0.0)
    weight = None if parameters is None else data(shape[1], parameters, 36)
    bias = None if parameters is None else data(shape[1], parameters, 37)

    def run(lib):
        layout = lib.channels_last if len(shape) == 4 else lib.channels_last_3d
        xt = lib.tensor(x).contiguous(memory_format=layout).requires_grad_()
        wt, bt = _tensors(lib, (weight, bias))
        out = lib.nn.functional.group_norm(xt, groups, wt, bt, 1e-5)
        mean, rstd = out.grad_fn._saved_result1, out.grad_fn._saved_result2
        out.backward(lib.tensor(grad).contiguous(memory_format=layout))
        grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
        return [out.detach().numpy(), mean.detach().numpy(), rstd.detach().numpy(), *grads,
                np.array(out.stride() + xt.grad.stride())]

    same_bits(run(refgrad), run(torch))
