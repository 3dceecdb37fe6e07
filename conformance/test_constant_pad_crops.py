"""A constant pad that only crops (no amount positive) is a copy of the narrowed input,
laid out as torch's preserve_format lays out a copy of that view: the input's order of
dimensions, and for an empty input its strides; the gradient of a pad is such a crop.
"""

import pytest
import torch
import torch.nn.functional as F


def _input(shape, layout):
    if layout == "transposed":
        return torch.arange(float(shape[0] * shape[1])).reshape(shape[::-1]).t()
    x = torch.zeros(shape)
    return x.contiguous(memory_format=torch.channels_last) if layout == "channels_last" else x


@pytest.mark.parametrize(("shape", "layout", "pad", "strides"), [
    ((0, 2, 6, 6), None, (-1, -1, -1, -1), (72, 36, 6, 1)),
    ((2, 0, 6, 6), None, (-1, -1, -1, -1), (36, 36, 6, 1)),
    ((0, 6, 6), None, (-1, 0, -2, -1), (36, 6, 1)),
    ((0, 2, 6, 6), "channels_last", (-1, -1, -1, -1), (72, 1, 12, 2)),
    ((2, 3, 6, 6), None, (-1, -1, -1, -1), (48, 16, 4, 1)),
    ((2, 3, 6, 6), "channels_last", (-1, -1, -1, -1), (48, 1, 12, 3)),
    ((6, 5), "transposed", (-1, -1, -1, 0), (1, 5)),
    ((6, 5), "transposed", (0, 0), (1, 6)),
    ((0, 2, 6, 6), None, (1, -1, -1, -1), (48, 24, 6, 1))])
def test_a_crop_is_laid_out_as_a_copy_of_the_narrowed_input(shape, layout, pad, strides):
    x = _input(shape, layout)
    out = F.pad(x, pad, value=2.0)
    assert out.stride() == strides
    if layout == "transposed":
        rows = x.tolist()
        before, after = (-pad[2], -pad[3]) if len(pad) == 4 else (0, 0)
        left, right = -pad[0], -pad[1]
        expected = [r[left:len(r) - right] for r in rows[before:len(rows) - after]]
        assert out.tolist() == expected


@pytest.mark.parametrize(("shape", "strides"), [
    ((0, 2, 4, 4), (72, 36, 6, 1)), ((2, 0, 4, 4), (36, 36, 6, 1))])
def test_the_gradient_of_a_pad_of_an_empty_tensor_keeps_the_padded_strides(shape, strides):
    x = torch.zeros(shape, requires_grad=True)
    out = F.pad(x, (1, 1, 1, 1), value=1.0)
    (grad,) = torch.autograd.grad((out * out).sum(), x)
    assert grad.shape == x.shape and grad.stride() == strides


def test_the_gradient_of_a_pad_of_a_transposed_tensor_follows_the_padded_gradient():
    x = _input((5, 6), "transposed").requires_grad_()
    out = F.pad(x, (1, 2, 0, 1), value=1.0)
    (grad,) = torch.autograd.grad((out * out).sum(), x)
    assert grad.stride() == (6, 1) and grad.tolist() == (2 * x).tolist()  # out is row-major
