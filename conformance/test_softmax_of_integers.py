"""Softmax and log_softmax of integer tensors: refused by the kernel's name, unless empty."""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

LONG = torch.tensor([[1, 2, 3], [4, 5, 6]])


@pytest.mark.parametrize(("call", "message"), [
    (lambda: LONG.softmax(-1), '"softmax_lastdim_kernel_impl" not implemented for \'Long\''),
    (lambda: LONG.log_softmax(1), '"log_softmax_lastdim_kernel_impl" not implemented for '
     "'Long'"),
    (lambda: LONG.softmax(0), '"softmax_kernel_impl" not implemented for \'Long\''),
    (lambda: LONG.bool().log_softmax(0), '"log_softmax_kernel_impl" not implemented for '
     "'Bool'"),
])
def test_a_nonempty_integer_input_is_refused(call, message):
    with raises(NotImplementedError, message):
        call()


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8, torch.bool])
def test_an_empty_integer_input_gives_an_empty_result_of_its_dtype(name, dim, dtype):
    x = torch.zeros(0, 3, dtype=dtype)
    out = getattr(x, name)(dim)
    assert (out.dtype, out.shape, out.requires_grad) == (dtype, (0, 3), False)


def test_a_dtype_turns_an_empty_integer_input_to_floats():
    assert torch.zeros(0, 3).long().log_softmax(-1, dtype=torch.float32).dtype == torch.float32


def test_kl_div_of_an_empty_integer_log_softmax_refuses_integers():
    empty = torch.zeros(0, 3)
    with raises(RuntimeError, "kl_div: Integral inputs not supported."):
        F.kl_div(empty.long().log_softmax(-1), empty.softmax(-1), reduction="batchmean")
