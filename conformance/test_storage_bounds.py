"""Black-box tests: views of a tensor over a storage made smaller than it, and a storage's
to(), pin_memory(), sharing, from_buffer() and pickling, as torch answers them on the CPU."""

import copy
import pickle
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def _bounds(sizes, strides, offset, needed, has):
    return (f"setStorage: sizes {sizes}, strides {strides}, storage offset {offset}, and "
            f"itemsize 4 requiring a storage size of {needed} are out of bounds for storage "
            f"of size {has}")


REFUSED = [  # (view, sizes, strides, storage offset) of x = arange(6.0)
    (lambda x: x[1:3], [2], [1], 1),
    (lambda x: x[5], [], [], 5),
    (lambda x: x[:], [6], [1], 0),
    (lambda x: x[None], [1, 6], [6, 1], 0),
    (lambda x: x.expand(2, 6), [2, 6], [0, 1], 0),
    (lambda x: x.unsqueeze(0), [1, 6], [6, 1], 0),
    (lambda x: x.squeeze(), [6], [1], 0),
    (lambda x: x.permute(0), [6], [1], 0),
    (lambda x: x.narrow(0, 0, 3), [3], [1], 0),
    (lambda x: x.unfold(0, 2, 2), [3, 2], [2, 1], 0),
    (lambda x: x.as_strided((3,), (1,)), [3], [1], 0),
    (lambda x: x.split(2), [2], [1], 2),
    (lambda x: x.unbind(), [], [], 2),
    (lambda x: x.view(2, 3).diagonal(), [2], [4], 0),
]


@pytest.mark.parametrize("view, sizes, strides, offset", REFUSED)
def test_a_view_past_a_shrunk_storage_is_refused(view, sizes, strides, offset):
    x = torch.arange(6.0)
    x.untyped_storage().resize_(8)
    needed = 4 * (offset + 1 + sum((n - 1) * s for n, s in zip(sizes, strides)))
    with raises(RuntimeError, _bounds(sizes, strides, offset, needed, 8)):
        view(x)


def test_views_within_a_shrunk_storage_and_aliases_are_made():
    x = torch.arange(6.0)
    tail = x[2:]
    x.untyped_storage().resize_(8)
    assert x[:2].tolist() == [0.0, 1.0] and x[1].item() == 1.0
    assert x.narrow(0, 0, 1).shape == (1,) and x.as_strided((2,), (1,)).shape == (2,)
    for alias in (x.view(2, 3), x.reshape(3, 2), x.view_as(x), x.detach(), x[...], x.t(),
                  x.transpose(0, 0), x.view(torch.int32)):
        assert alias.storage_offset() == 0 and alias.untyped_storage() is x.untyped_storage()
    with raises(RuntimeError, _bounds([], [], 2, 12, 8)):
        tail[0]  # a view made before the shrink is checked too
    x.untyped_storage().resize_(24)  # grown back: nothing is refused
    x.copy_(torch.arange(6.0))  # bytes past the 8 kept are torch's to choose
    assert x[1:3].tolist() == [1.0, 2.0] and tail[0].item() == 2.0


def test_a_storage_of_no_bytes_refuses_element_access():
    x = torch.arange(6.0)
    x.untyped_storage().resize_(0)
    with raises(RuntimeError, _bounds([], [], 0, 4, 0)):
        x[0].item()
    with raises(RuntimeError, _bounds([], [], 0, 4, 0)):
        x[0] = 1.0
    with raises(RuntimeError, _bounds([2], [1], 0, 8, 0)):
        x[:2]
    assert x.view(2, 3).shape == (2, 3)


