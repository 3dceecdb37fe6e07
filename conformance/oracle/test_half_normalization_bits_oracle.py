"""Oracle test: float16 normalizations' gradients (and the statistics they read) are
torch's to the bit, on one thread and on several."""

import numpy as np
import pytest
import torch

import refgrad

PARAMETERS = [np.float16, np.float32, None]
PARAMETER_IDS = ["half", "float", "none"]


@pytest.fixture(params=[1, 2, 3], ids=lambda n: f"{n}threads")
def both_threads(request):
    """The same thread count in torch and refgrad; each library's own count put back."""
    before = torch.get_num_threads(), refgrad.get_num_threads()
    torch.set_num_threads(request.param)
    refgrad.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before[0])
    refgrad.set_num_threads(before[1])


def _data(shape, dtype, seed, scale=3.0, shift=1.0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale + shift).astype(dtype)


def _tensors(lib, arrays):
    return [None if a is None else lib.tensor(a, requires_grad=True) for a in arrays]


def _assert_bitwise(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}")), (
            f"{(a != b).sum()} of {a.size} differ")


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
    x, grad = _data(shape, np.float16, 1), _data(shape, np.float16, 2, 1.0, 0.0)
    weight = None if parameters is None else _data(normalized, parameters, 3)
    bias = None if parameters is None else _data(normalized, parameters, 4)
    _assert_bitwise(_layer_norm_all(refgrad, x, normalized, weight, bias, grad),
                    _layer_norm_all(torch, x, normalized, weight, bias, grad))


@pytest.mark.parametrize("parameters", [np.float16, np.float32], ids=["half", "float"])
@pytest.mark.parametrize("given", ["weight", "bias"])
def test_float16_layer_norm_with_one_parameter(parameters, given, both_threads):
    if given == "bias" and parameters == np.float32:
        parameters = np.float16  # torch refuses a float32 bias without a weight
    x, grad = _data((20, 45), np.float16, 5), _data((20, 45), np.float16, 6, 1.0, 0.0)
    p = _data(45, parameters, 7)
    weight, bias = (p, None) if given == "weight" else (None, p)
    _assert_bitwise(_layer_norm_all(refgrad, x, (45,), weight, bias, grad),
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
    x, grad = _data(shape, np.float16, 10), _data(shape, np.float16, 11, 1.0, 0.0)
    weight = None if parameters is None else _data(shape[1], parameters, 12)
    bias = None if parameters is None else _data(shape[1], parameters, 13)
    _assert_bitwise(_group_norm_all(refgrad, x, groups, weight, bias, grad),
                    _group_norm_all(torch, x, groups, weight, bias, grad))


def test_float16_group_norm_with_a_float32_bias_frozen():
    """float32 statistics without a weight: torch's kernel reads them as float32."""
    x, grad = _data((3, 40, 13), np.float16, 14), _data((3, 40, 13), np.float16, 15, 1.0, 0.0)
    bias = _data(40, np.float32, 16)

    def run(lib):
        xt = lib.tensor(x, requires_grad=True)
        out = lib.nn.functional.group_norm(xt, 2, None, lib.tensor(bias))
        out.backward(lib.tensor(grad))
        return [out.detach().numpy(), xt.grad.numpy()]

    _assert_bitwise(run(refgrad), run(torch))
