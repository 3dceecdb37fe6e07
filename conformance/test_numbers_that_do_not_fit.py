"""Black-box tests: numbers too big for a tensor's dtype, as torch meets them.

Arithmetic and comparisons cast a Python int to an integer tensor's dtype, wrapping
it around; fills, bounds, exponents, item assignment and ``where`` check the value
and refuse it with torch's overflow error; the argument parser refuses ints wider
than 64 bits. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises


def overflow(name):
    return f"value cannot be converted to type {name} without overflow"


def u8(*values):
    return torch.tensor(list(values), dtype=torch.uint8)


def i8(*values):
    return torch.tensor(list(values), dtype=torch.int8)


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: u8(1, 2) + 300, [45, 46]),
    (lambda: u8(1, 2) + -1, [0, 1]),
    (lambda: u8(44, 2) * -1, [212, 254]),
    (lambda: u8(1, 2) * 256, [0, 0]),
    (lambda: u8(44, 2) - 300, [0, 214]),
    (lambda: 300 - u8(44, 2), [0, 42]),
    (lambda: i8(1, 2) + 200, [-55, -54]),
    (lambda: i8(1, 2) + 2**40, [1, 2]),
    (lambda: torch.tensor([1, 2]) + 2**63, [-(2**63) + 1, -(2**63) + 2]),
    (lambda: u8(1, 2) + 2**63, [1, 2]),
    (lambda: u8(1, 2).add_(300), [45, 46]),
    (lambda: u8(44, 2) == 300, [True, False]),
    (lambda: u8(1, 2) < -3, [True, True]),
    (lambda: i8(1, 2) > 200, [True, True]),
    (lambda: u8(44, 2).ne(-212), [False, True]),
    (lambda: u8(1, 2) / 300, [1 / 300, 2 / 300]),
    (lambda: 300 ** u8(0, 2), [1, 144]),
])
def test_arithmetic_and_comparisons_wrap_an_int_around(call, expected):
    result = call()
    if result.dtype.is_floating_point:
        assert result.tolist() == pytest.approx(expected, rel=1e-6)
    else:
        assert result.tolist() == expected


@pytest.mark.parametrize(("call", "name"), [
    (lambda: u8(1, 2).fill_(300), "uint8_t"),
    (lambda: u8(1, 2).fill_(-256), "uint8_t"),
    (lambda: u8(1, 2).fill_(255.5), "uint8_t"),
    (lambda: u8(1, 2).masked_fill(u8(1, 2) > 1, 300), "uint8_t"),
    (lambda: torch.full((2,), 300, dtype=torch.uint8), "uint8_t"),
    (lambda: torch.full((2,), 2**63), "int64_t"),
    (lambda: torch.full((2,), 1e300), "float"),
    (lambda: torch.tensor([1.0]).fill_(1e300), "float"),
    (lambda: torch.full((2,), 70000.0, dtype=torch.float16), "c10::Half"),
    (lambda: torch.where(u8(1, 2) > 1, u8(1, 2), 300), "uint8_t"),
    (lambda: torch.where(i8(1, 2) > 1, i8(1, 2), -129), "int8_t"),
    (lambda: u8(1, 2).clamp(max=300), "uint8_t"),
    (lambda: u8(1, 2).clamp(min=-256), "uint8_t"),
    (lambda: i8(1, 2).clamp(max=200), "int8_t"),
    (lambda: torch.tensor([1.0]).clamp(max=1e300), "float"),
    (lambda: u8(1, 2) ** 256, "uint8_t"),
    (lambda: torch.tensor([1.0], dtype=torch.float16) ** 70000, "c10::Half"),
])
def test_checked_conversions_refuse_what_does_not_fit(call, name):
    with raises(RuntimeError, overflow(name)):
        call()


def test_checked_conversions_let_negative_ints_wrap_into_unsigned():
    assert u8(1, 2).fill_(-1).tolist() == [255, 255]
    assert u8(44, 2).clamp(min=-1).tolist() == [255, 255]
    assert u8(44, 2).clamp_min(-1).tolist() == [255, 255]
    assert torch.full((2,), -1, dtype=torch.uint8).tolist() == [255, 255]
    assert torch.where(u8(44, 2) > 2, u8(44, 2), -1).tolist() == [44, 255]
    assert torch.full((2,), float("inf")).tolist() == [float("inf")] * 2


def test_item_assignment_checks_and_parses_in_its_own_way():
    t = u8(44, 2)
    t[0] = -255
    assert t.tolist() == [1, 2]
    for value, name in ((300, "uint8_t"), (-256, "uint8_t"), (-1.5, "uint8_t"),
                        (float("nan"), "uint8_t"), (float("inf"), "uint8_t")):
        with raises(RuntimeError, overflow(name)):
            t[0] = value
    assert t.tolist() == [1, 2] and t._version == 1
    half = torch.tensor([1.0, 2.0], dtype=torch.float16)
    half[0] = 70000  # checked as a double, then cast: inf
    assert half.tolist() == [float("inf"), 2.0]
    for target in (torch.tensor([1, 2]), torch.tensor([1.0, 2.0])):
        with raises(ValueError, "Overflow when unpacking long long"):
            target[0] = 2**63


@pytest.mark.parametrize("call", [
    lambda big: u8(1, 2) + big, lambda big: torch.tensor([1.0]) + big,
    lambda big: torch.tensor([1.0]) < big, lambda big: torch.full((2,), big),
    lambda big: torch.tensor([1.0]).fill_(big),
])
def test_the_parser_refuses_ints_wider_than_64_bits(call):
    with raises(OverflowError, "int too big to convert"):
        call(2**64)
    with raises(OverflowError, "can't convert negative int to unsigned"):
        call(-(2**63) - 1)


def test_integer_division_divides_as_floats():
    assert (u8(0, 3, 200) / torch.tensor(300)).tolist() == pytest.approx([0, 0.01, 2 / 3])
    assert (u8(100) / 256).tolist() == [0.390625]
    assert (torch.tensor([1, 2**30], dtype=torch.int32) / 2**31).tolist() == pytest.approx(
        [2.0**-31, 0.5])
    assert (torch.tensor([2**24 + 1]) / 1).tolist() == [2.0**24]  # each operand a float32 first
    ints = torch.tensor([1, 2])
    for quotient in (torch.div(2, ints), torch.div(np.int64(2), ints)):
        assert quotient.dtype == torch.float32 and quotient.tolist() == [2.0, 1.0]


def test_bool_tensors_and_unsigned_ints():
    message = ("Promotion for uint16, uint32, uint64 types is not supported, attempted to "
               "promote Bool and UInt64")
    flags = torch.tensor([True, False])
    for call in (lambda: flags + 2**63, lambda: flags == 2**63, lambda: torch.pow(2**63, flags),
                 lambda: flags / 2**63):
        with raises(RuntimeError, message):
            call()
    with raises(OverflowError, "int too big to convert"):
        flags + 2**64
    assert flags.clone().fill_(2**63).tolist() == [True, True]
    assert (flags + 2).tolist() == [3, 2]


def test_a_lone_float16_fill_goes_by_way_of_a_double():
    half = torch.float16
    assert torch.full((1,), 70000.0, dtype=half).tolist() == [float("inf")]
    assert torch.full((), 70000.0, dtype=half).item() == float("inf")
    assert torch.ones(1, dtype=half).fill_(70000).tolist() == [float("inf")]
    with raises(RuntimeError, overflow("c10::Half")):
        torch.full((0,), 70000.0, dtype=half)
    with raises(RuntimeError, overflow("float")):
        torch.full((1,), 1e300)


def test_new_tensors_check_their_integers():
    with raises(ValueError, "Overflow when unpacking long long"):
        torch.tensor([1, 2**63])
    for value, dtype in ((300, torch.uint8), (-129, torch.int8), (2.5e9, torch.int32),
                         (-1.5, torch.uint8), (float("nan"), torch.int64)):
        with raises(RuntimeError, f"value cannot be converted to type {str(dtype)[6:]} "
                                  "without overflow"):
            torch.tensor(value, dtype=dtype)
    assert torch.tensor(-1, dtype=torch.uint8).item() == 255
    assert torch.tensor(2**63, dtype=torch.float32).item() == 2.0**63
    assert torch.tensor(2**63, dtype=torch.bool).item() is True


@pytest.mark.parametrize(("dtype", "exponent", "error"), [
    (torch.int8, -129, RuntimeError("Integers to negative integer powers are not allowed.")),
    (torch.int8, 2**63, RuntimeError(overflow("int64_t"))),
    (torch.bool, 2**63, RuntimeError(overflow("int64_t"))),
    (torch.float16, 1e300, RuntimeError(overflow("c10::Half"))),
])
def test_exponents_checked_where_torch_checks_them(dtype, exponent, error):
    with raises(type(error), str(error)):
        torch.ones(2, dtype=dtype) ** exponent


def test_exponents_unchecked_where_torch_takes_them_as_doubles():
    base = torch.tensor([0.0, 3.0])
    assert (base ** 1e300).tolist() == [0.0, float("inf")]
    assert (base.double() ** 1e300).tolist() == [0.0, float("inf")]
    assert (torch.tensor([0, 3]) ** 1e300).tolist() == [0.0, float("inf")]
    assert (base ** 2**63).tolist() == [0.0, float("inf")]
    assert torch.where(base > 0, base.double(), 1e300).tolist() == [1e300, 3.0]
    with raises(RuntimeError, overflow("float")):
        torch.where(base > 0, base, 1e300)
