"""torch.nuclear_norm with out=: linalg.matrix_norm's out= under its own name, its steps
under a mode where autograd is on, and nuclear_norm's own out overloads where it is off."""

import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import raises

A = [[4.0, 1.0], [1.0, 3.0]]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nuclear_norm's deprecation, a resized out
        yield


@pytest.mark.parametrize("call, shape", [
    (lambda a, o: torch.nuclear_norm(a, out=o), ()),
    (lambda a, o: torch.nuclear_norm(a, True, out=o), (1, 1)),
    (lambda a, o: torch.nuclear_norm(a, (0, 1), out=o), ()),
    (lambda a, o: torch.nuclear_norm(a, dim=[1, 0], keepdim=True, out=o), (1, 1)),
])
def test_the_norm_is_written_into_out(call, shape):
    o = torch.zeros(3)
    assert call(torch.tensor(A), o) is o
    assert (tuple(o.shape), o._version) == (shape, 1)
    assert o.flatten().tolist() == [torch.linalg.matrix_norm(torch.tensor(A), "nuc").item()]


def test_its_refusals_are_matrix_norms():
    with raises(RuntimeError, "linalg.matrix_norm expected out tensor dtype Float but got: "
                "Double"):
        torch.nuclear_norm(torch.tensor(A), out=torch.empty(0, dtype=torch.float64))
    with raises(RuntimeError, "linalg.matrix_norm: Expected a floating point or complex "
                "tensor as input. Got Long"):
        torch.nuclear_norm(torch.tensor(A).long(), out=torch.empty(0))
    with raises(RuntimeError, "linalg.matrix_norm: The input tensor A must have at least 2 "
                "dimensions."):
        torch.nuclear_norm(torch.tensor(A[0]), out=torch.empty(0))


def test_the_write_is_a_copy_autograd_records():
    o = torch.empty(0)
    torch.nuclear_norm(torch.tensor(A, requires_grad=True), out=o)
    assert o.requires_grad and type(o.grad_fn).__name__ == "CopyBackwards"
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                "in-place operation."):
        torch.nuclear_norm(torch.tensor(A), out=torch.empty(0, requires_grad=True))


class _Seen(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append((str(func), [a if not isinstance(a, torch.Tensor) else "T"
                                      for a in args]))
        return func(*args, **(kwargs or {}))


def test_a_mode_sees_matrix_norms_steps_where_autograd_is_on():
    a, o = torch.tensor(A), torch.empty(0)
    with _Seen() as mode:
        torch.nuclear_norm(a, out=o)
    assert [name for name, _ in mode.seen] == [
        "aten.permute.default", "aten._linalg_svd.default", "aten.sum.dim_IntList",
        "aten.resize_.default", "aten.copy_.default"]
    assert o._version == 2  # the resize and the copy, each counted as the mode's own op


@pytest.mark.parametrize("call, seen", [
    (lambda a, o: torch.nuclear_norm(a, out=o), ("aten.nuclear_norm.out", ["T"])),
    (lambda a, o: torch.nuclear_norm(a, True, out=o), ("aten.nuclear_norm.out", ["T", True])),
    (lambda a, o: torch.nuclear_norm(a, (0, 1), out=o),
     ("aten.nuclear_norm.dim_out", ["T", [0, 1]])),
    (lambda a, o: torch.nuclear_norm(a, dim=[1, 0], keepdim=True, out=o),
     ("aten.nuclear_norm.dim_out", ["T", [1, 0], True])),
])
def test_a_mode_sees_nuclear_norm_whole_where_autograd_is_off(call, seen):
    a, o = torch.tensor(A), torch.empty(0)
    with _Seen() as mode, torch.inference_mode():
        call(a, o)
    assert mode.seen == [seen]
    assert o._version == 0 and o.flatten().tolist() == [7.0]
