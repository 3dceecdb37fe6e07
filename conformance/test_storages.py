"""Black-box tests: Tensor.untyped_storage() and Tensor.storage(): one storage object per
memory, its size in bytes, its address, its bytes, its printed form and torch's refusals."""

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

from conformance._support import raises


def _x():
    return torch.arange(6, dtype=torch.float32).reshape(2, 3)


def test_one_storage_for_all_tensors_on_one_memory():
    x = _x()
    s = x.untyped_storage()
    assert isinstance(s, torch.UntypedStorage)
    assert torch.UntypedStorage is torch.storage.UntypedStorage
    assert s is x.untyped_storage() is x.t()[1:].untyped_storage() is x.detach().untyped_storage()
    assert s is not x.clone().untyped_storage()
    assert s._cdata == x[1].untyped_storage()._cdata != torch.ones(1).untyped_storage()._cdata
    assert s.untyped() is s and s.cpu() is s


def test_sizes_and_addresses():
    x = _x()
    s = x.untyped_storage()
    v = x.t()[1:]
    assert (s.nbytes(), s.size(), len(s), s.element_size()) == (24, 24, 24, 1)
    assert s.data_ptr() == x.data_ptr()
    assert v.data_ptr() - s.data_ptr() == v.storage_offset() * 4 == 4
    assert (str(s.device), s.is_cuda, s.is_shared(), s.is_pinned(), s.is_sparse) == (
        "cpu", False, False, False, False)
    assert s.filename is None and s.type() == "torch.storage.UntypedStorage"
    assert torch.typename(s) == "torch.storage.UntypedStorage"
    assert torch.empty(0).untyped_storage().data_ptr() == 0
    assert torch.ones(5)[5:].untyped_storage().data_ptr() != 0


@pytest.mark.parametrize(("make", "nbytes"), [
    (lambda: torch.empty(10).resize_(2), 40), (lambda: torch.ones(2, 3).expand(4, 2, 3), 24),
    (lambda: torch.ones(5)[1:3], 20), (lambda: torch.tensor(3.0), 4),
    (lambda: torch.ones(3, dtype=torch.float64), 24),
    (lambda: torch.ones(3, requires_grad=True), 12)])
def test_the_storage_is_the_whole_memory(make, nbytes):
    assert make().untyped_storage().nbytes() == nbytes


def test_bytes():
    x = _x()
    s = x.untyped_storage()
    assert s.tolist() == [0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64,
                          0, 0, 160, 64]
    assert (s[0], s[7], s[-1]) == (0, 63, 64)
    window = s[4:8]
    assert isinstance(window, torch.UntypedStorage) and window.tolist() == [0, 0, 128, 63]
    assert window.data_ptr() - s.data_ptr() == 4
    assert (s[5:2].nbytes(), s[-4:].tolist(), s[:100].nbytes()) == (0, [0, 0, 160, 64], 24)
    x.add_(1)  # the storage reads the memory as it is now
    assert s[4:8].tolist() == [0, 0, 0, 64]
    copy = s.clone()
    assert copy.tolist() == s.tolist() and copy.data_ptr() != s.data_ptr()


def test_refused_indices():
    s = _x().untyped_storage()
    with raises(IndexError, "index 24 out of range for storage of size 24"):
        s[24]
    with raises(IndexError, "index -1 out of range for storage of size 24"):
        s[-25]
    with raises(TypeError, "can't index a torch.UntypedStorage with str"):
        s["a"]
    with raises(TypeError, "can't index a torch.UntypedStorage with float"):
        s[1.0]
    with raises(RuntimeError, "Trying to slice with a step of 2, but only a step of 1 is "
                              "supported"):
        s[::2]
    with raises(TypeError, "TensorBase.untyped_storage() takes no arguments (1 given)"):
        _x().untyped_storage(1)
    with raises(TypeError, "TensorBase.untyped_storage() takes no keyword arguments"):
        _x().untyped_storage(a=1)


def test_printed():
    s = torch.tensor([1, 2], dtype=torch.uint8).untyped_storage()
    assert str(s) == repr(s) == " 1\n 2\n[torch.storage.UntypedStorage(device=cpu) of size 2]"
    assert str(torch.empty(0).untyped_storage()) == (
        " \n[torch.storage.UntypedStorage(device=cpu) of size 0]")


def test_new_storages():
    assert torch.UntypedStorage(3).nbytes() == 3
    assert torch.UntypedStorage().nbytes() == 0


