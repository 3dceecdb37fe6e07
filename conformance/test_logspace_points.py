"""Black-box tests: logspace's exponents and powers, and the one-step forms of linspace
and logspace, which fill with a number instead of computing points."""

import warnings

import pytest
import torch

from conformance._support import raises


def test_float16_powers_come_from_double_exponents():
    assert torch.logspace(1, 0, 4, dtype=torch.float16).tolist() == [10.0, 4.640625,
                                                                     2.154296875, 1.0]
    assert torch.logspace(0, 7, 4, dtype=torch.float16).tolist()[2] == 46400.0


def test_exact_powers_are_not_cut_one_too_low():
    assert torch.logspace(1, -1, 7, dtype=torch.int16).tolist() == [10, 4, 2, 1, 0, 0, 0]
    assert torch.logspace(-1.6, 3.526, 11, dtype=torch.int16).tolist()[5] == 10


def test_double_powers_are_the_c_librarys():
    assert torch.logspace(-5.0, -2.9, 2, base=2.5, dtype=torch.float64).tolist()[0] == 0.01024


def test_integer_ends_are_made_the_dtype_from_two_steps():
    assert torch.logspace(-255, 0, 2, dtype=torch.uint8).tolist() == [10, 1]  # -255 is 1
    assert torch.logspace(2.7, 3.9, 3, base=2.1, dtype=torch.int32).tolist() == [4, 6, 9]
    with raises(RuntimeError, "value cannot be converted to type uint8_t without overflow"):
        torch.logspace(-2.5, 2, 2, dtype=torch.uint8)


def test_one_step_is_the_power_of_start_as_given():
    assert torch.logspace(2.9, -2.79, 1, base=3, dtype=torch.int8).tolist() == [24]
    assert torch.logspace(-2.5, 2, 1, dtype=torch.uint8).tolist() == [0]
    assert torch.logspace(0.5, 1, 1, base=16777217, dtype=torch.int64).tolist() == [4096]
    assert torch.logspace(10, 0, 1, dtype=torch.float16).tolist() == [float("inf")]
    with raises(RuntimeError, "value cannot be converted to type uint8_t without overflow"):
        torch.logspace(2.5, 1, 1, dtype=torch.uint8)
    with raises(RuntimeError, "value cannot be converted to type int64_t without overflow"):
        torch.logspace(0.5, 0, 1, base=-2, dtype=torch.int64)


def test_no_steps_checks_no_end():
    assert torch.logspace(-2.5, 2, 0, dtype=torch.uint8).tolist() == []
    assert torch.linspace(70000, 1, 0, dtype=torch.float16).tolist() == []
    assert torch.linspace(-3, 1, 1, dtype=torch.uint8).tolist() == [253]
    assert torch.linspace(0, 300, 1, dtype=torch.uint8).tolist() == [0]


@pytest.mark.parametrize("name", ["linspace", "logspace"])
def test_bool_up_to_one_step(name):
    make = getattr(torch, name)
    assert make(0, 1, 0, dtype=torch.bool).tolist() == []
    assert make(0.5, 1, 1, dtype=torch.bool).tolist() == [True]
    with raises(RuntimeError, "number of steps must be non-negative"):
        make(0, 1, -1, dtype=torch.bool)
    with raises(NotImplementedError, f"\"{name}_cpu\" not implemented for 'Bool'"):
        make(0, 1, 2, dtype=torch.bool)


def test_linspace_bool_start_is_its_truth():
    assert torch.linspace(0, 1, 1, dtype=torch.bool).tolist() == [False]


def test_wrapping_and_nan_powers_are_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.logspace(0, 10, 11, dtype=torch.int8).tolist()[3] == -24
        assert torch.logspace(0, 1, 3, base=-2).tolist()[0] == 1.0
        assert torch.logspace(0, 1, 3, base=-2, dtype=torch.int32).tolist()[1] == -2**31
