"""The convolution's sizes, kept as the caller gave them, and computed with all the same.

torch's ConvolutionBackward0 keeps stride, padding, dilation and output padding as the
call passed them: a one-element list stands for every dimension, and padding="valid"
hands on (0,). A missing bias is kept as None by torch.convolution itself and as (0,)
by conv1d and its kin. The node's backward, and the gradient's own node, read the same
values: these tests check that the gradients are those of the spread sizes.
"""

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
