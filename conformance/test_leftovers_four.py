"""Black-box tests: differences left by earlier rounds: what a running sum of nothing
writes into a bool out, and index_select's out dtype checked before its indices' values.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

SAME = "index_select(): self and result must have the same scalar type"


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0)])
def test_an_empty_running_op_writes_a_bool_out(name, shape):
    out = torch.ones(shape, dtype=torch.bool)
    result = getattr(torch, name)(torch.zeros(shape), -1, out=out)
    assert result is out
    assert out.dtype == torch.bool and out.shape == shape


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_a_0d_running_op_copies_into_a_bool_out(name):
    out = torch.tensor(False)
    getattr(torch, name)(torch.tensor(2.0), 0, out=out)
    assert out.item() is True
    assert out.dtype == torch.bool


def test_an_empty_bool_input_runs_into_a_bool_out():
    out = torch.zeros(0, dtype=torch.bool)
    torch.cumsum(torch.zeros(0, dtype=torch.bool), 0, out=out)
    assert out.shape == (0,)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_a_running_op_with_elements_still_refuses_a_bool_out(name):
    out = torch.zeros(2, dtype=torch.bool)
    with raises(NotImplementedError, f"\"{name}_out_cpu\" not implemented for 'Bool'"):
        getattr(torch, name)(torch.ones(2), 0, out=out)
    assert out.tolist() == [False, False]


def test_an_empty_running_op_still_checks_its_dimension_and_given_dtype():
    out = torch.zeros(0, dtype=torch.bool)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], "
                            "but got 5)"):
        torch.cumsum(torch.zeros(0), 5, out=out)
    with raises(RuntimeError, "Expected out tensor to have dtype double, but got bool instead"):
        torch.cumsum(torch.zeros(0), 0, dtype=torch.float64, out=out)


@pytest.mark.parametrize("input, dim, index", [
    ((0, 3), 0, [0]),  # an empty dimension no index fits
    ((2, 3), 0, [5]),  # an index out of range
    ((4,), 0, [7]),
    ((2, 3), 1, [7]),
    ((0, 3), 0, []),
    ((2, 3), 0, [0]),
])
def test_index_select_refuses_the_out_dtype_before_the_index_values(input, dim, index):
    out = torch.zeros(1, 3, dtype=torch.int64)
    with raises(RuntimeError, SAME):
        torch.index_select(torch.zeros(input), dim, torch.tensor(index, dtype=torch.int64),
                           out=out)
    assert out.tolist() == [[0, 0, 0]]


def test_index_select_checks_its_arguments_before_the_out_dtype():
    out = torch.zeros(1, 3, dtype=torch.int64)
    with raises(RuntimeError, "index_select(): Expected dtype int32 or int64 for index"):
        torch.index_select(torch.zeros(0, 3), 0, torch.tensor([0.0]), out=out)
    with raises(IndexError, "index_select(): Index is supposed to be a vector"):
        torch.index_select(torch.zeros(0, 3), 0, torch.tensor([[0]]), out=out)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], "
                            "but got 2)"):
        torch.index_select(torch.zeros(0, 3), 2, torch.tensor([0]), out=out)
    with raises(RuntimeError, "index_select(): Index to scalar can have only 1 value, got 2 "
                              "value(s)"):
        torch.index_select(torch.tensor(1.0), 0, torch.tensor([0, 1]), out=out)


def test_index_select_with_an_out_of_its_dtype_still_refuses_the_values():
    with raises(RuntimeError, "index_select(): self indexing axis dim should be positive"):
        torch.index_select(torch.zeros(0, 3), 0, torch.tensor([0]), out=torch.zeros(1, 3))
    with raises(IndexError, "index out of range in self"):
        torch.index_select(torch.zeros(4), 0, torch.tensor([7]), out=torch.zeros(1))
