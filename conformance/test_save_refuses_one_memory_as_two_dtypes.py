"""torch.save refuses tensors that look into one memory as different dtypes."""

import io

import pytest
import torch

from conformance._support import raises

TWO_TYPES = ("Cannot save multiple tensors or storages that view the same data as different "
             "types")


@pytest.mark.parametrize("view", [
    lambda x: x.view(torch.int32),
    lambda x: x.view(torch.uint8),
    lambda x: x[2:].view(torch.int32),
    lambda x: x.view(torch.float16)[1:],
])
def test_views_of_one_memory_as_two_dtypes_are_refused(view):
    x = torch.arange(6, dtype=torch.float32)
    buffer = io.BytesIO()
    with raises(RuntimeError, TWO_TYPES):
        torch.save([x, view(x)], buffer)


def test_one_dtype_or_separate_memories_are_saved():
    x = torch.arange(6, dtype=torch.float32)
    buffer = io.BytesIO()
    torch.save([x, x[1:], x.to(torch.float64), x.view(torch.int32).clone()], buffer)
    buffer.seek(0)
    a, b, c, d = torch.load(buffer)
    assert b.tolist() == a.tolist()[1:] and c.dtype == torch.float64 and d.dtype == torch.int32


def test_an_empty_memory_is_not_asked():
    e = torch.empty(0)
    buffer = io.BytesIO()
    torch.save([e, e.view(torch.int32)], buffer)
    buffer.seek(0)
    a, b = torch.load(buffer)
    assert (a.dtype, b.dtype, a.numel(), b.numel()) == (torch.float32, torch.int32, 0, 0)
