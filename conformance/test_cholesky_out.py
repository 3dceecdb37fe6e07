"""torch.cholesky with out=: written as torch writes it, its out's dtype checked against the
input's before the factorization, autograd's refusal in cholesky()'s name, and the out
overload a mode sees."""

import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import raises

A = [[4.0, 1.0], [1.0, 3.0]]
GRAD = ("cholesky(): functions with out=... arguments don't support automatic "
        "differentiation, but one of the arguments requires grad.")
CAST = ("cholesky: Expected result to be safely castable from Float dtype, but got result "
        "with dtype Long")


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.cholesky's deprecation
        yield


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("out, strides", [
    (lambda: torch.empty(0), (2, 1)), (lambda: torch.zeros(5), (2, 1)),
    (lambda: torch.empty(2, 2).t(), (1, 2)),  # of the factor's shape: kept as it is laid out
])
def test_the_factor_is_written_into_out(upper, out, strides):
    a, o = torch.tensor(A), out()
    expected = torch.cholesky(a, upper)
    assert torch.cholesky(a, upper, out=o) is o
    assert o.tolist() == expected.tolist() and o._version == 1
    assert o.stride() == strides


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16])
def test_an_out_of_another_floating_dtype_takes_the_factor_cast(dtype):
    o = torch.empty(0, dtype=dtype)
    torch.cholesky(torch.tensor(A), out=o)
    assert o.dtype is dtype
    assert o.tolist() == torch.cholesky(torch.tensor(A)).to(dtype).tolist()


@pytest.mark.parametrize("a", [torch.tensor(A), -torch.tensor(A), torch.ones(3, 2)])
def test_an_integer_out_is_refused_before_the_input_is_checked(a):
    o = torch.empty(0, dtype=torch.int64)
    with raises(RuntimeError, CAST):
        torch.cholesky(a, out=o)
    assert (o.shape, o._version) == ((0,), 0)


def test_an_integer_input_is_refused_by_the_kernel():
    with raises(NotImplementedError, "\"cholesky_cpu\" not implemented for 'Long'"):
        torch.cholesky(torch.tensor(A).long(), out=torch.empty(0, dtype=torch.int64))


def test_a_failed_factorization_leaves_out_as_it_was():
    o = torch.empty(0)
    with pytest.raises(torch.linalg.LinAlgError):
        torch.cholesky(-torch.tensor(A), out=o)
    assert (o.shape, o._version) == ((0,), 0)


def test_grad_is_refused_for_an_input_or_an_out_before_the_dtype():
    with raises(RuntimeError, GRAD):
        torch.cholesky(torch.tensor(A, requires_grad=True), out=torch.empty(0, dtype=torch.int64))
    with raises(RuntimeError, GRAD):
        torch.cholesky(torch.tensor(A), out=torch.empty(0, requires_grad=True))
    with torch.no_grad():
        o = torch.empty(0, requires_grad=True)
        torch.cholesky(torch.tensor(A), out=o)
    assert o.requires_grad and o.grad_fn is None and o._version == 1


def test_a_mode_sees_cholesky_out():
    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), len(args), sorted(kwargs or {})))
            return func(*args, **(kwargs or {}))

    o = torch.empty(0)
    with Seen():
        torch.cholesky(torch.tensor(A), True, out=o)
    assert seen[-1] == ("aten.cholesky.out", 2, ["out"])
    assert o.tolist() == torch.cholesky(torch.tensor(A), True).tolist()
