"""Black-box tests: conv_transpose1d, 2d and 3d and nn.ConvTranspose*d: values against a
direct loop, the convolution's node with transposed=True, gradients, layouts, refusals.
"""

import itertools

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

from conformance._support import (
    cpu_computes_half,
    matrix_leaf,
    numeric_gradient,
    raises,
    saved_names,
)

RNG = np.random.default_rng(17)
CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def _reference(x, w, b, stride, padding, output_padding, dilation, groups):
    """The definition: every input element stamps the kernel, times itself, on the output."""
    n = w.ndim - 2
    sizes = [(x.shape[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (w.shape[2 + i]
             - 1) + output_padding[i] + 1 for i in range(n)]
    per_group, outputs = w.shape[0] // groups, w.shape[1]
    out = np.zeros((x.shape[0], outputs * groups, *sizes))
    for s, c, *at in itertools.product(range(x.shape[0]), range(x.shape[1]),
                                       *(range(k) for k in x.shape[2:])):
        group = c // per_group
        for o, *taps in itertools.product(range(outputs), *(range(k) for k in w.shape[2:])):
            where = [a * st + t * d - p for a, st, t, d, p in
                     zip(at, stride, taps, dilation, padding)]
            if all(0 <= q < size for q, size in zip(where, sizes)):
                out[(s, group * outputs + o, *where)] += x[(s, c, *at)] * w[(c, o, *taps)]
    if b is not None:
        out += b.reshape(-1, *(1,) * n)
    return out


CASES = [  # input, weight, bias, stride, padding, output_padding, dilation, groups
    ((2, 4, 5), (4, 3, 3), True, (2,), (1,), (1,), (1,), 2),
    ((1, 2, 4), (2, 3, 3), False, (1,), (0,), (2,), (3,), 1),  # output_padding >= stride
    ((1, 3, 4), (3, 2, 2), True, (3,), (2,), (2,), (1,), 1),  # padding crops the stamps
    ((2, 4, 3, 4), (4, 3, 3, 2), True, (2, 1), (1, 0), (1, 0), (1, 2), 2),
    ((1, 2, 3, 3), (2, 1, 3, 3), True, (2, 2), (1, 1), (1, 1), (1, 1), 1),
    ((2, 6, 2, 2), (6, 1, 2, 2), False, (1, 1), (0, 0), (0, 0), (1, 1), 3),
    ((1, 2, 2, 3, 2), (2, 2, 2, 3, 2), True, (1, 2, 1), (0, 1, 1), (0, 1, 0), (1, 1, 2), 1),
]


@pytest.mark.parametrize(("xs", "ws", "has_bias", "stride", "padding", "output_padding",
                          "dilation", "groups"), CASES)
def test_values_gradients_and_node(xs, ws, has_bias, stride, padding, output_padding, dilation,
                                   groups):
    xd, wd = RNG.uniform(-1.0, 1.0, xs), RNG.uniform(-1.0, 1.0, ws)
    bd = RNG.uniform(-1.0, 1.0, ws[1] * groups) if has_bias else None
    x, w = matrix_leaf(xd.tolist()), matrix_leaf(wd.tolist())
    b = matrix_leaf(bd.tolist()) if has_bias else None
    out = CONV_T[len(ws) - 2](x, w, b, stride, padding, output_padding, groups, dilation)
    expected = _reference(xd, wd, bd, stride, padding, output_padding, dilation, groups)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    node = out.grad_fn
    assert type(node).__name__ == "ConvolutionBackward0"
    assert saved_names(node) == [
        "_saved_bias_sym_sizes_opt", "_saved_dilation", "_saved_groups", "_saved_input",
        "_saved_output_padding", "_saved_padding", "_saved_stride", "_saved_transposed",
        "_saved_weight"]
    assert node._saved_transposed is True and node._saved_output_padding == output_padding
    assert (node._saved_stride, node._saved_padding, node._saved_dilation) == (
        stride, padding, dilation)
    assert node._saved_groups == groups
    assert node._saved_bias_sym_sizes_opt == ((ws[1] * groups,) if has_bias else (0,))
    assert node._saved_input is x and node._saved_weight is w
    assert [type(n).__name__ if n else None for n, _ in node.next_functions] == [
        "AccumulateGrad", "AccumulateGrad", "AccumulateGrad" if has_bias else None]
    probe = RNG.uniform(-1.0, 1.0, expected.shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()

    def loss(xd=xd, wd=wd):
        return float((_reference(xd, wd, None, stride, padding, output_padding, dilation,
                                 groups) * probe).sum())

    np.testing.assert_allclose(x.grad.numpy(), numeric_gradient(loss, xd), atol=1e-7)
    np.testing.assert_allclose(w.grad.numpy(), numeric_gradient(lambda v: loss(wd=v), wd),
                               atol=1e-7)
    if has_bias:
        np.testing.assert_allclose(b.grad.numpy(), probe.sum((0, *range(2, len(xs)))),
                                   rtol=1e-12)


@pytest.mark.parametrize(("stride", "padding", "output_padding", "dilation", "groups"), [
    (2, 1, 1, 1, 1), ((1, 2), 0, (0, 1), (2, 1), 2)])
def test_gradients_differentiate_twice_and_forward(stride, padding, output_padding, dilation,
                                                   groups):
    x = matrix_leaf(RNG.uniform(-1.0, 1.0, (1, 2, 3, 2)).tolist())
    w = matrix_leaf(RNG.uniform(-1.0, 1.0, (2, 2, 2, 3)).tolist())
    b = matrix_leaf(RNG.uniform(-1.0, 1.0, 2 * groups).tolist())

    def f(x, w, b):
        return F.conv_transpose2d(x, w, b, stride, padding, output_padding, groups, dilation)

    assert torch.autograd.gradcheck(f, (x, w, b))
    assert torch.autograd.gradgradcheck(f, (x, w, b))
    tangent = torch.ones_like(x)
    with fwAD.dual_level():
        out = f(fwAD.make_dual(x.detach(), tangent), w.detach(), b.detach())
        jvp = fwAD.unpack_dual(out).tangent
    expected = F.conv_transpose2d(tangent, w.detach(), None, stride, padding, output_padding,
                                  groups, dilation)
    assert torch.allclose(jvp, expected)


@pytest.mark.parametrize(("xs", "ws", "stride", "padding", "dilation", "groups"), [
    ((2, 3, 9), (4, 3, 3), 2, 1, 1, 1),
    ((1, 4, 7, 6), (6, 2, 3, 2), (2, 3), (1, 0), (1, 2), 2),
    ((1, 2, 5, 4, 5), (2, 2, 2, 2, 3), 2, 1, 1, 1),
])
def test_a_convolutions_input_gradient_is_the_transposed_convolution(xs, ws, stride, padding,
                                                                      dilation, groups):
    x = torch.tensor(RNG.uniform(-1.0, 1.0, xs).tolist(), dtype=torch.float64,
                     requires_grad=True)
    w = torch.tensor(RNG.uniform(-1.0, 1.0, ws).tolist(), dtype=torch.float64)
    n = len(ws) - 2
    out = (F.conv1d, F.conv2d, F.conv3d)[n - 1](x, w, None, stride, padding, dilation, groups)
    g = torch.tensor(RNG.uniform(-1.0, 1.0, tuple(out.shape)).tolist(), dtype=torch.float64)
    (grad,) = torch.autograd.grad(out, x, g)
    # the sizes the convolution's windows skipped, given back as output_padding
    kept = [(size - 1) * s - 2 * p + d * (k - 1) + 1 for size, s, p, d, k in zip(
        out.shape[2:], _each(stride, n), _each(padding, n), _each(dilation, n), ws[2:])]
    extra = tuple(full - k for full, k in zip(xs[2:], kept))
    back = CONV_T[n](g, w, None, stride, padding, extra, groups, dilation)
    np.testing.assert_allclose(back.numpy(), grad.numpy(), rtol=1e-12, atol=1e-12)


def _each(value, n):
    return (value,) * n if isinstance(value, int) else value


CL, CL3 = torch.channels_last, torch.channels_last_3d


@pytest.mark.parametrize(("x", "w", "strides"), [
    (torch.rand(2, 4, 5, 5).contiguous(memory_format=CL), torch.rand(4, 3, 3, 3),
     ((363, 1, 33, 3), (100, 1, 20, 4), (27, 1, 9, 3))),
    (torch.rand(2, 4, 5, 5), torch.rand(4, 3, 3, 3).contiguous(memory_format=CL),
     ((363, 1, 33, 3), (100, 1, 20, 4), (27, 1, 9, 3))),
    (torch.rand(2, 4, 5, 5, dtype=torch.float64).contiguous(memory_format=CL),
     torch.rand(4, 3, 3, 3, dtype=torch.float64),
     ((363, 1, 33, 3), (100, 1, 20, 4), (27, 1, 9, 3))),
    (torch.rand(2, 7, 4).permute(0, 2, 1), torch.rand(4, 3, 2),
     ((42, 14, 1), (28, 7, 1), (6, 2, 1))),
    # 3-d in float32: torch's oneDNN path works channels-last where its own kernel would not
    (torch.rand(2, 4, 5, 5, 3).contiguous(memory_format=CL3), torch.rand(4, 2, 2, 2, 2),
     ((1200, 1, 120, 12, 2), (300, 1, 60, 12, 4), (16, 1, 8, 4, 2))),
    (torch.rand(2, 4, 5, 5, 3), torch.rand(4, 2, 2, 2, 2).contiguous(memory_format=CL3),
     ((1200, 1, 120, 12, 2), (300, 1, 60, 12, 4), (16, 1, 8, 4, 2))),
    (torch.rand(2, 4, 5, 5, 3, dtype=torch.float64).contiguous(memory_format=CL3),
     torch.rand(4, 2, 2, 2, 2, dtype=torch.float64),
     ((1200, 600, 60, 6, 1), (300, 75, 15, 3, 1), (16, 8, 4, 2, 1))),
])
def test_layouts_of_the_output_and_the_gradients(x, w, strides):
    x, w = x.requires_grad_(), w.requires_grad_()
    out = CONV_T[w.ndim - 2](x, w, stride=2)
    gx, gw = torch.autograd.grad(out.sum(), [x, w])
    assert (out.stride(), gx.stride(), gw.stride()) == strides


def test_an_unbatched_input_is_given_a_batch_and_has_it_squeezed_away():
    x = torch.ones(4, 5, requires_grad=True)
    out = F.conv_transpose1d(x, torch.ones(4, 2, 3), stride=2)
    assert out.shape == (2, 11) and type(out.grad_fn).__name__ == "SqueezeBackward1"
    conv = out.grad_fn.next_functions[0][0]
    assert type(conv).__name__ == "ConvolutionBackward0" and conv._saved_transposed is True
    assert type(conv.next_functions[0][0]).__name__ == "UnsqueezeBackward0"
    assert F.conv_transpose2d(torch.ones(4, 5, 6), torch.ones(4, 3, 3, 3)).shape == (3, 7, 8)


def test_dtypes_and_a_bias_that_casts():
    out = F.conv_transpose1d(torch.arange(6).view(1, 2, 3), torch.ones(2, 1, 2, dtype=torch.int64),
                             torch.tensor([10]))
    assert out.dtype == torch.int64 and out.tolist() == [[[13, 18, 22, 17]]]
    half = F.conv_transpose1d(torch.ones(1, 2, 3).half() / 3, torch.ones(2, 1, 2).half())
    assert half.dtype == torch.float16 and half.tolist() == [[[0.66650390625, 1.3330078125,
                                                               1.3330078125, 0.66650390625]]]
    b = torch.ones(3, requires_grad=True)  # a float64 kernel adds a float32 bias in place
    out = F.conv_transpose2d(torch.ones(1, 4, 2, 2, dtype=torch.float64),
                             torch.ones(4, 3, 3, 3, dtype=torch.float64), b)
    assert out.dtype == torch.float64 and out[0, 0, 0, 0].item() == 5.0
    out.sum().backward()
    assert b.grad.dtype == torch.float32 and b.grad.tolist() == [16.0] * 3
    assert F.conv_transpose2d(torch.ones(1, 4, 2, 2, dtype=torch.int64),
                              torch.ones(4, 3, 3, 3, dtype=torch.int64),
                              torch.ones(3, dtype=torch.int32)).dtype == torch.int64
    assert F.conv_transpose2d(torch.ones(0, 4, 2, 2), torch.ones(4, 3, 3, 3)).shape == (
        0, 3, 4, 4)
    # oneDNN (float32, a batch of two) returns an output of no positions, empty
    assert F.conv_transpose2d(torch.ones(2, 4, 2, 1), torch.ones(4, 3, 2, 2), stride=2,
                              padding=(3, 0), output_padding=(1, 0), dilation=2).shape == (
        2, 3, 0, 3)
    # a float32 kernel of torch's own adds a float64 bias in place too
    assert F.conv_transpose1d(torch.ones(1, 4, 1), torch.ones(4, 1, 3),
                              torch.ones(1, dtype=torch.float64)).tolist() == [[[5.0] * 3]]


X, W = torch.ones(2, 4, 5, 6), torch.ones(4, 3, 3, 3)
_ONEDNN = ("could not create a primitive descriptor for the deconvolution forward propagation "
           "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get "
           "additional diagnostic information.")
_OUTPUT_PADDING = ("output padding must be smaller than either stride or dilation, but got "
                   "output_padding_height: {} output_padding_width: {} stride_height: {} "
                   "stride_width: {} dilation_height: 1 dilation_width: {}")
def _half_with_a_float_bias():
    return F.conv_transpose1d(torch.ones(1, 4, 3).half(), torch.ones(4, 3, 3).half(),
                              torch.ones(3))


REFUSALS = [
    (lambda: F.conv_transpose2d(X, W, stride=2, output_padding=2),
     _OUTPUT_PADDING.format(2, 2, 2, 2, 1)),
    (lambda: F.conv_transpose1d(torch.ones(1, 4, 5), torch.ones(4, 3, 3), stride=2, dilation=2,
                                output_padding=2),  # run as 2-d: a height of one
     _OUTPUT_PADDING.format(0, 2, 1, 2, 2)),
    (lambda: F.conv_transpose2d(X, W.double(), output_padding=1),  # before the dtypes
     _OUTPUT_PADDING.format(1, 1, 1, 1, 1)),
    (lambda: F.conv_transpose3d(torch.ones(1, 4, 2, 2, 2), torch.ones(4, 3, 1, 1, 1),
                                output_padding=(0, 1, 0)),
     "output padding must be smaller than either stride or dilation, but got "
     "output_padding_depth: 0 output_padding_height: 1 output_padding_width: 0 stride_depth: 1 "
     "stride_height: 1 stride_width: 1 dilation_depth: 1 dilation_height: 1 dilation_width: 1"),
    (lambda: F.conv_transpose2d(X, W, padding=-1, output_padding=-1),
     "negative padding is not supported"),
    (lambda: F.conv_transpose2d(X, W, stride=0, output_padding=-1),
     "negative output_padding is not supported"),
    (lambda: F.conv_transpose2d(X, W, stride=0, dilation=-1),
     "non-positive stride is not supported"),
    (lambda: F.conv_transpose2d(X, W, dilation=-1), "dilation should be greater than zero"),
    (lambda: F.conv_transpose2d(X.double(), W.double(), dilation=0),
     "dilation should be greater than zero, but got dilation_height: 0, dilation_width: 0"),
    (lambda: F.conv_transpose2d(X, W, dilation=0, output_padding=1),
     "dilation should be greater than zero, but got dilation_height: 0, dilation_width: 0"),
    # float32 with a batch of two goes to oneDNN; a batch of one with a small kernel does not
    (lambda: F.conv_transpose2d(X, W, dilation=0), _ONEDNN),
    (lambda: F.conv_transpose1d(torch.ones(2, 4, 2), torch.ones(4, 3, 3), dilation=0), _ONEDNN),
    (lambda: F.conv_transpose2d(X, torch.ones(4, 0, 3, 3)), _ONEDNN),
    (lambda: F.conv_transpose3d(torch.ones(2, 4, 2, 2, 2), torch.ones(4, 3, 3, 3, 3),
                                dilation=0), "dimensions are invalid"),
    (lambda: F.conv_transpose2d(torch.ones(2, 4, 1, 1), W, padding=(1, 2)),
     "could not construct a memory descriptor using a format tag"),
    (lambda: F.conv_transpose2d(X, W, torch.ones(3).double(), dilation=0),  # dtypes first
     "Input type (torch.FloatTensor) and bias type (torch.DoubleTensor) should be the same or "
     "input should be a MKLDNN tensor and bias is a dense tensor"),
    (lambda: F.conv_transpose2d(torch.ones(1, 4, 2, 2), W, dilation=0),
     "dilation should be greater than zero, but got dilation_height: 0, dilation_width: 0"),
    (lambda: F.conv_transpose1d(torch.ones(1, 4, 1), torch.ones(4, 1, 3).double()),
     "expected scalar type Float but found Double"),
    (lambda: F.conv_transpose3d(torch.ones(1, 4, 1, 1, 1), torch.ones(4, 1, 3, 3, 3),
                                dilation=(1, 0, 1)),
     "dilation should be greater than zero, but got dilation_depth: 1, dilation_height: 0, "
     "dilation_width: 1"),
    (lambda: F.conv_transpose2d(X, W, output_padding=(1, 1, 1)),
     "expected output_padding to be a single integer value or a list of 2 values to match the "
     "convolution dimensions, but got output_padding=[1, 1, 1]"),
    (lambda: F.conv_transpose2d(X, torch.ones(4, 3, 3)),
     "expected stride to be a single integer value or a list of 1 values to match the "
     "convolution dimensions, but got stride=[1, 1]"),
    (lambda: F.conv_transpose2d(X, torch.ones(4, 3)),
     "weight should have at least three dimensions"),
    (lambda: F.conv_transpose2d(X, W, groups=0), "non-positive groups is not supported"),
    (lambda: F.conv_transpose2d(X, W, groups=3),
     "Given groups=3, expected weight to be divisible by 3 at dimension 0, but got weight of "
     "size [[4, 3, 3, 3]] instead"),
    (lambda: F.conv_transpose2d(X, W, groups=8),
     "Given groups=8, expected weight to be at least 8 at dimension 0, but got weight of size "
     "[4, 3, 3, 3] instead"),
    (lambda: F.conv_transpose2d(torch.ones(2, 5, 5, 6), W, torch.ones(3).double()),
     "Given transposed=1, weight of size [4, 3, 3, 3], expected input[2, 5, 5, 6] to have 4 "
     "channels, but got 5 channels instead"),
    (lambda: F.conv_transpose2d(X, torch.ones(6, 3, 3, 3), groups=2),
     "Given transposed=1, weight of size [6, 3, 3, 3], expected input[2, 4, 5, 6] to have 6 "
     "channels, but got 4 channels instead"),
    (lambda: F.conv_transpose2d(X, W, torch.ones(4)),
     "Given transposed=1, weight of size [4, 3, 3, 3], expected bias to be 1-dimensional with 3 "
     "elements, but got bias of size [4] instead"),
    (lambda: F.conv_transpose2d(X, torch.ones(4, 3, 3, 3), torch.ones(3), groups=2),
     "Given transposed=1, weight of size [4, 3, 3, 3], expected bias to be 1-dimensional with 6 "
     "elements, but got bias of size [3] instead"),
    (lambda: F.conv_transpose2d(torch.ones(1, 4, 0, 2), W.double()),
     "Only zero batch or zero channel inputs are supported, but got input shape: [1, 4, 0, 2]"),
    (lambda: F.conv_transpose2d(X.double(), torch.ones(4, 0, 3, 3).double()),
     "non-empty 2D or 4D weight tensor expected, but got: [4, 0, 3, 3]"),
    (lambda: F.conv_transpose1d(torch.ones(1, 4, 2), torch.ones(4, 0, 3)),
     "non-empty 2D or 4D weight tensor expected, but got: [4, 0, 1, 3]"),
    (lambda: F.conv_transpose3d(torch.ones(1, 4, 2, 2, 2), torch.ones(4, 0, 3, 3, 3)),
     "non-empty 5D (n_output_plane x n_input_plane x kernel_depth x kernel_height x "
     "kernel_width) tensor expected for weight, but got: [4, 0, 3, 3, 3]"),
    (lambda: F.conv_transpose2d(torch.ones(1, 4, 1, 1), W, padding=(1, 2)),
     "Given input size per channel: (1 x 1). Calculated output size per channel: (1 x -1). "
     "Output size is too small"),
    (lambda: F.conv_transpose1d(torch.ones(1, 4, 2), torch.ones(4, 3, 1), padding=1),
     "Given input size per channel: (1 x 2). Calculated output size per channel: (1 x 0). "
     "Output size is too small"),
    (lambda: F.conv_transpose2d(torch.ones(2, 2, 4, 5, 6), W),
     "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: "
     "[2, 2, 4, 5, 6]"),
    (lambda: F.conv_transpose1d(torch.ones(5), torch.ones(4, 3, 3)),
     "Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d, but got input of size: "
     "[5]"),
    (lambda: F.conv_transpose2d(X, W, torch.ones(3, dtype=torch.float64)),
     "Input type (torch.FloatTensor) and bias type (torch.DoubleTensor) should be the same or "
     "input should be a MKLDNN tensor and bias is a dense tensor"),
    (lambda: F.conv_transpose2d(X, W.double()),
     "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor"),
    (lambda: F.conv_transpose2d(X.double(), W), "expected scalar type Double but found Float"),
    (lambda: F.conv_transpose2d(X.long(), W.long(), torch.ones(3)),
     "result type Float can't be cast to the desired output type Long"),
] + ([(_half_with_a_float_bias,
         "Input type (torch.HalfTensor) and bias type (torch.FloatTensor) should be the same or "
         "input should be a MKLDNN tensor and bias is a dense tensor")]
       if cpu_computes_half() else [])


def test_a_float_bias_is_added_into_a_float16_result_without_onednn():
    # Only oneDNN compares the bias's dtype with the input's; torch's own kernel adds
    # the float32 bias into the float16 result, a cast add_ allows.
    if cpu_computes_half():
        with raises(RuntimeError, REFUSALS[-1][1]):
            _half_with_a_float_bias()
        return
    result = _half_with_a_float_bias()
    assert result.dtype == torch.float16
    assert result[0, 0].tolist() == [5.0, 9.0, 13.0, 9.0, 5.0]


@pytest.mark.parametrize(("call", "message"), REFUSALS)
def test_refusals_in_torchs_words(call, message):
    with raises(RuntimeError, message):
        call()


@pytest.mark.parametrize(("dtype", "kernel"), [
    (torch.bool, "slow_conv_transpose2d_out_cpu"), (torch.int32, "slow_conv_transpose2d_out_cpu"),
    (torch.int8, "slow_conv_transpose3d_out_cpu")])
def test_dtypes_without_a_kernel(dtype, kernel):
    n = 3 if kernel.endswith("3d_out_cpu") else 1
    x, w = torch.ones(1, 4, *(2,) * n, dtype=dtype), torch.ones(4, 3, *(1,) * n, dtype=dtype)
    name = {torch.bool: "Bool", torch.int32: "Int", torch.int8: "Char"}[dtype]
    with raises(NotImplementedError, f'"{kernel}" not implemented for \'{name}\''):
        CONV_T[n](x, w)


@pytest.mark.parametrize(("dtype", "weight_dtype", "n", "kind", "message"), [
    (torch.bool, torch.float32, 1, NotImplementedError,
     '"slow_conv_transpose2d_out_cpu" not implemented for \'Bool\''),
    (torch.bool, torch.float32, 2, NotImplementedError,
     '"slow_conv_transpose2d_out_cpu" not implemented for \'Bool\''),
    (torch.int32, torch.float64, 3, NotImplementedError,
     '"slow_conv_transpose3d_out_cpu" not implemented for \'Int\''),
    (torch.int64, torch.float32, 2, RuntimeError, "expected scalar type Long but found Float"),
    (torch.float32, torch.bool, 1, RuntimeError, "expected scalar type Float but found Bool"),
])
def test_the_inputs_dtype_is_refused_before_the_weights(dtype, weight_dtype, n, kind, message):
    x = torch.ones(1, 1, *(3,) * n, dtype=dtype)
    w = torch.ones(1, 1, *(2,) * n, dtype=weight_dtype)
    for stride in (1, 2):
        with raises(kind, message):
            CONV_T[n](x, w, stride=stride)


def test_a_string_padding_has_no_signature():
    with pytest.raises(TypeError, match=r"^conv_transpose2d\(\)"):
        F.conv_transpose2d(X, W, padding="same")
    assert torch.conv_transpose2d is F.conv_transpose2d or torch.conv_transpose2d(X, W).shape == (
        2, 3, 7, 8)


def test_the_modules_weights_repr_and_output_size():
    torch.manual_seed(0)
    m = torch.nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=(1, 0),
                                 groups=2, dilation=(1, 2))
    assert repr(m) == ("ConvTranspose2d(4, 6, kernel_size=(3, 2), stride=(2, 2), padding=(1, 1), "
                       "dilation=(1, 2), output_padding=(1, 0), groups=2)")
    assert m.weight.shape == (4, 3, 3, 2) and m.bias.shape == (6,)
    bound = 1 / 18 ** 0.5  # fan_in: the weight's second dimension times the kernel's size
    assert m.weight.abs().max().item() <= bound and m.bias.abs().max().item() <= bound
    assert m.transposed is True and m.output_padding == (1, 0)
    x = torch.randn(1, 4, 5, 5)
    assert m(x).shape == (1, 6, 10, 9)
    out = m(x, output_size=[9, 10])
    assert out.shape == (1, 6, 9, 10) and out.grad_fn._saved_output_padding == (0, 1)
    assert m(x, output_size=(1, 6, 10, 10)).shape == (1, 6, 10, 10)
    with raises(ValueError, "requested an output size of [11, 9], but valid sizes range from "
                            "[9, 9] to [10, 10] (for an input of torch.Size([5, 5]))"):
        m(x, output_size=[11, 9])
    with raises(ValueError, "ConvTranspose2D: for 4D input, output_size must have 2 or 4 "
                            "elements (got 3)"):
        m(x, output_size=[3, 4, 5])
    one = torch.nn.ConvTranspose1d(2, 3, 3, bias=False)
    assert repr(one) == "ConvTranspose1d(2, 3, kernel_size=(3,), stride=(1,), bias=False)"
    assert one(torch.randn(2, 4)).shape == (3, 6)
    with raises(ValueError, "ConvTranspose1D: for 2D input, output_size must have 1 or 2 "
                            "elements (got 3)"):
        one(torch.randn(2, 4), output_size=[1, 2, 3])
    assert torch.nn.ConvTranspose3d(2, 2, 2, stride=2)(torch.randn(1, 2, 2, 2, 2)).shape == (
        1, 2, 4, 4, 4)
    with raises(ValueError, 'Only "zeros" padding mode is supported for ConvTranspose2d'):
        torch.nn.ConvTranspose2d(2, 2, 2, padding_mode="reflect")


def test_layouts_at_the_edges():
    # torch's own kernel (float64) makes the weight's gradient row-major and keeps it so where
    # that already counts as channels-last; oneDNN's (float32) is laid out channels-last
    for dtype, strides in ((torch.float64, (2, 2, 2, 1)), (torch.float32, (2, 1, 2, 1))):
        x = torch.rand(2, 2, 3, 3, dtype=dtype).contiguous(memory_format=CL).requires_grad_()
        w = torch.rand(2, 1, 1, 2, dtype=dtype, requires_grad=True)
        out = F.conv_transpose2d(x, w)
        gx, gw = torch.autograd.grad(out.sum(), [x, w])
        assert (out.stride(), gx.stride(), gw.stride()) == ((12, 1, 4, 1), (18, 1, 6, 2),
                                                            strides)
    x = torch.ones(2, 4, 2, 1).contiguous(memory_format=CL)  # an empty channels-last output
    out = F.conv_transpose2d(x, torch.ones(4, 3, 2, 2), stride=2, padding=(3, 0),
                             output_padding=(1, 0), dilation=2)
    assert out.shape == (2, 3, 0, 3) and out.stride() == (0, 1, 9, 3)
    with raises(RuntimeError, "numel: integer multiplication overflow"):
        F.conv_transpose2d(x, torch.ones(4, 3, 3, 3), padding=(1, 4))


def test_torch_convolution_takes_lists_and_both_kinds():
    x, w = torch.ones(2, 4, 5, 6, requires_grad=True), torch.ones(4, 3, 3, 3)
    out = torch.convolution(x, w, None, [2, 1], [1, 0], [1, 1], True, [1, 0], 1)
    assert out.shape == (2, 3, 10, 8) and out.grad_fn._saved_transposed is True
    assert torch.convolution(x, torch.ones(3, 4, 3, 3), None, [1, 1], [0, 0], [1, 1], False,
                             [0, 0], 1).shape == (2, 3, 3, 4)
    with raises(TypeError, "convolution(): argument 'stride' (position 4) must be tuple of ints, "
                           "not int"):
        torch.convolution(x, w, None, 1, 0, 1, True, 0, 1)
    with raises(TypeError, "convolution(): argument 'transposed' (position 7) must be bool, not "
                           "int"):
        torch.convolution(x, w, None, [1, 1], [0, 0], [1, 1], 1, [0, 0], 1)
