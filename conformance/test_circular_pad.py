"""Black-box tests: F.pad with mode="circular": values, the graph of slices and in-place
copies torch builds, gradients, and the refusals; the argument checks every mode shares.
"""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import graph_nodes, matrix_leaf, raises

COMBINATIONS = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _wrapped(a, pad):
    """Circular padding worked out with NumPy: crop where a pad is negative, then wrap."""
    pairs = [(pad[k], pad[k + 1]) for k in range(0, len(pad), 2)][::-1]
    pairs = [(0, 0)] * (a.ndim - len(pairs)) + pairs
    a = a[tuple(slice(max(-b, 0), a.shape[d] - max(-e, 0)) for d, (b, e) in enumerate(pairs))]
    return np.pad(a, [(max(b, 0), max(e, 0)) for b, e in pairs], mode="wrap")


SHAPES_AND_PADS = [((1, 2, 3), (1, 2)), ((2, 3), (3, 0)), ((1, 2, 3), (-1, 2)),
                   ((1, 2, 3), (2, -1)), ((1, 2, 3), (1, 1, 2, 0)), ((2, 3, 4), (0, 3, -1, 2)),
                   ((1, 1, 2, 3, 2), (1, 0, 2, 1, 1, 1)), ((2, 2, 2, 3), (1, 2, 1, 1, 1, 1))]


@pytest.mark.parametrize("shape, pad", SHAPES_AND_PADS)
def test_circular_values_and_gradients(shape, pad):
    a = np.arange(float(np.prod(shape))).reshape(shape) / 7 - 1
    x = matrix_leaf(a.tolist())
    y = F.pad(x, pad, mode="circular")
    expected = _wrapped(a, pad)
    assert tuple(y.shape) == expected.shape and y.dtype is torch.float64
    assert np.array_equal(np.array(y.tolist()), expected)
    weights = np.arange(float(expected.size)).reshape(expected.shape)
    y.backward(torch.tensor(weights.tolist(), dtype=torch.float64))
    # the gradient of sum(weights * pad(x)) is the sum of the weights each element was copied to
    grad = np.zeros_like(a)
    index = _wrapped(np.arange(a.size).reshape(a.shape), pad)
    np.add.at(grad.reshape(-1), index.reshape(-1), weights.reshape(-1))
    assert np.array_equal(np.array(x.grad.tolist()), grad)


def test_circular_graph_is_slices_and_in_place_copies():
    x = matrix_leaf([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]])
    nodes = graph_nodes(F.pad(x, (1, 2), mode="circular"))
    # the right pad's copy, over the left pad's copy and over the middle's copy into the
    # empty output; each copy's source a slice of what was written before
    middle = [(0, "CopySlices"), (1, None), (1, "SliceBackward0"), (2, "AccumulateGrad")]
    left = [(0, "CopySlices")] + [(d + 1, n) for d, n in middle] + [(1, "SliceBackward0")] + [
        (d + 2, n) for d, n in middle]
    assert nodes == [(0, "CopySlices")] + [(d + 1, n) for d, n in left] + [
        (1, "SliceBackward0")] + [(d + 2, n) for d, n in left]
    assert graph_nodes(F.pad(x, (0, 0), mode="circular")) == [
        (0, "CopySlices"), (1, None), (1, "SliceBackward0"), (2, "AccumulateGrad")]
    nodes = graph_nodes(F.pad(x[0], (1, 0), mode="circular"))
    assert [n for _, n in nodes] == ["CopySlices", "CopySlices", None, "SliceBackward0",
                                     "SelectBackward0", "AccumulateGrad", "SliceBackward0",
                                     "CopySlices", None, "SliceBackward0", "SelectBackward0",
                                     "AccumulateGrad"]
    y = F.pad(x.detach(), (1, 1), mode="circular")
    assert y.grad_fn is None and y._version == 3  # three copies: middle, left, right


def test_circular_dtypes_and_empty_dimensions():
    t = F.pad(torch.tensor([[[True, False]]]), (1, 1), mode="circular")
    assert t.tolist() == [[[False, True, False, True]]] and t.dtype is torch.bool
    t = F.pad(torch.tensor([[[1, 2, 3]]]), (2, 1), mode="circular")
    assert t.tolist() == [[[2, 3, 1, 2, 3, 1]]] and t.dtype is torch.int64
    assert tuple(F.pad(torch.zeros(2, 0, 3), (1, 2), mode="circular").shape) == (2, 0, 6)
    assert tuple(F.pad(torch.zeros(1, 2, 3), (-2, -1), mode="circular").shape) == (1, 2, 0)


@pytest.mark.parametrize("pad", [(4, 0), (0, 4), (-5, 4), (4, -8), (0, -4, 3, 0)])
def test_a_pad_wider_than_the_input_is_refused(pad):
    with raises(RuntimeError, "Padding value causes wrapping around more than once."):
        F.pad(torch.zeros(1, 2, 3), pad, mode="circular")


@pytest.mark.parametrize("pad", [(-4, 0), (-2, -2), (0, 0, 0, -3)])
def test_a_dimension_cropped_below_nothing_is_refused(pad):
    with raises(RuntimeError, "Negative padding value is resulting in an empty dimension"):
        F.pad(torch.zeros(1, 2, 3), pad, mode="circular")


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_the_checks_every_mode_shares(mode):
    x = torch.zeros(1, 2, 3)
    with raises(RuntimeError, "Padding length must be divisible by 2"):
        F.pad(x, (1, 2, 3), mode=mode)
    with raises(RuntimeError, "Padding length should be less than or equal to two times the "
                "input dimension but got padding length 8 and input of dimension 3"):
        F.pad(x, (1,) * 8, mode=mode)
    with raises(TypeError, "pad(): argument 'pad' (position 2) must be tuple of ints, but "
                "found element of type float at pos 0"):
        F.pad(x, (1.5, 1), mode=mode)
    with raises(TypeError, "pad(): argument 'pad' failed to unpack the object at pos 2 with "
                'error "type must be tuple of ints,but got float"'):
        F.pad(x, (1, 2.5), mode=mode)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_copying_modes_take_a_zero_value_and_refuse_others(mode):
    x = torch.arange(6.0).reshape(1, 2, 3)
    assert F.pad(x, (1, 1), mode=mode, value=0).tolist() == F.pad(x, (1, 1), mode=mode).tolist()
    with raises(RuntimeError, f'Padding mode "{mode}" doesn\'t take in value argument'):
        F.pad(x, (1, 1), mode=mode, value=1.0)
    with raises(NotImplementedError, f"Padding size 2 is not supported for 1D input tensor.\n"
                f"{COMBINATIONS}"):
        F.pad(x[0, 0], (1, 1), mode=mode)
    with raises(NotImplementedError, "Unrecognised padding mode bogus"):
        F.pad(x, (1, 2, 3), mode="bogus")
