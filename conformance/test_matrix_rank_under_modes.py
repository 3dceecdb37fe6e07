"""Black-box tests: linalg.matrix_rank under a dispatch mode shows torch's steps. The result
made first, the tolerances each overload makes (zeros, full, where), the singular values or
eigenvalues, the cutoff with its unsqueezes, mul and maximum, and the sum of the comparison;
an empty input filled with zeros; and inside inference_mode the overload the binding chose,
whole. The same assertions run on torch."""

import pytest
import torch

from conformance._support import calling_mode, shape_and_dtype

Calls = calling_mode(show=shape_and_dtype)
CPU = torch.device("cpu")


def _opts(dtype):
    return {"dtype": dtype, "layout": torch.strided, "device": CPU}


RESULT = ("aten.empty.memory_format", ([],), _opts(torch.int64))
ZEROS = ("aten.zeros.default", ([],), _opts(torch.float64))
EPS = 3.5762786865234375e-07  # float32's eps times 3


def _full(value):
    return ("aten.full.default", ([], value), _opts(torch.float64))


def _svd(rows=2, cols=3, batch=()):
    small = min(rows, cols)
    return [("aten._linalg_svd.default", (f"T{[*batch, rows, cols]} float32",), {}),
            ("aten.slice.Tensor", (f"T{[*batch, small]} float32", -1, 0, 1), {})]


def _cutoff(rtol="T[] float64", max_s="T[1] float32", atol="T[] float64", product="T[1] float64",
            lifted="T[1] float64", values="T[2] float32", cut="T[1] float64"):
    return [("aten.unsqueeze.default", (rtol, -1), {}),
            ("aten.mul.Tensor", (_added(rtol), max_s), {}),
            ("aten.unsqueeze.default", (atol, -1), {}),
            ("aten.maximum.default", (_added(atol), product), {}),
            ("aten.gt.Tensor", (values, cut), {}),
            ("aten.sum.dim_IntList", (values.replace("float32", "bool"), [-1]), {})]


def _added(shown):
    """A tensor shown as ``shown``, after unsqueeze(-1)."""
    sizes, dtype = shown[1:].split(" ")
    inner = sizes[1:-1]
    return f"T[{inner + ', 1' if inner else '1'}] {dtype}"


A = torch.arange(6.0).view(2, 3)
H = torch.tensor([[2.0, 1.0], [1.0, 2.0]])
B = torch.arange(24.0).view(2, 3, 4)
T = torch.tensor(0.5)
E = torch.ones(2, 0, 0)

CASES = [  # (id, call, what the mode sees, the rank)
    ("plain", lambda: torch.linalg.matrix_rank(A),
     [RESULT, ZEROS, _full(EPS), *_svd(), *_cutoff()], 2),
    ("atol", lambda: torch.linalg.matrix_rank(A, atol=0.5),
     [RESULT, _full(0.5), _full(0.0), *_svd(), *_cutoff()], 2),
    ("rtol", lambda: torch.linalg.matrix_rank(A, rtol=0.5),
     [RESULT, _full(0.0), _full(0.5), *_svd(), *_cutoff()], 1),
    ("atol_zero", lambda: torch.linalg.matrix_rank(A, atol=0.0),
     [RESULT, _full(0.0), _full(EPS), *_svd(), *_cutoff()], 2),
    ("tol", lambda: torch.linalg.matrix_rank(A, tol=0.5),
     [RESULT, _full(0.5), _full(0.0), *_svd(), *_cutoff()], 2),
    ("atol_tensor", lambda: torch.linalg.matrix_rank(A, atol=T),
     [RESULT, _full(EPS), ZEROS, ("aten.gt.Scalar", ("T[] float32", 0), {}),
      ("aten.where.self", ("T[] bool", "T[] float64", "T[] float64"), {}), *_svd(),
      *_cutoff(atol="T[] float32")], 2),
    ("rtol_tensor", lambda: torch.linalg.matrix_rank(A, rtol=T),
     [RESULT, ZEROS, *_svd(), *_cutoff(rtol="T[] float32", product="T[1] float32")], 1),
    ("tol_tensor", lambda: torch.linalg.matrix_rank(A, tol=T),
     [RESULT, ("aten.zeros.default", ([],), _opts(torch.float32)), *_svd(),
      *_cutoff(rtol="T[] float32", atol="T[] float32", product="T[1] float32",
               cut="T[1] float32")], 2),
    ("number_and_tensor", lambda: torch.linalg.matrix_rank(A, atol=0.25, rtol=T),
     [("aten._local_scalar_dense.default", ("T[] float32",), {}), RESULT, _full(0.25),
      _full(0.5), *_svd(), *_cutoff()], 1),
    ("hermitian", lambda: torch.linalg.matrix_rank(H, hermitian=True),
     [RESULT, ZEROS, _full(2.384185791015625e-07),
      ("aten._linalg_eigh.default", ("T[2, 2] float32",), {}),
      ("aten.abs.default", ("T[2] float32",), {}),
      ("aten.amax.default", ("T[2] float32", [-1], True), {}), *_cutoff()], 2),
    ("hermitian_atol", lambda: torch.linalg.matrix_rank(H, atol=1.5, hermitian=True),
     [RESULT, _full(1.5), _full(0.0), ("aten._linalg_eigh.default", ("T[2, 2] float32",), {}),
      ("aten.abs.default", ("T[2] float32",), {}),
      ("aten.amax.default", ("T[2] float32", [-1], True), {}), *_cutoff()], 1),
    ("batch", lambda: torch.linalg.matrix_rank(B),
     [("aten.empty.memory_format", ([2],), _opts(torch.int64)), ZEROS,
      _full(4.76837158203125e-07), *_svd(3, 4, [2]),
      *_cutoff(max_s="T[2, 1] float32", product="T[2, 1] float64", values="T[2, 3] float32",
               cut="T[2, 1] float64")], [2, 2]),
    ("empty", lambda: torch.linalg.matrix_rank(E),
     [("aten.empty.memory_format", ([2],), _opts(torch.int64)), ZEROS, _full(0.0),
      ("aten.fill_.Scalar", ("T[2] int64", 0), {})], [0, 0]),
]


