"""Oracle test: the normalizations' outputs, statistics and gradients are torch's to the bit,
for float32 and float64, on one thread and on several."""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise, data

DTYPES = [np.float32, np.float64]


def _tensors(lib, arrays, grad=False):
    return [None if a is None else lib.tensor(a, requires_grad=grad) for a in arrays]


LAYER_SHAPES = [((37, 53), 1), ((4, 6, 9, 11), 2), ((5, 1000), 1), ((3, 1), 1), ((6, 3), 1),
                ((2, 8), 1), ((3, 4, 5), 3), ((2, 1031), 1), ((1, 4099), 1), ((64, 17), 1)]
AFFINE = [(True, True), (False, False), (True, False), (False, True)]


def _layer_norm_all(lib, x, shape, weight, bias, grad):
    xt, wt, bt = _tensors(lib, (x, weight, bias), grad=True)
    out, mean, rstd = lib.native_layer_norm(xt, list(shape), wt, bt, 1e-5)
    out.backward(lib.tensor(grad))
    grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
    return [out.detach().numpy(), mean.detach().numpy(), rstd.detach().numpy(), *grads]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,kept", LAYER_SHAPES)
@pytest.mark.parametrize("affine", AFFINE, ids=["both", "none", "weight", "bias"])
def test_layer_norm_forward_and_backward(dtype, shape, kept, affine, both_threads):
    normalized = shape[len(shape) - kept:]
    x, grad = data(shape, dtype, 1), data(shape, dtype, 2, 1.0, 0.0)
    weight = data(normalized, dtype, 3) if affine[0] else None
    bias = data(normalized, dtype, 4) if affine[1] else None
    ours = _layer_norm_all(refgrad, x, normalized, weight, bias, grad)
    theirs = _layer_norm_all(torch, x, normalized, weight, bias, grad)
    assert_bitwise(ours, theirs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scale,shift", [(1e-3, 5.0), (100.0, -1e4), (1.0, 0.0), (1e-20, 1e-18),
                                         (1e-38, 0.0), (1e-300, 0.0)])
def test_layer_norm_far_from_zero_and_small(dtype, scale, shift):
    x = data((16, 300), dtype, 5, scale, shift)
    grad = data((16, 300), dtype, 6, 1.0, 0.0)
    weight, bias = data(300, dtype, 7), data(300, dtype, 8)
    assert_bitwise(_layer_norm_all(refgrad, x, (300,), weight, bias, grad),
                   _layer_norm_all(torch, x, (300,), weight, bias, grad))


def test_layer_norm_of_a_transposed_input():
    x = data((24, 40), np.float32, 9)
    ours = refgrad.nn.functional.layer_norm(refgrad.tensor(x).T, (24,))
    theirs = torch.nn.functional.layer_norm(torch.tensor(x).T, (24,))
    assert_bitwise([ours.numpy()], [theirs.numpy()])


@pytest.mark.parametrize("dtype", DTYPES)
def test_layer_norm_of_infinities_nans_and_the_largest_floats(dtype):
    big = np.finfo(dtype).max / 4
    x = np.array([[1.0, np.inf, 3.0] * 7, [1.0, np.nan, 2.0] * 7, [big, -big, big] * 7,
                  [0.0] * 21, [5.0] * 21], dtype=dtype)
    weight = np.linspace(-2, 2, 21).astype(dtype)
    assert_bitwise(_layer_norm_all(refgrad, x, (21,), weight, weight, np.ones_like(x)),
                   _layer_norm_all(torch, x, (21,), weight, weight, np.ones_like(x)))


GROUP_SHAPES = [((4, 6, 9, 11), 3), ((3, 40, 13), 2), ((2, 4, 21), 2), ((2, 4, 5, 5), 1),
                ((5, 6, 3, 7), 3), ((2, 6, 101), 3), ((3, 8), 4), ((2, 64, 3, 3), 16)]


def _group_norm_all(lib, x, groups, weight, bias, grad):
    xt, wt, bt = _tensors(lib, (x, weight, bias), grad=True)
    out = lib.nn.functional.group_norm(xt, groups, wt, bt, 1e-5)
    mean, rstd = out.grad_fn._saved_result1, out.grad_fn._saved_result2
    out.backward(lib.tensor(grad))
    grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
    return [out.detach().numpy(), mean.detach().numpy(), rstd.detach().numpy(), *grads]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,groups", GROUP_SHAPES)
