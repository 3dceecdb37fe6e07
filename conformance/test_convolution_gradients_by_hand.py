"""torch.nn.grad: a convolution's input and weight gradients asked for directly."""

import pytest
import torch
import torch.nn.functional as F
import torch.nn.grad as G

from conformance._support import raises

CASES = [  # (dimensions, input shape, weight shape, stride, padding, dilation, groups)
    (1, (2, 4, 7), (6, 2, 3), 2, 1, 1, 2),
    (1, (1, 2, 9), (3, 2, 2), (3,), (0,), (2,), 1),
    (2, (1, 3, 6, 5), (4, 3, 2, 3), (2, 1), (1, 0), (1, 2), 1),
    (2, (2, 4, 5, 5), (4, 1, 3, 3), 1, 1, 1, 4),
    (3, (1, 2, 4, 4, 3), (2, 2, 2, 2, 2), 1, 0, 1, 1),
    (3, (1, 2, 5, 4, 4), (4, 1, 2, 1, 2), (1, 2, 1), 1, (2, 1, 1), 2),
]
CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_the_gradients_are_autograds(case, dtype):
    n, xs, ws, stride, padding, dilation, groups = case
    torch.manual_seed(0)
    x = torch.randn(xs, dtype=dtype, requires_grad=True)
    w = torch.randn(ws, dtype=dtype, requires_grad=True)
    y = CONV[n](x, w, None, stride, padding, dilation, groups)
    g = torch.randn(y.shape, dtype=dtype)
    gx, gw = torch.autograd.grad(y, (x, w), g)
    by_input = getattr(G, f"conv{n}d_input")(x.shape, w.detach(), g, stride, padding,
                                             dilation, groups)
    by_weight = getattr(G, f"conv{n}d_weight")(x.detach(), list(w.shape), g, stride=stride,
                                               padding=padding, dilation=dilation,
                                               groups=groups)
    for got, want in ((by_input, gx), (by_weight, gw)):
        assert got.shape == want.shape and got.dtype == dtype
        assert got.grad_fn is None and not got.requires_grad
        torch.testing.assert_close(got, want)


def test_a_result_from_a_tensor_that_requires_grad_is_differentiable():
    torch.manual_seed(1)
    w = torch.randn(4, 3, 2, 2, dtype=torch.float64, requires_grad=True)
    g = torch.randn(1, 4, 4, 4, dtype=torch.float64, requires_grad=True)
    gx = G.conv2d_input((1, 3, 5, 5), w, g)
    assert gx.grad_fn.name() == "ConvolutionBackwardBackward0"
    assert [type(n).__name__ if n else None for n, _ in gx.grad_fn.next_functions] == [
        "AccumulateGrad", None, "AccumulateGrad"]
    # the input's gradient is linear in w and g: its derivative is its own transpose
    v = torch.randn(1, 3, 5, 5, dtype=torch.float64)
    dg, = torch.autograd.grad(gx, g, v, retain_graph=True)
    torch.testing.assert_close(dg, F.conv2d(v, w.detach()))


def test_the_package_is_reachable_from_nn_and_from_functional():
    assert torch.nn.grad is G and F.grad is G
    from torch.nn.grad import conv3d_weight

    assert conv3d_weight is G.conv3d_weight


X, W, GO = (2, 4, 7), (6, 2, 3), (2, 6, 4)


def _input(**changes):
    args = dict(input_size=X, weight=torch.ones(W), grad_output=torch.ones(GO), stride=2,
                padding=1, groups=2)
    args.update(changes)
    return G.conv1d_input(**args)


