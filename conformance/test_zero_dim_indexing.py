"""Indexing a 0-d tensor: a bare integer or slice gets its own IndexError, in torch's words,
other index kinds the usual ones. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises

ITEM = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
        "in C++ to convert a 0-dim tensor to a number")
SLICE = "slice() cannot be applied to a 0-dim tensor."
BOUNDS = "index {} is out of bounds for dimension 0 with size 0"
TOO_MANY = "too many indices for tensor of dimension 0"


@pytest.mark.parametrize("index, message", [
    (0, ITEM), (np.int64(0), ITEM), (1, BOUNDS.format(1)), (-1, BOUNDS.format(-1)),
    (np.int64(-2), BOUNDS.format(-2)), (slice(0, 1), SLICE), (slice(None), SLICE),
    (slice(None, None, 2), SLICE), ((0,), TOO_MANY), ((None, 0), TOO_MANY),
    ((Ellipsis, 0), TOO_MANY), ((slice(None),), TOO_MANY), ([0], TOO_MANY),
])
def test_reading_and_writing_refuse(index, message):
    s = torch.tensor(1.0)
    with raises(IndexError, message):
        s[index]
    with raises(IndexError, message):
        s[index] = 2.0
    assert s.item() == 1.0 and s._version == 0


def test_a_zero_dim_integer_tensor_is_one_index_too_many():
    s = torch.tensor(1.0)
    with raises(IndexError, TOO_MANY):
        s[torch.tensor(0)]


def test_the_second_index_of_a_vector():
    x = torch.ones(3, requires_grad=True)
    with raises(IndexError, ITEM):
        x[0][0]
    with raises(IndexError, BOUNDS.format(-1)):
        x[0][-1]
    with raises(IndexError, SLICE):
        x[0][1:]
    with raises(IndexError, "too many indices for tensor of dimension 1"):
        x[0, 0]


def test_what_a_zero_dim_tensor_does_take():
    s = torch.tensor(1.0)
    assert s[None].shape == (1,) and s[...].shape == () and s[True].shape == (1,)
    assert s[False].shape == (0,) and s[None, None].shape == (1, 1)
    assert s[torch.tensor(True)].shape == (1,)
    s[...] = 2.0
    assert s.item() == 2.0
