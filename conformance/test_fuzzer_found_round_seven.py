"""Behaviour the differential fuzzer found in its seventh round: the writes the shuffles'
kernels count on their result when the input is an inference tensor.
The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F


def inference(shape, dtype=torch.float32, memory_format=torch.contiguous_format):
    """An inference tensor: made, and laid out, inside inference mode."""
    with torch.inference_mode():
        x = torch.arange(float(torch.Size(shape).numel())).reshape(shape).to(dtype)
        return x.contiguous(memory_format=memory_format)


SHUFFLES = [
    lambda x: F.pixel_shuffle(x, 2), lambda x: F.pixel_unshuffle(x, 2),
    lambda x: F.channel_shuffle(x, 2), lambda x: torch.native_channel_shuffle(x, 2),
]


@pytest.mark.parametrize("shuffle", SHUFFLES)
@pytest.mark.parametrize("make", [
    lambda: inference((1, 4, 2, 2)), lambda: inference((4, 2, 2)),
    lambda: inference((1, 4, 2, 2)).transpose(-1, -2),
    lambda: inference((2, 4, 2, 2), memory_format=torch.channels_last),
    lambda: inference((1, 1, 1, 2)).expand(1, 4, 2, 2),
    lambda: inference((1, 4, 2, 2), dtype=torch.int64),
])
def test_a_shuffle_of_an_inference_tensor_is_written_once(shuffle, make):
    x = make()
    assert x.is_inference()
    result = shuffle(x)
    assert not result.is_inference()
    assert result._version == 1


@pytest.mark.parametrize("shuffle", SHUFFLES)
def test_a_shuffle_of_a_normal_tensor_or_in_inference_mode_counts_no_write(shuffle):
    x = torch.arange(16.0).reshape(1, 4, 2, 2)
    assert shuffle(x)._version == 0
    assert shuffle(x.requires_grad_())._version == 0
    with torch.inference_mode():
        assert shuffle(x.detach() * 1).is_inference()


@pytest.mark.parametrize("shuffle", SHUFFLES[:2])
def test_an_empty_pixel_shuffle_of_an_inference_tensor_is_written_once(shuffle):
    assert shuffle(inference((0, 4, 2, 2)))._version == 1
    assert shuffle(inference((1, 4, 0, 2)))._version == 1


def test_the_pixel_unshuffle_the_fuzzer_found():
    with torch.inference_mode():
        v = torch.zeros(1, 2, dtype=torch.float64).float_power(2)
    result = F.pixel_unshuffle(v[None, None].expand(1, 1, 2, 2), 2)
    assert (result.shape, result.stride(), result._version) == ((1, 4, 1, 1), (4, 1, 1, 1), 1)
