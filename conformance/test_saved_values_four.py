"""thnn_conv2d's two nodes of its own, and torch._convolution's ConvolutionBackward1: what
they keep, what they compute, and how they refuse a call."""

import pickle
import warnings

import pytest
import torch

nn = torch._C._nn


def _leaf(*shape, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return (torch.rand(*shape, generator=gen, dtype=torch.float64) * 2 - 1).requires_grad_()


def _saved(node):
    return {name[7:]: getattr(node, name) for name in dir(node) if name.startswith("_saved_")
            and not isinstance(getattr(node, name), torch.Tensor)}


def _inputs():
    return _leaf(1, 2, 5, 5), _leaf(3, 2, 2, 2, seed=1), _leaf(3, seed=2)


def _refused(call, error, message):
    x, w, _ = _inputs()
    with pytest.raises(error) as caught:
        call(x, w)
    assert str(caught.value) == message


def test_thnn_conv2d_keeps_its_sizes_and_the_tensors():
    x, w, b = _inputs()
    node = nn.thnn_conv2d(x, w, 2, b, [2, 1], 1).grad_fn
    assert node.name() == "SlowConv2DBackward0"
    assert _saved(node) == {"kernel_size": (2, 2), "stride": (2, 1), "padding": (1, 1)}
    assert node._saved_self is x and node._saved_weight is w
    assert len(node.next_functions) == 3
    assert nn.thnn_conv2d(x, w, 2).grad_fn.next_functions[2] == (None, 0)


def test_thnn_conv2d_computes_the_convolution_and_its_gradients():
    x, w, b = _inputs()
    out = nn.thnn_conv2d(x, w, 2, b, [2, 1], 1)
    same = torch.nn.functional.conv2d(x, w, b, (2, 1), 1)
    assert torch.allclose(out, same)
    first = torch.autograd.grad((out * out).sum(), (x, w, b), create_graph=True)
    again = torch.autograd.grad((same * same).sum(), (x, w, b), create_graph=True)
    for mine, theirs in zip(first, again):
        assert torch.allclose(mine, theirs)
    second = torch.autograd.grad(sum((g * g).sum() for g in first), (x, w, b))
    expected = torch.autograd.grad(sum((g * g).sum() for g in again), (x, w, b))
    for mine, theirs in zip(second, expected):
        assert torch.allclose(mine, theirs)


def test_the_gradient_has_a_node_of_its_own():
    x, w, b = _inputs()
    gx, gw, gb = torch.autograd.grad(nn.thnn_conv2d(x, w, 2, b, 1, 1).sum(), (x, w, b),
                                     create_graph=True)
    node = gx.grad_fn
    assert node.name() == "SlowConv2DBackwardBackward0" and gw.grad_fn is node
    assert _saved(node) == {"stride": (1, 1), "padding": (1, 1)}
    assert node._saved_self is x and node._saved_weight is w
    assert tuple(node._saved_grad_output.shape) == (1, 3, 6, 6)
    assert gb.grad_fn is node


def test_a_weight_read_as_rows_of_the_kernel_size():
    x, w, _ = _inputs()
    out = nn.thnn_conv2d(x, w, [1, 4])
    assert out.shape == (1, 3, 5, 2)
    assert torch.allclose(out, torch.nn.functional.conv2d(x, w.reshape(3, 2, 1, 4)))
    matrix = _leaf(3, 8, seed=3)
    (grad,) = torch.autograd.grad(nn.thnn_conv2d(x, matrix, 2).sum(), matrix)
    assert grad.shape == (3, 8)


def test_no_input_channels_gives_the_bias_everywhere():
    x, w, b = _inputs()
    out = nn.thnn_conv2d(x[:, :0], w, 2, b)
    assert out.shape == (1, 3, 4, 4) and torch.equal(out[0, :, 0, 0], b.detach())
    gw, gb = torch.autograd.grad(out.sum(), (w, b))
    assert torch.equal(gb, torch.full((3,), 16.0, dtype=torch.float64))
    assert not gw.any()


def test_the_bias_may_be_of_another_dtype():
    x, w, b = _inputs()
    out = nn.thnn_conv2d(x, w, 2, b.detach().float())
    assert out.dtype == torch.float64
    ints = nn.thnn_conv2d(x.detach().mul(9).long(), w.detach().mul(9).long(), 2)
    assert ints.dtype == torch.int64


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda x, w: nn.thnn_conv2d(x, w, 3), RuntimeError,
     "Expected a tensor of dimension 4 and tensor.size[1] == 0 but got: dimension 4 and "
     "tensor.size[1] = 2"),
    (lambda x, w: nn.thnn_conv2d(x[0], w, 2), RuntimeError,
     "Expected 4D input tensor, but got: [2, 5, 5]"),
    (lambda x, w: nn.thnn_conv2d(x, w, 2, None, 0), RuntimeError,
     "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    (lambda x, w: nn.thnn_conv2d(x, w, -1), RuntimeError,
     "kernel size should be greater than zero, but got kernel_height: -1 kernel_width: -1"),
    (lambda x, w: nn.thnn_conv2d(x.float(), w, 2), RuntimeError,
     "expected scalar type Float but found Double"),
    (lambda x, w: nn.thnn_conv2d(x, w, [2, 2, 2]), RuntimeError, "2D kernel_size expected"),
    (lambda x, w: nn.thnn_conv2d(x, w, 2, None, [1, 2, 3], [1, 2, 3]), RuntimeError,
     "2D stride expected"),
    (lambda x, w: nn.thnn_conv2d(x, w, 2, None, 1, [1, 2, 3]), RuntimeError,
     "2D padding expected"),
    (lambda x, w: nn.thnn_conv2d(x, w, 2, _leaf(4)), RuntimeError,
     "Expected a tensor of dimension 1 and tensor.size[0] == 3 but got: dimension 1 and "
     "tensor.size[0] = 4"),
    (lambda x, w: nn.thnn_conv2d(x, w, 2, _leaf(2)[0]), IndexError,
     "Dimension specified as 0 but tensor has no dimensions"),
    (lambda x, w: nn.thnn_conv2d(x[:, :, :1], w, 2), RuntimeError,
     "Calculated padded input size per channel: (1 x 5). Kernel size: (2 x 2). Kernel size "
     "can't be greater than actual input size"),
    (lambda x, w: nn.thnn_conv2d(x, w[0], 2), RuntimeError,
     "non-empty 2D or 4D weight tensor expected, but got: [2, 2, 2]"),
    (lambda x, w: nn.thnn_conv2d(x, w[:0], 2), RuntimeError,
     "non-empty 2D or 4D weight tensor expected, but got: [0, 8]"),
    (lambda x, w: nn.thnn_conv2d(x[:, :, :, :0], w, 2), RuntimeError,
     "Expected non-zero size for input dimension 3, but got input shape: [1, 2, 5, 0]. Only "
     "the batch and channel dimensions support size 0."),
    (lambda x, w: nn.thnn_conv2d(x.detach().bool(), w.detach().bool(), 2),
     NotImplementedError, "\"slow_conv2d_cpu\" not implemented for 'Bool'"),
    (lambda x, w: nn.thnn_conv2d(x, w, 2, out=torch.empty(0, dtype=torch.float64)),
     RuntimeError, "_slow_conv2d_forward(): functions with out=... arguments don't support "
     "automatic differentiation, but one of the arguments requires grad."),
    (lambda x, w: nn.thnn_conv2d(x.detach(), w.detach(), 2, out=torch.empty(0)), RuntimeError,
     "expected scalar type Double but found Float"),
])
def test_thnn_conv2d_refuses_in_its_kernels_words(call, error, message):
    _refused(call, error, message)


