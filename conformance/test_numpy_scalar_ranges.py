"""Black-box tests: NumPy scalars read as numbers by torch.tensor, range-checked against
an integer dtype, while NumPy arrays, and asarray's scalars, are cast without a word."""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

OUT_OF_RANGE = [(np.uint8(200), torch.int8, "int8"), (np.int64(300), torch.uint8, "uint8"),
                (np.float64("nan"), torch.int64, "int64"),
                (np.float64(1e300), torch.int64, "int64"), (np.int64(2**40), torch.int32, "int32")]


@pytest.mark.parametrize(("value", "dtype", "name"), OUT_OF_RANGE)
@pytest.mark.parametrize("wrap", [lambda v: v, lambda v: [v], lambda v: [[v, 1]]])
def test_tensor_refuses_a_numpy_scalar_out_of_range(value, dtype, name, wrap):
    with raises(RuntimeError, f"value cannot be converted to type {name} without overflow"):
        torch.tensor(wrap(value), dtype=dtype)
    with raises(RuntimeError, f"value cannot be converted to type {name} without overflow"):
        torch.as_tensor(wrap(value), dtype=dtype)


def test_numpy_scalars_in_range_convert():
    assert torch.tensor([np.int64(-200)], dtype=torch.uint8).tolist() == [56]  # wraps
    assert torch.tensor(np.float64(2.7), dtype=torch.int8).item() == 2
    assert torch.tensor(np.float64(1e300), dtype=torch.float32).item() == float("inf")


def test_asarray_casts_a_numpy_scalar_as_an_array():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.asarray(np.int64(300), dtype=torch.uint8).item() == 44
        assert torch.asarray(np.bool_(True), dtype=torch.int8).item() == 1
        assert torch.asarray(np.float64("nan"), dtype=torch.int32).item() == -2**31


@pytest.mark.parametrize("obj", [np.float64(1.5), np.array(1.5)])
def test_asarray_copy_of_zero_dims_refuses_a_new_dtype(obj):
    with raises(ValueError, "can't alias tensor with dtype 'Double' into dtype 'Float'."):
        torch.asarray(obj, dtype=torch.float32, copy=True)
    assert torch.asarray(obj, dtype=torch.float32).dtype == torch.float32
    assert torch.asarray(np.array([1.5]), dtype=torch.float32, copy=True).dtype == torch.float32


def test_array_casts_are_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.tensor(np.array([1e5]), dtype=torch.float16).tolist() == [float("inf")]
        assert torch.tensor(np.array([np.nan]), dtype=torch.int64).tolist() == [-2**63]
        assert torch.tensor(np.array(300), dtype=torch.uint8).item() == 44
