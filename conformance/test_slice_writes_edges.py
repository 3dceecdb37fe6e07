"""index_add, index_copy and index_reduce at their edges: an empty self, whose index is
never read, or whose kernel view is refused; an index into one dimension or none; a 0-d
source given too many indices. The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises

IN_SELF = "index out of range in self"


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # index_reduce's beta warning, given once
        yield


def storage(sizes, strides, needed):
    return (f"setStorage: sizes {sizes}, strides {strides}, storage offset 0, and itemsize 4 "
            f"requiring a storage size of {needed} are out of bounds for storage of size 0")


def test_an_empty_self_reads_no_index():
    out = torch.zeros(0, 3).index_add(0, torch.tensor([0, 2]), torch.ones(2, 3))
    assert out.shape == (0, 3)
    assert torch.zeros(2, 0).index_add(0, torch.tensor([5]), torch.ones(1, 0)).shape == (2, 0)
    assert torch.zeros(0, 3).index_copy(1, torch.tensor([5]), torch.ones(0, 1)).shape == (0, 3)
    assert torch.zeros(2, 0).index_copy(0, torch.tensor([3]), torch.ones(1, 0)).shape == (2, 0)
    x = torch.zeros(0, 3)
    x.index_add_(0, torch.tensor([0]), torch.ones(1, 3))
    assert x._version == 1


def test_the_kernel_view_of_an_empty_self():
    with raises(RuntimeError, storage([1, 3], [0, 1], 12)):
        torch.zeros(0, 3).index_copy(0, torch.tensor([0]), torch.ones(1, 3))
    with raises(RuntimeError, storage([1], [0], 4)):
        torch.zeros(0).index_copy(0, torch.tensor([3]), torch.ones(1))


def test_index_reduce_takes_its_first_slice():
    with raises(IndexError, "select(): index 0 out of range for tensor of size [0, 3] at "
                            "dimension 0"):
        torch.zeros(0, 3).index_reduce(0, torch.tensor([0]), torch.ones(1, 3), "prod")
    out = torch.zeros(0, 3).index_reduce(1, torch.tensor([0]), torch.ones(0, 1), "amax")
    assert out.shape == (0, 3)
    with raises(IndexError, IN_SELF):
        torch.zeros(3, 0).index_reduce(0, torch.tensor([5]), torch.ones(1, 0), "amax")


@pytest.mark.parametrize("self, index, source", [
    (torch.zeros(3), [5], torch.ones(1)), (torch.zeros(3), [-1], torch.ones(1)),
    (torch.zeros(0), [0], torch.ones(1)), (torch.tensor(1.), [1], torch.tensor(2.)),
    (torch.tensor(1.), [-1], torch.tensor(2.)),
])
def test_index_add_into_one_dimension_or_none(self, index, source):
    with raises(IndexError, IN_SELF):
        self.index_add(0, torch.tensor(index), source)
    with raises(IndexError, IN_SELF):
        self.clone().index_add_(0, torch.tensor(index), source)


def test_index_add_of_more_dimensions_names_the_index():
    with raises(RuntimeError, "index -1 is out of bounds for dimension 1 with size 3"):
        torch.zeros(2, 3).index_add(1, torch.tensor([-1]), torch.ones(2, 1))


@pytest.mark.parametrize("call", [
    lambda i: torch.tensor(1.).index_add(0, i, torch.tensor(2.)),
    lambda i: torch.tensor(1.).index_reduce(0, i, torch.tensor(2.), "prod"),
])
def test_a_zero_dim_source_with_many_indices(call):
    with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
        call(torch.tensor([0, 1]))


def test_a_bool_mean_is_refused_before_the_index_is_read():
    with raises(NotImplementedError, "\"scatter_gather_tensor_cpu_reduce_mean\" not "
                                     "implemented for 'Bool'"):
        torch.tensor([True, False]).scatter_reduce(0, torch.tensor([5]), torch.tensor([True]),
                                                   "mean")
    with raises(RuntimeError, "index 5 is out of bounds for dimension 0 with size 2"):
        torch.tensor([True, False]).scatter_reduce(0, torch.tensor([5]), torch.tensor([True]),
                                                   "sum")
