"""Black-box tests: conv1d, conv2d and conv3d of torch.nn.functional: values against a
direct loop, gradients, the node they record, padding strings, unbatched inputs, refusals.
"""

import itertools

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import (
    cpu_computes_half,
    matrix_leaf,
    numeric_gradient,
    raises,
    saved_names,
)
from conformance._warned import caught_always

RNG = np.random.default_rng(11)
CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


def _reference(x, w, b, stride, padding, dilation, groups):
    """The convolution's definition, one output element at a time."""
    n = w.ndim - 2
    x = np.pad(x, [(0, 0), (0, 0), *((p, p) for p in padding)])
    sizes = [(x.shape[2 + i] - dilation[i] * (w.shape[2 + i] - 1) - 1) // stride[i] + 1
             for i in range(n)]
    out = np.zeros((x.shape[0], w.shape[0], *sizes))
    per_group, inputs = w.shape[0] // groups, w.shape[1]
    for s, o, *at in itertools.product(range(x.shape[0]), range(w.shape[0]),
                                       *(range(k) for k in sizes)):
        first = o // per_group * inputs
        total = b[o] if b is not None else 0.0
        for c, *taps in itertools.product(range(inputs), *(range(k) for k in w.shape[2:])):
            where = tuple(a * st + t * d for a, st, t, d in zip(at, stride, taps, dilation))
            total += x[(s, first + c, *where)] * w[(o, c, *taps)]
        out[(s, o, *at)] = total
    return out


CASES = [  # input shape, weight shape, bias, stride, padding, dilation, groups
    ((2, 4, 9), (6, 2, 3), True, (2,), (1,), (2,), 2),
    ((1, 3, 5, 6), (2, 3, 2, 3), True, (2, 1), (1, 2), (1, 2), 1),
    ((2, 2, 4, 5), (4, 1, 3, 1), False, (1, 3), (0, 1), (1, 1), 2),
    ((1, 2, 3, 4, 3), (2, 2, 2, 2, 2), True, (1, 2, 1), (1, 0, 1), (1, 1, 2), 1),
]


@pytest.mark.parametrize(("xs", "ws", "has_bias", "stride", "padding", "dilation", "groups"),
                         CASES)
def test_values_gradients_and_node(xs, ws, has_bias, stride, padding, dilation, groups):
    xd, wd = RNG.uniform(-1.0, 1.0, xs), RNG.uniform(-1.0, 1.0, ws)
    bd = RNG.uniform(-1.0, 1.0, ws[0]) if has_bias else None
    x, w = matrix_leaf(xd.tolist()), matrix_leaf(wd.tolist())
    b = matrix_leaf(bd.tolist()) if has_bias else None
    out = CONV[len(ws) - 2](x, w, b, stride, padding, dilation, groups)
    expected = _reference(xd, wd, bd, stride, padding, dilation, groups)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    node = out.grad_fn
    assert type(node).__name__ == "ConvolutionBackward0"
    assert saved_names(node) == [
        "_saved_bias_sym_sizes_opt", "_saved_dilation", "_saved_groups", "_saved_input",
        "_saved_output_padding", "_saved_padding", "_saved_stride", "_saved_transposed",
        "_saved_weight"]
    assert (node._saved_stride, node._saved_padding, node._saved_dilation) == (
        stride, padding, dilation)
    assert node._saved_groups == groups and node._saved_transposed is False
    assert node._saved_output_padding == (0,) * (len(ws) - 2)
    assert node._saved_bias_sym_sizes_opt == ((ws[0],) if has_bias else (0,))
    assert node._saved_input is x and node._saved_weight is w
    assert [type(n).__name__ if n else None for n, _ in node.next_functions] == [
        "AccumulateGrad", "AccumulateGrad", "AccumulateGrad" if has_bias else None]
    probe = RNG.uniform(-1.0, 1.0, expected.shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()

    def loss(xd=xd, wd=wd, bd=bd):
        return float((_reference(xd, wd, bd, stride, padding, dilation, groups) * probe).sum())

    np.testing.assert_allclose(x.grad.numpy(), numeric_gradient(loss, xd), atol=1e-7)
    np.testing.assert_allclose(w.grad.numpy(), numeric_gradient(lambda v: loss(wd=v), wd),
                               atol=1e-7)
    if has_bias:
        np.testing.assert_allclose(b.grad.numpy(), probe.sum((0, *range(2, len(xs)))),
                                   rtol=1e-12)


def test_gradients_differentiate_twice():
    x = matrix_leaf(RNG.uniform(-1.0, 1.0, (1, 2, 5, 4)).tolist())
    w = matrix_leaf(RNG.uniform(-1.0, 1.0, (2, 1, 2, 3)).tolist())
    b = matrix_leaf([0.5, -0.5])

    def f(x, w, b):
        return F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2)

    assert torch.autograd.gradcheck(f, (x, w, b))
    assert torch.autograd.gradgradcheck(f, (x, w, b))


