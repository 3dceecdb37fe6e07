"""Black-box tests: UntypedStorage.resize_ and TypedStorage.resize_: the tensors over a
storage see its new size, keep their place in it, and move with it; torch's refusals."""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def test_shrinking_to_nothing_and_back():
    x = torch.arange(6.0)
    view = x[2:]
    s = x.untyped_storage()
    assert s.resize_(0) is s
    assert (s.nbytes(), len(s), s.data_ptr(), s.tolist()) == (0, 0, 0, [])
    assert str(s) == " \n[torch.storage.UntypedStorage(device=cpu) of size 0]"
    assert x.untyped_storage() is s and view.untyped_storage() is s
    assert (x.shape, x.stride(), x.storage_offset(), view.storage_offset()) == ((6,), (1,), 0, 2)
    assert (x.data_ptr(), view.data_ptr()) == (0, 8)  # measured from address 0
    with raises(RuntimeError, "tolist() shouldn't be called on a tensor with unallocated storage"):
        x.tolist()
    assert torch.empty(0).tolist() == []
    s.resize_(24)
    assert s.nbytes() == 24 and x.data_ptr() == s.data_ptr() != 0
    x.copy_(torch.arange(6.0) + 10)
    assert view.tolist() == [12.0, 13.0, 14.0, 15.0]


def test_growing_moves_every_tensor_with_the_storage():
    x = torch.arange(6.0)
    view, alias = x[2:], x.detach()
    s = x.untyped_storage()
    s.resize_(40)
    assert s.nbytes() == 40 and s[0:8].tolist() == [0, 0, 0, 0, 0, 0, 128, 63]
    assert x.data_ptr() == s.data_ptr() == alias.data_ptr() and view.data_ptr() - s.data_ptr() == 8
    assert x.untyped_storage() is s and view.untyped_storage() is s
    view[0] = 99.0
    assert x.tolist() == alias.tolist() == [0.0, 1.0, 99.0, 3.0, 4.0, 5.0]
    assert x._version == 1  # the write counts, the resize does not
    s[0:4].copy_(torch.tensor([7.0]).untyped_storage())
    assert alias[0].item() == 7.0


def test_a_shrunk_storage_shows_what_it_has():
    s = torch.arange(3.0).untyped_storage()
    s.resize_(4)
    assert str(s) == " 0\n 0\n 0\n 0\n[torch.storage.UntypedStorage(device=cpu) of size 4]"
    assert (s[0:100].nbytes(), s.clone().nbytes()) == (4, 4)
    with raises(IndexError, "index 5 out of range for storage of size 4"):
        s[5]


def test_a_tensor_resized_grows_a_shrunk_storage():
    w = torch.arange(6.0)
    w.untyped_storage().resize_(0)
    w.resize_(3)
    assert w.untyped_storage().nbytes() == 12
    w = torch.arange(6.0)
    w.untyped_storage().resize_(4)
    w.resize_(2)
    assert w.untyped_storage().nbytes() == 8
    w.resize_(1)
    assert w.untyped_storage().nbytes() == 8


def test_autograd_is_not_asked():
    y = torch.ones(3, requires_grad=True)
    assert y.untyped_storage().resize_(100).nbytes() == 100
    assert y.requires_grad and y._version == 0
    (y * 2).sum().backward()
    assert y.grad.tolist() == [2.0, 2.0, 2.0]


