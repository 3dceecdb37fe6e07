"""Which index out of range torch names: the first picked element with one, and at it the
first index tensor, counted among the index tensors; masks as the positions they pick.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

OUT = "index {} is out of bounds for dimension {} with size {}"
BROADCAST = "shape mismatch: indexing tensors could not be broadcast together with shapes {}"


def put(x, index, value):
    x[index] = value


@pytest.mark.parametrize("read", [lambda x, i: x[i], lambda x, i: put(x, i, 1.)])
@pytest.mark.parametrize("shape, index, message", [
    ((1, 3, 1), (torch.tensor([0, 1]), slice(None), torch.tensor([1, 0])), OUT.format(1, 1, 1)),
    ((1, 3, 1), (torch.tensor([0, 1]), 0, torch.tensor([1, 0])), OUT.format(1, 1, 1)),
    ((3, 4), (torch.tensor([[0], [5]]), torch.tensor([1, 9])), OUT.format(9, 1, 4)),
    ((3, 4), (torch.tensor([[0], [1]]), torch.tensor([-5, 9])), OUT.format(-5, 1, 4)),
    ((3, 4), (torch.tensor([True, False, True]), torch.tensor([1, 9])), OUT.format(9, 1, 4)),
    ((3, 4, 2), (torch.ones(3, 4, dtype=torch.bool), torch.tensor([9])), OUT.format(9, 2, 2)),
    ((3, 4), (slice(None), torch.tensor([4])), OUT.format(4, 0, 4)),
    ((2, 3), (torch.tensor([True, True]), torch.tensor([0, 1, 2])), BROADCAST.format("[2], [3]")),
])
def test_the_index_named(read, shape, index, message):
    with raises(IndexError, message):
        read(torch.zeros(shape), index)


def test_index_put_names_the_same():
    x = torch.zeros(3, 4)
    with raises(IndexError, OUT.format(9, 1, 4)):
        x.index_put((torch.tensor([0, 1]), torch.tensor([1, 9])), torch.tensor([1., 2.]), True)
    assert x.abs().sum().item() == 0.
