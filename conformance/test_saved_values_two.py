"""The convolution's sizes kept as the caller gave them; torch._C._nn's upsampling kernels.

torch's ConvolutionBackward0 keeps stride, padding, dilation and output padding as the
call passed them: a one-element list stands for every dimension, and padding="valid"
hands on (0,). A missing bias is kept as None by torch.convolution itself and as (0,)
by conv1d and its kin. The node's backward, and the gradient's own node, read the same
values: these tests check that the gradients are those of the spread sizes. The
upsampling kernels come in two forms, each with its own checks, before those they share.
"""

import pickle

import pytest
import torch
import torch.nn.functional as F


def _leaves(*shapes):
    gen = torch.Generator().manual_seed(0)
    return [torch.rand(*s, generator=gen, dtype=torch.float64, requires_grad=True)
            for s in shapes]


def _grads(out, leaves):
    return torch.autograd.grad((out * out).sum(), leaves, create_graph=True)


def test_short_sizes_give_the_spread_sizes_gradients():
    x, w, b = _leaves((1, 2, 5, 5), (2, 2, 2, 2), (2,))
    short = torch.convolution(x, w, b, [2], [1], [1], False, [0], 1)
    spread = torch.convolution(x, w, b, [2, 2], [1, 1], [1, 1], False, [0, 0], 1)
    node = short.grad_fn
    assert (node._saved_stride, node._saved_padding, node._saved_output_padding) == (
        (2,), (1,), (0,))
    assert torch.equal(short, spread)
    for a, c in zip(_grads(short, (x, w, b)), _grads(spread, (x, w, b))):
        assert torch.allclose(a, c)


def test_the_gradients_node_keeps_them_as_given():
    x, w = _leaves((1, 1, 4, 4), (1, 1, 2, 2))
    gx, gw = _grads(torch.convolution(x, w, None, [2], [1], [1], False, [0], 1), (x, w))
    node = gx.grad_fn
    while node.name() != "ConvolutionBackwardBackward0":
        node = node.next_functions[0][0]
    assert (node._saved_stride, node._saved_padding, node._saved_dilation) == (
        (2,), (1,), (1,))
    twice = torch.autograd.grad(gx.sum() + gw.sum(), (x, w))
    spread = _grads(torch.convolution(x, w, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1),
                    (x, w))
    again = torch.autograd.grad(spread[0].sum() + spread[1].sum(), (x, w))
    for a, c in zip(twice, again):
        assert torch.allclose(a, c)


def test_valid_padding_hands_on_one_zero():
    x, w = _leaves((1, 1, 4, 4, 4), (1, 1, 2, 2, 2))
    node = F.conv3d(x, w, padding="valid").grad_fn
    assert (node._saved_padding, node._saved_output_padding, node._saved_stride) == (
        (0,), (0,), (1, 1, 1))
    node = F.conv3d(x, w, padding=0).grad_fn
    assert (node._saved_padding, node._saved_output_padding) == ((0, 0, 0), (0, 0, 0))


def test_a_missing_bias_kept_as_its_caller_passes_it():
    x, w = _leaves((1, 1, 3, 3), (1, 1, 2, 2))
    assert torch.convolution(x, w, None, [1], [0], [1], False, [0], 1).grad_fn \
        ._saved_bias_sym_sizes_opt is None
    assert F.conv2d(x, w).grad_fn._saved_bias_sym_sizes_opt == (0,)
    assert F.conv_transpose2d(x, w).grad_fn._saved_bias_sym_sizes_opt == (0,)
    out = torch.convolution(x, w, None, [1], [0], [1], False, [0], 1)
    grads = torch.autograd.grad(out.sum(), (x, w))
    assert torch.allclose(grads[1], x.detach()[..., :2, :2] + x.detach()[..., 1:, :2]
                          + x.detach()[..., :2, 1:] + x.detach()[..., 1:, 1:])


