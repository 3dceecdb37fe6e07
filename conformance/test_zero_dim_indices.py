"""A tensor of no dimensions as an index: the number it holds, and as a Python index."""

import operator
import warnings

import pytest
import torch

from conformance._support import raises

NOT_AN_INDEX = "only integer tensors of a single element can be converted to an index"


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.int8])
def test_an_integer_index_selects_a_view(dtype):
    x = torch.arange(15.0).reshape(5, 3).clone().requires_grad_()
    row = x[torch.tensor(-4, dtype=dtype)]
    assert row.grad_fn.name() == "SelectBackward0"
    assert row._base is x
    assert row.tolist() == [3.0, 4.0, 5.0]
    row.sum().backward()
    assert x.grad[1].tolist() == [1.0, 1.0, 1.0] and x.grad.sum().item() == 3.0


def test_writes_through_the_selected_row_reach_the_tensor():
    x = torch.zeros(4, 3)
    x[torch.tensor(2)].add_(7.0)
    assert x[2].tolist() == [7.0, 7.0, 7.0]
    assert x._version == 1


@pytest.mark.parametrize("key, shape", [
    ((torch.tensor(1), torch.tensor(2)), ()),
    ((None, torch.tensor(2)), (1, 3)),
    ((Ellipsis, torch.tensor(0)), (5,)),
    ((torch.tensor(1), [0, 2]), (2,)),
])
def test_it_counts_as_one_integer_among_other_indices(key, shape):
    x = torch.arange(15.0).reshape(5, 3)
    assert tuple(x[key].shape) == shape
    assert x[key].tolist() == x[tuple(int(k) if isinstance(k, torch.Tensor) else k
                                     for k in key)].tolist()


@pytest.mark.parametrize("dtype", [torch.uint8, torch.bool])
@pytest.mark.parametrize("value, rows", [(1, 1), (0, 0)])
def test_a_byte_or_bool_one_is_a_mask_without_a_warning(dtype, value, rows):
    x = torch.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        picked = x[torch.tensor(value, dtype=dtype)]
    assert tuple(picked.shape) == (rows, 2, 3)


@pytest.mark.parametrize("key, message", [
    (torch.tensor(7), "index 7 is out of bounds for dimension 0 with size 5"),
    ((slice(None), torch.tensor(-4)), "index -4 is out of bounds for dimension 1 with size 3"),
])
def test_out_of_range_is_worded_as_for_an_int(key, message):
    with raises(IndexError, message):
        torch.zeros(5, 3)[key]


@pytest.mark.parametrize("key, expected", [
    (torch.tensor(1), [[0.0, 0.0, 0.0], [9.0, 9.0, 9.0]]),
    ((torch.tensor(1), torch.tensor(2)), [[0.0, 0.0, 0.0], [0.0, 0.0, 9.0]]),
    (torch.tensor(1, dtype=torch.uint8), [[9.0, 9.0, 9.0], [9.0, 9.0, 9.0]]),
])
def test_assignment_writes_in_place_through_a_view(key, expected):
    x = torch.zeros(2, 3, requires_grad=True).clone()
    x[key] = 9.0
    assert x.tolist() == expected
    assert x.grad_fn.name().endswith("CopySlices")
    assert x._version == 1


def test_a_byte_mask_of_one_dimension_still_refuses_a_number():
    x = torch.zeros(2, 3)
    with raises(RuntimeError, "masked_fill_ only supports boolean masks, but got mask with "
                              "dtype unsigned char"):
        x[torch.tensor([1, 0], dtype=torch.uint8)] = 5.0


def test_an_integer_tensor_of_one_element_is_a_python_index():
    assert list(range(torch.tensor(3))) == [0, 1, 2]
    assert ["a", "b", "c"][torch.tensor(1)] == "b"
    assert "abcdef"[torch.tensor(1):torch.tensor(4)] == "bcd"
    assert hex(torch.tensor([[255]], dtype=torch.uint8)) == "0xff"
    assert operator.index(torch.tensor(True)) == 1
    assert operator.index(torch.tensor([-3], dtype=torch.int16)) == -3


@pytest.mark.parametrize("value", [
    torch.tensor(1.0), torch.tensor([1, 2]), torch.tensor([], dtype=torch.int64),
    torch.tensor(2.0, requires_grad=True),
])
def test_any_other_tensor_is_refused_as_an_index(value):
    with raises(TypeError, NOT_AN_INDEX):
        operator.index(value)
    with raises(TypeError, NOT_AN_INDEX):
        range(value)
