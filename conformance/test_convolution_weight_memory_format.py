"""nn.utils.convert_conv{2,3}d_weight_memory_format: convolution weights laid out anew."""

import pytest
import torch
from torch import nn
from torch.nn.utils import (
    convert_conv2d_weight_memory_format,
    convert_conv3d_weight_memory_format,
)

from conformance._support import raises


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv2d(3, 4, 3), nn.Sequential(nn.ConvTranspose2d(4, 2, 2),
                                                           nn.Conv3d(2, 2, 2)),
                         nn.ConvTranspose3d(2, 1, 2), nn.Linear(2, 2))


def _strides(model):
    return [tuple(p.stride()) for p in model.parameters()]


def test_the_functions_live_where_torchs_do():
    assert torch.nn.utils.memory_format.convert_conv2d_weight_memory_format is (
        convert_conv2d_weight_memory_format)
    assert {"convert_conv2d_weight_memory_format",
            "convert_conv3d_weight_memory_format"} <= set(torch.nn.utils.__all__)


def test_two_dimensional_convolutions_are_laid_out_channels_last():
    model = _model()
    before, values = _strides(model), [p.detach().clone() for p in model.parameters()]
    weights = [model[0].weight, model[1][0].weight]
    assert convert_conv2d_weight_memory_format(model, torch.channels_last) is model
    for module, weight in zip((model[0], model[1][0]), weights):
        assert module.weight is weight and type(weight) is nn.Parameter and weight.requires_grad
        assert weight.is_contiguous(memory_format=torch.channels_last)
        assert not weight.is_contiguous()
    after = _strides(model)
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert changed == [0, 2]  # the two weights, not the biases, the 3d ones or the linear
    assert all(torch.equal(a, b) for a, b in zip(values, model.parameters()))


def test_three_dimensional_ones_and_back_to_contiguous():
    model = _model()
    convert_conv3d_weight_memory_format(model, torch.channels_last_3d)
    assert model[1][1].weight.is_contiguous(memory_format=torch.channels_last_3d)
    assert model[2].weight.is_contiguous(memory_format=torch.channels_last_3d)
    assert model[0].weight.is_contiguous()
    convert_conv3d_weight_memory_format(model, torch.contiguous_format)
    assert model[1][1].weight.is_contiguous() and model[2].weight.is_contiguous()
    x = torch.randn(1, 2, 3, 3, 3)
    torch.testing.assert_close(model[1][1](x), nn.functional.conv3d(
        x, model[1][1].weight.contiguous(), model[1][1].bias))


def test_a_model_without_convolutions_is_returned_unchanged():
    relu = nn.ReLU()
    assert convert_conv2d_weight_memory_format(relu, torch.channels_last) is relu


@pytest.mark.parametrize("convert, memory_format, message", [
    (convert_conv2d_weight_memory_format, torch.channels_last_3d,
     "required rank 5 tensor to use channels_last_3d format"),
    (convert_conv3d_weight_memory_format, torch.channels_last,
     "required rank 4 tensor to use channels_last format"),
    (convert_conv2d_weight_memory_format, torch.preserve_format,
     "Unsupported memory formatPreserve"),
])
def test_a_format_of_the_wrong_rank_is_refused(convert, memory_format, message):
    with raises(RuntimeError, message):
        convert(_model(), memory_format)