def test_sizes_read_after_the_graph_is_freed():
    x, w = _leaves((1, 1, 4, 4), (1, 1, 2, 2))
    out = torch.convolution(x, w, None, [2], [1], [1], False, [0], 1)
    out.sum().backward()
    assert (out.grad_fn._saved_padding, out.grad_fn._saved_bias_sym_sizes_opt) == ((1,), None)


# torch._C._nn's upsampling kernels, by their own names


def _image():
    return torch.arange(12.0, dtype=torch.float64).reshape(1, 1, 3, 4).sin().requires_grad_()


@pytest.mark.parametrize(("call", "message"), [
    (lambda x: torch._C._nn.upsample_bilinear2d(x, None, False, None),
     "Must specify exactly one of output_size and scale_factors"),
    (lambda x: torch._C._nn.upsample_nearest2d(x, [6, 8], [2.0, 2.0]),
     "Must specify exactly one of output_size and scale_factors"),
    (lambda x: torch._C._nn.upsample_bilinear2d(x, None, False, [2.0]),
     "Expected static_cast<int64_t>(scale_factors->size()) == spatial_dimensions to be true"),
    (lambda x: torch._C._nn.upsample_nearest2d(x, [6], None),
     "Expected static_cast<int64_t>(output_size->size()) == spatial_dimensions to be true"),
    (lambda x: torch._C._nn.upsample_bilinear2d(x, [6, 8, 2], False),
     "It is expected output_size equals to 2, but got size 3"),
    (lambda x: torch._C._nn.upsample_linear1d(x, [6], False),
     "It is expected input_size equals to 3, but got size 4"),
    (lambda x: torch._C._nn.upsample_nearest2d(x, [0, 8]),
     "Input and output sizes should be greater than 0, but got input (H: 3, W: 4) output "
     "(H: 0, W: 8)"),
    (lambda x: torch._C._nn.upsample_nearest2d(x, [6, 8], out=torch.empty(0).double()),
     "upsample_nearest2d(): functions with out=... arguments don't support automatic "
     "differentiation, but one of the arguments requires grad."),
])
def test_upsampling_refusals(call, message):
    with pytest.raises(RuntimeError) as info:
        call(_image())
    assert str(info.value).startswith(message)


def test_upsampling_forms_and_what_the_node_keeps():
    f = torch._C._nn.upsample_bicubic2d
    assert (f.__name__, f.__module__) == ("upsample_bicubic2d", f"{torch.__name__}._C._nn")
    assert pickle.loads(pickle.dumps(f)) is f is torch._C._nn.upsample_bicubic2d
    x = _image()
    node = torch._C._nn.upsample_nearest2d(x, 5).grad_fn  # one size for both dimensions
    assert node._saved_output_size == (5, 5) and node._saved_scales_h is None
    out = torch._C._nn.upsample_bilinear2d(x, None, True, [1.5, 2])  # sizes truncated
    assert out.shape == (1, 1, 4, 8)
    assert (out.grad_fn._saved_scales_h, out.grad_fn._saved_scales_w) == (1.5, 2.0)
    node = torch._C._nn.upsample_nearest2d(x, [6, 8], scales_w=2).grad_fn
    assert (node._saved_scales_h, node._saved_scales_w) == (None, 2.0)
    written = torch.empty(0, dtype=torch.float64)
    torch._C._nn.upsample_nearest2d(x.detach(), [6, 8], out=written)
    assert torch.equal(written, x.detach().repeat_interleave(2, 2).repeat_interleave(2, 3))


def test_a_linear_scale_past_the_end_reads_the_last_position():
    x = torch.tensor([[[1.0, 2.0]]], dtype=torch.float64, requires_grad=True)
    out = torch._C._nn.upsample_linear1d(x, [4], False, 1.0)
    assert out.tolist() == [[[1.0, 2.0, 2.0, 2.0]]]
    (grad,) = torch.autograd.grad(out.sum(), x)
    assert grad.tolist() == [[[1.0, 3.0]]]
