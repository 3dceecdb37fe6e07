"""A convolution of an empty batch runs torch's Empty backend: an empty weight's first element
fails, no kernel's checks run, and the result is laid out as a product and a view."""

import sys
import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises
from conformance._warned import caught_always

EMPTY = "select(): index 0 out of range for tensor of size [0] at dimension 0"


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scatter's reduce=, the deprecations, resized outs
        yield


@pytest.mark.parametrize("conv, input, weight, options", [
    (F.conv2d, (0, 1, 3, 3), (1, 1, 0, 1), {}),
    (F.conv2d, (0, 1, 3, 3), (1, 1, 1, 0), {"dilation": 0}),
    (F.conv2d, (0, 1, 0, 3), (1, 1, 0, 0), {"padding": 1, "stride": 2}),
    (F.conv2d, (0, 2, 3, 3), (2, 1, 0, 1), {"groups": 2}),
    (F.conv1d, (0, 1, 3), (1, 1, 0), {}),
    (F.conv3d, (0, 1, 3, 3, 3), (1, 1, 1, 1, 0), {}),
    (F.conv_transpose1d, (0, 1, 3), (1, 1, 0), {}),
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 1, 0, 1), {"output_padding": 3}),
    (F.conv_transpose2d, (0, 2, 3, 3), (2, 1, 0, 1), {"groups": 2, "stride": 2}),
    (F.conv_transpose3d, (0, 1, 3, 3, 3), (1, 1, 0, 1, 1), {"dilation": 0}),
])
def test_an_empty_batch_with_an_empty_kernel_fails_on_the_weights_first_element(
        conv, input, weight, options):
    with raises(IndexError, EMPTY):
        conv(torch.rand(input), torch.zeros(weight), **options)


@pytest.mark.parametrize("kinds", [(torch.float32, torch.float64), (torch.int64, torch.int64),
                                   (torch.float16, torch.float16)])
def test_the_index_error_comes_before_the_kernels_dtype_checks(kinds):
    with raises(IndexError, EMPTY):
        F.conv2d(torch.zeros(0, 1, 3, 3, dtype=kinds[0]), torch.zeros(1, 1, 0, 1, dtype=kinds[1]))


def test_the_shape_and_bias_checks_come_first():
    with raises(RuntimeError, "Input type (float) and bias type (double) should be the same"):
        F.conv2d(torch.rand(0, 1, 3, 3), torch.zeros(1, 1, 0, 1), torch.zeros(1).double())
    with raises(RuntimeError, "Given groups=1, expected weight to be at least 1 at dimension 0, "
                              "but got weight of size [0, 1, 0, 1] instead"):
        F.conv2d(torch.rand(0, 1, 3, 3), torch.zeros(0, 1, 0, 1))


def test_no_input_channels_compute_and_a_batch_reaches_the_kernel():
    assert F.conv2d(torch.rand(0, 0, 3, 3), torch.zeros(1, 0, 0, 1)).shape == (0, 0, 4, 3)
    with raises(RuntimeError, "kernel size should be greater than zero, but got kernel_height: "
                              "0 kernel_width: 1"):
        F.conv2d(torch.rand(1, 1, 3, 3), torch.zeros(1, 1, 0, 1))


@pytest.mark.parametrize("conv, input, weight, options, shape", [
    (F.conv2d, (0, 1, 3, 3), (1, 1, 2, 2), {"dilation": 0, "padding": 1}, (0, 1, 5, 5)),
    (F.conv1d, (0, 1, 3), (1, 1, 2), {"dilation": 0}, (0, 1, 3)),
    (F.conv3d, (0, 1, 3, 3, 3), (2, 1, 2, 2, 2), {"dilation": (0, 1, 0)}, (0, 2, 3, 2, 3)),
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 2, 2, 2), {"output_padding": 3}, (0, 2, 7, 7)),
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 1, 2, 2), {"dilation": 0}, (0, 1, 3, 3)),
    (F.conv_transpose1d, (0, 1, 3), (1, 1, 2), {"output_padding": 2}, (0, 1, 6)),
    (F.conv_transpose3d, (0, 1, 3, 3, 3), (1, 1, 2, 2, 2), {"output_padding": 2, "stride": 2},
     (0, 1, 8, 8, 8)),
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 2, 2, 2), {"padding": 2}, (0, 2, 0, 0)),
])
def test_an_empty_batch_skips_the_kernels_checks_of_dilation_and_output_padding(
        conv, input, weight, options, shape):
    assert conv(torch.rand(input), torch.rand(weight), **options).shape == shape