def test_float32_agrees_with_float64_to_float_precision():
    xd, wd = RNG.uniform(-1.0, 1.0, (2, 3, 8, 8)), RNG.uniform(-1.0, 1.0, (4, 3, 3, 3))
    out = F.conv2d(torch.tensor(xd, dtype=torch.float32), torch.tensor(wd, dtype=torch.float32),
                   padding=1)
    assert out.dtype == torch.float32
    wide = F.conv2d(torch.tensor(xd), torch.tensor(wd), padding=1)
    np.testing.assert_allclose(out.numpy(), wide.numpy(), atol=1e-5)


def test_integers_wrap_as_their_dtype():
    x = torch.full((1, 1, 2, 2), 100, dtype=torch.int8)
    w = torch.full((1, 1, 2, 2), 1, dtype=torch.int8)
    out = F.conv2d(x, w)
    assert out.dtype == torch.int8 and out.item() == 400 - 512  # 144 as a signed byte
    assert F.conv1d(torch.arange(6).view(1, 2, 3), torch.ones(1, 2, 2, dtype=torch.int64),
                    torch.tensor([10])).tolist() == [[[18, 22]]]


def test_an_unbatched_input_is_given_a_batch_and_has_it_squeezed_away():
    xd, wd = RNG.uniform(-1.0, 1.0, (3, 5, 4)), RNG.uniform(-1.0, 1.0, (2, 3, 2, 2))
    x = matrix_leaf(xd.tolist())
    out = F.conv2d(x, torch.tensor(wd.tolist(), dtype=torch.float64), stride=2)
    assert out.shape == (2, 2, 2)
    assert type(out.grad_fn).__name__ == "SqueezeBackward1" and out.grad_fn._saved_dim == 0
    conv = out.grad_fn.next_functions[0][0]
    assert type(conv).__name__ == "ConvolutionBackward0"
    assert type(conv.next_functions[0][0]).__name__ == "UnsqueezeBackward0"
    expected = _reference(xd[None], wd, None, (2, 2), (0, 0), (1, 1), 1)[0]
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("ws", "dilation", "padding"), [
    ((2, 3, 3), 1, (1,)), ((2, 3, 5), 2, (4,)), ((2, 3, 4), 2, (3,))])
def test_same_padding_keeps_the_size(ws, dilation, padding):
    xd, wd = RNG.uniform(-1.0, 1.0, (1, 3, 7)), RNG.uniform(-1.0, 1.0, ws)
    out = F.conv1d(matrix_leaf(xd.tolist()), torch.tensor(wd.tolist(), dtype=torch.float64),
                   padding="same", dilation=dilation)
    assert out.shape == (1, 2, 7) and out.grad_fn._saved_padding == padding
    expected = _reference(xd, wd, None, (1,), padding, (dilation,), 1)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    assert F.conv1d(torch.ones(1, 3, 7), torch.ones(*ws), padding="valid").shape == (
        1, 2, 7 - dilation * 0 - ws[2] + 1)


