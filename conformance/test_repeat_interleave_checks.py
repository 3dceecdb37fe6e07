"""repeat_interleave: the promised output_size, the dtypes of counts, a 0-d input with dim."""

import pytest
import torch

from conformance._support import raises

ALLOCATED = "allocated size does not match required size"


def test_a_single_count_checks_the_promised_size():
    with raises(RuntimeError, "repeat_interleave: Invalid output_size, expected 6 but got 5"):
        torch.arange(3).repeat_interleave(2, output_size=5)
    with raises(RuntimeError, "repeat_interleave: Invalid output_size, expected 2 but got 3"):
        torch.tensor(5.0).repeat_interleave(2, output_size=3)
    assert torch.arange(3).repeat_interleave(2, output_size=6).tolist() == [0, 0, 1, 1, 2, 2]


def test_counts_check_the_promised_size():
    with raises(RuntimeError, ALLOCATED):
        torch.arange(3).repeat_interleave(torch.tensor([1, 2, 3]), dim=0, output_size=4)
    with raises(RuntimeError, ALLOCATED):
        torch.repeat_interleave(torch.tensor([1, 2, 3]), output_size=7)
    with raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"):
        torch.repeat_interleave(torch.tensor([1, -2, 3]), output_size=-1)
    assert torch.repeat_interleave(torch.tensor([], dtype=torch.long), output_size=3).shape == (0,)
    x = torch.arange(3.0, requires_grad=True)
    y = x.repeat_interleave(torch.tensor([1, 2, 3]), dim=0, output_size=6)
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize(("dtype", "name"), [(torch.uint8, "Byte"), (torch.int16, "Short"),
                                             (torch.int8, "Char")])
def test_counts_must_be_int32_or_int64(dtype, name):
    message = f'"repeat_interleave_cpu" not implemented for \'{name}\''
    with raises(NotImplementedError, message):
        torch.repeat_interleave(torch.tensor([1, 2], dtype=dtype))
    with raises(NotImplementedError, message):
        torch.arange(2).repeat_interleave(torch.tensor([1, 2], dtype=dtype), 0)
    with raises(NotImplementedError, message):
        torch.repeat_interleave(torch.tensor([[1, 2]], dtype=dtype))
    with raises(NotImplementedError, message):
        torch.repeat_interleave(torch.tensor([], dtype=dtype))


@pytest.mark.parametrize(("repeats", "dim"), [([1, 2], 0), ([2], 0), ([1], -1), ([-1], 0)])
def test_0d_input_with_counts_and_dim(repeats, dim):
    with raises(IndexError, f"Dimension specified as {dim} but tensor has no dimensions"):
        torch.tensor(5.0).repeat_interleave(torch.tensor(repeats), dim=dim)
