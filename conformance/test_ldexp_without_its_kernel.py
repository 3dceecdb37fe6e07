"""ldexp of an integer input or with a floating exponent is input * pow(2, other), each step
rounded as that operation rounds: 0 * 2**300 with integers is nan, and a 0-d exponent beside a
float64 input gives its power in float64. Only a floating input with an integer exponent
resizes a tensor made like the input, with the out= warning."""

import warnings

import pytest
import torch

F16, F32, F64 = torch.float16, torch.float32, torch.float64


def power_then_product(input, other, power_dtype):
    """input * 2 ** other, the power rounded to ``power_dtype`` first."""
    power = torch.pow(torch.tensor(2.0, dtype=torch.float64), other.double()).to(power_dtype)
    return input * power


def test_an_integer_zero_times_an_infinite_power_is_nan():
    result = torch.ldexp(torch.tensor([0, 1]), torch.tensor(300))
    assert result.dtype == torch.float32
    assert result.isnan().tolist() == [True, False] and result[1].isinf()


def test_a_zero_d_exponent_beside_a_double_input_takes_its_power_in_double():
    input = torch.tensor([-7.0, 1.0], dtype=F64)
    result = torch.ldexp(input, torch.tensor(300.0))
    assert torch.equal(result, input * torch.tensor(2.0, dtype=F64) ** 300)
    half = torch.ldexp(torch.tensor([-7.0], dtype=F64), torch.tensor(2.5, dtype=F16))
    assert half.item() == -7.0 * 2.0 ** 2.5


@pytest.mark.parametrize("input, other, power_dtype", [
    (torch.tensor([1e-30, 3.0], dtype=F32), torch.tensor(2.5, dtype=F16), F16),
    (torch.tensor([1e-30, 3.0], dtype=F32), torch.tensor([200.0, 2.5], dtype=F64), F64),
    (torch.tensor([1e-300, 3.0], dtype=F64), torch.tensor([200.0, 2.5], dtype=F32), F32),
    (torch.tensor([3, -7]), torch.tensor([1.3, 2.5], dtype=F16), F16),
    (torch.tensor([1e-3, 3.0], dtype=F16), torch.tensor(20.0, dtype=F16), F16),
])
def test_the_power_is_rounded_as_pow_rounds_it(input, other, power_dtype):
    result = torch.ldexp(input, other)
    expected = power_then_product(input, other, power_dtype)
    assert result.dtype == expected.dtype
    assert torch.equal(result, expected)


def test_a_float16_input_takes_a_zero_d_double_power_unrounded():
    input = torch.tensor([3.0], dtype=F16)
    result = torch.ldexp(input, torch.tensor(1.3, dtype=F64))
    assert result.dtype == F16
    power = torch.tensor(2.0 ** 1.3, dtype=F32)  # not rounded to float16 first
    assert torch.equal(result, (input.float() * power).half())
    assert not torch.equal(result, input * power.half())


@pytest.mark.parametrize("input, other", [
    (torch.tensor(2.0), torch.tensor([1.0, 2.0])),
    (torch.tensor(2), torch.tensor([1, 2])),
    (torch.tensor(True), torch.tensor([1, 2])),
])
def test_without_the_kernel_nothing_is_resized(input, other):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = torch.ldexp(input, other)
    assert result.shape == (2,)


def test_the_kernel_still_warns_of_its_resize():
    with pytest.warns(UserWarning, match="was resized since it had shape"):
        torch.ldexp(torch.tensor(2.0), torch.tensor([1, 2]))