@pytest.mark.parametrize(("call", "expected", "rank"),
                         [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_a_mode_sees_torchs_steps(call, expected, rank):
    with Calls() as mode:
        result = call()
    assert mode.seen == expected
    assert result.tolist() == rank and result.dtype == torch.int64
    assert call().tolist() == rank  # the same without a mode


def test_an_integer_matrix_is_refused_where_eps_is_looked_up():
    M = torch.arange(6).view(2, 3)
    with Calls() as mode, pytest.raises(RuntimeError, match="types other than float and double"):
        torch.linalg.matrix_rank(M)
    assert mode.seen == [RESULT, ZEROS]


WHOLE = [  # (id, call, the one op the mode sees)
    ("plain", lambda: torch.linalg.matrix_rank(A),
     ("aten.linalg_matrix_rank.atol_rtol_tensor", ("T[2, 3] float32",), {})),
    ("hermitian", lambda: torch.linalg.matrix_rank(H, hermitian=True),
     ("aten.linalg_matrix_rank.atol_rtol_tensor", ("T[2, 2] float32",), {"hermitian": True})),
    ("hermitian_false", lambda: torch.linalg.matrix_rank(H, hermitian=False),
     ("aten.linalg_matrix_rank.atol_rtol_tensor", ("T[2, 2] float32",), {})),
    ("atol", lambda: torch.linalg.matrix_rank(A, atol=0.5),
     ("aten.linalg_matrix_rank.atol_rtol_float", ("T[2, 3] float32",), {"atol": 0.5})),
    ("both_hermitian", lambda: torch.linalg.matrix_rank(H, atol=0.5, rtol=0.1, hermitian=True),
     ("aten.linalg_matrix_rank.atol_rtol_float", ("T[2, 2] float32",),
      {"atol": 0.5, "rtol": 0.1, "hermitian": True})),
    ("rtol_tensor", lambda: torch.linalg.matrix_rank(A, rtol=T),
     ("aten.linalg_matrix_rank.atol_rtol_tensor", ("T[2, 3] float32",),
      {"rtol": "T[] float32"})),
    ("tol", lambda: torch.linalg.matrix_rank(A, tol=0.5),
     ("aten.linalg_matrix_rank.default", ("T[2, 3] float32", 0.5), {})),
    ("tol_hermitian", lambda: torch.linalg.matrix_rank(H, 0.5, True),
     ("aten.linalg_matrix_rank.default", ("T[2, 2] float32", 0.5, True), {})),
    ("tol_tensor", lambda: torch.linalg.matrix_rank(A, tol=T),
     ("aten.linalg_matrix_rank.tol_tensor", ("T[2, 3] float32", "T[] float32"), {})),
]


@pytest.mark.parametrize(("call", "expected"), [pytest.param(*c[1:], id=c[0]) for c in WHOLE])
def test_inside_inference_mode_the_mode_sees_it_whole(call, expected):
    with torch.inference_mode():
        alone = call()
        with Calls() as mode:
            under = call()
    assert mode.seen == [expected]
    assert under.item() == alone.item()
    func, args, kwargs = mode.kept[0]
    with torch.inference_mode():
        assert func(*args, **kwargs).item() == alone.item()
