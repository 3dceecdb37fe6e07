"""Black-box tests: a bool tensor given where torch takes a SymInt (a diagonal, an index,
a k, narrow's start or length) passes the parser and is refused as it is turned into an int."""

import pytest
import torch

from conformance._support import raises

NOT_INTEGRAL = ('scalar.isIntegral( false) INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/'
                'torch/csrc/utils/pybind.cpp":27, please report a bug to PyTorch. ')

CALLS = ("torch.tril(x, b)", "torch.triu(x, b)", "x.tril(b)", "x.tril(diagonal=b)",
         "x.clone().tril_(b)", "x.select(0, b)", "torch.select(x, 0, b1)", "x.topk(b)",
         "x.topk(k=b)", "x.kthvalue(b)", "x.narrow(0, 0, b)", "torch.narrow(x, 0, 1, b)",
         "x.narrow(0, 0, length=b)")


@pytest.mark.parametrize("call", CALLS)
def test_a_bool_tensor_for_a_symint_is_refused_as_torch_refuses_it(call):
    x = torch.arange(12.0).reshape(3, 4)
    names = {"torch": torch, "x": x, "b": torch.tensor(True), "b1": torch.tensor([True])}
    with raises(RuntimeError, NOT_INTEGRAL):
        eval(call, names)


@pytest.mark.parametrize("start", (torch.tensor(True), torch.tensor(False)))
def test_a_bool_start_of_narrow_is_no_integral_tensor(start):
    x = torch.arange(12.0).reshape(3, 4)
    with raises(RuntimeError, "start must be an 0-dim integral Tensor."):
        x.narrow(0, start, 1)
    with raises(RuntimeError, "start must be an 0-dim integral Tensor."):
        torch.narrow(x, 0, start=start, length=1)


def test_integer_tensors_still_stand_for_ints():
    x = torch.arange(12.0).reshape(3, 4)
    one = torch.tensor(1)
    assert torch.equal(x.tril(one), x.tril(1)) and torch.equal(x.select(0, one), x[1])
    assert torch.equal(x.narrow(0, one, 1), x[1:2]) and torch.equal(x.topk(one)[0], x.topk(1)[0])