def test_other_storages():
    assert torch.UntypedStorage(2).resize_(4).nbytes() == 4
    assert torch.arange(3.0).untyped_storage().clone().resize_(4).nbytes() == 4
    u = torch.empty(0)
    assert u.untyped_storage().resize_(8).nbytes() == 8
    assert u.untyped_storage().nbytes() == 8 and u.shape == (0,) and u.data_ptr() == 0
    assert torch.empty(0).set_(u.untyped_storage()).shape == (2,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # TypedStorage is deprecated
        x = torch.arange(3.0)
        t = x.storage()
        assert t.resize_(5) is None and (x.untyped_storage().nbytes(), t.size()) == (20, 5)
        assert x.storage().resizable()


def test_resizable():
    assert torch.arange(2.0).untyped_storage().resizable()
    assert not torch.arange(4.0).untyped_storage()[0:4].resizable()
    assert not torch.from_numpy(np.zeros(2)).untyped_storage().resizable()


_NEGATIVE = ("[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to "
             "have been called with negative number: ")


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda s: s.resize_(2.0), RuntimeError, "resize_ expects an int, but got float"),
    (lambda s: s.resize_(True), RuntimeError, "resize_ expects an int, but got bool"),
    (lambda s: s.resize_(None), RuntimeError, "resize_ expects an int, but got NoneType"),
    (lambda s: s.resize_(torch.tensor(3)), RuntimeError, "resize_ expects an int, but got Tensor"),
    (lambda s: s.resize_(), TypeError,
     "StorageBase.resize_() takes exactly one argument (0 given)"),
    (lambda s: s.resize_(3, 4), TypeError,
     "StorageBase.resize_() takes exactly one argument (2 given)"),
    (lambda s: s.resize_(size=3), TypeError, "StorageBase.resize_() takes no keyword arguments"),
    (lambda s: s.resize_(-1), RuntimeError, _NEGATIVE + "18446744073709551615"),
    (lambda s: s[0:8].resize_(2), RuntimeError, "Trying to resize storage that is not resizable"),
    (lambda s: torch.from_numpy(np.arange(4.0)).untyped_storage().resize_(32), RuntimeError,
     "Trying to resize storage that is not resizable")])
def test_refused(call, kind, message):
    x = torch.arange(6.0)
    with raises(kind, message):
        call(x.untyped_storage())
    assert x.untyped_storage().nbytes() == 24 and x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_a_numpy_size_is_an_int():
    s = torch.arange(6.0).untyped_storage()
    assert s.resize_(np.int64(3)).nbytes() == 3


def test_set_to_a_geometry_past_the_end_grows_the_storage():
    x = torch.arange(4.0)
    s = x.untyped_storage()
    y = torch.empty(0).set_(s, 2, (4,), (1,))
    assert s.nbytes() == 24 and y.untyped_storage() is s and x.untyped_storage() is s
    assert y.tolist()[:2] == [2.0, 3.0] and x.tolist() == [0.0, 1.0, 2.0, 3.0]
    y[3] = 9.0
    assert s[20:24].tolist() == [0, 0, 16, 65]
    z = torch.empty(0).set_(source=s, storage_offset=0, size=(2, 4))
    assert s.nbytes() == 32 and z[0].tolist() == [0.0, 1.0, 2.0, 3.0]
    with raises(RuntimeError, "Trying to resize storage that is not resizable"):
        torch.empty(0).set_(s[0:8], 0, (4,), (1,))
    with raises(RuntimeError, "Trying to resize storage that is not resizable"):
        torch.empty(0, dtype=torch.float64).set_(
            torch.from_numpy(np.zeros(2)).untyped_storage(), 0, (4,), (1,))


def test_a_tensor_over_bytes_is_read_in_its_own_dtype():
    s = torch.UntypedStorage(16)
    y = torch.empty(0).set_(s, 0, (2,), (1,))
    assert y.dtype is torch.float32 and y.as_strided((3,), (1,), 1).dtype is torch.float32
    x = torch.tensor([0, 0, 128, 63], dtype=torch.uint8).view(torch.float32)
    assert x.as_strided((1,), (1,), 0).tolist() == [1.0]
    with raises(RuntimeError, "setStorage: sizes [2], strides [1], storage offset 0, and "
                              "itemsize 4 requiring a storage size of 8 are out of bounds for "
                              "storage of size 4"):
        x.as_strided((2,), (1,), 0)
