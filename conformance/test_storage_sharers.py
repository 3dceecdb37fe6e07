"""Black-box tests: every tensor over a storage follows it when it grows past its memory,
aliases included; and the in-place writes torch refuses over a storage made smaller."""

import warnings

import pytest
import torch

from conformance._support import raises

NOT_ALLOCATED = (r"\AThe tensor has a non-zero number of elements, but its data is not "
                 r"allocated yet\.")


def _aliases(x):
    """Tensors over ``x``'s memory made in each way that is not a view."""
    data, detached = x.data, x.detach()
    as_ints = x.view(torch.int32)
    given = torch.empty(0).set_(x)
    from_storage = torch.empty(0).set_(x.untyped_storage(), 1, (2,), (1,))
    parameter = torch.nn.Parameter(x)
    made = torch.zeros(1).new(x.untyped_storage())
    return (data, detached, as_ints, given, from_storage, parameter, detached[1:].detach(),
            made)


@pytest.mark.parametrize("grow", ["storage", "tensor"])
def test_every_alias_follows_a_growth(grow):
    x = torch.arange(4.0)
    aliases = _aliases(x)
    if grow == "storage":
        x.untyped_storage().resize_(64)
    else:
        x.resize_(16)
    start = x.untyped_storage().data_ptr()
    for t in aliases:
        assert t.untyped_storage().data_ptr() == start and t.untyped_storage().nbytes() == 64
    aliases[0][0] = 10.0
    aliases[1][1] = 11.0
    aliases[4][1] = 12.0  # the storage's third element
    aliases[5].data[3] = 13.0
    assert x[:4].tolist() == [10.0, 11.0, 12.0, 13.0]
    assert aliases[6].tolist() == [11.0, 12.0, 13.0] and aliases[3].tolist() == x[:4].tolist()
    assert aliases[7][:4].tolist() == x[:4].tolist()


def test_an_alias_of_a_view_follows_and_so_does_the_view_s_base():
    x = torch.arange(6.0)
    alias = x[2:4].detach()
    alias.untyped_storage().resize_(100)
    alias[0] = 50.0
    assert x[2].item() == 50.0 and x.data_ptr() == alias.untyped_storage().data_ptr()


def test_data_set_to_another_tensor_follows_its_memory():
    x, y = torch.zeros(3), torch.arange(3.0)
    x.data = y
    y.untyped_storage().resize_(80)
    x[0] = 9.0
    assert y[0].item() == 9.0 and x.data_ptr() == y.data_ptr()


def test_a_typed_storage_grows_with_its_tensors():
    x = torch.arange(3.0)
    alias = x.detach()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x.storage().resize_(5)
    alias[2] = 7.0
    assert x.tolist() == [0.0, 1.0, 7.0] and x.untyped_storage().nbytes() == 20


@pytest.mark.parametrize("nbytes", [8, 0])
def test_index_reduce_of_two_dimensions_checks_its_first_slice(nbytes):
    x = torch.arange(24.0)
    v = x[2:8].view(3, 2)
    x.untyped_storage().resize_(nbytes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # index_reduce is in beta, and says so
        with raises(RuntimeError, "setStorage: sizes [2], strides [1], storage offset 2, and "
                    "itemsize 4 requiring a storage size of 16 are out of bounds for storage "
                    f"of size {nbytes}"):
            v.index_reduce_(0, torch.tensor([2]), torch.ones(1, 2), "prod")
        with raises(RuntimeError, "setStorage: sizes [3], strides [2], storage offset 2, and "
                    "itemsize 4 requiring a storage size of 28 are out of bounds for storage "
                    f"of size {nbytes}"):
            v.index_reduce_(-1, torch.tensor([1]), torch.ones(3, 1), "amax")
        with raises(RuntimeError, "index_reduce(): Expected reduce to be one of prod, mean, amax "
                    "or amin but got sum."):
            v.index_reduce_(0, torch.tensor([0]), torch.ones(1, 2), "sum")  # arguments first
        with raises(IndexError, "Dimension out of range (expected to be in range of "
                    "[-2, 1], but got 2)"):
            v.index_reduce_(2, torch.tensor([0]), torch.ones(1, 2), "prod")


def test_index_add_and_index_reduce_of_one_dimension_over_no_bytes():
    x = torch.arange(24.0)
    w = x[2:8]
    x.untyped_storage().resize_(8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w.index_add_(0, torch.tensor([0]), torch.ones(1))  # bytes left: no check
        w.index_reduce_(0, torch.tensor([0]), torch.ones(1), "prod")
        x.untyped_storage().resize_(0)
        for write in (lambda: w.index_add_(0, torch.tensor([0]), torch.ones(1)),
                      lambda: w.index_reduce_(0, torch.tensor([0]), torch.ones(1), "mean")):
            with pytest.raises(RuntimeError, match=NOT_ALLOCATED):
                write()
        with raises(RuntimeError, "index_add_(): Expected dtype int32/int64 for index but got: "
                    "Float"):
            w.index_add_(0, torch.tensor([0.0]), torch.ones(1))
    x.untyped_storage().resize_(96)
    assert w.index_add_(0, torch.tensor([1]), torch.ones(1))._version == 3
