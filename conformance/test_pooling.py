"""Black-box tests: max_pool1d/2d/3d and avg_pool1d/2d/3d of torch.nn.functional: values
against a direct loop, indices, gradients, the nodes they record, refusals.
"""

import itertools
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import matrix_leaf, numeric_gradient, raises

RNG = np.random.default_rng(5)


def _windows(shape, kernel, stride, padding, dilation, ceil_mode):
    """For each output position, the input positions of its window (None in the padding)."""
    sizes = []
    for n, k, s, p, d in zip(shape, kernel, stride, padding, dilation):
        span = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
        sizes.append(span - 1 if ceil_mode and (span - 1) * s >= n + p else span)
    for out in itertools.product(*(range(o) for o in sizes)):
        taps = []
        for tap in itertools.product(*(range(k) for k in kernel)):
            at = tuple(o * s - p + t * d for o, s, p, t, d in zip(out, stride, padding, tap,
                                                                   dilation))
            taps.append(at if all(0 <= a < n for a, n in zip(at, shape)) else None)
        yield out, sizes, taps


def _max_reference(x, kernel, stride, padding, dilation, ceil_mode):
    n = len(kernel)
    plane = x.shape[-n:]
    lead = x.reshape(-1, *plane)
    results, windows = {}, list(_windows(plane, kernel, stride, padding, dilation, ceil_mode))
    sizes = windows[0][1]
    for out, _, taps in windows:
        for c in range(lead.shape[0]):
            inside = [t for t in taps if t is not None]
            best = max(inside, key=lambda t: lead[(c, *t)])  # the first of equal values
            results[(c, *out)] = (lead[(c, *best)], int(np.ravel_multi_index(best, plane)))
    values = np.zeros((lead.shape[0], *sizes))
    indices = np.zeros((lead.shape[0], *sizes), dtype=np.int64)
    for key, (v, i) in results.items():
        values[key], indices[key] = v, i
    return values.reshape(*x.shape[:-n], *sizes), indices.reshape(*x.shape[:-n], *sizes)


def _avg_reference(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor):
    n = len(kernel)
    plane = x.shape[-n:]
    lead = x.reshape(-1, *plane)
    out_shape, cells = None, []
    for out, sizes, taps in _windows(plane, kernel, stride, padding, (1,) * n, ceil_mode):
        out_shape = sizes
        starts = [o * s - p for o, s, p in zip(out, stride, padding)]
        reach = [min(a + k, m + p) - a for a, k, m, p in zip(starts, kernel, plane, padding)]
        counted = math.prod(reach) if count_include_pad else sum(t is not None for t in taps)
        cells.append((out, [t for t in taps if t is not None], divisor or counted))
    result = np.zeros((lead.shape[0], *out_shape))
    for out, inside, by in cells:
        for c in range(lead.shape[0]):
            result[(c, *out)] = sum(lead[(c, *t)] for t in inside) / by
    return result.reshape(*x.shape[:-n], *out_shape)


MAX_CASES = [  # input shape, kernel, stride, padding, dilation, ceil_mode
    ((2, 3, 9), (3,), (2,), (1,), (1,), False),
    ((3, 8), (2,), (3,), (1,), (2,), True),
    ((2, 2, 7, 6), (3, 2), (2, 1), (1, 0), (1, 2), True),
    ((2, 5, 4), (2, 2), (2, 2), (0, 1), (1, 1), False),
    ((1, 2, 4, 5, 3), (2, 3, 2), (1, 2, 2), (1, 1, 0), (1, 1, 1), True),
    ((2, 3, 4, 3), (2, 2, 2), (2, 2, 2), (0, 0, 0), (1, 1, 1), False),
]
MAX = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}


@pytest.mark.parametrize(("shape", "kernel", "stride", "padding", "dilation", "ceil_mode"),
                         MAX_CASES)
