"""Black-box tests: the adaptive average and max pools of torch.nn.functional: windows,
values, indices, gradients, nodes, refusals.
"""

import itertools
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import matrix_leaf, raises, saved_names

RNG = np.random.default_rng(9)


def _reference(x, sizes, maximum):
    """Window o of a dimension of L positions cut into O: floor(o L / O) to ceil((o + 1) L / O)."""
    n = len(sizes)
    plane = x.shape[-n:]
    lead = x.reshape(-1, *plane)
    values = np.zeros((lead.shape[0], *sizes))
    indices = np.zeros(values.shape, dtype=np.int64)
    for at in itertools.product(*(range(o) for o in sizes)):
        cut = [range(o * size // out, -(-(o + 1) * size // out))
               for o, size, out in zip(at, plane, sizes)]
        places = list(itertools.product(*cut))
        for c in range(lead.shape[0]):
            if maximum:
                best = max(places, key=lambda p: lead[(c, *p)])
                values[(c, *at)] = lead[(c, *best)]
                indices[(c, *at)] = np.ravel_multi_index(best, plane)
            else:
                values[(c, *at)] = np.mean([lead[(c, *p)] for p in places])
    shape = (*x.shape[:-n], *sizes)
    return values.reshape(shape), indices.reshape(shape)


CASES = [((2, 3, 9), (4,)), ((3, 8), (3,)), ((2, 2, 7, 6), (3, 4)), ((2, 5, 4), (5, 3)),
         ((1, 2, 5, 6, 4), (2, 3, 4)), ((2, 3, 4, 3), (4, 2, 2))]
AVG = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}
MAX = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}


def _pool_node(out, n):
    node = out.grad_fn
    if n == 1:
        assert type(node).__name__ == "SqueezeBackward1"
        node = node.next_functions[0][0]
        assert type(node.next_functions[0][0]).__name__ == "UnsqueezeBackward0"
    return node