@pytest.mark.parametrize("affine", AFFINE[:3], ids=["both", "none", "weight"])
def test_group_norm_forward_and_backward(dtype, shape, groups, affine):
    x, grad = data(shape, dtype, 10), data(shape, dtype, 11, 1.0, 0.0)
    weight = data(shape[1], dtype, 12) if affine[0] else None
    bias = data(shape[1], dtype, 13) if affine[1] else None
    assert_bitwise(_group_norm_all(refgrad, x, groups, weight, bias, grad),
                   _group_norm_all(torch, x, groups, weight, bias, grad))


@pytest.mark.parametrize("dtype", DTYPES)
def test_group_norm_through_the_functional_form(dtype):
    x = data((3, 12, 5, 7), dtype, 14, 0.01, 2.0)
    ours = refgrad.nn.functional.group_norm(refgrad.tensor(x), 4).numpy()
    theirs = torch.nn.functional.group_norm(torch.tensor(x), 4).numpy()
    assert_bitwise([ours], [theirs])


def _equal_or_both_nan(a, b):
    return np.array_equal(a, b, equal_nan=True)


def _batch_norm_all(lib, x, weight, bias, running, training, grad):
    xt, wt, bt = _tensors(lib, (x, weight, bias), grad=True)
    mean, var = (None, None) if running is None else (lib.tensor(r) for r in running)
    out = lib.nn.functional.batch_norm(xt, mean, var, wt, bt, training, 0.1, 1e-5)
    out.backward(lib.tensor(grad))
    grads = [t.grad.numpy() for t in (xt, wt, bt) if t is not None]
    stats = [] if running is None else [mean.numpy(), var.numpy()]
    return [out.detach().numpy(), *stats, *grads]


BATCH_SHAPES = [(4, 6, 9, 11), (16, 5), (37, 3), (2, 3, 7), (5, 12, 4, 4), (3, 4, 13), (7, 4, 1),
                (8, 20), (2, 40), (3, 3000), (2, 17)]


def _running(channels, dtype):
    rng = np.random.default_rng(15)
    return (rng.standard_normal(channels).astype(dtype),
            rng.uniform(0.5, 2.0, channels).astype(dtype))


@pytest.mark.parametrize("shape", BATCH_SHAPES)
@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_float32_batch_norm_forward_backward_and_running_statistics(shape, training, affine,
                                                                     both_threads):
    dtype = np.float32
    x, grad = data(shape, dtype, 16), data(shape, dtype, 17, 1.0, 0.0)
    weight = data(shape[1], dtype, 18) if affine else None
    bias = data(shape[1], dtype, 19) if affine else None
    running = _running(shape[1], dtype)
    ours = _batch_norm_all(refgrad, x, weight, bias, running, training, grad)
    theirs = _batch_norm_all(torch, x, weight, bias, running, training, grad)
    assert_bitwise(ours, theirs)


@pytest.mark.parametrize("shape", BATCH_SHAPES)
@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
def test_float64_batch_norm_output_statistics_and_gradients(shape, training, both_threads):
    dtype = np.float64
    x, grad = data(shape, dtype, 20), data(shape, dtype, 21, 1.0, 0.0)
    weight, bias = data(shape[1], dtype, 22), data(shape[1], dtype, 23)
    ours = _batch_norm_all(refgrad, x, weight, bias, _running(shape[1], dtype), training, grad)
    theirs = _batch_norm_all(torch, x, weight, bias, _running(shape[1], dtype), training, grad)
    assert_bitwise(ours, theirs)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_norm_without_running_statistics(dtype, both_threads):
    x, grad = data((6, 5, 8), dtype, 24), data((6, 5, 8), dtype, 25, 1.0, 0.0)
    assert_bitwise(_batch_norm_all(refgrad, x, None, None, None, True, grad),
                   _batch_norm_all(torch, x, None, None, None, True, grad))


def test_batch_norm_of_one_sample_keeps_torch_nan_running_variance():
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    results = []
    for lib in (refgrad, torch):
        mean, var = lib.zeros(3), lib.ones(3)
        out = lib.native_batch_norm(lib.tensor(x), None, None, mean, var, True, 0.1, 1e-5)
        results.append([out[0].numpy(), mean.numpy(), var.numpy()])
    assert all(_equal_or_both_nan(a, b) for a, b in zip(*results))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 6, 9, 11), (2, 3, 17), (3, 5, 4, 4)])
