"""Black-box tests: what the max and average pools of torch.nn.functional refuse, in
torch's words.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

X = torch.ones(2, 3, 7, 6)
REFUSALS = [
    (lambda: F.max_pool2d(X, 3, 2, 2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
     "dilation=1"),
    (lambda: F.max_pool2d(X, 3, 0), "stride should not be zero"),
    (lambda: F.max_pool2d(X, 3, 1, -1), "pad must be non-negative, but got pad: -1"),
    (lambda: F.max_pool2d(X, 2, 1, 0, 0),
     "dilation should be greater than zero, but got dilationH: 0 dilationW: 0"),
    (lambda: F.max_pool2d(X, 0, 1),
     "kernel size should be greater than zero, but got kH: 0 kW: 0"),
    (lambda: F.max_pool2d(X, 2, -1), "stride should be greater than zero, but got dH: -1 dW: -1"),
    (lambda: F.max_pool2d(X, (3, 2, 1)),
     "max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(X, 3, (1, 2, 3)),
     "max_pool2d: stride must either be omitted, a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(X, 2, 2, 1, (2, 2, 2)),
     "max_pool2d: dilation must be either a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(X, 8),
     "Given input size: (3x7x6). Calculated output size: (3x0x0). Output size is too small"),
    (lambda: F.max_pool2d(torch.ones(7), 3),
     "non-empty 3D or 4D (batch mode) tensor expected for input"),
    (lambda: F.max_pool2d(torch.ones(2, 0, 3, 3), 3),
     "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
     "got:[2, 0, 3, 3]"),
    (lambda: F.max_pool3d(X, (2, 2)),
     "max_pool3d: kernel_size must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(X, 2, 2, (2, 2)),
     "max_pool3d: padding must either be a single int, or a tuple of three ints"),
    (lambda: F.max_pool3d(X[0, 0], 2), "non-empty 4D or 5D (batch mode) tensor expected for input"),
    (lambda: F.max_pool3d(X[None], 8),
     "Given input size: (2x3x7x6). Calculated output size: (2x0x0x0). Output size is too small"),
    (lambda: F.max_pool3d(X[None], 2, 1, 0, 0),
     "dilation should be greater than zero, but got dilationT: 0 dilationH: 0 dilationW: 0"),
    (lambda: F.max_pool1d(X[0], (3, 2)),
     "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got "
     "size 2"),
    (lambda: F.max_pool1d(X[0], 3, (1, 2)),
     "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got "
     "size 2"),
    (lambda: F.max_pool1d(X[0], 3, 1, 2),
     "max_pool1d() padding should be at most half of kernel size, but got padding=2 and "
     "kernel_size=3"),
    (lambda: F.max_pool1d(X[0], 3, 1, -1), "max_pool1d() padding must be non-negative, but got -1"),
    (lambda: F.max_pool1d(X[0], 0),
     "max_pool1d() kernel_size must be greater than zero, but got 0"),
    (lambda: F.max_pool1d(X[0], 3, 0), "max_pool1d() stride must be greater than zero, but got 0"),
    (lambda: F.max_pool1d(X[0], 3, 1, 1, 0),
     "max_pool1d() dilation must be greater than zero, but got 0"),
    (lambda: F.max_pool1d(X[0], 9), "max_pool1d() Invalid computed output size: 0"),
    (lambda: F.max_pool1d(X, 3),
     "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
     "input, but got:[2, 3, 7, 6]"),
    (lambda: F.max_pool1d(X, 3, return_indices=True),
     "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while "
     "checking arguments for max_pool1d)"),
    (lambda: F.avg_pool2d(X, 3, 2, 2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
     "dilation=1"),
    (lambda: F.avg_pool2d(X, (3, 2, 1)),
     "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.avg_pool2d(X, 3, 1, (1, 2, 3)),
     "avg_pool2d: padding must either be a single int, or a tuple of two ints"),
    (lambda: F.avg_pool2d(X, 3, divisor_override=0), "divisor must be not zero"),
    (lambda: F.avg_pool2d(X, 8),
     "Given input size: (3x7x6). Calculated output size: (3x0x0). Output size is too small"),
    (lambda: F.avg_pool3d(X[None], 3, 1, 2),
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
     "dilation=1"),
    (lambda: F.avg_pool3d(X[None], 8),
     "input image (T: 3 H: 7 W: 6) smaller than kernel size (kT: 8 kH: 8 kW: 8)"),
    (lambda: F.avg_pool3d(torch.ones(2, 0, 3, 3, 3), 3),
     "avg_pool3d(): Expected input's non-batch dimensions to have positive length, but input "
     "has a shape of [2, 0, 3, 3, 3] and non-batch dimension 0 has length zero!"),
    (lambda: F.avg_pool1d(X[0], (3, 2)),
     "avg_pool1d() argument 'kernel_size' should contain one int (got 2)"),
    (lambda: F.avg_pool1d(X, 3),
     "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' (while "
     "checking arguments for avg_pool1d)"),
    (lambda: F.avg_pool1d(X[0], 9),
     "Given input size: (7x1x6). Calculated output size: (7x1x0). Output size is too small"),
]


@pytest.mark.parametrize(("call", "message"), REFUSALS)
def test_refusals_in_torchs_words(call, message):
    with raises(RuntimeError, message):
        call()


def test_dtypes_without_a_kernel():
    for call, message in (
            (lambda: F.max_pool2d(X.bool(), 3), "\"max_pool2d\" not implemented for 'Bool'"),
            (lambda: F.max_pool3d(X[None].bool(), 3), "\"max_pool3d\" not implemented for 'Bool'"),
            (lambda: F.max_pool1d(X[0].long(), 3),
             "\"max_pool1d_impl\" not implemented for 'Long'"),
            (lambda: F.avg_pool2d(X.int(), 3), "\"avg_pool2d\" not implemented for 'Int'"),
            (lambda: F.avg_pool3d(X[None].half(), 3),
             "\"avg_pool3d_out_frame\" not implemented for 'Half'")):
        with raises(NotImplementedError, message):
            call()
    assert F.max_pool1d(X[0].long(), 3, return_indices=True)[0].dtype == torch.int64
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got "
                            "-3)"):
        F.avg_pool2d(torch.ones(2, 3), 2)
    with pytest.raises(TypeError, match=r"^avg_pool2d\(\): argument 'kernel_size' \(position 2\) "
                                        r"must be tuple of ints, not float$"):
        F.avg_pool2d(X, 1.5)
    assert F.avg_pool1d is torch.avg_pool1d and F.max_pool1d is not torch.max_pool1d
