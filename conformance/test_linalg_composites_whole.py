"""torch.linalg's composites, and a few of torch's, handed to a dispatch mode whole where
autograd is out of the way: the op and overload, the arguments as torch's schema binds
them, a plain tuple from func and the named one at the top; where autograd is on, the
steps as before."""

import warnings

import pytest
import torch

from conformance._support import calling_mode

A = [[4.0, 1.0], [1.0, 3.0]]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated forms: svd, qr, chain_matmul, ...
        yield


def _a():
    return torch.tensor(A)


def _v():
    return torch.tensor([1.0, 2.0])


L = torch.linalg
CASES = [
    (lambda a, v: L.lu_factor(a), "linalg_lu_factor.default", ("T",), {}),
    (lambda a, v: L.lu_factor(a, pivot=True), "linalg_lu_factor.default", ("T",), {}),
    (lambda a, v: L.cholesky(a, upper=True), "linalg_cholesky.default", ("T",),
     {"upper": True}),
    (lambda a, v: L.solve(a, a, left=True), "linalg_solve.default", ("T", "T"), {}),
    (lambda a, v: L.solve(a, a, left=False), "linalg_solve.default", ("T", "T"),
     {"left": False}),
    (lambda a, v: L.eigh(a, "U"), "linalg_eigh.default", ("T", "U"), {}),
    (lambda a, v: L.eigh(a, UPLO="L"), "linalg_eigh.default", ("T",), {}),
    (lambda a, v: L.eigvalsh(a, UPLO="U"), "linalg_eigvalsh.default", ("T", "U"), {}),
    (lambda a, v: L.svd(a, full_matrices=False), "linalg_svd.default", ("T", False), {}),
    (lambda a, v: L.svd(a, driver=None), "linalg_svd.default", ("T",), {}),
    (lambda a, v: L.svdvals(a), "linalg_svdvals.default", ("T",), {}),
    (lambda a, v: L.matrix_norm(a), "linalg_matrix_norm.str_ord", ("T",), {}),
    (lambda a, v: L.matrix_norm(a, 2), "linalg_matrix_norm.default", ("T", 2), {}),
    (lambda a, v: L.matrix_norm(a, "nuc", keepdim=True), "linalg_matrix_norm.str_ord",
     ("T", "nuc", [-2, -1], True), {}),
    (lambda a, v: L.matrix_norm(a, dtype=torch.float64), "linalg_matrix_norm.str_ord",
     ("T",), {"dtype": torch.float64}),
    (lambda a, v: L.norm(a), "linalg_norm.default", ("T",), {}),
    (lambda a, v: L.norm(a, "fro"), "linalg_norm.ord_str", ("T", "fro"), {}),
    (lambda a, v: L.norm(v, 2), "linalg_norm.default", ("T", 2), {}),
    (lambda a, v: L.norm(a, dim=1), "linalg_norm.default", ("T", None, [1]), {}),
    (lambda a, v: L.cond(a), "linalg_cond.default", ("T",), {}),
    (lambda a, v: L.cond(a, "fro"), "linalg_cond.p_str", ("T", "fro"), {}),
    (lambda a, v: L.cond(a, 1), "linalg_cond.default", ("T", 1), {}),
    (lambda a, v: L.matrix_power(a, 3), "linalg_matrix_power.default", ("T", 3), {}),
    (lambda a, v: L.multi_dot([a, a, a]), "linalg_multi_dot.default", (["T", "T", "T"],), {}),
    (lambda a, v: L.ldl_factor(a, hermitian=True), "linalg_ldl_factor.default", ("T",),
     {"hermitian": True}),
    (lambda a, v: L.vander(v, N=3), "linalg_vander.default", ("T",), {"N": 3}),
    (lambda a, v: L.diagonal(a, offset=1, dim1=0, dim2=1), "linalg_diagonal.default", ("T",),
     {"offset": 1, "dim1": 0, "dim2": 1}),
    (lambda a, v: L.tensorsolve(a, v), "linalg_tensorsolve.default", ("T", "T"), {}),
    (lambda a, v: L.tensorsolve(a, v, dims=(0,)), "linalg_tensorsolve.default",
     ("T", "T", [0]), {}),
    (lambda a, v: L.vecdot(a, a, dim=0), "linalg_vecdot.default", ("T", "T"), {"dim": 0}),
    (lambda a, v: torch.svd(a, some=False), "svd.default", ("T", False), {}),
    (lambda a, v: a.svd(True, True), "svd.default", ("T",), {}),
    (lambda a, v: torch.qr(a, some=False), "qr.default", ("T", False), {}),
    (lambda a, v: a.qr(), "qr.default", ("T",), {}),
    (lambda a, v: torch.matrix_power(a, 2), "matrix_power.default", ("T", 2), {}),
    (lambda a, v: a.matrix_power(2), "matrix_power.default", ("T", 2), {}),
    (lambda a, v: torch.chain_matmul(a, a, a), "chain_matmul.default", (["T", "T", "T"],),
     {}),
    (lambda a, v: torch.cdist(a, a), "cdist.default", ("T", "T"), {}),
    (lambda a, v: torch.cdist(a, a, p=1.0, compute_mode="donot_use_mm_for_euclid_dist"),
     "cdist.default", ("T", "T", 1.0, 2), {}),
    (lambda a, v: torch.cdist(a, a, compute_mode="use_mm_for_euclid_dist"), "cdist.default",
     ("T", "T", 2.0, 1), {}),
    (lambda a, v: torch.nuclear_norm(a), "nuclear_norm.default", ("T",), {}),
    (lambda a, v: torch.nuclear_norm(a, True), "nuclear_norm.default", ("T", True), {}),
    (lambda a, v: torch.nuclear_norm(a, (0, 1)), "nuclear_norm.dim", ("T", [0, 1]), {}),
    (lambda a, v: torch.nuclear_norm(a, dim=(-2, -1)), "nuclear_norm.dim", ("T", [-2, -1]), {}),
    (lambda a, v: torch.nuclear_norm(a, keepdim=True), "nuclear_norm.default", ("T", True), {}),
]


