"""cholesky, nuclear_norm and frobenius_norm warn once per out= overload; linalg.cholesky writes
out before it refuses the matrix; the linalg norms check out's dtype under a mode."""

import warnings

import pytest
import torch

from conformance._support import OUT_GRAD, printed_in_a_fresh_process, raises, recording_mode

# scatter's reduce=, the deprecations, resized outs: warnings are not what these test
pytestmark = pytest.mark.filterwarnings("ignore")


def _counted(call):
    """The warnings ``call()`` gives with every once-only warning given each time."""
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                call()
            except RuntimeError:
                pass
    finally:
        torch.set_warn_always(False)
    return ["deprecated" if "deprecated in favor" in str(w.message)
            or "is deprecated and it is just left" in str(w.message)
            else "resized" if "was resized" in str(w.message) else str(w.message)
            for w in caught]


_A = [[4.0, 2.0], [2.0, 3.0]]


@pytest.mark.parametrize("call, expected", [
    (lambda a: torch.cholesky(a), ["deprecated"]),
    (lambda a: torch.cholesky(a, out=torch.empty(0)), ["deprecated", "deprecated"]),
    (lambda a: torch.cholesky(a, out=torch.empty(4, dtype=torch.float64)),
     ["deprecated", "deprecated", "resized"]),
    (lambda a: torch.cholesky(a, out=torch.empty(4, dtype=torch.int64)), ["deprecated"]),
    (lambda a: torch.cholesky(a, out=torch.empty(0, requires_grad=True)), []),
    (lambda a: torch.nuclear_norm(a, out=torch.empty(0)), ["deprecated"]),
    (lambda a: torch.nuclear_norm(a, (0, 1), out=torch.empty(0, dtype=torch.float64)),
     ["deprecated"]),
    (lambda a: torch.frobenius_norm(a, (0, 1), out=torch.empty(0)), ["deprecated"]),
    (lambda a: torch.frobenius_norm(a, (0, 1), out=torch.empty(0, dtype=torch.float64)),
     ["deprecated"]),
])
def test_each_deprecated_overload_warns_once_in_a_call(call, expected):
    assert _counted(lambda: call(torch.tensor(_A))) == expected


def test_the_cholesky_out_write_with_a_cast_is_resized_once():
    out = torch.empty(4, dtype=torch.float64)
    torch.cholesky(torch.tensor(_A), out=out)
    assert out.dtype == torch.float64 and out.shape == (2, 2)
    assert out[1, 0].item() == 1.0 and out[0, 1].item() == 0.0


_ONCE = """
import warnings
import {module} as torch
a = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
calls = [{calls}]
for call in calls:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    print(sum("deprecated" in str(w.message) for w in caught))
"""


@pytest.mark.parametrize("calls, expected", [
    ("lambda: torch.cholesky(a, out=torch.empty(0)), lambda: torch.cholesky(a), "
     "lambda: torch.cholesky(a, out=torch.empty(0))", ["2", "0", "0"]),
    ("lambda: torch.cholesky(a), lambda: torch.cholesky(a, out=torch.empty(0)), "
     "lambda: torch.cholesky(a)", ["1", "1", "0"]),
    ("lambda: torch.nuclear_norm(a, out=torch.empty(0)), "
     "lambda: torch.nuclear_norm(a, True, out=torch.empty(0)), "
     "lambda: torch.nuclear_norm(a, (0, 1), out=torch.empty(0)), "
     "lambda: torch.nuclear_norm(a, (0, 1), True, out=torch.empty(0)), "
     "lambda: torch.nuclear_norm(a), lambda: torch.nuclear_norm(a, (0, 1))",
     ["1", "0", "1", "0", "1", "0"]),
    ("lambda: torch.frobenius_norm(a, (0, 1), out=torch.empty(0)), "
     "lambda: torch.frobenius_norm(a, (0, 1)), "
     "lambda: torch.frobenius_norm(a, 0, out=torch.empty(0))", ["1", "1", "0"]),
])
def test_each_out_overload_warns_once_of_its_own(calls, expected):
    printed = printed_in_a_fresh_process(_ONCE, calls=calls)
    assert printed.split() == expected