def test_to_gives_the_storage_itself_on_its_device():
    s = torch.arange(3, dtype=torch.uint8).untyped_storage()
    assert s.to(device="cpu") is s and s.to(device=torch.device("cpu"), non_blocking=True) is s
    with raises(TypeError, "_StorageBase.to() missing 1 required keyword-only argument: "
                           "'device'"):
        s.to()
    with raises(TypeError, "_StorageBase.to() takes 1 positional argument but 2 were given"):
        s.to("cpu")
    with raises(TypeError, "_StorageBase.to() got an unexpected keyword argument 'dtype'"):
        s.to(device="cpu", dtype=torch.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        typed = torch.arange(2.0).storage()
        moved = typed.to(device="cpu")
    assert type(moved) is type(typed) and moved.dtype == torch.float32
    assert moved.tolist() == [0.0, 1.0] and moved.data_ptr() == typed.data_ptr()


@pytest.mark.skipif(torch.cuda.is_available(), reason="torch's words without a GPU")
def test_without_a_gpu_moving_and_pinning_are_refused():
    s = torch.UntypedStorage(2)
    with raises(TypeError, "'<' not supported between instances of 'NoneType' and 'int'"):
        s.to(device="cuda")
    with raises(RuntimeError, "PyTorch was compiled without CUDA support"):
        s.to(device="cuda:0")
    with raises(RuntimeError, "Cannot access accelerator device when none is available."):
        s.pin_memory()
    with raises(RuntimeError, "CPU device type not an accelerator."), pytest.warns(
            DeprecationWarning, match="of Tensor") as seen:
        s.pin_memory("cpu")
    assert [str(w.message).split("()")[0] for w in seen] == [
        "The argument 'device' of Tensor.pin_memory", "The argument 'device' of Tensor.is_pinned"]


def test_pinned_and_shared_answers():
    s = torch.UntypedStorage(3)
    assert s.is_pinned() is False and s.is_pinned(None) is False
    with pytest.warns(DeprecationWarning, match=r"\AThe argument 'device' of "
                      r"Tensor\.is_pinned\(\) is deprecated\. Please do not pass this argument"):
        assert s.is_pinned(device="cpu") is False
    with raises(TypeError, "_StorageBase.is_pinned() takes from 1 to 2 positional arguments "
                           "but 3 were given"):
        s.is_pinned("cuda", 1)
    with raises(TypeError, "_StorageBase.share_memory_() takes 1 positional argument but 2 "
                           "were given"):
        s.share_memory_(1)
    assert s.is_shared() is False and s.share_memory_() is s and s.is_shared() is True
    assert s.clone().is_shared() is False
    x = torch.tensor([1, 2, 3], dtype=torch.uint8)
    x.untyped_storage().share_memory_()
    assert x.is_shared() and x[1:].untyped_storage().is_shared()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        typed = torch.arange(2.0).storage()
        assert type(typed.share_memory_()) is type(typed) and typed.is_shared()
        assert typed.is_pinned() is False


FROM_BUFFER = [  # (arguments, keywords, the bytes of the storage)
    ((b"\x01\x02",), {"dtype": "uint8"}, [1, 2]),
    ((bytearray(b"ab"),), {"dtype": "int8"}, [97, 98]),
    ((memoryview(b"ab"), "middle"), {"dtype": "uint8"}, [97, 98]),  # one byte: no order
    ((b"\x01\x02",), {"byte_order": "little", "dtype": "bool"}, [1, 1]),
    ((b"\x00\x00\x80\x3f", "little"), {"dtype": "float32"}, [0, 0, 128, 63]),
    ((b"\x00\x00\x80\x3f", "big"), {"dtype": "float32"}, [63, 128, 0, 0]),
    ((b"\x00\x00\x80\x3f", "native"), {"dtype": "float32"}, [0, 0, 128, 63]),
    ((bytes(range(8)), "big"), {"dtype": "int64"}, [7, 6, 5, 4, 3, 2, 1, 0]),
    ((b"\x01\x02\x03\x04", "little"), {"dtype": "int16", "count": 1}, [1, 2]),
    ((b"\x01\x02\x03\x04", "little"), {"dtype": "int16", "count": 0}, []),
    ((b"\x01\x02\x03\x04", "little"), {"dtype": "int16", "count": -2}, [1, 2, 3, 4]),
    ((b"\x01\x02\x03\x04\x05", "little"), {"dtype": "int16", "offset": 1}, [2, 3, 4, 5]),
    ((b"\x01\x02", "little"), {"dtype": "int16", "offset": 2}, []),
    ((np.array([1, 2], dtype=np.uint8),), {"dtype": "uint8"}, [1, 2]),
    ((b"ab", "little", 1, 0, "uint8"), {}, [97]),
    ((b"ab",), {"dtype": "uint8", "count": True}, [97]),
]


@pytest.mark.parametrize("args, kwargs, values", FROM_BUFFER)
def test_from_buffer_copies_the_bytes(args, kwargs, values):
    if "dtype" in kwargs:
        kwargs = dict(kwargs, dtype=getattr(torch, kwargs["dtype"]))
    else:
        args = (*args[:4], getattr(torch, args[4]))
    s = torch.UntypedStorage.from_buffer(*args, **kwargs)
    assert type(s) is torch.UntypedStorage and s.tolist() == values and s.resizable()
    if isinstance(args[0], np.ndarray):
        args[0][0] = 9  # a copy: the buffer's later writes are not seen
        assert s.tolist() == values


FROM_BUFFER_REFUSALS = [
    ((), {}, TypeError, "function missing required argument 'buffer' (pos 1)"),
    ((b"ab",), {}, RuntimeError, "argument 'dtype' cannot be None"),
    (("ab",), {}, RuntimeError, "argument 'dtype' cannot be None"),
    ((b"ab",), {"dtype": "uint8"}, RuntimeError, "argument 'dtype' must be of type torch.dtype"),
    ((b"ab",), {"dtype": torch.int16}, RuntimeError,
     "function missing required argument 'byte_order' (pos 2)"),
    ((b"ab",), {"dtype": torch.bool}, RuntimeError,
     "function missing required argument 'byte_order' (pos 2)"),
    ((b"ab", 1), {"dtype": torch.int16}, TypeError, "argument 2 must be str, not int"),
    ((b"ab", "middle"), {"dtype": torch.int16}, ValueError,
     "invalid byte_order 'middle' (expected 'big', 'little', or 'native')"),
    (("ab",), {"dtype": torch.uint8}, TypeError, "a bytes-like object is required, not 'str'"),
    (([1, 2],), {"dtype": torch.uint8}, TypeError,
     "a bytes-like object is required, not 'list'"),
    ((b"ab",), {"dtype": torch.uint8, "device": "cpu"}, TypeError,
     "'device' is an invalid keyword argument for this function"),
    ((b"ab", None), {"dtype": torch.uint8}, TypeError, "argument 2 must be str, not None"),
    ((b"ab", 1, "x"), {}, TypeError, "argument 2 must be str, not int"),
    ((b"ab", "little", 1, 0, 1), {}, RuntimeError, "argument 'dtype' must be of type torch.dtype"),
    ((b"ab", "little", 1, 0, torch.uint8, 1), {}, TypeError,
     "function takes at most 5 arguments (6 given)"),
    ((b"ab",), {"dtype": torch.uint8, "device": "cpu", "count": "x"}, TypeError,
     "'str' object cannot be interpreted as an integer"),
    ((b"ab", "x"), {"dtype": torch.uint8, "byte_order": "x"}, TypeError,
     "argument for function given by name ('byte_order') and position (2)"),
    ((b"ab", "little", torch.uint8), {}, TypeError,
     "'torch.dtype' object cannot be interpreted as an integer"),
    ((b"\x01\x02\x03", "little"), {"dtype": torch.int16}, ValueError,
     "buffer size (3) must be a multiple of element size (2)"),
    ((b"\x01\x02\x03\x04", "little"), {"dtype": torch.int16, "offset": 1}, ValueError,
     "buffer size (4) must be a multiple of element size (2)"),
    ((b"\x01\x02\x03\x04\x05", "little"), {"dtype": torch.int16, "offset": 1, "count": 3},
     ValueError, "buffer has only 4 elements after offset 1, but specified a size of 3"),
    ((b"\x01\x02\x03\x04", "little"), {"dtype": torch.int16, "offset": 5}, ValueError,
     "offset must be non-negative and no greater than buffer length (5) , but got 4"),
    ((b"\x01\x02\x03\x04", "little"), {"dtype": torch.int16, "offset": -1}, ValueError,
     "offset must be non-negative and no greater than buffer length (-1) , but got 4"),
]


@pytest.mark.parametrize("args, kwargs, kind, message", FROM_BUFFER_REFUSALS)
def test_from_buffer_refusals(args, kwargs, kind, message):
    with raises(kind, message):
        torch.UntypedStorage.from_buffer(*args, **kwargs)


def test_typed_from_buffer_takes_the_default_dtype():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = torch.TypedStorage.from_buffer(b"\x00\x00\x80\x3f", "little")
        small = torch.TypedStorage.from_buffer(b"\x01\x02", dtype=torch.uint8, device="cpu")
        big = torch.TypedStorage.from_buffer(b"\x00\x01", "big", dtype=torch.int16)
        with raises(RuntimeError, "function missing required argument 'byte_order' (pos 2)"):
            torch.TypedStorage.from_buffer(b"\x00\x01", dtype=torch.int16)
        with raises(RuntimeError, "TypedStorage.from_buffer: Not available for device cuda"):
            torch.TypedStorage.from_buffer(b"\x00\x01", dtype=torch.uint8, device="cuda")
    assert type(one) is torch.TypedStorage and one.dtype == torch.float32
    assert one.tolist() == [1.0] and small.tolist() == [1, 2] and big.tolist() == [1]


def test_storages_pickle_and_deep_copy():
    s = torch.tensor([1, 2, 300], dtype=torch.int16).untyped_storage()
    pickled = pickle.dumps(s)  # made, but torch cannot read it back
    with raises(AttributeError, "type object 'torch.storage.UntypedStorage' has no attribute "
                                "'dtype'"):
        pickle.loads(pickled)
    twice = copy.deepcopy([s, s])
    assert twice[0] is twice[1] and twice[0] is not s and twice[0].tolist() == s.tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        typed = torch.arange(3.0).storage()
    for made in (pickle.loads(pickle.dumps(typed)), copy.deepcopy(typed)):
        assert type(made) is torch.TypedStorage and made.dtype == torch.float32
        assert made.tolist() == [0.0, 1.0, 2.0] and made.data_ptr() != typed.data_ptr()
    t = torch.arange(3.0)[1:]
    assert pickle.loads(pickle.dumps(t)).tolist() == copy.deepcopy(t).tolist() == [1.0, 2.0]


def test_from_file_maps_a_file(tmp_path):
    path = tmp_path / "bytes.bin"
    path.write_bytes(b"abcdefgh")
    name = str(path)
    private = torch.UntypedStorage.from_file(name, False, 4)
    assert private.tolist() == [97, 98, 99, 100] and private.filename is None
    assert not private.resizable()
    private[0] = 66  # kept in memory: the file is not written
    assert private[0] == 66 and path.read_bytes() == b"abcdefgh"
    shared = torch.UntypedStorage.from_file(name, shared=True, nbytes=8)
    assert shared.filename == name and shared.tolist()[:2] == [97, 98]
    shared[0] = 65
    assert path.read_bytes() == b"Abcdefgh"
    x = torch.tensor([], dtype=torch.uint8).set_(shared)
    assert x.untyped_storage().filename == name and shared.clone().filename is None
    assert torch.UntypedStorage.from_file(name).tolist() == []
    grown = torch.UntypedStorage.from_file(name, True, 10)  # a zero byte lands at the start
    assert grown.tolist() == [0, 98, 99, 100, 101, 102, 103, 104, 0, 0]
    assert path.read_bytes() == b"\0bcdefgh\0\0"


def test_from_file_refusals(tmp_path):
    path = tmp_path / "bytes.bin"
    path.write_bytes(b"abcd")
    name, missing = str(path), str(tmp_path / "missing.bin")
    with raises(RuntimeError, f"unable to open file <{missing}> in read-only mode: No such "
                              "file or directory (2)"):
        torch.UntypedStorage.from_file(missing, False, 4)
    with raises(RuntimeError, f"file <{name}> size <4> is smaller than the required mapping "
                              "size <8>"):
        torch.UntypedStorage.from_file(name, False, 8)
    with raises(RuntimeError, f"unable to open file <{tmp_path}> in read-write mode: Is a "
                              "directory (21)"):
        torch.UntypedStorage.from_file(str(tmp_path), True, 4)
    with raises(RuntimeError, f"unable to mmap -1 bytes from file <{name}>: Cannot allocate "
                              "memory (12)"):
        torch.UntypedStorage.from_file(name, False, -1)
    with raises(TypeError, "function missing required argument 'filename' (pos 1)"):
        torch.UntypedStorage.from_file()
    with raises(TypeError, "argument 1 must be str, not PosixPath"):
        torch.UntypedStorage.from_file(path)
    with raises(TypeError, "'NoneType' object cannot be interpreted as an integer"):
        torch.UntypedStorage.from_file(name, None, 4)
    with raises(TypeError, "'size' is an invalid keyword argument for this function"):
        torch.UntypedStorage.from_file(name, size=4)
    with raises(RuntimeError, "from_file can only be called on derived classes"):
        torch.TypedStorage.from_file(name, False, 4)
    made = torch.UntypedStorage.from_file(str(tmp_path / "new.bin"), True, 3)
    assert made.tolist() == [0, 0, 0] and (tmp_path / "new.bin").stat().st_size == 3
    assert (tmp_path / "new.bin").exists()
    torch.UntypedStorage.from_file(str(tmp_path / "none.bin"), True)
    assert not (tmp_path / "none.bin").exists()  # no bytes: no file


def test_a_transpose_is_checked_unless_it_swaps_a_dimension_with_itself():
    x = torch.ones(2, 2)
    x.untyped_storage().resize_(0)
    assert x.transpose(1, -1).shape == x.transpose(0, 0).shape == (2, 2)
    one = torch.ones(1, 1)
    one.untyped_storage().resize_(0)
    for swapped in (lambda: one.t(), lambda: one.transpose(0, 1)):
        with raises(RuntimeError, _bounds([1, 1], [1, 1], 0, 4, 0)):
            swapped()


def test_sharing_keeps_the_tensors_over_the_storage_and_their_values():
    x = torch.arange(6.0)
    view, alias = x[2:], x.detach()
    s = x.untyped_storage()
    assert s.share_memory_() is s and x.untyped_storage() is s
    assert view.is_shared() and alias.is_shared() and x.is_shared()
    assert view.data_ptr() - x.data_ptr() == 8 and x.data_ptr() == s.data_ptr()
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    x[3] = -1.0
    assert view[1].item() == alias[3].item() == -1.0
    pointer = s.data_ptr()
    assert s.share_memory_().data_ptr() == pointer  # shared already: it stays
    assert s.resizable() and s.resize_(0).nbytes() == 0  # may shrink; growing crashes torch
    assert torch.empty(0).untyped_storage().share_memory_().is_shared()
