"""Index kinds torch reads beside ints, slices and tensors: NumPy arrays, objects with an
__index__, tuples inside the index; and slice bounds, read as Python reads them.
The same assertions run on torch.
"""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

VALID = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
         "valid indices (got {})")
BOUND = "slice indices must be integers or None or have an __index__ method"
ONE_ELEMENT = "only integer tensors of a single element can be converted to an index"


class One:
    def __index__(self):
        return 1


class Broken:
    def __index__(self):
        raise ValueError("no")


def grid():
    return torch.arange(6.).reshape(3, 2)


@pytest.mark.parametrize("index, rows", [
    (np.array([0, 2]), [[0., 1.], [4., 5.]]),
    (np.array([True, False, True]), [[0., 1.], [4., 5.]]),
    (np.array([0.7, 1.2]), [[0., 1.], [2., 3.]]),
    (np.array([2, 0], dtype=np.int8), [[4., 5.], [0., 1.]]),
    (np.array([1], dtype=np.int32), [[2., 3.]]),
    (((0, 1),), [[0., 1.], [2., 3.]]),
    (((True, False, True),), [[0., 1.], [4., 5.]]),
    (np.array([], dtype=np.int64), []),
])
def test_sequences_read_as_index_tensors(index, rows):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = grid()[index]
    assert got.tolist() == rows and got.dtype == torch.float32


def test_an_array_of_no_dimensions_is_a_number():
    x = grid()
    assert x[np.array(1)].tolist() == [2., 3.] and x[np.array(1)].stride() == (1,)
    assert x[np.array(1.)].tolist() == [2., 3.]
    assert x[np.array(1), np.array(0)].item() == 2.
    assert x[np.array(True)].shape == (1, 3, 2)
    assert x[np.array(False)].shape == (0, 3, 2)
    with raises(IndexError, "index 7 is out of bounds for dimension 0 with size 3"):
        x[np.array(7)]


def test_a_sequence_names_one_dimension():
    with raises(IndexError, "too many indices for tensor of dimension 2"):
        grid()[np.array(True), 0, 0]
    assert grid()[torch.tensor(True), 0, 0].tolist() == [0.]


def test_tuples_inside_the_index():
    x = grid()
    assert x[((0, 1), (1, 0))].tolist() == [1., 2.]
    assert x[(0, 1), ].tolist() == [[0., 1.], [2., 3.]]
    assert x[((0, 1),), 1].tolist() == [[1., 3.]]
    with raises(TypeError, "'tuple' object cannot be interpreted as an integer"):
        x[((0, (1, 0)),)]


def test_objects_with_an_index():
    x = grid()
    assert x[One()].tolist() == [2., 3.]
    assert x[One(), One()].item() == 3.
    assert x[:, One()].tolist() == [1., 3., 5.]
    assert x[One():3].tolist() == [[2., 3.], [4., 5.]]
    with raises(IndexError, VALID.format("Broken")):
        x[Broken()]
    with raises(IndexError, VALID.format("numpy.float64")):
        x[np.float64(1.)]


def test_arrays_refused_as_torch_tensor_refuses_them():
    with raises(ValueError, "given numpy array has byte order different from the native byte "
                            "order. Conversion between byte orders is currently not supported."):
        grid()[np.array([2, 0], dtype=">i8")]


def test_uint8_arrays_are_masks():
    with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
        assert grid()[np.array([1, 0, 1], dtype=np.uint8)].tolist() == [[0., 1.], [4., 5.]]


def test_writes_through_arrays_and_indexable_objects():
    x = torch.zeros(3, 2)
    x[np.array([0, 2])] = torch.tensor([5., 6.])
    x[One()] = 1.
    x[((1,),), 0] = 7.
    assert x.tolist() == [[5., 6.], [7., 1.], [5., 6.]]
    y = torch.zeros(3)
    y[np.array([True, False, True])] = 2.
    assert y.tolist() == [2., 0., 2.]
    with raises(TypeError, "can't assign a numpy.ndarray to a torch.FloatTensor"):
        y[np.array([0, 2])] = np.array([5., 6.])


@pytest.mark.parametrize("bounds, kind, message", [
    (slice(0.5, 3), TypeError, BOUND),
    (slice(None, 2.0), TypeError, BOUND),
    (slice(None, None, 2.0), TypeError, BOUND),
    (slice(None, "a"), TypeError, BOUND),
    (slice(torch.tensor(1.), 3), TypeError, ONE_ELEMENT),
    (slice(torch.tensor([1, 2]), 3), TypeError, ONE_ELEMENT),
    (slice(0.5, torch.tensor(1.)), TypeError, BOUND),
    (slice(torch.tensor(1.), 0.5), TypeError, ONE_ELEMENT),
    (slice(0.5, None, 0), TypeError, BOUND),
    (slice(None, None, torch.tensor(-1.)), TypeError, ONE_ELEMENT),
    (slice(None, None, 0), ValueError, "slice step cannot be zero"),
])
def test_slice_bounds_refused(bounds, kind, message):
    x = torch.arange(4.)
    with raises(kind, message):
        x[bounds]
    with raises(kind, message):
        x[bounds] = 1.
    assert x._version == 0


def test_slice_bounds_with_an_index():
    x = torch.arange(4.)
    assert x[torch.tensor(1):3].tolist() == [1., 2.]
    assert x[torch.tensor([1]):3].tolist() == [1., 2.]
    assert x[np.int64(1):np.array(3)].tolist() == [1., 2.]
    assert x[One():One()].tolist() == []
    assert x[::One()].tolist() == [0., 1., 2., 3.]
    assert x[True:3].tolist() == [1., 2.]