def test_max_pool_values_indices_gradients_and_nodes(shape, kernel, stride, padding, dilation,
                                                     ceil_mode):
    n = len(kernel)
    data = RNG.uniform(-1.0, 1.0, shape)
    x = matrix_leaf(data.tolist())
    out, indices = MAX[n](x, kernel, stride, padding, dilation, ceil_mode, return_indices=True)
    values, places = _max_reference(data, kernel, stride, padding, dilation, ceil_mode)
    np.testing.assert_array_equal(out.detach().numpy(), values)
    assert indices.dtype == torch.int64 and not indices.requires_grad
    np.testing.assert_array_equal(indices.numpy(), places)
    node = out.grad_fn
    if n == 1:
        assert type(node).__name__ == "SqueezeBackward1"
        node = node.next_functions[0][0]
        assert type(node.next_functions[0][0]).__name__ == "UnsqueezeBackward0"
        kernel, stride, padding, dilation = ((1, *kernel), (1, *stride), (0, *padding),
                                             (1, *dilation))
    assert type(node).__name__ == f"MaxPool{max(n, 2)}DWithIndicesBackward0"
    assert (node._saved_kernel_size, node._saved_stride, node._saved_padding) == (
        kernel, stride, padding)
    assert node._saved_dilation == dilation and node._saved_ceil_mode is ceil_mode
    assert node._saved_self.shape == (x.shape if n > 1 else (*shape[:-1], 1, shape[-1]))
    assert node._saved_result1.dtype == torch.int64
    probe = RNG.uniform(-1.0, 1.0, values.shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()
    expected = np.zeros(data.size)
    lead = places.reshape(-1, places.shape[-1] if n == 1 else math.prod(places.shape[-n:]))
    for row, (where, grads) in enumerate(zip(lead, probe.reshape(lead.shape))):
        np.add.at(expected, row * math.prod(shape[-n:]) + where, grads)
    np.testing.assert_allclose(x.grad.numpy(), expected.reshape(shape), rtol=1e-12)


def test_max_pool_stride_defaults_to_the_kernel_and_the_node_shows_it_empty():
    x = matrix_leaf(RNG.uniform(-1.0, 1.0, (1, 2, 4, 6)).tolist())
    out = F.max_pool2d(x, (2, 3))
    assert out.shape == (1, 2, 2, 2) and out.grad_fn._saved_stride == ()
    assert F.max_pool3d(x, 2).grad_fn._saved_stride == ()
    assert F.max_pool2d(x, 2, 1).grad_fn._saved_stride == (1, 1)


def test_max_pool_ties_take_the_first_and_nan_the_last():
    x = torch.tensor([[[1.0, 3.0, 3.0, 2.0, math.nan, 5.0, math.nan, 1.0]]])
    values, indices = F.max_pool1d(x, 3, 1, 1, return_indices=True)
    assert indices.tolist() == [[[1, 1, 1, 4, 4, 6, 6, 6]]]
    assert values.tolist()[0][0][:3] == [3.0, 3.0, 3.0]
    assert all(math.isnan(v) for v in values.tolist()[0][0][3:])
    tied = torch.tensor([[[1.0, 3.0, 3.0, 2.0], [3.0, 0.0, 3.0, 3.0]]])
    assert F.max_pool2d(tied, 2, return_indices=True)[1].tolist() == [[[1, 2]]]


def test_max_pool_of_integers_and_gradients_twice():
    x = torch.tensor([[[4, -2, 7, 1, 0]]])
    assert F.max_pool1d(x, 2, return_indices=True)[0].tolist() == [[[4, 7]]]
    assert F.max_pool2d(x, (1, 2)).dtype == torch.int64
    x = matrix_leaf(RNG.uniform(-1.0, 1.0, (1, 2, 5, 4)).tolist())
    assert torch.autograd.gradcheck(lambda t: F.max_pool2d(t, 2, 1, 1), (x,))
    assert torch.autograd.gradgradcheck(lambda t: F.max_pool2d(t, 2, 1, 1), (x,))


AVG_CASES = [  # input shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor
    ((2, 3, 9), (3,), (2,), (1,), True, True, None),
    ((3, 8), (3,), (3,), (1,), True, False, None),
    ((2, 2, 7, 6), (3, 2), (2, 1), (1, 1), True, False, None),
    ((2, 5, 4), (2, 3), (2, 2), (1, 1), False, True, 5),
    ((1, 2, 4, 5, 3), (2, 3, 2), (1, 2, 2), (1, 1, 0), True, True, None),
    ((2, 3, 4, 3), (3, 2, 2), (2, 2, 2), (1, 0, 1), False, False, None),
]
AVG = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}


@pytest.mark.parametrize(("shape", "kernel", "stride", "padding", "ceil_mode",
                          "count_include_pad", "divisor"), AVG_CASES)
