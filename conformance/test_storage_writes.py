"""Black-box tests: writing into storages (s[i] = v, fill_, copy_), converting them to a
dtype, and resizing them under their tensors, with torch's refusals."""

import copy
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def _s():
    return torch.arange(4, dtype=torch.float32).untyped_storage()


def _typed(values, dtype=torch.float32):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # TypedStorage is deprecated
        return torch.tensor(values, dtype=dtype).storage()


def test_byte_writes_reach_the_tensors():
    x = torch.arange(4, dtype=torch.float32)
    s = x.untyped_storage()
    s[0:4] = 0
    s[4:100] = 0  # a slice past the end writes up to the end
    s[3] = 64
    s[2] = 300  # kept modulo 256
    assert s[0:4].tolist() == [0, 0, 44, 64] and x.tolist()[0] == 2.6875 and x[1].item() == 0.0
    assert x._version == 0  # a storage counts no version
    s[1:2] = -1
    s[5] = True
    assert (s[1], s[5], s[3:1].nbytes()) == (255, 1, 0)


@pytest.mark.parametrize(("index", "value", "message"), [
    (-1, 5, "out of bounds"), (16, 1, "out of bounds"),
    (16, 1.5, "can only set storage content with a int types, but got float instead"),
    (0, np.int64(4), "can only set storage content with a int types, but got numpy.int64 instead"),
    (slice(0, 2), "a", "can only set storage content with a int types, but got str instead"),
    (0, torch.tensor(5), "can only set storage content with a int types, but got Tensor instead"),
    ("a", 1, "can't index a torch.UntypedStorage with str"),
    (True, 1, "can't index a torch.UntypedStorage with bool"),
    (None, 1, "can't index a torch.UntypedStorage with NoneType"),
    (slice(0, 4, 2), 1, "Trying to slice with a step of 2, but only a step of 1 is supported")])
def test_refused_byte_writes(index, value, message):
    s = _s()
    with raises(RuntimeError, message):
        s[index] = value
    assert s.tolist() == _s().tolist()


def test_fill_and_copy():
    s = _s()
    assert s.fill_(-1) is s and s.tolist() == [255] * 16
    assert s.fill_(True).tolist() == [1] * 16 and s.fill_(-300)[0] == 212
    assert s.copy_(_s()) is s and s.tolist() == _s().tolist()
    s.fill_(0)
    s.copy_(src=_typed([1.0, 2.0, 3.0, 4.0]), non_blocking=True)
    assert s.tolist() == _typed([1.0, 2.0, 3.0, 4.0]).untyped().tolist()
    s[0:4].copy_(s[4:8])  # the bytes of another window of the same memory
    assert s[0:8].tolist() == s[4:8].tolist() * 2


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda s: s.fill_(1.5), RuntimeError, "fill_ expects int, but got float"),
    (lambda s: s.fill_(np.int64(7)), RuntimeError, "fill_ expects int, but got numpy.int64"),
    (lambda s: s.fill_(value=1), TypeError, "StorageBase.fill_() takes no keyword arguments"),
    (lambda s: s.fill_(), TypeError, "StorageBase.fill_() takes exactly one argument (0 given)"),
    (lambda s: s.copy_(torch.UntypedStorage(3)), RuntimeError,
     "size does not match, self was 16 bytes but src was 3 bytes"),
    (lambda s: s.copy_(torch.zeros(4)), TypeError,
     "copy_(): argument 'src' (position 1) must be torch.Storage, not Tensor"),
    (lambda s: s.copy_(), TypeError, 'copy_() missing 1 required positional arguments: "src"'),
    (lambda s: s.copy_(s, True, 1), TypeError,
     "copy_() takes from 1 to 2 positional arguments but 3 were given")])
def test_refused_fills_and_copies(call, kind, message):
    with raises(kind, message):
        call(_s())


def test_typed_writes():
    t = _typed([0.0, 1.0, 2.0, 3.0])
    t[0] = 7.5
    t[1:3] = 1
    t[-1] = torch.tensor(9.0)
    assert t.tolist() == [7.5, 1.0, 1.0, 9.0]
    assert t.fill_(2) is t and t.tolist() == [2.0] * 4
    assert t.copy_(_typed([0.0, 1.0, 2.0, 3.0])) is t and t.tolist() == [0.0, 1.0, 2.0, 3.0]
    i = _typed([0, 0], torch.int32)
    i[0] = 2.7
    assert i.tolist() == [2, 0] and i.fill_(3.9).tolist() == [3, 3]
    assert _typed([0.0, 0.0]).copy_(_typed([1], torch.float64)).tolist() == [0.0, 1.875]
    copy = t.clone()
    assert copy.tolist() == t.tolist() and copy.data_ptr() != t.data_ptr()
    assert type(copy) is type(t) and t.cpu() is not t and t.cpu().data_ptr() == t.data_ptr()
    assert t.type() == "torch.FloatStorage"
    assert _typed([1], torch.int64).type() == "torch.LongStorage"
    assert (t.get_device(), _s().get_device()) == (None, None)


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda t: t.__setitem__(5, 1), IndexError,
     "index 5 is out of bounds for dimension 0 with size 2"),
    (lambda t: t.__setitem__("a", 1), RuntimeError,
     "can't index a <class 'torch.storage.TypedStorage'> with <class 'str'>"),
    (lambda t: t.__setitem__(0, "a"), TypeError, "can't assign a str to a torch.FloatTensor"),
    (lambda t: t.fill_("a"), TypeError, "can't assign a str to a torch.FloatTensor"),
    (lambda t: t[0:1], RuntimeError, "slices are only supported in UntypedStorage.__getitem__"),
    (lambda t: t.copy_(_typed([1.0, 2.0, 3.0])), RuntimeError,
     "size does not match, self was 8 bytes but src was 12 bytes")])