@pytest.mark.parametrize(("shape", "sizes"), CASES)
def test_adaptive_avg_pool(shape, sizes):
    n = len(sizes)
    data = RNG.uniform(-1.0, 1.0, shape)
    x = matrix_leaf(data.tolist())
    out = AVG[n](x, sizes)
    expected, _ = _reference(data, sizes, False)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-15)
    node = _pool_node(out, n)
    assert type(node).__name__ == f"AdaptiveAvgPool{max(n, 2)}DBackward0"
    assert saved_names(node) == ["_saved_self"]
    probe = RNG.uniform(-1.0, 1.0, expected.shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()
    grad = np.zeros(shape)
    for index in np.ndindex(*shape):  # the gradient is linear: one unit input at a time
        unit = np.zeros(shape)
        unit[index] = 1.0
        grad[index] = (_reference(unit, sizes, False)[0] * probe).sum()
    np.testing.assert_allclose(x.grad.numpy(), grad, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("shape", "sizes"), CASES)
def test_adaptive_max_pool(shape, sizes):
    n = len(sizes)
    data = RNG.uniform(-1.0, 1.0, shape)
    x = matrix_leaf(data.tolist())
    out, indices = MAX[n](x, sizes, return_indices=True)
    expected, places = _reference(data, sizes, True)
    np.testing.assert_array_equal(out.detach().numpy(), expected)
    np.testing.assert_array_equal(indices.numpy(), places)
    node = _pool_node(out, n)
    assert type(node).__name__ == f"AdaptiveMaxPool{max(n, 2)}DBackward0"
    assert saved_names(node) == ["_saved_result1", "_saved_self"]
    out.sum().backward()
    counts = np.zeros(data.size)
    plane = math.prod(shape[-n:])
    for row, where in enumerate(places.reshape(-1, math.prod(sizes))):
        np.add.at(counts, row * plane + where, 1.0)
    np.testing.assert_array_equal(x.grad.numpy(), counts.reshape(shape))


def test_sizes_of_one_take_the_mean_and_none_keeps_the_input_size():
    x = matrix_leaf(RNG.uniform(-1.0, 1.0, (2, 3, 4, 5)).tolist())
    out = F.adaptive_avg_pool2d(x, 1)
    assert out.shape == (2, 3, 1, 1) and type(out.grad_fn).__name__ == "MeanBackward1"
    assert out.grad_fn._saved_dim == (2**64 - 1, 2**64 - 2) and out.grad_fn._saved_keepdim
    assert type(F.adaptive_avg_pool1d(x[0], 1).grad_fn.next_functions[0][0]).__name__ == (
        "MeanBackward1")
    assert F.adaptive_avg_pool2d(x, (None, 2)).shape == (2, 3, 4, 2)
    assert F.adaptive_max_pool3d(x, (None, 3, None)).shape == (2, 3, 3, 5)
    assert F.adaptive_avg_pool2d(x, (9, 7)).shape == (2, 3, 9, 7)
    assert F.adaptive_avg_pool2d(torch.ones(2, 0, 3, 3), 2).shape == (2, 0, 2, 2)
    assert torch.autograd.gradgradcheck(lambda t: F.adaptive_avg_pool2d(t, (3, 2)), (x,))
    assert torch.autograd.gradgradcheck(lambda t: F.adaptive_max_pool2d(t, (3, 2)), (x,))


X = torch.ones(2, 3, 7, 6)
REFUSALS = [
    (lambda: F.adaptive_avg_pool2d(X, (3, 4, 5)), RuntimeError,
     "adaptive_avg_pool2d: output_size must be 2"),
    (lambda: F.adaptive_avg_pool2d(X, -1), RuntimeError,
     "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
     "received {-1, -1}"),
    (lambda: F.adaptive_avg_pool3d(X[None], -1), RuntimeError,
     "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
     "received {-1, -1,-1}"),
    (lambda: F.adaptive_avg_pool2d(X[0, 0, 0], 2), RuntimeError,
     "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [6]"),
    (lambda: F.adaptive_avg_pool2d(torch.ones(2, 3, 0, 3), 2), RuntimeError,
     "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [2, 3, 0, 3] with dimension 2 being empty"),
    (lambda: F.adaptive_avg_pool3d(torch.ones(1, 0, 2, 3, 3), 2), RuntimeError,
     "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [1, 0, 2, 3, 3] with dimension 1 being empty"),
    (lambda: F.adaptive_avg_pool3d(X[0], 2), RuntimeError,
     "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [3, 7, 6]"),
    (lambda: F.adaptive_max_pool2d(X, (3, 4, 5)), RuntimeError,
     "adaptive_max_pool2d(): internal error: output_size.size() must be 2"),
    (lambda: F.adaptive_max_pool2d(X[0, 0, 0], 2), RuntimeError,
     "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [6]"),
    (lambda: F.adaptive_max_pool2d(torch.ones(2, 0, 3, 3), 2), RuntimeError,
     "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but "
     "input has sizes [2, 0, 3, 3] with dimension 1 being empty"),
    (lambda: F.adaptive_max_pool2d(X, -1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 3, -1, -1]"),
    (lambda: F.adaptive_max_pool3d(X[0], 2), RuntimeError,
     "adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: [3, 7, 6]"),
    (lambda: F.adaptive_max_pool1d(X, 2), RuntimeError,
     "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while "
     "checking arguments for adaptive_max_pool1d)"),
    (lambda: F.adaptive_avg_pool1d(X[0], (2, 2)), RuntimeError,
     "adaptive_avg_pool1d() argument 'output_size' should contain one int (got 2)"),
    (lambda: F.adaptive_avg_pool2d(X, (None, 2, 3, 4, 5)), ValueError,
     "Input dimension should be at least 6"),
    (lambda: F.adaptive_avg_pool2d(X.long(), 2), NotImplementedError,
     "\"adaptive_avg_pool2d\" not implemented for 'Long'"),
    (lambda: F.adaptive_avg_pool3d(X[None].long(), 2), NotImplementedError,
     "\"adaptive_avg_pool3d_cpu\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool2d(X.long(), 2), NotImplementedError,
     "\"adaptive_max_pool2d\" not implemented for 'Long'"),
    (lambda: F.adaptive_max_pool3d(X[None].long(), 2), NotImplementedError,
     "\"adaptive_max_pool3d_cpu\" not implemented for 'Long'"),
]


@pytest.mark.parametrize(("call", "kind", "message"), REFUSALS)
def test_refusals_in_torchs_words(call, kind, message):
    with raises(kind, message):
        call()