@pytest.mark.parametrize("call, op, args, kwargs", CASES)
def test_under_inference_mode_the_mode_is_handed_the_composite(call, op, args, kwargs):
    with torch.inference_mode():
        a, v = _a(), _v()
        expected = call(a, v)
        with calling_mode()() as mode:
            result = call(a, v)
    assert mode.seen == [("aten." + op, args, kwargs)]
    assert type(result) is type(expected)


def test_func_hands_back_a_plain_tuple_and_the_caller_gets_the_named_one():
    answers = []

    class Keeps(calling_mode()):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            answers.append(super().__torch_dispatch__(func, types, args, kwargs))
            return answers[-1]

    with torch.inference_mode():
        a = _a()
        with Keeps():
            factors = torch.linalg.lu_factor(a)
    assert type(answers[0]) is tuple and type(factors).__name__ == "linalg_lu_factor"
    assert factors.pivots.tolist() == [1, 2]


def test_inference_tensors_outside_inference_mode_are_handed_over_whole_too():
    with torch.inference_mode():
        a = _a()
    with calling_mode()() as mode:
        torch.linalg.svdvals(a)
    assert mode.seen == [("aten.linalg_svdvals.default", ("T",), {})]


def test_where_autograd_is_on_the_mode_sees_the_steps():
    a = _a()
    with calling_mode()() as mode:
        torch.linalg.solve(a, a)
        torch.linalg.svdvals(a)
    assert [name for name, _, _ in mode.seen] == [
        "aten._linalg_solve_ex.default", "aten._linalg_check_errors.default",
        "aten._linalg_svd.default"]


def test_an_out_call_takes_its_out_overload_and_a_refused_call_reaches_no_mode():
    with torch.inference_mode():
        a, out = _a(), torch.empty(0)
        with calling_mode()() as mode:
            torch.linalg.svdvals(a, out=out)
            with pytest.raises(TypeError):
                torch.qr(a, some=1)
    assert [name for name, _, _ in mode.seen] == ["aten.linalg_svdvals.out"]