@pytest.mark.parametrize("call, expected", [
    (lambda a: torch.nuclear_norm(a, out=torch.empty(0)), ["deprecated"]),
    (lambda a: torch.nuclear_norm(a, (0, 1), True, out=torch.empty(0)), ["deprecated"]),
    (lambda a: torch.cholesky(a, out=torch.empty(0)), ["deprecated", "deprecated"]),
    (lambda a: torch.frobenius_norm(a, (0, 1), out=torch.empty(0)), ["deprecated"]),
])
def test_under_a_mode_the_out_forms_warn_as_without(call, expected):
    a = torch.tensor(_A)
    with recording_mode()():
        assert _counted(lambda: call(a)) == expected


@pytest.mark.parametrize("call, message", [
    (lambda a, o: torch.linalg.matrix_norm(a, out=o),
     "linalg.matrix_norm expected out tensor dtype Float but got: Double"),
    (lambda a, o: torch.linalg.norm(a, "nuc", out=o),
     "linalg.norm expected out tensor dtype Float but got: Double"),
    (lambda a, o: torch.nuclear_norm(a, out=o),
     "linalg.matrix_norm expected out tensor dtype Float but got: Double"),
])
def test_under_a_mode_a_norms_out_of_another_dtype_is_refused_before_it_is_resized(
        call, message):
    a, out = torch.tensor(_A), torch.empty(3, dtype=torch.float64)
    with recording_mode()() as mode, raises(RuntimeError, message):
        call(a, out)
    assert out.shape == (3,) and "aten.copy_.default" not in mode.seen


@pytest.mark.parametrize("call, said", [
    (lambda a, o: torch.linalg.cond(a, out=o), "linalg.cond"),
    (lambda a, o: torch.linalg.tensorsolve(a, torch.ones(2), out=o), "tensorsolve"),
])
def test_under_a_mode_cond_and_tensorsolve_cast_into_a_wider_out(call, said):
    a, out = torch.tensor(_A), torch.empty(0, dtype=torch.float64)
    with recording_mode()():
        call(a, out)
    assert out.dtype == torch.float64 and out.numel() >= 1
    with recording_mode()(), raises(RuntimeError, f"{said}: Expected result to be safely "
                                                  "castable from Float dtype, but got result "
                                                  "with dtype Long"):
        call(a, torch.empty(0, dtype=torch.int64))


_NOT_PD = "The factorization could not be completed because the input is not positive-definite"


@pytest.mark.parametrize("A, make_out, shape, resized", [
    (lambda: torch.tensor([[1.0, 2.0], [2.0, 1.0]]), lambda: torch.empty(3), (2, 2), True),
    (lambda: torch.tensor([[1.0, 2.0], [2.0, 1.0]]), lambda: torch.empty(0), (2, 2), False),
    (lambda: torch.tensor([[1.0, 2.0], [2.0, 1.0]]), lambda: torch.empty(2, 2).t(), (2, 2),
     False),
    (lambda: torch.stack([torch.eye(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])]),
     lambda: torch.empty(3), (2, 2, 2), True),
])
@pytest.mark.parametrize("upper", [False, True])
def test_linalg_cholesky_writes_out_before_it_refuses_the_matrix(
        A, make_out, shape, resized, upper):
    out = make_out()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match=_NOT_PD):
            torch.linalg.cholesky(A(), upper=upper, out=out)
    assert out.shape == shape and out._version == 1
    assert [("was resized" in str(w.message)) for w in caught] == ([True] if resized else [])


@pytest.mark.parametrize("make_out, message", [
    (lambda: torch.empty(3, dtype=torch.float64),
     "Expected out tensor to have dtype float, but got double instead"),
    (lambda: torch.empty(3, requires_grad=True),
     OUT_GRAD.format("linalg_cholesky_ex")),
])
def test_linalg_cholesky_refuses_out_before_the_matrix(make_out, message):
    out = make_out()
    with raises(RuntimeError, message) as caught:
        torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]), out=out)
    assert out.shape == (3,) and out._version == 0
    error = caught.value
    assert error.__suppress_context__ or error.__context__ is None


def test_under_a_mode_linalg_cholesky_writes_out_once():
    A, out = torch.tensor([[1.0, 2.0], [2.0, 1.0]]), torch.empty(0)
    with recording_mode()() as mode, pytest.raises(RuntimeError, match=_NOT_PD):
        torch.linalg.cholesky(A, out=out)
    assert mode.seen.count("aten.linalg_cholesky_ex.L") == 1 and out._version == 1
