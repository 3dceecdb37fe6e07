"""Black-box tests: max_pool1d/2d/3d and avg_pool1d/2d/3d of torch.nn.functional: values
against a direct loop, indices, gradients, the nodes they record, refusals.
"""

import itertools
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import matrix_leaf, numeric_gradient

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
