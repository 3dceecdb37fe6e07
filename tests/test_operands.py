"""White-box tests of how call() settles a row's operands: the short way, or by the rules."""

import numpy as np
import pytest

import refgrad
from refgrad._ops import operands
from refgrad._tensor import make_tensor


def test_a_tensor_and_a_weak_number_are_settled_without_the_rules():
    t = refgrad.tensor([1.0, 2.0])
    assert operands._shared_operands((t, 0.5)) == [t._data, 0.5]
    u = refgrad.tensor([3.0, 4.0])
    arrays = operands._shared_operands((t, u))
    assert arrays[0] is t._data and arrays[1] is u._data


@pytest.mark.parametrize("make_args", [
    lambda t: (t, refgrad.tensor([1.0, 2.0], dtype=refgrad.float64)),  # two dtypes
    lambda t: (refgrad.tensor([1, 2]), 0.5),  # a float number meets integers
    lambda t: (t, 1j),  # a complex number meets floats
    lambda t: (2.0, t),  # the number comes first
    lambda t: (t, None),  # an optional tensor that was not given
    lambda t: (t, t, t),  # three operands take the general loop, and pass
])
def test_what_the_short_way_declines(make_args):
    t = refgrad.tensor([1.0, 2.0])
    args = make_args(t)
    expected = len(args) == 3
    assert (operands._shared_operands(args) is not None) == expected


def test_equal_dtypes_that_are_not_one_object_take_the_rules_and_agree():
    twin = np.dtype(np.float32, metadata={"twin": True})  # equal to float32, another object
    assert twin == np.float32 and twin is not np.dtype(np.float32)
    a = make_tensor(np.array([1.0, 2.0], dtype=twin), requires_grad=True)
    b = refgrad.tensor([3.0, 5.0], requires_grad=True)
    assert operands._shared_operands((a, b)) is None
    out = a * b
    assert out.dtype == refgrad.float32 and out.tolist() == [3.0, 10.0]
    out.sum().backward()
    assert a.grad.tolist() == [3.0, 5.0] and b.grad.tolist() == [1.0, 2.0]
