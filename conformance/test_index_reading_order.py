"""Index tensors are checked when the index has been read: their dtypes, then the masks
against what the selects and slices left; a write checks them after autograd's checks.
The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
KINDS = "tensors used as indices must be long, int, byte or bool tensors"
BYTE_FILL = "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
BYTE = "indexing with dtype torch.uint8 is now deprecated"


def mask_error(mask, tensor, at, j=0):
    return (f"The shape of the mask {mask} at index {j} does not match the shape of the "
            f"indexed tensor {tensor} at index {at}")


@pytest.mark.parametrize("index", [
    torch.tensor([True, False]), torch.tensor([1, 0], dtype=torch.uint8),
    torch.tensor([1., 0.]), torch.tensor([7]),
    (torch.tensor([0, 1]), torch.tensor([1., 0.])),
])
def test_a_leaf_is_refused_before_its_index_is_read(index):
    x = torch.zeros(3, 3, requires_grad=True)
    with raises(RuntimeError, LEAF):
        x[index] = 5.


@pytest.mark.parametrize("index", [
    torch.tensor([1, 0, 1], dtype=torch.uint8),
    (torch.tensor([1, 0, 1], dtype=torch.uint8),),
    (Ellipsis, torch.tensor([1, 0, 1], dtype=torch.uint8)),
    (None, torch.tensor([1, 0, 1], dtype=torch.uint8)),
])
@pytest.mark.parametrize("value", [5., torch.tensor(5), torch.tensor([5.])])
def test_one_uint8_mask_and_one_value_is_refused_as_masked_fill(index, value):
    x = torch.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(RuntimeError, BYTE_FILL):
            x[index] = value
    assert x._version == 0


def test_a_uint8_mask_of_the_wrong_shape_with_one_value():
    x = torch.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(IndexError, mask_error([2], [3], 0)):
            x[torch.tensor([1, 0], dtype=torch.uint8)] = 1.
        with raises(IndexError, "too many indices for tensor of dimension 0 (got 1)"):
            torch.tensor(1.).index_put((torch.tensor([1], dtype=torch.uint8),), torch.tensor(1.))


def test_a_uint8_mask_with_many_values_warns_then_writes():
    x = torch.zeros(3)
    with pytest.warns(UserWarning, match=BYTE):
        x[torch.tensor([1, 0, 1], dtype=torch.uint8)] = torch.tensor([5., 6.])
    assert x.tolist() == [5., 0., 6.]
    with pytest.warns(UserWarning, match=BYTE), raises(IndexError, mask_error([2], [3], 0)):
        x[torch.tensor([1, 0], dtype=torch.uint8)] = torch.tensor([5., 6.])


def test_the_mask_is_checked_against_what_the_index_left():
    with raises(IndexError, mask_error([2], [3], 0)):
        torch.zeros(3, 3)[torch.tensor([True, False]), 0]
    with raises(IndexError, mask_error([2], [3], 0)):
        torch.zeros(3, 3)[torch.tensor([True, False]), 0] = torch.tensor([1., 2.])
    with raises(IndexError, mask_error([2], [4, 1, 3, 1], 2)):
        torch.zeros(4, 3)[..., None, torch.tensor([True, False]), True]


def test_dtypes_are_checked_before_masks():
    x = torch.zeros(3, 3)
    with raises(IndexError, KINDS):
        x[torch.tensor([True, False]), torch.tensor([0.])]
    with raises(IndexError, "index 9 is out of bounds for dimension 1 with size 3"):
        x[torch.tensor([0.]), 9]


def test_index_put_reads_masks_before_the_values():
    mask = torch.tensor([True, False])
    with raises(IndexError, mask_error([2], [3], 0)):
        torch.zeros(3).index_put((mask,), torch.tensor(1.))
    with raises(IndexError, mask_error([4], [3, 4], 0)):
        torch.zeros(3, 4).index_put_((torch.tensor([1, 0, 1, 1], dtype=torch.uint8),),
                                     torch.tensor(1.))
    with raises(IndexError, mask_error([2], [3], 0)):
        torch.zeros(3).index_put((mask,), torch.tensor([1., 2., 3., 4.]))
    with raises(IndexError, mask_error([2], [3], 0)):
        torch.zeros(3).index_put((mask,), torch.tensor([1, 2]))
    with raises(IndexError, "too many indices for tensor of dimension 0 (got 1)"):
        torch.tensor(1.).index_put((torch.tensor([0., 1.]),), torch.tensor(1.))


def test_values_shape_before_their_dtype():
    x = torch.arange(6).reshape(2, 3)
    with raises(RuntimeError, "shape mismatch: value tensor of shape [7] cannot be broadcast "
                              "to indexing result of shape [2, 3]"):
        x[torch.tensor([0, 1])] = torch.ones(7)
    with raises(IndexError, "shape mismatch: indexing tensors could not be broadcast together "
                            "with shapes [2], [3]"):
        torch.arange(6.).reshape(2, 3)[torch.tensor([True, True]), torch.tensor([0, 1, 2])] = 1.


def test_index_put_leaf_first():
    x = torch.zeros(3, requires_grad=True)
    with raises(RuntimeError, LEAF):
        x.index_put_((torch.tensor([0., 1.]),), torch.tensor(1.))
