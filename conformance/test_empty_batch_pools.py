"""Pools, pads and convolutions of an empty batch: an empty result of the right shape and
strides, the node torch records, empty gradients (first and second) of the input's
layout; and the refusals torch makes where another dimension is empty.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import preorder_names, raises

CASES = {
    "max_pool1d": (3, lambda x: F.max_pool1d(x, 2), "SqueezeBackward1"),
    "max_pool2d": (4, lambda x: F.max_pool2d(x, 2), "MaxPool2DWithIndicesBackward0"),
    "max_pool2d_ceil": (4, lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True),
                        "MaxPool2DWithIndicesBackward0"),
    "max_pool3d": (5, lambda x: F.max_pool3d(x, 2), "MaxPool3DWithIndicesBackward0"),
    "max_pool2d_indices": (4, lambda x: F.max_pool2d(x, 2, return_indices=True)[0],
                           "MaxPool2DWithIndicesBackward0"),
    "adaptive_max_pool1d": (3, lambda x: F.adaptive_max_pool1d(x, 3), "SqueezeBackward1"),
    "adaptive_max_pool2d": (4, lambda x: F.adaptive_max_pool2d(x, 3),
                            "AdaptiveMaxPool2DBackward0"),
    "adaptive_max_pool3d": (5, lambda x: F.adaptive_max_pool3d(x, 2),
                            "AdaptiveMaxPool3DBackward0"),
    "avg_pool2d": (4, lambda x: F.avg_pool2d(x, 2), "AvgPool2DBackward0"),
    "adaptive_avg_pool2d": (4, lambda x: F.adaptive_avg_pool2d(x, 3),
                            "AdaptiveAvgPool2DBackward0"),
    "reflect1d": (3, lambda x: F.pad(x, (1, 2), mode="reflect"), "ReflectionPad1DBackward0"),
    "reflect2d": (4, lambda x: F.pad(x, (1, 2, 1, 1), mode="reflect"),
                  "ReflectionPad2DBackward0"),
    "reflect3d": (5, lambda x: F.pad(x, (1,) * 6, mode="reflect"), "ReflectionPad3DBackward0"),
    "replicate1d": (3, lambda x: F.pad(x, (1, 2), mode="replicate"),
                    "ReplicationPad1DBackward0"),
    "replicate2d": (4, lambda x: F.pad(x, (1, 2, 1, 1), mode="replicate"),
                    "ReplicationPad2DBackward0"),
    "replicate3d": (5, lambda x: F.pad(x, (1,) * 6, mode="replicate"),
                    "ReplicationPad3DBackward0"),
    "conv_transpose1d": (3, lambda x: F.conv_transpose1d(x, torch.ones(2, 3, 2,
                                                                       dtype=x.dtype)),
                         "ConvolutionBackward0"),
    "conv_transpose2d": (4, lambda x: F.conv_transpose2d(
        x, torch.ones(2, 3, 2, 2, dtype=x.dtype), stride=2, padding=1, output_padding=1),
        "ConvolutionBackward0"),
    "conv_transpose3d": (5, lambda x: F.conv_transpose3d(x, torch.ones(2, 3, 2, 2, 2,
                                                                       dtype=x.dtype)),
                         "ConvolutionBackward0"),
}


def _row_major(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.insert(0, step)
        step *= n
    return tuple(strides)


@pytest.mark.parametrize("name", list(CASES))
def test_an_empty_batch_gives_empty_results_and_gradients(name):
    ndim, f, node = CASES[name]
    x = torch.zeros(0, 2, *([4] * (ndim - 2)), dtype=torch.float64, requires_grad=True)
    y = f(x)
    assert y.shape[0] == 0 and y.ndim == ndim
    assert y.stride() == _row_major(tuple(y.shape))
    assert type(y.grad_fn).__name__ == node
    y.sum().backward()
    assert x.grad.shape == x.shape and x.grad.stride() == x.stride()


@pytest.mark.parametrize("name", [n for n in CASES if "max" in n or "reflect" in n])
def test_the_gradient_of_an_empty_batch_is_differentiated_again(name):
    ndim, f, _ = CASES[name]
    x = torch.zeros(0, 2, *([4] * (ndim - 2)), dtype=torch.float64, requires_grad=True)
    y = f(x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert "BackwardBackward0" in preorder_names(g.grad_fn, 1)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.shape == x.shape and gg.stride() == x.stride()


@pytest.mark.parametrize(("call", "message"), [
    (lambda: F.pad(torch.zeros(0, 4), (1, 2), mode="reflect"),
     "Expected 2D or 3D (batch mode) tensor with possibly 0 batch size and other non-zero "
     "dimensions for input, but got: [0, 4]"),
    (lambda: F.pad(torch.zeros(0, 4, 4), (1, 1, 1, 1), mode="replicate"),
     "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
     "dimensions for input, but got: [0, 4, 4]"),
    (lambda: F.max_pool3d(torch.zeros(2, 0, 4, 4, 4), 2),
     "max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch dimensions to "
     "have positive length, but input has a shape of [2, 0, 4, 4, 4] and non-batch "
     "dimension 0 has length zero!"),
    (lambda: F.adaptive_max_pool1d(torch.zeros(2, 0, 4), 2),
     "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, "
     "but input has sizes [2, 0, 4] with dimension 1 being empty"),
    (lambda: F.adaptive_max_pool1d(torch.zeros(2, 3, 0), 2),
     "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, "
     "but input has sizes [2, 3, 0] with dimension 2 being empty"),
    (lambda: F.adaptive_max_pool1d(torch.zeros(2, 0, 4), (2, 3)),
     "adaptive_max_pool1d() argument 'output_size' should contain one int (got 2)")])
def test_an_empty_dimension_other_than_the_batch_is_refused(call, message):
    with raises(RuntimeError, message):
        call()


def test_an_unbatched_input_without_channels_pools_adaptively():
    values, indices = F.adaptive_max_pool1d(torch.zeros(0, 4), 2, return_indices=True)
    assert values.shape == indices.shape == (0, 2)
    assert indices.dtype == torch.int64


@pytest.mark.parametrize(("shape", "size"), [((2, 0, 4, 4), 2), ((2, 0, 4), 3)])
def test_an_adaptive_average_pool_without_channels_is_refused_on_the_way_back(shape, size):
    x = torch.zeros(*shape, requires_grad=True)
    pool = F.adaptive_avg_pool2d if len(shape) == 4 else F.adaptive_avg_pool1d
    out = pool(x, size)
    sizes = "[2, 0, 2, 2]" if len(shape) == 4 else "[2, 0, 1, 3]"
    with raises(RuntimeError, "adaptive_avg_pool2d_backward(): Expected grad_output to have "
                "non-zero size for non-batch dimensions, but grad_output has sizes "
                f"{sizes} with dimension 1 being empty"):
        out.sum().backward()


@pytest.mark.parametrize("shape", [(2, 0, 4, 4), (0, 4, 4)])
def test_a_mean_pool_or_an_unbatched_one_without_channels_gives_gradients(shape):
    x = torch.zeros(*shape, requires_grad=True)
    F.adaptive_avg_pool2d(x, 1 if len(shape) == 4 else 2).sum().backward()
    assert x.grad.shape == x.shape
