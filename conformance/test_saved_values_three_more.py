"""torch._C._nn's functions by their own names: the out= their kernels take, _parse_to, and
rrelu_with_noise.

Most refuse an out of another dtype than the result's, each kernel in its own words; some
resize an out of the wrong shape without the warning the others give. _parse_to reads
Tensor.to's arguments; rrelu_with_noise writes the slopes it draws into the noise it is given.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

nn = torch._C._nn


def _leaf(*shape):
    gen = torch.Generator().manual_seed(0)
    return (torch.rand(*shape, generator=gen, dtype=torch.float64) * 2 - 1).requires_grad_()


def test_out_given_by_keyword():
    x = torch.rand(2, 3, dtype=torch.float64)
    out = torch.empty(0, dtype=torch.float64)
    assert nn.elu(x, 2, out=out) is out and torch.equal(out, F.elu(x, 2))
    out = torch.empty(0, dtype=torch.float64)
    assert nn.mse_loss(x, x * 0, 1, out=out) is out and torch.equal(out, (x * x).mean())


@pytest.mark.parametrize(("call", "message"), [
    (lambda x, o: nn.elu(x, out=o), "Found dtype Double but expected Float"),
    (lambda x, o: nn.silu(x, out=o), "Found dtype Double but expected Float"),
    (lambda x, o: nn.im2col(x, 2, 1, 0, 1, out=o), "expected scalar type Float but found Double"),
    (lambda x, o: nn.reflection_pad2d(x, 1, out=o), "expected scalar type Float but found Double"),
    (lambda x, o: nn.replication_pad2d(x, 1, out=o),
     "Expected out tensor to have dtype float, but got double instead"),
    (lambda x, o: nn.adaptive_avg_pool2d(x, 2, out=o),
     "expected dtype float for `output` but got dtype double"),
])
def test_an_out_of_another_dtype_refused(call, message):
    x = torch.rand(1, 2, 4, 5)
    for out in (torch.empty(0, dtype=torch.float64), torch.empty(3, dtype=torch.float64)):
        with pytest.raises(RuntimeError) as caught:
            call(x, out)
        assert str(caught.value) == message


@pytest.mark.parametrize(("call", "count"), [
    (lambda x, o: nn.im2col(x, 2, 1, 0, 1, out=o), 0),
    (lambda x, o: nn.adaptive_avg_pool2d(x, 2, out=o), 0),
    (lambda x, o: nn.reflection_pad2d(x, 1, out=o), 0),
    (lambda x, o: nn.replication_pad2d(x, 1, out=o), 1),
    (lambda x, o: nn.elu(x, out=o), 1),
])
def test_an_out_resized_with_or_without_a_warning(call, count):
    x, out = torch.rand(1, 2, 4, 5), torch.empty(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert call(x, out) is out
    assert len(caught) == count


def test_huber_loss_casting_into_its_out_warns_once():
    v, out = torch.rand(3, 4), torch.empty(3, dtype=torch.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.huber_loss(v, v * 0, 1, out=out)
    assert len(caught) == 1 and torch.allclose(out, F.huber_loss(v, v * 0).double())


def test_parse_to_reads_tensor_to_arguments():
    x = torch.rand(2, dtype=torch.float64)
    assert nn._parse_to(torch.float64) == (None, torch.float64, False, None)
    assert nn._parse_to("cpu", torch.float32, True) == (
        torch.device("cpu"), torch.float32, True, None)
    assert nn._parse_to(x, True) == (torch.device("cpu"), torch.float64, True, None)
    assert nn._parse_to(float) == (None, torch.float64, False, None)
    assert nn._parse_to(memory_format=torch.channels_last)[3] is torch.channels_last
    with pytest.raises(RuntimeError, match=r"^\.to\(\) does not accept copy argument$"):
        nn._parse_to("cpu", copy=True)
    with pytest.raises(TypeError) as caught:
        nn._parse_to("cpu", "x")
    assert str(caught.value).startswith(
        "to() received an invalid combination of arguments - got (str, str), but expected one "
        "of:\n * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = "
        "False, bool copy = False, *, torch.memory_format memory_format = None)\n")


def test_rrelu_with_noise_draws_into_the_noise_given():
    x = _leaf(2, 3)
    noise = torch.full((2, 3), 7.0, dtype=torch.float64)
    out = nn.rrelu_with_noise(x, noise, 0.1, 0.3, True, generator=torch.Generator())
    node = out.grad_fn
    assert (node.name(), node._saved_lower, node._saved_upper, node._saved_training) == (
        "RreluWithNoiseBackward0", 0.1, 0.3, True)
    d = x.detach()
    assert torch.equal(noise[d > 0], torch.ones_like(d[d > 0]))
    assert bool(((noise[d <= 0] >= 0.1) & (noise[d <= 0] <= 0.3)).all())
    assert torch.equal(out, d * noise) and node._saved_noise.data_ptr() == noise.data_ptr()
    kept = torch.full((2, 3), 7.0, dtype=torch.float64)
    calm = nn.rrelu_with_noise(x, kept, 0.1, 0.3)
    assert torch.equal(kept, torch.full((2, 3), 7.0, dtype=torch.float64))
    assert torch.allclose(calm, torch.where(d > 0, d, 0.2 * d))
    y = x * 1
    assert nn.rrelu_with_noise_(y, noise, training=True) is y
    assert y.grad_fn.name() == "RreluWithNoiseBackward1"


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda x: nn.rrelu_with_noise(x, torch.zeros(3, 2, dtype=torch.float64)), RuntimeError,
     "noise tensor shape must match self tensor shape. Got self.shape = [2, 3] noise.shape = "
     "[3, 2]"),
    (lambda x: nn.rrelu_with_noise(x, torch.zeros(2, 3, dtype=torch.float64), 0.5, 0.1, True),
     RuntimeError, "Expected from <= to to be true, but got false.  (Could this error message "
     "be improved?  If so, please report an enhancement request to PyTorch.)"),
    (lambda x: nn.rrelu_with_noise(x, torch.zeros(2, 3), 0.1, 0.3, True), RuntimeError,
     "expected scalar type Double but found Float"),
    (lambda x: nn.rrelu_with_noise(x, 1), TypeError,
     "rrelu_with_noise(): argument 'noise' (position 2) must be Tensor, not int"),
])
def test_rrelu_with_noise_refusals(call, error, message):
    with pytest.raises(error) as caught:
        call(_leaf(2, 3))
    assert str(caught.value) == message


# The slow convolutions: nodes of their own over the convolution's gradient


@pytest.mark.parametrize(("call", "same", "name", "saved"), [
    (lambda x, w, b: torch._C._nn.slow_conv3d(x, w, 2, b), lambda x, w, b: F.conv3d(x, w, b),
     "SlowConv3DBackward0", {"bias_sym_sizes_opt": (2,), "padding": (0,) * 3,
                             "stride": (1,) * 3}),
    (lambda x, w, b: torch._C._nn.slow_conv3d(x, w, [2, 2, 2]), lambda x, w, b: F.conv3d(x, w),
     "SlowConv3DBackward0", {"bias_sym_sizes_opt": (0,), "padding": (0,) * 3,
                             "stride": (1,) * 3}),
    (lambda x, w, b: torch._C._nn.slow_conv_dilated3d(x, w, 2, None, 1, 1, 2),
     lambda x, w, b: F.conv3d(x, w, None, 1, 1, 2), "SlowConvDilated3DBackward0",
     {"bias_sym_sizes_opt": None, "dilation": (2,) * 3, "padding": (1,) * 3,
      "stride": (1,) * 3}),
    (lambda x, w, b: torch._C._nn.slow_conv_transpose3d(x, w.transpose(0, 1), 2, b, 2, 1, 1),
     lambda x, w, b: F.conv_transpose3d(x, w.transpose(0, 1), b, 2, 1, 1),
     "SlowConvTranspose3DBackward0",
     {"bias_sym_sizes_opt": (2,), "dilation": (1,) * 3, "output_padding": (1,) * 3,
      "padding": (1,) * 3, "stride": (2,) * 3}),
])
def test_slow_convolutions(call, same, name, saved):
    x, w, b = _leaf(1, 2, 4, 4, 4), _leaf(2, 2, 2, 2, 2), _leaf(2)
    out = call(x, w, b)
    node = out.grad_fn
    kept = {k[7:]: getattr(node, k) for k in dir(node) if k.startswith("_saved_")
            and not isinstance(getattr(node, k), torch.Tensor)}
    assert (node.name(), kept) == (name, saved)
    assert node._saved_self is not None and node._saved_weight is not None
    expected = same(x, w, b)
    assert torch.allclose(out, expected)
    grads = torch.autograd.grad((out * out).sum(), (x, w), create_graph=True)
    again = torch.autograd.grad((expected * expected).sum(), (x, w), create_graph=True)
    assert all(torch.allclose(a, c) for a, c in zip(grads, again))
    assert grads[0].grad_fn.name() == "ConvolutionBackwardBackward0"


def test_slow_dilated_convolution_in_two_dimensions():
    x, w = _leaf(1, 2, 6, 6), _leaf(3, 2, 3, 3)
    out = torch._C._nn.slow_conv_dilated2d(x, w, 3, None, 1, 1, dilation=2)
    assert out.grad_fn.name() == "SlowConvDilated2DBackward0"
    assert torch.allclose(out, F.conv2d(x, w, None, 1, 1, 2))
    with pytest.raises(TypeError) as caught:
        torch._C._nn.slow_conv3d(x, w, 2, None, 1, 0, 1)
    assert str(caught.value) == "slow_conv3d() takes from 3 to 6 positional arguments but 7 " \
        "were given"