@pytest.mark.parametrize("call, kind, message", [
    (lambda: _input(weight=None), RuntimeError, "Expected a proper Tensor but got None (or an "
     "undefined Tensor in C++) for argument #2 'weight'"),
    (lambda: G.conv1d_weight(None, W, torch.ones(GO)), RuntimeError, "Expected a proper Tensor "
     "but got None (or an undefined Tensor in C++) for argument #1 'input'"),
    (lambda: _input(weight=torch.ones(6, 2)), RuntimeError,
     "weight should have at least three dimensions"),
    (lambda: G.conv2d_weight(torch.ones(1, 3, 6, 5), 4, torch.ones(1, 4, 5, 3)), RuntimeError,
     "weight should have at least three dimensions"),
    (lambda: _input(groups=0), RuntimeError,
     "expected groups to be greater than 0, but got groups=0"),
    (lambda: _input(stride=(2, 2)), RuntimeError, "expected stride to be a single integer value "
     "or a list of 1 values to match the convolution dimensions, but got stride=[2, 2]"),
    (lambda: _input(padding=-1), RuntimeError, "negative padding is not supported"),
    (lambda: _input(stride=0), RuntimeError, "non-positive stride is not supported"),
    (lambda: _input(input_size=(4, 7)), RuntimeError, "Expected 3-dimensional input for "
     "3-dimensional weight [6, 2, 3], but got 2-dimensional input of size [4, 7] instead"),
    (lambda: _input(groups=3), RuntimeError, "Given groups=3, weight of size [6, 2, 3], "
     "expected input[2, 4, 7] to have 6 channels, but got 4 channels instead"),
    (lambda: _input(input_size=(2, 4, 1), padding=0, grad_output=torch.ones(2, 6, 1)),
     RuntimeError, "Calculated padded input size per channel: (1). Kernel size: (3). Kernel "
     "size can't be greater than actual input size"),
    (lambda: _input(grad_output=torch.ones(6, 4)), RuntimeError, "Expected input and "
     "grad_output to have the same number of dimensions, but got: 3 and 2"),
    (lambda: G.conv2d_input((1, 3, 6, 5), torch.ones(4, 3, 2, 3, dtype=torch.float64),
                            torch.ones(1, 4, 5, 3)), RuntimeError,
     "expected scalar type Float but found Double"),
    (lambda: G.conv2d_weight(torch.ones(1, 3, 6, 5, dtype=torch.float64), (4, 3, 2, 3),
                             torch.ones(1, 4, 5, 3)), RuntimeError,
     "expected scalar type Double but found Float"),
    (lambda: _input(weight=torch.ones(W, dtype=torch.long),
                    grad_output=torch.ones(GO, dtype=torch.long)), NotImplementedError,
     "\"slow_conv2d_cpu_grad_input\" not implemented for 'Long'"),
    (lambda: G.conv3d_weight(torch.ones(1, 1, 3, 3, 3, dtype=torch.long), (1, 1, 2, 2, 2),
                             torch.ones(1, 1, 2, 2, 2, dtype=torch.long)), NotImplementedError,
     "\"slow_conv3d_cpu_grad_weight\" not implemented for 'Long'"),
    (lambda: G.conv2d_input((1, 3, 6, 5), torch.ones(4, 3, 2, 3), torch.ones(1, 4, 5, 4)),
     RuntimeError, "Expected a tensor of dimension 4 and tensor.size[3] == 3 but got: "
     "dimension 4 and tensor.size[3] = 4"),
    (lambda: G.conv3d_weight(torch.ones(1, 2, 4, 4, 3), (2, 2, 2, 2, 2),
                             torch.ones(1, 2, 3, 2, 2)), RuntimeError,
     "Expected a tensor of dimension 5 and tensor.size[3] == 3 but got: dimension 5 and "
     "tensor.size[3] = 2"),
    (lambda: G.conv2d_input((1, 3, 6, 5), torch.ones(4, 3, 2, 3), torch.ones(1, 4, 3, 3),
                            stride=(2, 1), padding=(1, 0), dilation=(1, 2)), RuntimeError,
     "grad_output[2:] shape[3, 3] must be equal to output size 4 1"),
    (lambda: G.conv2d_weight(torch.ones(1, 3, 6, 5), (4, 3, 2, 3), torch.ones(2, 4, 5, 3),
                             dilation=2), RuntimeError,
     "grad_output.size(0)=2 must be input.size(0)=1"),
    (lambda: _input(grad_output=None), AttributeError,
     "'NoneType' object has no attribute 'new_empty'"),
    (lambda: _input(input_size=None), TypeError,
     "expand(): argument 'size' (position 1) must be tuple of ints, not NoneType"),
])
def test_refusals_in_torchs_words(call, kind, message):
    with raises(kind, message):
        call()
