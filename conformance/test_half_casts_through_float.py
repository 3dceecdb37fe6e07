"""A float64 value becomes float16 by way of float32, rounded twice, wherever torch converts
one: 2049.0000001 is 2049.0 as a float32, a tie that goes to the even 2048."""

import numpy as np
import pytest
import torch

VALUES = [2049.0000001, -499.37498693431365, 2.980232238770531e-08, 1e300, 65519.0]
DOUBLES = torch.tensor(VALUES, dtype=torch.float64)


def through_float(values):
    """float64 values to float32, then float32 to float16: two conversions of one rounding."""
    return torch.as_tensor(values, dtype=torch.float64).float().half()


def test_the_values_differ_from_one_rounding():
    with np.errstate(over="ignore"):
        once = np.array(VALUES).astype(np.float16).tolist()
    twice = through_float(VALUES).tolist()
    assert once[:3] != twice[:3]


@pytest.mark.parametrize("convert", [
    lambda: DOUBLES.half(),
    lambda: DOUBLES.to(torch.float16),
    lambda: DOUBLES.to(torch.empty(0, dtype=torch.float16)),
    lambda: DOUBLES.type(torch.float16),
    lambda: torch.tensor(VALUES, dtype=torch.float16),
    lambda: torch.as_tensor(np.array(VALUES), dtype=torch.float16),
    lambda: torch.from_numpy(np.array(VALUES)).half(),
    lambda: torch.zeros(1, dtype=torch.float16).new_tensor(VALUES),
    lambda: torch.zeros(5, dtype=torch.float16).copy_(DOUBLES),
    lambda: torch.add(DOUBLES, 0, out=torch.empty(5, dtype=torch.float16)),
    lambda: torch.zeros(5, dtype=torch.float16).__iadd__(DOUBLES),
], ids=["half", "to", "to_other", "type", "tensor", "as_tensor", "from_numpy", "new_tensor",
        "copy_", "out", "iadd"])
def test_a_double_tensor_or_list_goes_through_float(convert):
    result = convert()
    assert result.dtype == torch.float16
    assert result.tolist() == through_float(DOUBLES).tolist()


def test_setting_a_slice_goes_through_float():
    target = torch.zeros(5, dtype=torch.float16)
    target[:] = DOUBLES
    assert target.tolist() == through_float(DOUBLES).tolist()


@pytest.mark.parametrize("fill", [
    lambda: torch.full((2,), VALUES[0], dtype=torch.float16),
    lambda: torch.zeros(2, dtype=torch.float16).fill_(VALUES[0]),
    lambda: torch.zeros(2, dtype=torch.float16).fill_(torch.tensor(VALUES[0], dtype=torch.float64)),
    lambda: torch.zeros(1, dtype=torch.float16).new_full((2,), VALUES[0]),
    lambda: torch.zeros(2, dtype=torch.float16).masked_fill(torch.tensor([True, True]),
                                                            VALUES[0]),
    lambda: torch.zeros(2, dtype=torch.float16).index_fill(0, torch.tensor([0, 1]), VALUES[0]),
    lambda: torch.clamp(torch.zeros(2, dtype=torch.float16), min=VALUES[0]),
    lambda: torch.full_like(torch.zeros(2, dtype=torch.float16), VALUES[0]),
    lambda: torch.where(torch.tensor([True, True]), VALUES[0], torch.zeros(2, dtype=torch.float16)),
    lambda: VALUES[0] - torch.zeros(2, dtype=torch.float16),
    lambda: torch.full((2,), float("inf"), dtype=torch.float16).nan_to_num(posinf=VALUES[0]),
    lambda: torch.zeros(2, dtype=torch.float16) + np.float64(VALUES[0]),
], ids=["full", "fill_", "fill_0d", "new_full", "masked_fill", "index_fill", "clamp", "full_like",
        "where", "rsub", "nan_to_num", "numpy_scalar"])
def test_a_double_fill_goes_through_float(fill):
    assert fill().tolist() == through_float([VALUES[0]] * 2).tolist()


def test_a_promoted_zero_d_double_goes_through_float():
    zero_d = torch.tensor(VALUES[0], dtype=torch.float64)
    result = torch.zeros(3, dtype=torch.float16) + zero_d
    assert result.dtype == torch.float16
    assert result.tolist() == through_float([VALUES[0]] * 3).tolist()


def test_setting_an_element_to_a_number_goes_through_float():
    target = torch.zeros(2, dtype=torch.float16)
    target[0] = VALUES[0]
    target[1] = torch.tensor(VALUES[0], dtype=torch.float64)
    assert target.tolist() == through_float([VALUES[0]] * 2).tolist()


def test_a_double_summed_or_counted_in_float16_goes_through_float_first():
    first = DOUBLES[:1]
    expected = through_float(first)
    assert torch.sum(first, dtype=torch.float16).item() == expected.item()
    assert torch.prod(first, dtype=torch.float16).item() == expected.item()
    assert torch.cumsum(first, 0, dtype=torch.float16).tolist() == expected.tolist()
    assert torch.arange(VALUES[0], VALUES[0] + 1, dtype=torch.float16).tolist() == \
        expected.tolist()


@pytest.mark.parametrize("operate", [torch.add, torch.sub, torch.mul],
                         ids=["add", "sub", "mul"])
def test_a_number_beside_a_float16_tensor_goes_through_float(operate):
    zeros = torch.zeros(2, dtype=torch.float16)
    expected = operate(zeros, through_float([VALUES[0]] * 2))
    assert operate(zeros, VALUES[0]).tolist() == expected.tolist()


def test_a_loaded_state_goes_through_float():
    module = torch.nn.Linear(1, 1).half()
    module.load_state_dict({"weight": torch.tensor([[VALUES[0]]], dtype=torch.float64),
                            "bias": torch.tensor([VALUES[0]], dtype=torch.float64)})
    assert module.bias.tolist() == through_float([VALUES[0]]).tolist()
    assert module.weight.tolist() == [module.bias.tolist()]


@pytest.mark.parametrize("other", [torch.tensor(0.1), torch.tensor(0.1, dtype=torch.float64),
                                   torch.tensor(14.778112411499023), torch.tensor(2049),
                                   torch.tensor(3, dtype=torch.int32)])
def test_a_0d_tensor_after_a_float16_one_is_a_number_to_mul_and_div(other):
    halves = np.random.default_rng(5).uniform(0.5, 8.0, 200).astype(np.float16)
    h, value = torch.tensor(halves), np.float32(other.item())
    wide = halves.astype(np.float32)
    assert np.array_equal((h * other).numpy(), (wide * value).astype(np.float16))
    assert np.array_equal((h / other).numpy(), (wide / value).astype(np.float16))
    assert np.array_equal(h.clone().mul_(other).numpy(), (wide * value).astype(np.float16))
    rounded = np.float16(value)  # before the float16 tensor, or added: rounded first
    assert np.array_equal((other * h).numpy(), rounded * halves)
    assert np.array_equal((h + other).numpy(), halves + rounded)
