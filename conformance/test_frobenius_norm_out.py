"""torch.frobenius_norm with out=: ATen's norm.out with a p of 2, after its own check of the
number of dimensions; ATen norm's checks of the input and the dimensions; and what a mode
sees, with and without out=."""

import warnings

import pytest
import torch

from conformance._support import printed_in_a_fresh_process, raises, shapes_mode

GRAD = ("norm(): functions with out=... arguments don't support automatic differentiation, "
        "but one of the arguments requires grad.")
THREE = "Expected at most 2 dimensions, but got 3 dimensions instead."
INTEGERS = "norm(): input dtype should be either floating point or complex. Got {} instead."


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # frobenius_norm's deprecation, resized outs
        yield


def _x(**options):
    return torch.tensor([[3.0, 4.0], [6.0, 8.0]], **options)


@pytest.mark.parametrize("dim, keepdim, expected", [
    ((0, 1), False, [125 ** 0.5]), (1, False, [5.0, 10.0]), ([1], True, [5.0, 10.0]),
    ((), False, [125 ** 0.5]), (0, False, [45 ** 0.5, 80 ** 0.5]),
])
def test_the_norm_is_written_into_out(dim, keepdim, expected):
    out = torch.empty(0)
    assert torch.frobenius_norm(_x(), dim, keepdim, out=out) is out
    assert out.reshape(-1).tolist() == pytest.approx(expected) and out._version == 1
    assert out.shape == torch.linalg.vector_norm(_x(), 2, dim, keepdim).shape


def test_an_out_of_the_right_size_keeps_its_strides():
    out = torch.empty(2, 2).t()[0]
    torch.frobenius_norm(_x(), 0, out=out)
    assert out.stride() == (2,) and out._version == 1


@pytest.mark.parametrize("dtype, words", [
    (torch.float64, "Expected out tensor to have dtype float, but got double instead"),
    (torch.int64, "Expected out tensor to have dtype float, but got long int instead"),
])
def test_an_out_of_another_dtype_is_sized_then_refused(dtype, words):
    out = torch.empty(0, dtype=dtype)
    with raises(RuntimeError, words):
        torch.frobenius_norm(_x(), 1, out=out)
    assert out.shape == (2,) and out._version == 0


_WARNINGS = """
import warnings
import {module} as torch
x = torch.ones(2, 2)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for out in (None, None, torch.empty(0), torch.empty(0)):
        torch.frobenius_norm(x, 1, out=out)
print(sum("frobenius_norm is deprecated" in str(w.message) for w in caught))
"""


def test_the_out_form_warns_once_of_its_own():
    printed = printed_in_a_fresh_process(_WARNINGS)
    assert printed.split() == ["2"]


@pytest.mark.parametrize("make_out", [
    lambda: torch.empty(0), lambda: torch.empty(0, dtype=torch.float64)])
def test_more_than_two_dimensions_are_refused_before_autograd(make_out):
    with raises(RuntimeError, THREE):
        torch.frobenius_norm(_x(requires_grad=True), (0, 1, 2), out=make_out())


@pytest.mark.parametrize("x, out", [
    (lambda: _x(requires_grad=True), lambda: torch.empty(0)),
    (lambda: _x(requires_grad=True), lambda: torch.empty(0, dtype=torch.float64)),
    (lambda: _x(), lambda: torch.empty(2, requires_grad=True)),
    (lambda: _x().long(), lambda: torch.empty(0, requires_grad=True)),
])
def test_grad_is_refused_in_norms_name_before_the_kernels_checks(x, out):
    with raises(RuntimeError, GRAD):
        torch.frobenius_norm(x(), 1, out=out())


def test_under_no_grad_an_input_that_requires_grad_is_written_without_history():
    out = torch.empty(0)
    with torch.no_grad():
        torch.frobenius_norm(_x(requires_grad=True), 1, out=out)
    assert out.tolist() == [5.0, 10.0] and not out.requires_grad


@pytest.mark.parametrize("call, kind, words", [
    (lambda o: torch.frobenius_norm(_x().long(), 1, out=o), RuntimeError,
     INTEGERS.format("Long")),
    (lambda o: torch.frobenius_norm(_x().long(), (1, 1)), RuntimeError,
     INTEGERS.format("Long")),
    (lambda o: torch.frobenius_norm(_x().bool(), 1), RuntimeError, INTEGERS.format("Bool")),
    (lambda o: torch.frobenius_norm(torch.tensor(3), ()), RuntimeError,
     INTEGERS.format("Long")),
    (lambda o: torch.norm_except_dim(_x().long(), 2, 0), RuntimeError,
     INTEGERS.format("Long")),
    (lambda o: torch.norm_except_dim(_x().long(), 2, -1), RuntimeError,
     INTEGERS.format("Long")),
    (lambda o: torch.frobenius_norm(_x(), (1, 1), out=o), RuntimeError,
     "dim 1 appears multiple times in the list of dims"),
    (lambda o: torch.frobenius_norm(_x(), (1, -1)), RuntimeError,
     "dim 1 appears multiple times in the list of dims"),
    (lambda o: torch.frobenius_norm(_x(), (5, 1), out=o), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 5)"),
])
def test_aten_norms_checks_come_in_its_order_before_the_outs_dtype(call, kind, words):
    with raises(kind, words):
        call(torch.empty(0, dtype=torch.float64))


_Seen = shapes_mode()


@pytest.mark.parametrize("dim, keepdim, args", [
    ((0, 1), True, [[2, 2], 2.0, [0, 1], True]), (1, False, [[2, 2], 2.0, [1]]),
])
def test_where_autograd_is_on_a_mode_sees_norm_out(dim, keepdim, args):
    x, out = _x(), torch.empty(0)
    with _Seen() as mode:
        torch.frobenius_norm(x, dim, keepdim, out=out)
    assert mode.seen == [("aten.norm.out", args, ["out"], "Tensor")]
    assert out._version == 1


def test_where_autograd_is_off_a_mode_sees_frobenius_norm_whole():
    with torch.inference_mode():
        x, out = _x(), torch.empty(0)
        with _Seen() as mode:
            torch.frobenius_norm(x, (0, 1), True, out=out)
            torch.frobenius_norm(x, 1)
    assert mode.seen == [
        ("aten.frobenius_norm.out", [[2, 2], [0, 1], True], ["out"], "Tensor"),
        ("aten.frobenius_norm.dim", [[2, 2], [1]], [], "Tensor")]
    assert out.shape == (1, 1)


def test_without_out_a_mode_sees_norm_with_a_float_p():
    x = _x()
    with _Seen() as mode:
        torch.frobenius_norm(x, 1, True)
    assert mode.seen == [
        ("aten.norm.ScalarOpt_dim", [[2, 2], 2.0, [1], True], [], "Tensor")]