@pytest.mark.parametrize("conv, input, weight, options, message", [
    (F.conv_transpose2d, (0, 1, 3, 3), (1, 2, 2, 2), {"padding": (0, 3)},
     "invalid shape dimension -2 at index 3 of shape [0, 2, 4, -2]"),
    (F.conv_transpose1d, (0, 1, 3), (1, 2, 2), {"padding": 5},
     "invalid shape dimension -6 at index 3 of shape [0, 2, 1, -6]"),
    (F.conv_transpose3d, (0, 1, 3, 3, 3), (1, 2, 2, 2, 2), {"padding": (0, 5, 0)},
     "invalid shape dimension -6 at index 3 of shape [0, 2, 4, -6, 4]"),
])
def test_an_empty_transposed_result_of_negative_size_is_refused_by_its_view(
        conv, input, weight, options, message):
    with raises(RuntimeError, message):
        conv(torch.rand(input), torch.rand(weight), torch.zeros(2).double(), **options)


@pytest.mark.parametrize("conv, input, weight", [
    (F.conv2d, (1, 1, 3, 3), (1, 1, 2, 2)), (F.conv1d, (1, 1, 3), (1, 1, 2)),
    (F.conv2d, (1, 3, 3), (1, 1, 2, 1)), (F.conv3d, (0, 1, 3, 3, 3), (1, 1, 1, 2, 1)),
])
def test_same_padding_of_an_even_kernel_warns_at_the_callers_line(conv, input, weight):
    with caught_always(torch) as caught:
        line = sys._getframe().f_lineno + 1
        conv(torch.rand(input), torch.zeros(weight), padding="same")
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line)]
    assert str(caught[0].message).startswith("Using padding='same' with even kernel lengths")


def _channels_last(*shape):
    return torch.rand(shape).contiguous(memory_format=torch.channels_last)


@pytest.mark.parametrize("conv, input, weight, options, strides", [
    (F.conv2d, lambda: torch.rand(0, 1, 3, 3), (1, 1, 1, 1), {}, (9, 0, 3, 1)),
    (F.conv2d, lambda: torch.rand(0, 1, 3, 3), (1, 1, 2, 2), {"dilation": 0}, (9, 0, 3, 1)),
    (F.conv2d, lambda: _channels_last(0, 2, 3, 3), (2, 2, 1, 1), {}, (18, 1, 6, 2)),
    (F.conv2d, lambda: _channels_last(0, 2, 3, 3), (3, 2, 1, 1), {}, (27, 9, 3, 1)),
    (F.conv2d, lambda: _channels_last(0, 2, 3, 3), (2, 2, 2, 2), {}, (8, 4, 2, 1)),
    (F.conv2d, lambda: torch.rand(0, 2, 3, 4).transpose(2, 3), (2, 2, 1, 1), {},
     (24, 12, 1, 4)),
    (F.conv1d, lambda: torch.rand(0, 1, 3), (1, 1, 1), {}, (3, 0, 1)),
    (F.conv3d, lambda: torch.rand(0, 1, 3, 3, 3), (1, 1, 1, 1, 1), {}, (27, 0, 9, 3, 1)),
    (F.conv_transpose2d, lambda: _channels_last(0, 2, 3, 3), (2, 2, 1, 1), {}, (18, 1, 6, 2)),
    (F.conv_transpose2d, lambda: torch.rand(0, 1, 3, 3), (1, 1, 2, 2), {"dilation": 0},
     (9, 0, 3, 1)),
    (F.conv2d, lambda: torch.rand(2, 0, 3, 3), (2, 0, 1, 1), {}, (9, 9, 3, 1)),
])
def test_an_empty_result_is_laid_out_as_the_product_viewed_to_its_sizes(
        conv, input, weight, options, strides):
    assert conv(input(), torch.rand(weight), **options).stride() == strides
