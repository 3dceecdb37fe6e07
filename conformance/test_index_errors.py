"""Indexing with index tensors that do not fit: torch's checks, in torch's order and words."""

import pytest
import torch

from conformance._support import raises

t = torch.tensor
OUT_OF_RANGE = "index {} is out of bounds for dimension {} with size {}"
VALUES = ("shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of "
          "shape {}")
INDICES = "shape mismatch: indexing tensors could not be broadcast together with shapes {}"


@pytest.mark.parametrize("key, message", [
    ((t([0, 7]),), OUT_OF_RANGE.format(7, 0, 3)),
    ((slice(None), t([0, 9])), OUT_OF_RANGE.format(9, 0, 4)),  # counted among indexed dims
    ((t([0]), slice(None), t([9])), OUT_OF_RANGE.format(9, 1, 5)),
    ((slice(None), slice(None), t([9])), OUT_OF_RANGE.format(9, 0, 5)),
    ((t([0]), t([9])), OUT_OF_RANGE.format(9, 1, 4)),
    ((t([-9]),), OUT_OF_RANGE.format(-9, 0, 3)),
])
def test_an_index_out_of_range_names_the_indexed_dimension(key, message):
    x = torch.zeros(3, 4, 5)
    with raises(IndexError, message):
        x[key]
    with raises(IndexError, message):
        x[key] = 1.0


@pytest.mark.parametrize("write, kind, message", [
    (lambda x: x.index_put_((t([0, 1, 2]),), torch.ones(2), accumulate=True),
     RuntimeError, VALUES.format([2], [3, 4])),
    (lambda x: x.index_put_((t([0, 1]),), torch.ones(3)), RuntimeError, VALUES.format([3], [2, 4])),
    (lambda x: x.index_put_((t([0, 1]),), torch.ones(2, 3), accumulate=True),
     RuntimeError, VALUES.format([2, 3], [2, 4])),
    (lambda x: x.__setitem__((slice(None), t([0, 1])), torch.ones(5)),
     RuntimeError, VALUES.format([5], [3, 2])),
    (lambda x: torch.index_put(x[0], (t([0, 1]),), torch.ones(3)),
     RuntimeError, VALUES.format([3], [2])),
    (lambda x: x.index_put_((t([0, 7]),), torch.ones(2)),  # the shapes before the range
     RuntimeError, VALUES.format([2], [2, 4])),
    (lambda x: x.index_put_((t([0, 1]), t([0, 1, 2])), torch.ones(2)),
     IndexError, INDICES.format("[2], [3]")),
    (lambda x: x[t([0, 1]), t([0, 1, 2])], IndexError, INDICES.format("[2], [3]")),
])
def test_indices_and_values_that_do_not_fit_are_refused_in_torchs_words(write, kind, message):
    x = torch.zeros(3, 4)
    with raises(kind, message):
        write(x)
    assert x.abs().sum().item() == 0.0 and x._version == 0
