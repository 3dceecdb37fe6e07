"""An empty float16 input never reaches the CPU kernel that has no float16 version, so
linalg returns empty results of its dtype; an integer input is refused empty or not."""

import pytest
import torch

from conformance._support import raises

L = torch.linalg
EMPTY_OK = {
    "det": L.det, "cholesky": L.cholesky, "cholesky_ex": L.cholesky_ex, "svd": L.svd,
    "svdvals": L.svdvals, "eigh": L.eigh, "eigvalsh": L.eigvalsh, "lu": L.lu,
    "lu_factor": L.lu_factor, "lu_factor_ex": L.lu_factor_ex, "ldl_factor": L.ldl_factor,
    "solve": lambda a: L.solve(a, a), "solve_ex": lambda a: L.solve_ex(a, a),
}


def _results(r):
    return r if isinstance(r, tuple) else (r,)


@pytest.mark.parametrize("name", sorted(EMPTY_OK))
@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0)])
def test_empty_float16_gives_empty_float16(name, shape):
    a = torch.empty(shape, dtype=torch.float16)
    first = _results(EMPTY_OK[name](a))[0]
    assert first.dtype == torch.float16
    if name == "det":
        assert first.tolist() == ([1.0, 1.0] if len(shape) == 3 else 1.0)
    else:
        assert first.numel() == 0


@pytest.mark.parametrize("name", ["det", "cholesky", "svd", "lu_factor", "eigh"])
def test_nonempty_float16_is_refused_by_the_kernel(name):
    with pytest.raises(NotImplementedError, match="not implemented for 'Half'"):
        EMPTY_OK[name](torch.eye(2, dtype=torch.float16))


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool, torch.uint8])
def test_empty_integer_eigh_and_lu_keep_their_dtype(dtype):
    e = torch.empty(2, 0, 0, dtype=dtype)
    values, vectors = L.eigh(e)
    assert (values.dtype, values.shape, vectors.shape) == (dtype, (2, 0), (2, 0, 0))
    vectors = L.eigh(torch.zeros(0, 3, 3, dtype=dtype)).eigenvectors
    assert vectors.stride() == (9, 1, 3)  # laid out by columns, as the kernel's would be
    LU, pivots = L.lu_factor(e)
    assert (LU.dtype, pivots.dtype, pivots.shape) == (dtype, torch.int32, (2, 0))
    name = {torch.int64: "Long", torch.bool: "Bool", torch.uint8: "Byte"}[dtype]
    with raises(RuntimeError, "linalg.det: Expected a floating point or complex tensor as "
                              f"input. Got {name}"):
        L.det(e)


def test_empty_bool_products_are_empty():
    e = torch.empty(0, 0, dtype=torch.bool)
    for result in (e @ e, torch.mm(e, e), torch.addmm(e, e, e), L.matrix_power(e, 2),
                   L.multi_dot([e, e])):
        assert (result.dtype, result.shape) == (torch.bool, (0, 0))
    assert torch.mm(torch.ones(2, 0, dtype=torch.bool),
                    torch.ones(0, 2, dtype=torch.bool)).tolist() == [[False, False]] * 2
    with pytest.raises(NotImplementedError, match="addmm_impl_cpu_"):
        torch.mm(torch.ones(2, 2, dtype=torch.bool), torch.ones(2, 2, dtype=torch.bool))


def test_empty_float16_qr_is_still_refused():
    with raises(NotImplementedError, "\"geqrf_cpu\" not implemented for 'Half'"):
        L.qr(torch.empty(0, 0, dtype=torch.float16))
