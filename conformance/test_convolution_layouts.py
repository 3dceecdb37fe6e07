"""Where a convolution's output and gradients are laid out: channels-last when the
input or the weight of a 2-d convolution is, row-major otherwise (1-d and 3-d too).
The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

CL, CL3 = torch.channels_last, torch.channels_last_3d


def _run(conv, x, w, **options):
    x, w = x.requires_grad_(), w.requires_grad_()
    out = conv(x, w, **options)
    gx, gw = torch.autograd.grad(out.sum(), [x, w])
    return out.stride(), gx.stride(), gw.stride()


@pytest.mark.parametrize(("x", "w", "options", "strides"), [
    (torch.rand(2, 3, 4, 4), torch.rand(2, 3, 2, 2), {},
     ((18, 9, 3, 1), (48, 16, 4, 1), (12, 4, 2, 1))),
    (torch.rand(2, 3, 4, 4).contiguous(memory_format=CL), torch.rand(2, 3, 2, 2), {},
     ((18, 1, 6, 2), (48, 1, 12, 3), (12, 1, 6, 3))),
    (torch.rand(2, 3, 4, 4), torch.rand(2, 3, 2, 2).contiguous(memory_format=CL), {},
     ((18, 1, 6, 2), (48, 1, 12, 3), (12, 1, 6, 3))),
    (torch.rand(2, 4, 5, 5), torch.rand(6, 2, 3, 3), {"groups": 2, "stride": 2, "padding": 1},
     ((54, 9, 3, 1), (100, 25, 5, 1), (18, 9, 3, 1))),
    (torch.rand(2, 3, 5, 5).contiguous(memory_format=CL), torch.rand(3, 1, 3, 3),
     {"groups": 3}, ((27, 1, 9, 3), (75, 1, 15, 3), (9, 1, 3, 1))),
    (torch.rand(2, 5, 5, 4).permute(0, 3, 1, 2), torch.rand(3, 4, 2, 2), {},
     ((48, 1, 12, 3), (100, 1, 20, 4), (16, 1, 8, 4))),
])
def test_conv2d_works_in_the_format_either_operand_suggests(x, w, options, strides):
    assert _run(F.conv2d, x, w, **options) == strides


def test_conv1d_and_conv3d_are_row_major_whatever_their_operands():
    assert _run(F.conv1d, torch.rand(2, 7, 3).permute(0, 2, 1), torch.rand(4, 3, 3)) == (
        (20, 5, 1), (21, 7, 1), (9, 3, 1))
    x = torch.rand(1, 2, 4, 4, 4).contiguous(memory_format=CL3)
    assert _run(F.conv3d, x, torch.rand(3, 2, 2, 2, 2)) == (
        (81, 27, 9, 3, 1), (128, 64, 16, 4, 1), (16, 8, 4, 2, 1))
