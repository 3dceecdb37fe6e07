"""The order in which masked_fill(_), index_fill and index_select check their arguments,
so that the error torch reports is the one reported. The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises

ZERO_DIM = ("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 "
            "dimension(s).")
BYTE = "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
SIZES = ("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton "
         "dimension {}")


def test_masked_fill_value_before_mask_dtype():
    byte = torch.ones(3, 4, dtype=torch.uint8)
    with raises(RuntimeError, ZERO_DIM):
        torch.zeros(3, 4).masked_fill(byte, torch.tensor([1.]))
    with raises(RuntimeError, ZERO_DIM):
        torch.zeros(3, 4).masked_fill_(byte, torch.tensor([1.]))
    with raises(RuntimeError, SIZES.format(5, 4, 1)):
        torch.zeros(3, 4).masked_fill(torch.ones(3, 5, dtype=torch.uint8), torch.tensor([1.]))


def test_masked_fill_in_place_names_the_tensor_written_first():
    with raises(RuntimeError, SIZES.format(4, 5, 1)):
        torch.zeros(3, 4).masked_fill_(torch.ones(5, dtype=torch.bool), 1.)
    with raises(RuntimeError, SIZES.format(4, 5, 1)):
        torch.zeros(4).masked_fill_(torch.ones(2, 5, dtype=torch.bool), 1.)
    with raises(RuntimeError, SIZES.format(5, 4, 1)):
        torch.zeros(3, 4).masked_fill(torch.ones(5, dtype=torch.bool), 1.)
    with raises(RuntimeError, SIZES.format(3, 4, 0)):
        torch.zeros(3, dtype=torch.int64).masked_fill_(torch.ones(4, dtype=torch.bool), 1)


def test_masked_fill_in_place_shapes_before_the_value():
    x = torch.zeros(3, dtype=torch.int64)
    with raises(RuntimeError, "output with shape [3] doesn't match the broadcast shape [2, 3]"):
        x.masked_fill_(torch.ones(2, 3, dtype=torch.bool), float("nan"))
    with raises(RuntimeError, "value cannot be converted to type int64_t without overflow"):
        x.masked_fill(torch.ones(2, 3, dtype=torch.bool), float("nan"))
    with raises(RuntimeError, "value cannot be converted to type int64_t without overflow"):
        x.masked_fill_(torch.ones(3, dtype=torch.bool), float("nan"))


def test_masked_fill_on_expanded_refuses_before_it_warns():
    x = torch.zeros(1, 3).expand(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(RuntimeError, ZERO_DIM):
            x.masked_fill_(torch.ones(2, 3, dtype=torch.bool), torch.tensor([1.]))
        with raises(RuntimeError, BYTE):
            x.masked_fill_(torch.ones(2, 3, dtype=torch.uint8), 1.)
    with pytest.warns(UserWarning, match="Use of masked_fill_ on expanded tensors"):
        x.masked_fill_(torch.ones(2, 3, dtype=torch.bool), 1.)


def test_masked_fill_in_place_leaf_first():
    x = torch.zeros(3, requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        x.masked_fill_(torch.ones(3, dtype=torch.bool), torch.tensor([1.]))


def test_index_fill_index_dtype_before_dim():
    with raises(IndexError, "index_fill_(): Expected dtype int64 for index."):
        torch.zeros(3, 4).index_fill(2, torch.tensor([0], dtype=torch.int32), 1.)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                            "got 2)"):
        torch.zeros(3, 4).index_fill(2, torch.tensor([[0]]), 1.)


def test_index_select_of_a_scalar_counts_first():
    with raises(RuntimeError, "index_select(): Index to scalar can have only 1 value, got 2 "
                              "value(s)"):
        torch.tensor(1.).index_select(0, torch.tensor([0., 1.]))
    with raises(RuntimeError, "index_select(): Expected dtype int32 or int64 for index"):
        torch.tensor(1.).index_select(0, torch.tensor([0.]))
    with raises(IndexError, "index_select(): Index is supposed to be a vector"):
        torch.tensor(1.).index_select(0, torch.tensor([[0, 1]]))