def test_instance_norm_through_batch_norm(dtype, shape):
    x, grad = data(shape, dtype, 26), data(shape, dtype, 27, 1.0, 0.0)
    weight = data(shape[1], dtype, 28)

    def run(lib):
        xt, wt = _tensors(lib, (x, weight), grad=True)
        out = lib.nn.functional.instance_norm(xt, weight=wt)
        out.backward(lib.tensor(grad))
        return [out.detach().numpy(), xt.grad.numpy(), wt.grad.numpy()]

    assert_bitwise(run(refgrad), run(torch))


REDUCED_LOSSES = {"sum": lambda y: y.sum(), "mean": lambda y: y.mean()}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 6, 9, 11), (16, 5), (8, 20)])
@pytest.mark.parametrize("norm", ["batch", "group", "layer"])
@pytest.mark.parametrize("loss", REDUCED_LOSSES)
def test_gradients_of_a_summed_or_averaged_output(dtype, shape, norm, loss):
    """An output summed sends an expanded gradient back, which torch's batch norm takes
    through its general loop; averaged, a gradient of the input's layout."""
    x = data(shape, dtype, 29)
    weight, bias = data(shape[1], dtype, 30), data(shape[1], dtype, 31)

    def run(lib):
        xt, wt, bt = _tensors(lib, (x, weight, bias), grad=True)
        F = lib.nn.functional
        y = {"batch": lambda: F.batch_norm(xt, None, None, wt, bt, True),
             "group": lambda: F.group_norm(xt, 1, wt, bt),
             "layer": lambda: F.layer_norm(xt, tuple(shape[1:]))}[norm]()
        REDUCED_LOSSES[loss](y).backward()
        return [xt.grad.numpy()] + ([] if norm == "layer" else [wt.grad.numpy(), bt.grad.numpy()])

    assert_bitwise(run(refgrad), run(torch))


@pytest.mark.parametrize("shape,kept", LAYER_SHAPES)
@pytest.mark.parametrize("parameters", [np.float16, np.float32, None],
                         ids=["half", "float", "none"])
def test_float16_layer_norm_forward(shape, kept, parameters):
    normalized = shape[len(shape) - kept:]
    x = data(shape, np.float16, 32)
    weight = None if parameters is None else data(normalized, parameters, 33)
    bias = None if parameters is None else data(normalized, parameters, 34)

    def run(lib):
        return [r.numpy() for r in lib.native_layer_norm(
            *_tensors(lib, (x,)), list(normalized), *_tensors(lib, (weight, bias)), 1e-5)]

    assert_bitwise(run(refgrad), run(torch))


@pytest.mark.parametrize("shape,groups", GROUP_SHAPES)
@pytest.mark.parametrize("parameters", [np.float16, np.float32, None],
                         ids=["half", "float", "none"])
def test_float16_group_norm_forward_and_statistics(shape, groups, parameters):
    x = data(shape, np.float16, 35)
    weight = None if parameters is None else data(shape[1], parameters, 36)
    bias = None if parameters is None else data(shape[1], parameters, 37)

    def run(lib):
        xt, wt, bt = _tensors(lib, (x, weight, bias), grad=True)
        out = lib.nn.functional.group_norm(xt, groups, wt, bt)
        node = out.grad_fn
        return [out.detach().numpy(), node._saved_result1.detach().numpy(),
                node._saved_result2.detach().numpy()]

    assert_bitwise(run(refgrad), run(torch))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 6, 9, 11), (2, 20, 3, 3), (3, 5, 2, 7), (2, 3, 4, 5, 2)])
@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
def test_channels_last_batch_norm(dtype, shape, training, both_threads):
    x, grad = data(shape, dtype, 38), data(shape, dtype, 39, 1.0, 0.0)
    weight, bias = data(shape[1], dtype, 40), data(shape[1], dtype, 41)
    running = _running(shape[1], dtype)

    def run(lib):
        layout = lib.channels_last if len(shape) == 4 else lib.channels_last_3d
        xt = lib.tensor(x).contiguous(memory_format=layout).requires_grad_()
        wt, bt = _tensors(lib, (weight, bias), grad=True)
        mean, var = (lib.tensor(r) for r in running)
        out = lib.nn.functional.batch_norm(xt, mean, var, wt, bt, training, 0.1, 1e-5)
        out.backward(lib.tensor(grad).contiguous(memory_format=layout))
        strides = np.array(out.stride() + xt.grad.stride())
        return [out.detach().numpy(), mean.numpy(), var.numpy(), xt.grad.numpy(),
                wt.grad.numpy(), bt.grad.numpy(), strides]

    assert_bitwise(run(refgrad), run(torch))
