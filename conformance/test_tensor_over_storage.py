"""torch.Tensor(storage), the typed constructors and x.new(storage): a new tensor over the whole
storage; and what a dispatch mode sees of them and of every form of set_."""

import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import raises


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TypedStorage's deprecation
        yield


def _doubles():
    return torch.tensor([1.5, -2.0, 0.25], dtype=torch.float64)


def test_a_tensor_over_an_untyped_storage_reads_its_bytes_in_the_default_dtype():
    x = _doubles()
    t = torch.Tensor(x.untyped_storage())
    assert t.dtype == torch.float32 and t.shape == (6,) and t.stride() == (1,)
    assert torch.equal(t, x.view(torch.float32)) and t._version == 1
    assert t.data_ptr() == x.data_ptr() and t.is_leaf and not t.requires_grad
    t.zero_()
    assert x.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("make", [
    lambda s: torch.DoubleTensor(s), lambda s: torch.Tensor(storage=s),
    lambda s: torch.zeros(1, dtype=torch.float64).new(s),
    lambda s: torch.Tensor(s, device="cpu"),
])
def test_each_constructor_reads_the_storage_in_its_own_dtype(make):
    x = _doubles()
    t = make(x.untyped_storage())
    expected = x if t.dtype == torch.float64 else x.view(torch.float32)
    assert torch.equal(t, expected) and t.data_ptr() == x.data_ptr()


def test_whole_elements_only_and_a_typed_storage_of_its_dtype():
    assert torch.Tensor(torch.UntypedStorage(9)).shape == (2,)
    assert torch.LongTensor(torch.arange(3).storage()).tolist() == [0, 1, 2]
    assert torch.equal(torch.Tensor(torch.arange(4.0).storage()), torch.arange(4.0))


@pytest.mark.parametrize("make, message", [
    (lambda: torch.Tensor(torch.arange(3).storage()),
     "Expected a Storage of type Float or an UntypedStorage, but got type Long for argument 1 "
     "'storage'"),
    (lambda: torch.arange(2).new(torch.zeros(2).storage()),
     "Expected a Storage of type Long or an UntypedStorage, but got type Float for argument 1 "
     "'storage'"),
    (lambda: torch.zeros(2).set_(torch.arange(3).storage()),
     "Expected a Storage of type float or an UntypedStorage, but got type Long for argument 1 "
     "'storage'"),
])
def test_a_typed_storage_of_another_dtype_is_refused(make, message):
    with raises(RuntimeError, message):
        make()


def test_a_storage_and_more_fits_no_form():
    with pytest.raises(TypeError, match=r"new\(\) received an invalid combination"):
        torch.Tensor(torch.UntypedStorage(8), 3)


def _shown(args):
    return [a if isinstance(a, int | list) else type(a).__name__ for a in args]


def test_a_mode_sees_an_empty_tensor_set_to_the_storage():
    s = torch.arange(4.0).untyped_storage()
    with _Answering(True) as mode:
        t = torch.Tensor(s)
    assert mode.seen == [
        ("aten.empty.memory_format", [[]], ["device", "dtype", "layout"]),
        ("aten.set_.source_Storage", ["Tensor", "UntypedStorage"], [])]
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0] and t._version == 1


class _Answering(TorchDispatchMode):
    """A mode that may answer set_ without running it."""

    def __init__(self, run):
        super().__init__()
        self.run, self.seen = run, []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append((str(func), _shown(args), sorted(kwargs or {})))
        return func(*args, **(kwargs or {})) if self.run else args[0]


SETS = [
    (lambda a, b, s: a.set_(b), "aten.set_.source_Tensor", ["Tensor", "Tensor"], [3]),
    (lambda a, b, s: a.set_(s), "aten.set_.source_Storage", ["Tensor", "UntypedStorage"], [4]),
    (lambda a, b, s: a.set_(s, 1, (2,), (1,)), "aten.set_.source_Storage_storage_offset",
     ["Tensor", "UntypedStorage", 1, [2], [1]], [2]),
    (lambda a, b, s: a.set_(b, 1, (2,)), "aten.set_.source_Storage_storage_offset",
     ["Tensor", "UntypedStorage", 1, [2]], [2]),
    (lambda a, b, s: a.set_(), "aten.set_.default", ["Tensor"], [0]),
]


@pytest.mark.parametrize("run", [True, False])
@pytest.mark.parametrize("call, name, args, shape", SETS)
def test_set_reaches_a_mode_under_its_overload_and_counts_one_write(call, name, args, shape,
                                                                    run):
    a, b, s = torch.zeros(0), torch.arange(3.0), torch.arange(4.0).untyped_storage()
    with _Answering(run) as mode:
        call(a, b, s)
    assert mode.seen == [(name, args, [])] and a._version == 1
    assert list(a.shape) == (shape if run else [0])
