"""all and any write into an out of either of their result dtypes, bool or uint8."""

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8])
def test_uint8_input_into_either_out(dtype):
    u = torch.tensor([1, 2, 0], dtype=torch.uint8)
    out = torch.empty((), dtype=dtype)
    assert torch.all(u, out=out) is out and out.item() == 0
    assert torch.any(u, 0, out=out) is out and out.item() == 1
    assert out.dtype == dtype


def test_other_out_dtypes_are_refused():
    u = torch.tensor([1, 2, 0], dtype=torch.uint8)
    with raises(RuntimeError, "all only supports bool tensor for result, got: Long"):
        torch.all(u, out=torch.empty((), dtype=torch.int64))