def test_avg_pool_values_gradients_and_nodes(shape, kernel, stride, padding, ceil_mode,
                                             count_include_pad, divisor):
    n = len(kernel)
    data = RNG.uniform(-1.0, 1.0, shape)
    x = matrix_leaf(data.tolist())
    extra = {} if n == 1 else {"divisor_override": divisor}
    out = AVG[n](x, kernel, stride, padding, ceil_mode, count_include_pad, **extra)
    expected = _avg_reference(data, kernel, stride, padding, ceil_mode, count_include_pad,
                              divisor)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    node = out.grad_fn
    if n == 1:
        assert type(node).__name__ == "SqueezeBackward1"
        node = node.next_functions[0][0]
        kernel, stride, padding = (1, *kernel), (1, *stride), (0, *padding)
    assert type(node).__name__ == f"AvgPool{max(n, 2)}DBackward0"
    assert (node._saved_kernel_size, node._saved_stride, node._saved_padding) == (
        kernel, stride, padding)
    assert node._saved_ceil_mode is ceil_mode
    assert node._saved_count_include_pad is count_include_pad
    assert node._saved_divisor_override == divisor
    probe = RNG.uniform(-1.0, 1.0, expected.shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()
    reference = [k for k in (kernel[-n:], stride[-n:], padding[-n:])]

    def loss(d):
        return float((_avg_reference(d, *reference, ceil_mode, count_include_pad, divisor)
                      * probe).sum())

    np.testing.assert_allclose(x.grad.numpy(), numeric_gradient(loss, data), atol=1e-8)


def test_avg_pool_gradients_twice_and_integer_means():
    x = matrix_leaf(RNG.uniform(-1.0, 1.0, (1, 2, 5, 4)).tolist())

    def pooled(t):
        return F.avg_pool2d(t, 3, 2, 1, True, False)

    assert torch.autograd.gradcheck(pooled, (x,))
    assert torch.autograd.gradgradcheck(pooled, (x,))
    ints = torch.tensor([[[-7, 5, 4, -1, 9]]])
    assert F.avg_pool1d(ints, 2, 2, 1, True).tolist() == [[[-3, 4, 4]]]
    assert F.avg_pool2d(ints, (1, 3)).tolist() == [[[0]]]


X = torch.ones(2, 3, 7, 6)
REFUSALS = [
    (lambda: F.max_pool2d(X, 3, 2, 2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
     "dilation=1"),
    (lambda: F.max_pool2d(X, 3, 0), "stride should not be zero"),
    (lambda: F.max_pool2d(X, 3, 1, -1), "pad must be non-negative, but got pad: -1"),
    (lambda: F.max_pool2d(X, 2, 1, 0, 0),
     "dilation should be greater than zero, but got dilationH: 0 dilationW: 0"),
    (lambda: F.max_pool2d(X, 0, 1),
     "kernel size should be greater than zero, but got kH: 0 kW: 0"),
    (lambda: F.max_pool2d(X, 2, -1), "stride should be greater than zero, but got dH: -1 dW: -1"),
    (lambda: F.max_pool2d(X, (3, 2, 1)),
     "max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(X, 3, (1, 2, 3)),
     "max_pool2d: stride must either be omitted, a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(X, 2, 2, 1, (2, 2, 2)),
     "max_pool2d: dilation must be either a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(X, 8),
     "Given input size: (3x7x6). Calculated output size: (3x0x0). Output size is too small"),
    (lambda: F.max_pool2d(torch.ones(7), 3),
     "non-empty 3D or 4D (batch mode) tensor expected for input"),
    (lambda: F.max_pool2d(torch.ones(2, 0, 3, 3), 3),
     "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
     "got:[2, 0, 3, 3]"),
    (lambda: F.max_pool3d(X, (2, 2)),
     "max_pool3d: kernel_size must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(X, 2, 2, (2, 2)),
     "max_pool3d: padding must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(X[0, 0], 2), "non-empty 4D or 5D (batch mode) tensor expected for input"),
    (lambda: F.max_pool3d(X[None], 8),
     "Given input size: (2x3x7x6). Calculated output size: (2x0x0x0). Output size is too small"),
    (lambda: F.max_pool3d(X[None], 2, 1, 0, 0),
     "dilation should be greater than zero, but got dilationT: 0 dilationH: 0 dilationW: 0"),
    (lambda: F.max_pool1d(X[0], (3, 2)),
     "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got "
     "size 2"),
    (lambda: F.max_pool1d(X[0], 3, (1, 2)),
     "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got "
     "size 2"),
    (lambda: F.max_pool1d(X[0], 3, 1, 2),
     "max_pool1d() padding should be at most half of kernel size, but got padding=2 and "
     "kernel_size=3"),
    (lambda: F.max_pool1d(X[0], 3, 1, -1), "max_pool1d() padding must be non-negative, but got -1"),
    (lambda: F.max_pool1d(X[0], 0),
     "max_pool1d() kernel_size must be greater than zero, but got 0"),
    (lambda: F.max_pool1d(X[0], 3, 0), "max_pool1d() stride must be greater than zero, but got 0"),
    (lambda: F.max_pool1d(X[0], 3, 1, 1, 0),
     "max_pool1d() dilation must be greater than zero, but got 0"),
    (lambda: F.max_pool1d(X[0], 9), "max_pool1d() Invalid computed output size: 0"),
    (lambda: F.max_pool1d(X, 3),
     "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
     "input, but got:[2, 3, 7, 6]"),
    (lambda: F.max_pool1d(X, 3, return_indices=True),
     "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while "
     "checking arguments for max_pool1d)"),
    (lambda: F.avg_pool2d(X, 3, 2, 2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
     "dilation=1"),
    (lambda: F.avg_pool2d(X, (3, 2, 1)),
     "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.avg_pool2d(X, 3, 1, (1, 2, 3)),
     "avg_pool2d: padding must either be a single int, or a tuple of two ints"),
    (lambda: F.avg_pool2d(X, 3, divisor_override=0), "divisor must be not zero"),
    (lambda: F.avg_pool2d(X, 8),
     "Given input size: (3x7x6). Calculated output size: (3x0x0). Output size is too small"),
    (lambda: F.avg_pool3d(X[None], 3, 1, 2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
     "dilation=1"),
    (lambda: F.avg_pool3d(X[None], 8),
     "input image (T: 3 H: 7 W: 6) smaller than kernel size (kT: 8 kH: 8 kW: 8)"),
    (lambda: F.avg_pool3d(torch.ones(2, 0, 3, 3, 3), 3),
     "avg_pool3d(): Expected input's non-batch dimensions to have positive length, but input "
     "has a shape of [2, 0, 3, 3, 3] and non-batch dimension 0 has length zero!"),
    (lambda: F.avg_pool1d(X[0], (3, 2)),
     "avg_pool1d() argument 'kernel_size' should contain one int (got 2)"),
    (lambda: F.avg_pool1d(X, 3),
     "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while "
     "checking arguments for avg_pool1d)"),
    (lambda: F.avg_pool1d(X[0], 9),
     "Given input size: (7x1x6). Calculated output size: (7x1x0). Output size is too small"),
]


@pytest.mark.parametrize(("call", "message"), REFUSALS)
def test_refusals_in_torchs_words(call, message):
    with raises(RuntimeError, message):
        call()


def test_dtypes_without_a_kernel():
    for call, message in (
            (lambda: F.max_pool2d(X.bool(), 3), "\"max_pool2d\" not implemented for 'Bool'"),
            (lambda: F.max_pool3d(X[None].bool(), 3), "\"max_pool3d\" not implemented for 'Bool'"),
            (lambda: F.max_pool1d(X[0].long(), 3),
             "\"max_pool1d_impl\" not implemented for 'Long'"),
            (lambda: F.avg_pool2d(X.int(), 3), "\"avg_pool2d\" not implemented for 'Int'"),
            (lambda: F.avg_pool3d(X[None].half(), 3),
             "\"avg_pool3d_out_frame\" not implemented for 'Half'")):
        with raises(NotImplementedError, message):
            call()
    assert F.max_pool1d(X[0].long(), 3, return_indices=True)[0].dtype == torch.int64
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got "
                            "-3)"):
        F.avg_pool2d(torch.ones(2, 3), 2)
    with pytest.raises(TypeError, match=r"^avg_pool2d\(\): argument 'kernel_size' \(position 2\) "
                                        r"must be tuple of ints, not float$"):
        F.avg_pool2d(X, 1.5)
    assert F.avg_pool1d is torch.avg_pool1d and F.max_pool1d is not torch.max_pool1d
