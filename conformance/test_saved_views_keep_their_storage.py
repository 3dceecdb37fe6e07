"""torch.save/load, pickle and copy.deepcopy put every view back on a copy of its whole
storage: strides, storage_offset, the storage's size and, saved with its base, sharing."""

import copy
import io
import pickle
import warnings

import numpy as np
import pytest
import torch


def _saved(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer)


TRIPS = {
    "save": _saved,
    "pickle": lambda obj: pickle.loads(pickle.dumps(obj)),
    "deepcopy": copy.deepcopy,
}


def _grid():
    return torch.arange(12.0).reshape(4, 3)


VIEWS = {
    "expand": lambda x: x[:, :1].expand(4, 5),
    "unfold": lambda x: x.unfold(1, 2, 1),
    "broadcast_to": lambda x: torch.broadcast_to(x[:, :1], (4, 3)),
    "as_strided": lambda x: x.as_strided((2, 2), (1, 2), 1),
    "torch.as_strided": lambda x: torch.as_strided(x, (3, 2), (2, 1), 2),
    "overlapping": lambda x: x.reshape(-1)[:6].unfold(0, 3, 1).t(),
    "empty rows": lambda x: x[2:2],
    "empty tail": lambda x: x.reshape(-1)[12:],
    "unflatten": lambda x: x.unflatten(1, (3, 1)),
    "column": lambda x: x[:, 2],
    "steps": lambda x: x.reshape(-1)[1::5],
    "diagonal int16": lambda x: x.to(torch.int16).diagonal(),
}


def _geometry(t):
    return (tuple(t.shape), t.stride(), t.storage_offset(), t.untyped_storage().nbytes(),
            t.dtype, t.tolist())


@pytest.mark.parametrize("trip", list(TRIPS))
@pytest.mark.parametrize("view", list(VIEWS))
def test_a_view_saved_alone_keeps_its_geometry(trip, view):
    v = VIEWS[view](_grid())
    assert _geometry(TRIPS[trip](v)) == _geometry(v)


@pytest.mark.parametrize("trip", ["save", "deepcopy"])
@pytest.mark.parametrize("view", list(VIEWS))
def test_a_view_saved_with_its_base_shares_its_memory_again(trip, view):
    x = _grid()
    if view == "diagonal int16":
        x = x.to(torch.int16)
        v = x.diagonal()
    else:
        v = VIEWS[view](x)
    x2, v2 = TRIPS[trip]([x, v])
    assert _geometry(v2) == _geometry(v)
    assert x2.untyped_storage().data_ptr() == v2.untyped_storage().data_ptr()
    x2.fill_(7)
    assert v2.tolist() == torch.full_like(v, 7).tolist()
    assert v.tolist() == VIEWS[view](_grid()).tolist()  # the original is untouched


def test_pickle_gives_each_tensor_a_storage_of_its_own():
    x = _grid()
    x2, v2 = pickle.loads(pickle.dumps([x, x.as_strided((2, 2), (1, 2), 1)]))
    assert x2.untyped_storage().data_ptr() != v2.untyped_storage().data_ptr()
    assert v2.untyped_storage().nbytes() == 48 and v2.storage_offset() == 1


def _from_numpy_broadcast():  # a writable array whose rows repeat one block of memory
    values = np.arange(3.0)
    return torch.from_numpy(np.lib.stride_tricks.as_strided(values, (2, 3), (0, 8)))


ALONE = {
    "empty_strided with gaps": lambda: torch.empty_strided((2, 2), (4, 1)).fill_(1),
    "from_numpy of a block": lambda: torch.from_numpy(np.arange(12.0).reshape(3, 4)[1:, 1:]),
    "from_numpy with steps": lambda: torch.from_numpy(np.arange(12.0).reshape(3, 4)[:, ::2]),
    "from_numpy of columns": lambda: torch.from_numpy(np.arange(12.0).reshape(4, 3)[:, 1:]),
    "set_ at an offset": lambda: torch.empty(0).set_(torch.arange(6.0).untyped_storage(), 2,
                                                     (2,), (1,)),
    "empty arange tail": lambda: torch.arange(5.0)[5:],
}


@pytest.mark.parametrize("trip", list(TRIPS))
@pytest.mark.parametrize("make", list(ALONE))
def test_tensors_on_storages_made_otherwise_keep_their_geometry(trip, make):
    t = ALONE[make]()
    assert _geometry(TRIPS[trip](t)) == _geometry(t)


@pytest.mark.parametrize("trip", list(TRIPS))
def test_a_numpy_broadcast_keeps_its_zero_stride(trip):
    t = _from_numpy_broadcast()
    assert _geometry(TRIPS[trip](t)) == _geometry(t)
    assert t.stride() == (0, 1) and t.untyped_storage().nbytes() == 24


def test_two_views_saved_alone_in_one_file_share_one_storage():
    x = _grid()
    a, b = _saved([x.as_strided((2, 2), (1, 2), 1), x[3]])
    assert a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    b.fill_(-1.0)
    assert a.tolist() == [[1.0, 3.0], [2.0, 4.0]] and b.storage_offset() == 9


@pytest.mark.parametrize("trip", list(TRIPS))
def test_a_copy_has_memory_of_its_own_to_write(trip):
    values = np.arange(3.0)
    values.flags.writeable = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the warning that NumPy's array is read-only
        t = torch.from_numpy(values)
    back = TRIPS[trip](t)
    back.add_(1)
    assert back.tolist() == [1.0, 2.0, 3.0] and values.tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("trip", list(TRIPS))
def test_an_expanded_copy_still_refuses_writes(trip):
    back = TRIPS[trip](torch.arange(3.0).expand(2, 3))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        back.add_(1)