def test_the_typed_storage():
    x = _x()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # given once per process: see below
        typed = x.storage()
        assert type(typed).__name__ == "TypedStorage" and typed is not x.storage()
        assert typed._untyped_storage is typed.untyped() is x.untyped_storage()
        assert (typed.dtype, typed.size(), len(typed), typed.nbytes(), typed.element_size()) == (
            torch.float32, 6, 6, 24, 4)
        assert typed.data_ptr() == x.data_ptr() and str(typed.device) == "cpu"
        assert (typed[1], typed[-1], typed.tolist()) == (1.0, 5.0, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
        assert torch.tensor([True, False]).storage().tolist() == [True, False]
        assert torch.tensor([1, 2]).storage()[1] == 2
        assert str(torch.tensor([1.5], dtype=torch.float16).storage()) == (
            " 1.5\n[torch.storage.TypedStorage(dtype=torch.float16, device=cpu) of size 1]")
        assert torch.arange(6.0)[2:4].storage().size() == 6
        assert torch.typename(typed) == "torch.storage.TypedStorage"
        with raises(IndexError, "index 6 out of range for storage of size 6"):
            typed[6]
        with raises(IndexError, "index -7 out of range for storage of size 6"):
            typed[-7]
        with raises(RuntimeError, "can't index a <class 'torch.storage.TypedStorage'> with "
                                  "<class 'str'>"):
            typed["a"]
        with raises(TypeError, "Tensor.storage() takes 1 positional argument but 2 were given"):
            x.storage(1)


@pytest.mark.parametrize("make", ["torch.ones(2).storage()", "torch.TypedStorage(2)"])
def test_the_typed_storage_warns_once_per_process_at_the_callers_line(make):
    script = (
        f"import warnings\nimport {torch.__name__} as torch\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    warnings.simplefilter('always')\n"
        f"    {make}\n"
        "    torch.ones(2).storage()\n"
        "print([(str(w.message), w.category.__name__, w.lineno) for w in seen])\n"
    )
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), *sys.path])}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=300, check=True)
    message = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
               "will be the only storage class. This should only matter to you if you are using "
               "storages directly.  To access UntypedStorage directly, use "
               "tensor.untyped_storage() instead of tensor.storage()")
    assert done.stdout == repr([(message, "UserWarning", 6)]) + "\n"


def _geometry(t):
    return tuple(t.shape), t.stride(), t.storage_offset(), t._version


def test_set_to_a_storage():
    x = torch.arange(6.0)
    s = x.untyped_storage()
    whole = torch.empty(0).set_(s)
    assert _geometry(whole) == ((6,), (1,), 0, 1) and whole.untyped_storage() is s
    part = torch.empty(0).set_(s, 1, (2,), (2,))
    assert _geometry(part) == ((2,), (2,), 1, 1) and part.tolist() == [1.0, 3.0]
    assert torch.empty(0).set_(s, 2, (2, 2)).tolist() == [[2.0, 3.0], [4.0, 5.0]]
    named = torch.empty(0).set_(source=s, storage_offset=1, size=(2,), stride=(2,))
    assert named.tolist() == [1.0, 3.0]
    wide = torch.empty(0, dtype=torch.float64).set_(s)  # the bytes read as another dtype
    assert wide.tolist() == [0.0078125, 32.00000762939453, 2048.0004920959473]
    assert torch.empty(0, dtype=torch.int64).set_(s).tolist() == [
        4575657221408423936, 4629700418010611712, 4656722015783223296]
    whole.add_(1)
    assert x.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert torch.empty(0).set_(torch.UntypedStorage()).shape == (0,)
    assert torch.empty(0).set_(s[0:6]).tolist() == [1.0]  # whole elements only


def test_set_to_a_typed_storage():
    x = torch.arange(6.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        typed = x.storage()
    assert torch.empty(0).set_(typed).tolist() == x.tolist()
    with raises(RuntimeError, "Expected a Storage of type long int or an UntypedStorage, but got "
                              "type Float for argument 1 'storage'"):
        torch.empty(0, dtype=torch.int64).set_(typed)


def test_storages_in_refusals():
    s = torch.ones(2).untyped_storage()
    forms = (" * ()\n * (torch.Storage source)\n * (torch.Storage source, int storage_offset, "
             "tuple of ints size, tuple of ints stride = None)\n * (Tensor source)\n * (Tensor "
             "source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n")
    with raises(TypeError, "set_() received an invalid combination of arguments - got "
                           "(torch.storage.UntypedStorage, str), but expected one of:\n" + forms):
        torch.empty(0).set_(s, "a")
    with raises(TypeError, "exp(): argument 'input' (position 1) must be Tensor, not "
                           "torch.storage.UntypedStorage"):
        torch.exp(s)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        torch.zeros(1, requires_grad=True).set_(s)


def test_new_over_a_storage():
    s = torch.arange(3.0).untyped_storage()
    t = torch.ones(2).new(s)
    assert _geometry(t) == ((3,), (1,), 0, 1) and t.untyped_storage() is s
    assert t.tolist() == [0.0, 1.0, 2.0] and not t.requires_grad
    assert torch.ones(2).new(storage=s).tolist() == [0.0, 1.0, 2.0]
    assert torch.ones(1, dtype=torch.int32).new(s).tolist() == [0, 1065353216, 1073741824]
