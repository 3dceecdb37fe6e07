"""masked_fill with a 0-d tensor value checks the value's range as it checks a number's:
a value the input's dtype cannot hold is refused, even where the mask selects nothing.
The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

NAMES = {torch.uint8: "uint8_t", torch.int8: "int8_t", torch.int16: "int16_t",
         torch.int32: "int", torch.int64: "int64_t", torch.float16: "c10::Half",
         torch.float32: "float"}
TOO_BIG = {torch.uint8: 300, torch.int8: 200, torch.int16: 40000, torch.int32: 2**40,
           torch.int64: 1e300, torch.float16: 70000.0, torch.float32: 1e300}


def _message(dtype):
    return f"value cannot be converted to type {NAMES[dtype]} without overflow"


@pytest.mark.parametrize("dtype", list(NAMES))
@pytest.mark.parametrize("inplace", [False, True])
def test_a_tensor_value_out_of_range_is_refused(dtype, inplace):
    x = torch.zeros(2, dtype=dtype)
    value = torch.tensor(TOO_BIG[dtype], dtype=torch.float64)
    fill = x.masked_fill_ if inplace else x.masked_fill
    with raises(RuntimeError, _message(dtype)):
        fill(torch.tensor([True, False]), value)
    with raises(RuntimeError, _message(dtype)):  # as the same number is refused
        fill(torch.tensor([True, False]), value.item())
    assert x.tolist() == [0, 0]


@pytest.mark.parametrize("value", [-2.0, float("nan"), float("inf")])
def test_a_negative_or_not_finite_tensor_value_is_refused_by_an_integer_input(value):
    with raises(RuntimeError, _message(torch.uint8)):
        torch.zeros(2, dtype=torch.uint8).masked_fill(torch.tensor([True, False]),
                                                      torch.tensor(value))


def test_an_empty_fill_still_checks_its_value():
    empty = torch.zeros(0, dtype=torch.uint8)
    with raises(RuntimeError, _message(torch.uint8)):
        torch.masked_fill(empty, torch.zeros(0, dtype=torch.bool), torch.tensor(300))
    with raises(RuntimeError, _message(torch.uint8)):
        torch.zeros(1, dtype=torch.uint8).masked_fill(torch.tensor([False]), torch.tensor(300))


def test_values_in_range_are_filled():
    m = torch.tensor([True, False])
    x = torch.zeros(2, dtype=torch.uint8)
    assert x.masked_fill(m, torch.tensor(-3, dtype=torch.int8)).tolist() == [253, 0]
    assert x.masked_fill(m, torch.tensor(200.5)).tolist() == [200, 0]
    half = torch.zeros(2, dtype=torch.float16)
    assert half.masked_fill(m, torch.tensor(float("nan"))).isnan().tolist() == [True, False]
    assert half.masked_fill(m, torch.tensor(65504.0)).tolist() == [65504.0, 0.0]


def test_the_leaf_check_comes_first_and_the_gradient_still_flows():
    leaf = torch.zeros(2, dtype=torch.float16, requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        leaf.masked_fill_(torch.tensor([True, False]), torch.tensor(1e10))
    value = torch.tensor(3.0, requires_grad=True)
    out = leaf.masked_fill(torch.tensor([True, False]), value)
    assert out.grad_fn.name() == "MaskedFillBackward1"
    out.float().sum().backward()
    assert value.grad.item() == 1.0