def test_same_padding_with_an_odd_total_pads_the_right_first_and_warns():
    xd, wd = RNG.uniform(-1.0, 1.0, (1, 1, 4, 5)), RNG.uniform(-1.0, 1.0, (1, 1, 2, 3))
    x = matrix_leaf(xd.tolist())
    with caught_always(torch) as caught:
        out = F.conv2d(x, torch.tensor(wd.tolist(), dtype=torch.float64), padding="same")
    assert [w.category for w in caught] == [UserWarning]
    assert str(caught[0].message).startswith(
        "Using padding='same' with even kernel lengths and odd dilation may require a "
        "zero-padded copy of the input be created")
    assert out.shape == (1, 1, 4, 5) and out.grad_fn._saved_padding == (0, 1)
    padded = out.grad_fn.next_functions[0][0]
    assert type(padded).__name__ == "ConstantPadNdBackward0"
    assert padded._saved_pad == (0, 0, 0, 1)
    expected = _reference(np.pad(xd, [(0, 0), (0, 0), (0, 1), (0, 0)]), wd, None, (1, 1),
                          (0, 1), (1, 1), 1)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)


def test_empty_batch_and_empty_channels():
    assert F.conv2d(torch.ones(0, 2, 4, 4), torch.ones(3, 2, 3, 3)).shape == (0, 3, 2, 2)
    x, w = torch.ones(2, 0, 4, 4, requires_grad=True), torch.ones(3, 0, 3, 3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    out = F.conv2d(x, w, b)
    assert out.shape == (2, 0, 2, 2)  # no input channels: no output channels either
    out.sum().backward()
    assert x.grad.shape == x.shape and w.grad.shape == w.shape and b.grad.tolist() == [0.0] * 3


X, W = torch.ones(2, 4, 5, 6), torch.ones(6, 2, 3, 3)
REFUSALS = [
    (lambda: F.conv2d(X, W, padding="same", stride=2, groups=2),
     "padding='same' is not supported for strided convolutions"),
    (lambda: F.conv2d(X, W, padding="same", stride=(1, 2, 3), groups=2),
     "stride cannot broadcast to 2 dimensions"),
    (lambda: F.conv2d(X, W, padding="foo", groups=2), "Invalid padding string: 'foo'"),
    (lambda: F.conv2d(X, W, padding=-1, stride=0, groups=2), "negative padding is not supported"),
    (lambda: F.conv2d(X, W, stride=0, dilation=0, groups=2),
     "non-positive stride is not supported"),
    (lambda: F.conv2d(X, W, dilation=0, groups=2), "non-positive dilation is not supported"),
    (lambda: F.conv2d(X, W, groups=0), "non-positive groups is not supported"),
    (lambda: F.conv2d(X, W, groups=3),
     "Given groups=3, weight of size [6, 2, 3, 3], expected input[2, 4, 5, 6] to have 6 "
     "channels, but got 4 channels instead"),
    (lambda: F.conv2d(X, W, groups=4),
     "Given groups=4, expected weight to be divisible by 4 at dimension 0, but got weight of "
     "size [[6, 2, 3, 3]] instead"),
    (lambda: F.conv2d(X, torch.ones(0, 4, 3, 3)),
     "Given groups=1, expected weight to be at least 1 at dimension 0, but got weight of size "
     "[0, 4, 3, 3] instead"),
    (lambda: F.conv2d(X, W, torch.ones(5), groups=2),
     "Given weight of size [6, 2, 3, 3], expected bias to be 1-dimensional with 6 elements, but "
     "got bias of size [5] instead"),
    (lambda: F.conv2d(X, torch.ones(6, 2, 7, 3), groups=2),
     "Calculated padded input size per channel: (5 x 6). Kernel size: (7 x 3). Kernel size "
     "can't be greater than actual input size"),
    (lambda: F.conv2d(X, torch.ones(6, 2, 3), stride=1),
     "expected stride to be a single integer value or a list of 1 values to match the "
     "convolution dimensions, but got stride=[1, 1]"),
    (lambda: F.conv2d(X, torch.ones(6, 2, 3), stride=(1,), padding=(0,), dilation=(1,)),
     "expected output_padding to be a single integer value or a list of 1 values to match the "
     "convolution dimensions, but got output_padding=[0, 0]"),
    (lambda: F.conv2d(X, torch.ones(6, 2, 3), padding="same"),
     "Expected 3-dimensional input for 3-dimensional weight[6, 2, 3], but got 4-dimensional "
     "input of size [2, 4, 5, 6] instead"),
    (lambda: F.conv2d(X, torch.ones(6, 2), padding="same"),
     "weight should have at least three dimensions"),
    (lambda: F.conv2d(X, W, padding=()),
     "expected padding to be a single integer value or a list of 2 values to match the "
     "convolution dimensions, but got padding=[]"),
    (lambda: F.conv2d(X, torch.ones(6, 2, 3), stride=(1, 1)),
     "expected stride to be a single integer value or a list of 1 values to match the "
     "convolution dimensions, but got stride=[1, 1]"),
    (lambda: F.conv2d(X, W, padding=(1, 2, 3), groups=2),
     "expected padding to be a single integer value or a list of 2 values to match the "
     "convolution dimensions, but got padding=[1, 2, 3]"),
    (lambda: F.conv2d(torch.ones(2, 3, 4), torch.ones(2, 3)),
     "weight should have at least three dimensions"),
    (lambda: F.conv2d(torch.ones(4), W),
     "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [4]"),
    (lambda: F.conv3d(torch.ones(1, 2, 3), W),
     "Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: [1, 2, 3]"),
    (lambda: F.conv2d(X, W, torch.ones(6, dtype=torch.float64), groups=2),
     "Input type (float) and bias type (double) should be the same"),
    (lambda: F.conv2d(X, W, torch.ones(6, dtype=torch.int64), groups=2),
     "Input type (float) and bias type (long int) should be the same"),
    (lambda: F.conv2d(X, W.double(), groups=2),
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor"),
    (lambda: F.conv2d(X.double(), W, groups=2), "expected scalar type Double but found Float"),
    (lambda: F.conv2d(X.half(), W, groups=2),
     "Input type (torch.HalfTensor) and weight type (torch.FloatTensor) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor" if cpu_computes_half()
     else "expected scalar type Half but found Float"),
    # a batch of one with a small kernel runs torch's own kernel, not oneDNN, in float32 too
    (lambda: F.conv1d(torch.ones(1, 4, 3), torch.ones(1, 4, 3, dtype=torch.float64)),
     "expected scalar type Float but found Double"),
    (lambda: F.conv2d(torch.ones(1, 4, 3, 3), torch.ones(1, 4, 3, 3), dilation=0),
     "dilation should be greater than zero, but got [0, 0]"),
    (lambda: F.conv1d(torch.ones(1, 4, 3), torch.ones(1, 4, 3), dilation=0),
     "dilation should be greater than zero, but got [1, 0]"),
    (lambda: F.conv2d(X.double(), W.double(), dilation=0, groups=2),
     "dilation should be greater than zero, but got [0, 0]"),
    (lambda: F.conv2d(X, W, dilation=-1, groups=2), "dilation should be greater than zero"),
]


@pytest.mark.parametrize(("call", "message"), REFUSALS)
def test_refusals_in_torchs_words(call, message):
    with raises(RuntimeError, message):
        call()


def test_bool_has_no_kernel_and_a_float_stride_no_signature():
    with raises(NotImplementedError, "\"slow_conv2d_cpu\" not implemented for 'Bool'"):
        F.conv1d(torch.ones(1, 2, 3, dtype=torch.bool), torch.ones(1, 2, 2, dtype=torch.bool))
    with raises(NotImplementedError, "\"slow_conv3d_cpu\" not implemented for 'Bool'"):
        F.conv3d(torch.ones(1, 1, 2, 2, 2, dtype=torch.bool),
                 torch.ones(1, 1, 1, 1, 1, dtype=torch.bool))
    with pytest.raises(TypeError, match=r"^conv2d\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, Tensor, stride=float\)"):
        F.conv2d(X, torch.ones(3, 4, 3, 3), stride=1.5)
    assert F.conv2d is torch.conv2d and F.conv1d is torch.conv1d and F.conv3d is torch.conv3d
