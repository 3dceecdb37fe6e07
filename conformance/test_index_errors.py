"""Indexing with index tensors that do not fit: torch's checks, in torch's order and words."""

import warnings

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



_SEQUENCE_AS_TUPLE = "Using a non-tuple sequence for multidimensional indexing is deprecated"


@pytest.mark.parametrize("key, kind, warned", [
    ("a", "str", True), ("ab", "str", True), ("", "str", False), (["a"], "str", True),
    (("a",), "str", False), ([0, "a"], "str", True), (b"a", "bytes", False),
    ([b"a"], "bytes", True), ([[0], "a"], "str", True),
])
def test_a_string_in_an_index_is_a_sequence_torch_tensor_refuses(key, kind, warned):
    x = torch.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with raises(TypeError, f"new(): invalid data type '{kind}'"):
            x[key]
    shown = [str(w.message)[:len(_SEQUENCE_AS_TUPLE)] for w in record]
    assert shown == ([_SEQUENCE_AS_TUPLE] if warned else [])


def test_a_range_or_bytes_in_an_index_gives_positions():
    x = torch.arange(6.0).reshape(2, 3)
    assert x[range(2)].tolist() == x.tolist()
    with pytest.warns(UserWarning, match=_SEQUENCE_AS_TUPLE):
        assert x[[range(2)]].tolist() == x.tolist()  # read as a tuple
    assert x[0, range(1, 3)].tolist() == [1.0, 2.0]
    with raises(IndexError, "index 97 is out of bounds for dimension 0 with size 2"):
        x[bytearray(b"a")]
    x[range(1), 0] = 7.0
    assert x[:, 0].tolist() == [7.0, 3.0]