def test_thnn_conv2d_resizes_its_out_silently_and_is_listed():
    x, w, _ = _inputs()
    out = torch.empty(3, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.thnn_conv2d(x.detach(), w.detach(), 2, out=out)
    assert out.shape == (1, 3, 4, 4)
    assert torch.allclose(out, torch.nn.functional.conv2d(x, w))
    assert "thnn_conv2d" in dir(nn)
    assert pickle.loads(pickle.dumps(nn.thnn_conv2d)) is nn.thnn_conv2d


def test_thnn_conv2d_has_no_forward_formula():
    x, w, _ = _inputs()
    fw = torch.autograd.forward_ad
    with fw.dual_level(), pytest.raises(NotImplementedError, match=(
            "^Trying to use forward AD with _slow_conv2d_forward that does not support it")):
        nn.thnn_conv2d(fw.make_dual(x.detach(), torch.ones_like(x)), w.detach(), 2)


_PLAIN = ([1, 1], [0, 0], [1, 1], False, [0, 0], 1, False, False, True)


def test_private_convolution_records_its_own_node():
    x, w, b = _inputs()
    old = torch._convolution(x, w, None, [2, 1], [1], [1], False, [0], 1, True, True, False)
    assert old.grad_fn.name() == "ConvolutionBackward1"
    assert _saved(old.grad_fn) == {
        "stride": (2, 1), "padding": (1,), "dilation": (1,), "transposed": False,
        "output_padding": (0,), "groups": 1, "bias_sym_sizes_opt": (0,)}
    assert old.grad_fn._saved_input is x and old.grad_fn._saved_weight is w
    new = torch._convolution(x, w, None, *_PLAIN, True)
    assert new.grad_fn._saved_bias_sym_sizes_opt is None
    biased = torch._convolution(x, w, b, *_PLAIN)
    assert biased.grad_fn._saved_bias_sym_sizes_opt == (3,)
    assert torch.allclose(biased, torch.nn.functional.conv2d(x, w, b))
    keywords = torch._convolution(
        input=x, weight=w, bias=b, stride=[1, 1], padding=[0, 0], dilation=[1, 1],
        transposed=False, output_padding=[0, 0], groups=1, benchmark=False,
        deterministic=False, cudnn_enabled=True, allow_tf32=True)
    assert keywords.grad_fn._saved_bias_sym_sizes_opt == (3,)


def test_private_convolution_differentiates_as_the_convolution():
    x, w, b = _inputs()
    out = torch._convolution(x, w.transpose(0, 1), None, [2], [1], [1], True, [1], 1, False,
                             False, True, False)
    same = torch.convolution(x, w.transpose(0, 1), None, [2], [1], [1], True, [1], 1)
    assert out.grad_fn.name() == "ConvolutionBackward1" and torch.allclose(out, same)
    gx, gw = torch.autograd.grad((out * out).sum(), (x, w), create_graph=True)
    assert gx.grad_fn.name() == "ConvolutionBackwardBackward0"
    ex, ew = torch.autograd.grad((same * same).sum(), (x, w), create_graph=True)
    assert torch.allclose(gx, ex) and torch.allclose(gw, ew)
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        dual = torch._convolution(fw.make_dual(x.detach(), torch.ones_like(x)), w.detach(),
                                  b.detach(), *_PLAIN)
        tangent = fw.unpack_dual(dual).tangent
    assert torch.allclose(tangent, torch.nn.functional.conv2d(torch.ones_like(x), w))


_HEAD = ("(Tensor input, Tensor weight, Tensor bias, tuple of ints stride, tuple of ints "
         "padding, tuple of ints dilation, bool transposed, tuple of ints output_padding, int "
         "groups, bool benchmark, bool deterministic, bool cudnn_enabled")
_COMBINATION = (
    "_convolution() received an invalid combination of arguments - got (Tensor, Tensor, "
    "NoneType, list, list, list, bool, list, int, bool, bool), but expected one of:\n"
    f" * {_HEAD})\n * {_HEAD}, bool allow_tf32)\n")


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda x, w: torch._convolution(x, w, None, [0, 1], *_PLAIN[1:]), RuntimeError,
     "non-positive stride is not supported"),
    (lambda x, w: torch._convolution(x, w, None, *_PLAIN[:5], 2, *_PLAIN[6:]), RuntimeError,
     "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of "
     "size [[3, 2, 2, 2]] instead"),
    (lambda x, w: torch._convolution(x, w, None, 1, *_PLAIN[1:]), TypeError,
     "_convolution(): argument 'stride' (position 4) must be tuple of ints, not int"),
    (lambda x, w: torch._convolution(x.float(), w, None, *_PLAIN), RuntimeError,
     "expected scalar type Float but found Double"),
    (lambda x, w: torch.autograd.grad(torch._convolution(
        x, w, None, *_PLAIN[:4], [1, 1], *_PLAIN[5:]).sum(), x), RuntimeError,
     "output_padding is not supported for non-transposed convolutions; got: 1 1"),
    (lambda x, w: torch._convolution(x, w, None, *_PLAIN[:-1]), TypeError, _COMBINATION),
])
def test_private_convolution_refuses_as_the_convolution(call, error, message):
    _refused(call, error, message)


def test_private_convolution_is_listed_and_pickled():
    assert "_convolution" in dir(torch)
    assert pickle.loads(pickle.dumps(torch._convolution)) is torch._convolution


def test_a_dispatch_mode_sees_torchs_operators():
    seen = []

    class Seen(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    x, w, _ = _inputs()
    with Seen():
        nn.thnn_conv2d(x, w, 2).sum().backward()
        torch._convolution(x, w, None, *_PLAIN).sum().backward()
    assert [name for name in seen if "conv" in name] == [
        "aten._slow_conv2d_forward.default", "aten._slow_conv2d_backward.output_mask",
        "aten._convolution.default", "aten.convolution_backward.default"]
