"""Black-box tests: the range checks of randint, randint_like and randperm.

Each draw is checked before anything is drawn; the same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize(("low", "high", "dtype", "message"), [
    (0, 300, torch.uint8, "to - 1 is out of bounds for unsigned char"),
    (-1, 300, torch.uint8, "from is out of bounds for unsigned char"),
    (-129, 3, torch.int8, "from is out of bounds for signed char"),
    (0, 40000, torch.int16, "to - 1 is out of bounds for short int"),
    (0, 2**40, torch.int32, "to - 1 is out of bounds for int"),
    (-1, 2, torch.bool, "from is out of bounds for bool"),
    (0, 3, torch.bool, "to - 1 is out of bounds for bool"),
    (-70000, 3, torch.float16, "from is out of bounds for c10::Half"),
    (5, 5, torch.int64, "random_ expects 'from' to be less than 'to', but got from=5 >= to=5"),
    (300, 3, torch.uint8, "random_ expects 'from' to be less than 'to', but got from=300 >= to=3"),
])
def test_randint_refuses_bounds_the_dtype_cannot_hold(low, high, dtype, message):
    with raises(RuntimeError, message):
        torch.randint(low, high, (0,), dtype=dtype)
    with raises(RuntimeError, message):
        torch.randint_like(torch.zeros(2, dtype=dtype), low, high)


def test_the_widest_bounds_each_dtype_holds_are_drawn_from():
    for low, high, dtype in ((0, 256, torch.uint8), (-128, 128, torch.int8), (0, 2, torch.bool),
                             (-2**63, 2**63 - 1, torch.int64), (-2048, 2049, torch.float16)):
        drawn = torch.randint(low, high, (200,), dtype=dtype)
        assert drawn.dtype == dtype
        assert all(low <= value < high for value in drawn.tolist())  # no wrapped bounds
    with raises(ValueError, "Overflow when unpacking long long"):
        torch.randint(0, 2**63, (2,))


@pytest.mark.parametrize(("high", "dtype", "digits", "c_type"), [
    (2**24 + 2, torch.float32, 24, "float"), (3000, torch.float16, 11, "c10::Half"),
])
def test_randint_warns_past_the_last_exact_whole_number(high, dtype, digits, c_type):
    with pytest.warns(UserWarning, match=rf"to - 1 is out of bounds \[-\(2\^{digits}\), "
                                         rf"2\^{digits}\]\. Due to precision limitations {c_type} "
                                         "can support discrete uniform distribution only") as seen:
        drawn = torch.randint(0, high, (4,), dtype=dtype)
    assert seen[0].filename == __file__
    assert drawn.dtype == dtype
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.randint(0, 2**digits + 1, (4,), dtype=dtype)  # up to 2**digits: exact, no warning


def test_randint_like_warns_at_its_callers_line():
    with pytest.warns(UserWarning, match="from is out of bounds") as seen:
        torch.randint_like(torch.zeros(2, dtype=torch.float16), -3000, 0)
    assert seen[0].filename == __file__


def test_randint_takes_requires_grad_for_floating_dtypes_only():
    assert torch.randint(0, 3, (2,), dtype=torch.float32, requires_grad=True).requires_grad
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require "
                              "gradients"):
        torch.randint(0, 3, (2,), requires_grad=True)


@pytest.mark.parametrize(("n", "dtype", "kind", "message"), [
    (257, torch.uint8, RuntimeError, "value cannot be converted to type uint8_t without overflow"),
    (129, torch.int8, RuntimeError, "value cannot be converted to type int8_t without overflow"),
    (40000, torch.int16, RuntimeError, "value cannot be converted to type int16_t without "
                                       "overflow"),
    (2050, torch.float16, RuntimeError, "n cannot be greater than 2049 for Half type."),
    (2**24 + 2, torch.float32, RuntimeError, "n cannot be greater than 2^24+1 for Float type."),
    (2, torch.bool, NotImplementedError, "\"randperm\" not implemented for 'Bool'"),
])
def test_randperm_refuses_what_the_dtype_cannot_number(n, dtype, kind, message):
    with raises(kind, message):
        torch.randperm(n, dtype=dtype)


def test_randperm_fills_the_dtype_to_its_last_exact_value():
    for n, dtype in ((256, torch.uint8), (128, torch.int8), (2049, torch.float16)):
        order = torch.randperm(n, dtype=dtype)
        assert order.dtype == dtype
        assert sorted(order.tolist()) == list(range(n))


def test_randint_takes_its_bound_by_position_or_by_name():
    for draw in (torch.randint(5, size=(3,)), torch.randint(high=5, size=(3,)),
                 torch.randint(torch.tensor(5), (3,)), torch.randint(1, torch.tensor(5), [3])):
        assert draw.shape == (3,) and draw.dtype == torch.int64
        assert all(0 <= v < 5 for v in draw.tolist())
    assert torch.randint(torch.tensor([1]), (2,)).tolist() == [0, 0]


def test_randint_and_randperm_refuse_numbers_that_are_not_whole():
    with raises(TypeError, "randint(): argument 'high' (position 1) must be int, not float"):
        torch.randint(1.5, (3,))
    with raises(TypeError, "randint(): argument 'high' (position 1) must be int, not bool"):
        torch.randint(True, (3,))
    with raises(TypeError, "randint(): argument 'high' (position 1) must be int, not Tensor"):
        torch.randint(torch.tensor(5.0), (3,))
    with raises(TypeError, "randint(): argument 'size' (position 2) must be tuple of ints, "
                           "not int"):
        torch.randint(5, 3)
    with raises(TypeError, "randint(): argument 'size' must be tuple of ints, not int"):
        torch.randint(5, size=3)
    with pytest.raises(TypeError, match=r"randint\(\) received an invalid combination of "
                                        r"arguments - got \(float, int, tuple\)"):
        torch.randint(1.0, 5, (3,))
    with raises(TypeError, "randperm(): argument 'n' (position 1) must be int, not float"):
        torch.randperm(5.0)
    with raises(TypeError, "randperm(): argument 'n' (position 1) must be int, not Tensor"):
        torch.randperm(torch.tensor(5.0))
    assert sorted(torch.randperm(torch.tensor(5)).tolist()) == [0, 1, 2, 3, 4]
