"""index_reduce on bool tensors, as torch's kernels allow it: include_self and two
dimensions or more; a mean only where no index picks anything. The same assertions run on
torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises

MISSING = "\"{}\" not implemented for 'Bool'"


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the beta warning, given once
        yield


def table():
    return torch.tensor([[1, 0], [1, 1], [0, 0]], dtype=torch.bool)


SOURCE = torch.tensor([[False, True], [True, False]])


@pytest.mark.parametrize("reduce, rows", [
    ("amax", [[True, True], [True, True], [True, False]]),
    ("amin", [[False, False], [True, True], [False, False]]),
    ("prod", [[False, False], [True, True], [False, False]]),
])
def test_reductions_of_two_dimensions(reduce, rows):
    out = table().index_reduce(0, torch.tensor([0, 2]), SOURCE, reduce)
    assert out.tolist() == rows and out.dtype == torch.bool
    x = table()
    x.index_reduce_(0, torch.tensor([0, 2]), SOURCE, reduce)
    assert x.tolist() == rows and x._version == 1


def test_along_the_last_dimension():
    out = torch.ones(2, 2, 2, dtype=torch.bool).index_reduce(
        2, torch.tensor([0]), torch.zeros(2, 2, 1, dtype=torch.bool), "amin")
    assert out.tolist() == [[[False, True], [False, True]], [[False, True], [False, True]]]


def test_a_mean_picking_nothing():
    none = torch.tensor([], dtype=torch.int64)
    out = table().index_reduce(0, none, torch.zeros(0, 2, dtype=torch.bool), "mean")
    assert out.tolist() == table().tolist()
    with raises(NotImplementedError, MISSING.format("div_floor_cpu")):
        table().index_reduce(0, torch.tensor([0, 2]), SOURCE, "mean")


@pytest.mark.parametrize("reduce", ["amax", "amin", "prod", "mean"])
def test_refused(reduce):
    with raises(NotImplementedError, MISSING.format("index_reduce_func_exclude_input_init")):
        table().index_reduce(0, torch.tensor([0, 2]), SOURCE, reduce, include_self=False)
    with raises(NotImplementedError, MISSING.format("index_reduce_func_exclude_input_init")):
        torch.tensor([True]).index_reduce(0, torch.tensor([0]), torch.tensor([True]), reduce,
                                          include_self=False)
    with raises(NotImplementedError, MISSING.format("index_func_")):
        torch.tensor([True, False]).index_reduce(0, torch.tensor([1]), torch.tensor([True]),
                                                 reduce)
    with raises(NotImplementedError, MISSING.format("index_func_")):
        torch.tensor(True).index_reduce(0, torch.tensor([0]), torch.tensor(True), reduce)