def test_refused_typed_writes(call, kind, message):
    with raises(kind, message):
        call(_typed([0.0, 0.0]))


def test_conversions_to_a_dtype():
    s = torch.tensor([1, 200], dtype=torch.uint8).untyped_storage()
    f = s.float()
    assert isinstance(f, torch.TypedStorage) and f.dtype is torch.float32
    assert f.tolist() == [1.0, 200.0] and f.data_ptr() != s.data_ptr()
    assert str(f) == (" 1.0\n 200.0\n"
                      "[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 2]")
    t = _typed([1.5, -2.0])
    assert t.int().tolist() == [1, -2] and t.long().dtype is torch.int64
    assert t.bool().tolist() == [True, True] and s.char().tolist() == [1, -56]
    same = t.float()
    assert same is not t and same.data_ptr() != t.data_ptr() and same.tolist() == t.tolist()


def test_made_from_bytes_copied_and_asked():
    assert torch.UntypedStorage([1, 2, 300, -1, True]).tolist() == [1, 2, 44, 255, 1]
    assert torch.UntypedStorage(b"ab").tolist() == [97, 98]
    for given, message in [
            (3.0, "torch.UntypedStorage(): Expected a sequence type, but got float"),
            (torch.tensor([1]), "torch.UntypedStorage(): Expected a sequence type, but got Tensor"),
            ([1.5], "torch.UntypedStorage(): tried to construct a storage from a sequence (list), "
                    "but one of the items was of type float instead of int"),
            ("ab", "torch.UntypedStorage(): tried to construct a storage from a sequence (str), "
                   "but one of the items was of type str instead of int")]:
        with raises(RuntimeError, message):
            torch.UntypedStorage(given)
    s = _s()
    copied = copy.copy(s)
    assert type(copied) is type(s) and copied.tolist() == s.tolist()
    assert copied.data_ptr() != s.data_ptr()
    assert type(s.new()) is type(s) and s.new().nbytes() == 0
    assert (s[np.int64(7)], torch.is_storage(s), torch.is_storage(_typed([1.0])),
            torch.is_storage(torch.ones(1))) == (63, True, True, False)
    t = _typed([1.0, 2.0], torch.float64)
    assert (t.pickle_storage_type(), t._size(), t.is_sparse, t.filename) == (
        "DoubleStorage", 2, False, None)
    assert copy.copy(t).tolist() == [1.0, 2.0] and copy.copy(t).data_ptr() != t.data_ptr()
    with raises(RuntimeError, "can't index a <class 'torch.storage.TypedStorage'> with "
                              "<class 'numpy.int64'>"):
        t[np.int64(0)]


_FORMS = ("TypedStorage.__init__ received an invalid combination of arguments. Expected one of:\n"
          " * (*, torch.device device, torch.dtype dtype)\n"
          " * (int size, *, torch.device device, torch.dtype dtype)\n"
          " * (Sequence data, *, torch.device device, torch.dtype dtype)\n"
          " * (*, UntypedStorage wrap_storage, torch.dtype dtype)\n")


def test_typed_storages_made_anew():
    u = _s()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # TypedStorage is deprecated
        empty = torch.TypedStorage()
        assert (empty.dtype, empty.size()) == (torch.float32, 0)
        made = torch.TypedStorage(3, dtype=torch.int64)  # of memory as it comes
        assert (made.size(), made.dtype) == (3, torch.int64)
        assert torch.TypedStorage(True).size() == 1
        values = torch.TypedStorage([1.0, 2.5], dtype=torch.float64)
        assert values.tolist() == [1.0, 2.5] and values.dtype is torch.float64
        wrapped = torch.TypedStorage(wrap_storage=u, dtype=torch.uint8)
        assert wrapped.untyped() is u and wrapped.size() == 16
        for args, kwargs, kind, reason in [
                ((1.5,), {}, TypeError, "Argument type not recognized: <class 'float'>"),
                ((1, 2), {}, RuntimeError, "Too many positional arguments"),
                ((), {"wrap_storage": u}, RuntimeError, "Argument 'dtype' must be specified"),
                ((3,), {"wrap_storage": u, "dtype": torch.float32}, RuntimeError,
                 "No positional arguments should be given when using 'wrap_storage'")]:
            with raises(kind, _FORMS + reason):
                torch.TypedStorage(*args, **kwargs)
