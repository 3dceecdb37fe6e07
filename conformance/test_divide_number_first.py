"""torch.divide takes a Python number for its input, as torch.div does, with or without a
rounding mode, by position or by name, and with out=. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

_CASES = [(dtype, mode) for dtype in (torch.int64, torch.float32, torch.uint8)
          for mode in (None, "floor", "trunc")] + [(torch.bool, None)]  # bool: no rounded kernel


@pytest.mark.parametrize("number", [2, 2.5, True, -7])
@pytest.mark.parametrize("dtype, mode", _CASES)
def test_a_number_divided_by_a_tensor_is_divs_quotient(number, dtype, mode):
    other = torch.tensor([3], dtype=dtype) if dtype is not torch.bool else torch.tensor([True])
    expected = torch.div(number, other, rounding_mode=mode)
    for got in (torch.divide(number, other, rounding_mode=mode),
                torch.divide(number, other=other, rounding_mode=mode),
                torch.divide(input=number, other=other, rounding_mode=mode)):
        assert got.dtype == expected.dtype and got.tolist() == expected.tolist()
    if mode is None:
        got = torch.divide(number, other)
        assert got.dtype == expected.dtype and got.tolist() == expected.tolist()


@pytest.mark.parametrize("mode", [None, "floor"])
def test_with_out(mode):
    out = torch.empty(2)
    torch.divide(7, torch.tensor([2, 4]), rounding_mode=mode, out=out)
    assert out.tolist() == torch.div(7, torch.tensor([2, 4]), rounding_mode=mode).float().tolist()


def test_a_bool_tensor_refuses_a_rounded_division():
    with raises(NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'"):
        torch.divide(True, torch.tensor([True]), rounding_mode="floor")


def test_what_is_not_a_number_is_still_refused():
    with raises(TypeError, "divide() received an invalid combination of arguments - got (str, "
                           "Tensor, out=Tensor), but expected one of:\n"
                           " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                           " * (Tensor input, Tensor other, *, str rounding_mode, Tensor out = "
                           "None)\n"
                           " * (Tensor input, Number other)\n"
                           " * (Tensor input, Number other, *, str rounding_mode)\n"):
        torch.divide("2", torch.tensor([3]), out=torch.empty(1))
    with raises(RuntimeError, "div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                              "but found 'bad'"):
        torch.divide(2, torch.tensor([3]), rounding_mode="bad")
