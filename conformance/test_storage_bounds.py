"""Black-box tests: views of a tensor over a storage made smaller than it, and a storage's
to(), pin_memory(), sharing, from_buffer() and pickling, as torch answers them on the CPU."""

import copy
import pickle
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def _bounds(sizes, strides, offset, needed, has):
    return (f"setStorage: sizes {sizes}, strides {strides}, storage offset {offset}, and "
            f"itemsize 4 requiring a storage size of {needed} are out of bounds for storage "
            f"of size {has}")


REFUSED = [  # (view, sizes, strides, storage offset) of x = arange(6.0)
    (lambda x: x[1:3], [2], [1], 1),
    (lambda x: x[5], [], [], 5),
    (lambda x: x[:], [6], [1], 0),
    (lambda x: x[None], [1, 6], [6, 1], 0),
    (lambda x: x.expand(2, 6), [2, 6], [0, 1], 0),
    (lambda x: x.unsqueeze(0), [1, 6], [6, 1], 0),
    (lambda x: x.squeeze(), [6], [1], 0),
    (lambda x: x.permute(0), [6], [1], 0),
    (lambda x: x.narrow(0, 0, 3), [3], [1], 0),
    (lambda x: x.unfold(0, 2, 2), [3, 2], [2, 1], 0),
    (lambda x: x.as_strided((3,), (1,)), [3], [1], 0),
    (lambda x: x.split(2), [2], [1], 2),
    (lambda x: x.unbind(), [], [], 2),
    (lambda x: x.view(2, 3).diagonal(), [2], [4], 0),
]


@pytest.mark.parametrize("view, sizes, strides, offset", REFUSED)
def test_a_view_past_a_shrunk_storage_is_refused(view, sizes, strides, offset):
    x = torch.arange(6.0)
    x.untyped_storage().resize_(8)
    needed = 4 * (offset + 1 + sum((n - 1) * s for n, s in zip(sizes, strides)))
    with raises(RuntimeError, _bounds(sizes, strides, offset, needed, 8)):
        view(x)


def test_views_within_a_shrunk_storage_and_aliases_are_made():
    x = torch.arange(6.0)
    tail = x[2:]
    x.untyped_storage().resize_(8)
    assert x[:2].tolist() == [0.0, 1.0] and x[1].item() == 1.0
    assert x.narrow(0, 0, 1).shape == (1,) and x.as_strided((2,), (1,)).shape == (2,)
    for alias in (x.view(2, 3), x.reshape(3, 2), x.view_as(x), x.detach(), x[...], x.t(),
                  x.transpose(0, 0), x.view(torch.int32)):
        assert alias.storage_offset() == 0 and alias.untyped_storage() is x.untyped_storage()
    with raises(RuntimeError, _bounds([], [], 2, 12, 8)):
        tail[0]  # a view made before the shrink is checked too
    x.untyped_storage().resize_(24)  # grown back: nothing is refused
    x.copy_(torch.arange(6.0))  # bytes past the 8 kept are torch's to choose
    assert x[1:3].tolist() == [1.0, 2.0] and tail[0].item() == 2.0


def test_a_storage_of_no_bytes_refuses_element_access():
    x = torch.arange(6.0)
    x.untyped_storage().resize_(0)
    with raises(RuntimeError, _bounds([], [], 0, 4, 0)):
        x[0].item()
    with raises(RuntimeError, _bounds([], [], 0, 4, 0)):
        x[0] = 1.0
    with raises(RuntimeError, _bounds([2], [1], 0, 8, 0)):
        x[:2]
    assert x.view(2, 3).shape == (2, 3)
