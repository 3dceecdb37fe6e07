"""Black-box tests: pixel_shuffle, pixel_unshuffle, channel_shuffle, unfold and fold, and their
modules: values against NumPy, the nodes they record, layouts, gradients, refusals.
"""

import itertools

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises, saved_names

RNG = np.random.default_rng(23)
CL = torch.channels_last


def _pixel_shuffle(a, r):
    *lead, c, h, w = a.shape
    moved = a.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    moved = moved.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return moved.reshape(*lead, c // (r * r), h * r, w * r)


SHUFFLES = [  # function, its inverse's name, shape, factor, node, saved attribute
    (F.pixel_shuffle, (2, 8, 3, 2), 2, "PixelShuffleBackward0", "_saved_upscale_factor"),
    (F.pixel_shuffle, (3, 2, 9, 1, 2), 3, "PixelShuffleBackward0", "_saved_upscale_factor"),
    (F.pixel_shuffle, (3, 2, 2), 1, "PixelShuffleBackward0", "_saved_upscale_factor"),
    (F.pixel_unshuffle, (2, 2, 4, 6), 2, "PixelUnshuffleBackward0", "_saved_downscale_factor"),
    (F.channel_shuffle, (2, 6, 3, 2), 3, "ChannelShuffleBackward0", "_saved_groups"),
    (F.channel_shuffle, (2, 6, 3), 2, "ChannelShuffleBackward0", "_saved_groups"),
]


def _expected(function, a, factor):
    if function is F.pixel_shuffle:
        return _pixel_shuffle(a, factor)
    if function is F.pixel_unshuffle:  # the inverse: found by shuffling positions back
        *lead, c, h, w = a.shape
        r = factor
        moved = a.reshape(*lead, c, h // r, r, w // r, r)
        n = len(lead)
        moved = moved.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
        return moved.reshape(*lead, c * r * r, h // r, w // r)
    batch, c, *rest = a.shape
    return a.reshape(batch, factor, c // factor, *rest).swapaxes(1, 2).reshape(a.shape)


@pytest.mark.parametrize(("function", "shape", "factor", "node", "saved"), SHUFFLES)
def test_shuffles_copy_record_their_node_and_differentiate_to_their_inverse(
        function, shape, factor, node, saved):
    data = RNG.uniform(-1.0, 1.0, shape)
    x = torch.tensor(data.tolist(), dtype=torch.float64, requires_grad=True)
    out = function(x, factor)
    np.testing.assert_array_equal(out.detach().numpy(), _expected(function, data, factor))
    assert out.is_contiguous() and out.data_ptr() != x.data_ptr() and out._base is None
    assert type(out.grad_fn).__name__ == node and saved_names(out.grad_fn) == [saved]
    assert getattr(out.grad_fn, saved) == factor
    g = torch.tensor(RNG.uniform(-1.0, 1.0, tuple(out.shape)).tolist(), dtype=torch.float64,
                     requires_grad=True)
    (grad,) = torch.autograd.grad(out, x, g, create_graph=True)
    assert torch.equal(function(grad, factor), g)  # the gradient undoes the shuffle
    inverse = {"PixelShuffleBackward0": "PixelUnshuffleBackward0",
               "PixelUnshuffleBackward0": "PixelShuffleBackward0"}.get(node, node)
    assert type(grad.grad_fn).__name__ == inverse
    assert torch.autograd.gradgradcheck(lambda t: function(t, factor), (x,))


@pytest.mark.parametrize(("function", "x", "factor", "strides"), [
    (F.pixel_shuffle, torch.rand(2, 8, 3, 2).contiguous(memory_format=CL), 2, (48, 1, 8, 2)),
    (F.pixel_shuffle, torch.rand(2, 8, 2, 3).transpose(2, 3), 2, (48, 24, 4, 1)),
    (F.pixel_unshuffle, torch.rand(2, 3, 4, 2).contiguous(memory_format=CL), 1, (24, 1, 6, 3)),
    (F.pixel_unshuffle, torch.rand(2, 2, 4, 4).contiguous(memory_format=CL), 2, (32, 1, 16, 8)),
    (F.channel_shuffle, torch.rand(2, 6, 3, 2).contiguous(memory_format=CL), 3, (36, 1, 12, 6)),
    (F.channel_shuffle, torch.rand(2, 4, 2, 2, 2).contiguous(memory_format=torch.channels_last_3d),
     2, (32, 1, 16, 8, 4)),
    (F.channel_shuffle, torch.rand(2, 3, 6).transpose(1, 2), 2, (18, 3, 1)),
])
def test_shuffles_lay_out_their_result_in_the_suggested_format(function, x, factor, strides):
    assert function(x, factor).stride() == strides
    assert function(x.to(torch.int32), factor).stride() == strides


SHUFFLE_REFUSALS = [
    (lambda: F.pixel_shuffle(torch.ones(4, 2), 2),
     "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 "
     "dimension(s)"),
    (lambda: F.pixel_shuffle(torch.ones(1, 4, 2, 2), 0),
     "pixel_shuffle expects a positive upscale_factor, but got 0"),
    (lambda: F.pixel_shuffle(torch.ones(1, 6, 2, 2), 2),
     "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
     "upscale_factor, but input.size(-3)=6 is not divisible by 4"),
    (lambda: F.pixel_shuffle(torch.ones(1, 4, 2, 2, 2).contiguous(
        memory_format=torch.channels_last_3d), 1),
     "Unsupported memory format. Supports only ChannelsLast, Contiguous"),
    (lambda: F.pixel_unshuffle(torch.ones(4), 2),
     "pixel_unshuffle expects input to have at least 3 dimensions, but got input with 1 "
     "dimension(s)"),
    (lambda: F.pixel_unshuffle(torch.ones(1, 1, 4, 4), -1),
     "pixel_unshuffle expects a positive downscale_factor, but got -1"),
    (lambda: F.pixel_unshuffle(torch.ones(1, 1, 3, 4), 2),
     "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=3 "
     "is not divisible by 2"),
    (lambda: F.pixel_unshuffle(torch.ones(1, 1, 4, 3), 2),
     "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=3 "
     "is not divisible by 2"),
    (lambda: F.channel_shuffle(torch.ones(4, 2), 2),
     "channel_shuffle expects input with > 2 dims, but got input with sizes [4, 2]"),
    (lambda: F.channel_shuffle(torch.ones(1, 4, 2), 0),
     "Number of groups to divide channels in must be positive. Value of groups:0"),
    (lambda: F.channel_shuffle(torch.ones(1, 6, 2), 4),
     "Number of channels must be divisible by groups. Got 6 channels and 4 groups."),
    # the gradient of a shuffle without channels asks for zero groups
    (lambda: F.channel_shuffle(torch.ones(1, 0, 2, requires_grad=True), 2).sum().backward(),
     "Number of groups to divide channels in must be positive. Value of groups:0"),
]


@pytest.mark.parametrize(("call", "message"), SHUFFLE_REFUSALS)
def test_shuffle_refusals_in_torchs_words(call, message):
    with raises(RuntimeError, message):
        call()


def test_shuffle_functions_and_modules():
    assert torch.pixel_shuffle(torch.ones(4, 1, 1), 2).shape == (1, 2, 2)
    assert torch.pixel_unshuffle(torch.ones(1, 2, 2), 2).shape == (4, 1, 1)
    assert torch.channel_shuffle(torch.ones(1, 4, 1), 2).shape == (1, 4, 1)
    with raises(TypeError, "pixel_shuffle(): argument 'upscale_factor' (position 2) must be "
                           "int, not float"):
        F.pixel_shuffle(torch.ones(4, 1, 1), 2.0)
    assert F.pixel_shuffle(torch.ones(0, 4, 2, 2), 2).shape == (0, 1, 4, 4)
    assert F.pixel_shuffle(torch.ones(4, 1, 1, dtype=torch.bool), 2).dtype == torch.bool
    modules = [torch.nn.PixelShuffle(2), torch.nn.PixelUnshuffle(3), torch.nn.ChannelShuffle(2)]
    assert [repr(m) for m in modules] == [
        "PixelShuffle(upscale_factor=2)", "PixelUnshuffle(downscale_factor=3)",
        "ChannelShuffle(groups=2)"]
    x = torch.arange(36.0).view(1, 4, 3, 3)
    assert torch.equal(modules[0](x), F.pixel_shuffle(x, 2))
    assert torch.equal(modules[1](x), F.pixel_unshuffle(x, 3))
    assert torch.equal(modules[2](x), F.channel_shuffle(x, 2))


@pytest.mark.parametrize(("x", "strides"), [
    (torch.zeros(1, 1, 0, 6), (6, 6, 6, 1)),
    (torch.zeros(0, 1, 2, 2), (4, 4, 2, 1)),
    (torch.zeros(1, 0, 2, 2).permute(0, 1, 3, 2), (4, 4, 1, 2)),
    (torch.zeros(2, 0, 4, 4)[:, :, ::2, ::2], (16, 16, 8, 2)),
])
def test_an_empty_pixel_unshuffle_is_a_copy_of_its_input(x, strides):
    y = F.pixel_unshuffle(x, 2)  # torch's kernel clones an empty input, unshuffled or not
    assert y.shape == x.shape and y.stride() == strides
    assert F.pixel_shuffle(x, 1).shape == x.shape


def test_an_empty_pixel_shuffles_gradient_is_refused_for_its_shape():
    x = torch.zeros(1, 4, 0, 3, requires_grad=True)
    y = F.pixel_shuffle(x, 2)
    assert y.shape == (1, 1, 0, 6)
    with raises(RuntimeError, "Function PixelShuffleBackward0 returned an invalid gradient at "
                              "index 0 - got [1, 1, 0, 6] but expected shape compatible with "
                              "[1, 4, 0, 3]"):
        y.sum().backward()
    leaf = torch.zeros(0, 3, requires_grad=True)  # an expanded view, as found
    with raises(RuntimeError, "Function PixelShuffleBackward0 returned an invalid gradient at "
                              "index 0 - got [1, 1, 0, 6] but expected shape compatible with "
                              "[1, 4, 0, 3]"):
        F.pixel_shuffle(leaf[None, None].expand(1, 4, 0, 3), 2).sum().backward()


def test_an_empty_pixel_unshuffles_gradient_is_checked_as_a_shuffle():
    x = torch.zeros(1, 1, 0, 6, requires_grad=True)
    y = F.pixel_unshuffle(x, 2)
    assert y.grad_fn.name() == "PixelUnshuffleBackward0"
    with raises(RuntimeError, "pixel_shuffle expects its input's 'channel' dimension to be "
                              "divisible by the square of upscale_factor, but input.size(-3)=1 "
                              "is not divisible by 4"):
        y.sum().backward()
    z = torch.zeros(1, 4, 0, 6, requires_grad=True)  # shuffled back to (1, 1, 0, 12)
    with raises(RuntimeError, "Function PixelUnshuffleBackward0 returned an invalid gradient "
                              "at index 0 - got [1, 1, 0, 12] but expected shape compatible "
                              "with [1, 4, 0, 6]"):
        F.pixel_unshuffle(z, 2).sum().backward()


def _unfold(a, kernel, dilation, padding, stride):
    """im2col's definition: column (block) by column, row (channel, tap) by row."""
    batched = a if a.ndim == 4 else a[None]
    padded = np.pad(batched, [(0, 0), (0, 0), *((p, p) for p in padding)])
    blocks = [(n + 2 * p - d * (k - 1) - 1) // s + 1
              for n, k, d, p, s in zip(a.shape[-2:], kernel, dilation, padding, stride)]
    out = np.zeros((batched.shape[0], batched.shape[1] * kernel[0] * kernel[1],
                    blocks[0] * blocks[1]), a.dtype)
    for c, i, j in itertools.product(range(batched.shape[1]), range(kernel[0]),
                                     range(kernel[1])):
        row = (c * kernel[0] + i) * kernel[1] + j
        for bh, bw in itertools.product(range(blocks[0]), range(blocks[1])):
            out[:, row, bh * blocks[1] + bw] = padded[:, c, bh * stride[0] + i * dilation[0],
                                                      bw * stride[1] + j * dilation[1]]
    return out if a.ndim == 4 else out[0]


FOLDS = [  # input shape, kernel, dilation, padding, stride
    ((2, 3, 5, 4), (2, 3), (1, 1), (1, 1), (2, 1)),
    ((3, 6, 5), (2, 2), (2, 1), (0, 0), (1, 1)),
    ((1, 2, 7, 6), (3, 3), (2, 2), (2, 2), (2, 2)),
]


@pytest.mark.parametrize(("shape", "kernel", "dilation", "padding", "stride"), FOLDS)
def test_unfold_and_fold_values_nodes_and_gradients(shape, kernel, dilation, padding, stride):
    data = RNG.uniform(-1.0, 1.0, shape)
    x = torch.tensor(data.tolist(), dtype=torch.float64, requires_grad=True)
    cols = F.unfold(x, kernel, dilation, padding, stride)
    np.testing.assert_array_equal(cols.detach().numpy(),
                                  _unfold(data, kernel, dilation, padding, stride))
    node = cols.grad_fn
    assert type(node).__name__ == "Im2ColBackward0" and cols.is_contiguous()
    assert saved_names(node) == [
        "_saved_dilation", "_saved_kernel_size", "_saved_padding",
        "_saved_self_sym_argsize_minus_1", "_saved_self_sym_argsize_minus_2", "_saved_stride"]
    assert (node._saved_kernel_size, node._saved_dilation, node._saved_padding,
            node._saved_stride) == (kernel, dilation, padding, stride)
    assert (node._saved_self_sym_argsize_minus_2, node._saved_self_sym_argsize_minus_1) == (
        shape[-2:])
    g = torch.tensor(RNG.uniform(-1.0, 1.0, tuple(cols.shape)).tolist(), dtype=torch.float64,
                     requires_grad=True)
    (grad,) = torch.autograd.grad(cols, x, g, create_graph=True)
    folded = F.fold(g, shape[-2:], kernel, dilation, padding, stride)
    assert torch.equal(grad, folded)  # fold is unfold's adjoint
    assert type(grad.grad_fn).__name__ == type(folded.grad_fn).__name__ == "Col2ImBackward0"
    assert saved_names(folded.grad_fn) == [
        "_saved_dilation", "_saved_kernel_size", "_saved_padding", "_saved_stride"]
    (again,) = torch.autograd.grad(folded, g, torch.ones_like(folded).requires_grad_(),
                                   create_graph=True)
    assert type(again.grad_fn).__name__ == "Im2ColBackward0"
    # <unfold(x), g> = <x, fold(g)>
    assert abs((cols * g).sum().item() - (x * folded).sum().item()) < 1e-12
    assert torch.autograd.gradgradcheck(
        lambda t: F.fold(t, shape[-2:], kernel, dilation, padding, stride), (g,))


def test_fold_adds_in_the_dtype_as_torchs_kernel_does():
    cols = torch.full((1, 9, 4), 0.1, dtype=torch.float16)
    out = F.fold(cols, (4, 4), 3)
    total = np.float16(0.0)
    for _ in range(4):  # the middle positions gather four columns' numbers, one at a time
        total = np.float16(total + np.float16(0.1))
    assert out.dtype == torch.float16 and out[0, 0, 1, 1].item() == float(total)
    assert F.fold(torch.ones(1, 4, 4, dtype=torch.bool), 3, 2).tolist() == [[[[True] * 3] * 3]]
    x = torch.rand(2, 3, 5, 4).contiguous(memory_format=CL).requires_grad_()
    cols = F.unfold(x, 2)
    assert cols.stride() == (144, 12, 1)
    assert torch.autograd.grad(cols, x, torch.ones_like(cols))[0].stride() == (60, 20, 4, 1)
    assert F.unfold(torch.ones(3, 5, 4), 2).shape == (12, 12)  # unbatched, no squeeze
    assert type(F.fold(torch.ones(12, 12, requires_grad=True), (4, 5), 2).grad_fn).__name__ == (
        "Col2ImBackward0")


ONES = torch.ones
FOLD_REFUSALS = [
    (lambda: F.unfold(ONES(1, 2, 3, 4, 5), 2), RuntimeError,
     "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
     "dimensions for input, but got: [1, 2, 3, 4, 5]"),
    (lambda: F.unfold(ONES(2, 0, 5, 4), 2), RuntimeError,
     "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
     "dimensions for input, but got: [2, 0, 5, 4]"),
    (lambda: F.unfold(ONES(3, 4), 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: F.unfold(ONES(3), 2), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: F.unfold(ONES(3, 4), 0), RuntimeError,
     "kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 0"),
    (lambda: F.unfold(ONES(2, 3, 5, 4), 2, dilation=0, padding=-1, stride=0), RuntimeError,
     "dilation should be greater than zero, but got dilation_height: 0 dilation_width: 0"),
    (lambda: F.unfold(ONES(2, 3, 5, 4), 2, padding=-1, stride=0), RuntimeError,
     "padding should be non-negative, but got pad_height: -1 pad_width: -1"),
    (lambda: F.unfold(ONES(2, 3, 5, 4), 2, stride=0), RuntimeError,
     "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    (lambda: F.unfold(ONES(2, 3, 5, 4), (2, 5), dilation=(1, 2)), RuntimeError,
     "Given input with spatial size (5, 4), kernel_size=(2, 5), dilation=(1, 2), padding=(0, 0), "
     "calculated shape of the array of sliding blocks as (4, -4), but its components must be at "
     "least one."),
    (lambda: F.unfold(ONES(1, 1, 4, 4), 6, stride=3), RuntimeError,  # rounded down
     "Given input with spatial size (4, 4), kernel_size=(6, 6), dilation=(1, 1), padding=(0, 0), "
     "calculated shape of the array of sliding blocks as (0, 0), but its components must be at "
     "least one."),
    (lambda: F.unfold(ONES(2, 3, 5, 4), (2, 2, 2), dilation=(1, 1, 1)), RuntimeError,
     "It is expected kernel_size equals to 2, but got size 3"),
    (lambda: F.unfold(ONES(1, 1, 3, 3, dtype=torch.int64), 2), NotImplementedError,
     "\"im2col_out_cpu\" not implemented for 'Long'"),
    (lambda: F.unfold(ONES(1, 1, 3, 3), 2.0), TypeError,
     "im2col(): argument 'kernel_size' (position 2) must be tuple of ints, but found element of "
     "type float at pos 0"),
    (lambda: F.fold(ONES(2, 12, 6, 1), (3, 4), 2), RuntimeError,
     "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
     "dimensions for input, but got: [2, 12, 6, 1]"),
    (lambda: F.fold(ONES(2, 12, 0), (3, 4), 2), RuntimeError,
     "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
     "dimensions for input, but got: [2, 12, 0]"),
    (lambda: F.fold(ONES(2, 10, 6), (3, 4), 2), RuntimeError,
     "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
     "got input.size(1)=10 and kernel_size=(2, 2)."),
    (lambda: F.fold(ONES(12, 5), (3, 4), 2), RuntimeError,
     "Given output_size=(3, 4), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, "
     "1), expected size of input's dimension 2 to match the calculated number of sliding blocks "
     "2 * 3 = 6, but got input.size(2)=5."),
    (lambda: F.fold(ONES(1, 4, 1), (1, 1), 2, stride=3), RuntimeError,
     "Given output_size=(1, 1), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(3, "
     "3), expected size of input's dimension 2 to match the calculated number of sliding blocks "
     "0 * 0 = 0, but got input.size(2)=1."),
    (lambda: F.fold(ONES(2, 10, 5), (0, 4), 2, dilation=0, padding=-1, stride=0), RuntimeError,
     "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    (lambda: F.fold(ONES(2, 12, 6), (3, 4), 2, dilation=0, padding=-1), RuntimeError,
     "dilation should be greater than zero, but got dilation_height: 0 dilation_width: 0"),
    (lambda: F.fold(ONES(2, 12, 6), (3, 4, 5), (2, 2, 2)), RuntimeError,
     "It is expected output_size equals to 2, but got size 3"),
    (lambda: F.fold(ONES(1, 4, 4, dtype=torch.int32), 3, 2), NotImplementedError,
     "\"col2im_out_cpu\" not implemented for 'Int'"),
    (lambda: F.fold(ONES(1, 4, 1), "ab", 2), TypeError,
     "col2im(): argument 'output_size' (position 2) must be tuple of ints, but found element of "
     "type str at pos 0"),
]


@pytest.mark.parametrize(("call", "kind", "message"), FOLD_REFUSALS)
def test_fold_refusals_in_torchs_words(call, kind, message):
    with raises(kind, message):
        call()


def test_fold_modules():
    unfold, fold = torch.nn.Unfold(2, padding=1), torch.nn.Fold((4, 5), 2)
    assert repr(unfold) == "Unfold(kernel_size=2, dilation=1, padding=1, stride=1)"
    assert repr(fold) == ("Fold(output_size=(4, 5), kernel_size=2, dilation=1, padding=0, "
                          "stride=1)")
    x = torch.arange(40.0).view(2, 4, 5)
    assert torch.equal(unfold(x), F.unfold(x, 2, padding=1))
    assert torch.equal(fold(F.unfold(x, 2)), F.fold(F.unfold(x, 2), (4, 5), 2))
    assert F.fold(torch.ones(0, 12, 6), (3, 4), 2).shape == (0, 3, 3, 4)
