"""Black-box tests: the tangents of empty outputs keep the strides torch's forward formulas
leave on them (a diagonal's for eigenvalues and singular values, a doubled block's for
matrix_exp, row-major for pinv, svd's vectors and var, the primal's for householder_product),
and LU factors of empty matrices have tangents. The same assertions run on torch."""

import warnings

import pytest
import torch
import torch.autograd.forward_ad as fwAD


def _tangent(call, shape):
    with fwAD.dual_level(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # var of no elements warns of its degrees of freedom
        dual = fwAD.make_dual(torch.zeros(shape, dtype=torch.float64),
                              torch.zeros(shape, dtype=torch.float64))
        out = fwAD.unpack_dual(call(dual))
    return out.primal, out.tangent


CASES = [  # (call, input shape, primal strides, tangent strides)
    (torch.linalg.eigvalsh, (0, 3, 3), (3, 1), (9, 4)),
    (torch.linalg.eigvalsh, (2, 0, 0), (1, 1), (1, 2)),
    (torch.linalg.eigvalsh, (0, 0), (1,), (2,)),
    (lambda a: torch.linalg.eigh(a)[0], (3, 0, 2, 2), (2, 2, 1), (4, 4, 3)),
    (lambda a: torch.linalg.eigh(a)[1], (0, 3, 3), (9, 1, 3), (9, 3, 1)),
    (torch.linalg.pinv, (0, 3, 3), (9, 3, 1), (9, 3, 1)),
    (torch.linalg.pinv, (2, 0, 3), (3, 1, 1), (3, 1, 1)),
    (torch.linalg.pinv, (0, 2, 3), (6, 2, 1), (6, 2, 1)),
    (lambda a: torch.linalg.pinv(a, hermitian=True), (3, 0, 2, 2), (4, 4, 2, 1), (4, 4, 2, 1)),
    (torch.linalg.matrix_exp, (0, 3, 3), (9, 3, 1), (36, 6, 1)),
    (torch.linalg.matrix_exp, (0, 1, 1), (1, 1, 1), (4, 2, 1)),
    (lambda a: torch.linalg.svd(a, full_matrices=False)[2], (0, 3, 3), (9, 1, 3), (9, 3, 1)),
    (lambda a: torch.linalg.svd(a, full_matrices=False)[1], (0, 2, 3), (2, 1), (4, 3)),
    (lambda a: torch.svd(a)[2], (0, 4, 4), (16, 4, 1), (16, 1, 4)),
    (torch.linalg.svdvals, (2, 3, 0), (1, 1), (1, 2)),
    (lambda a: torch.linalg.householder_product(a, a[..., 0, :]), (0, 3, 3), (9, 1, 3),
     (9, 1, 3)),
    (lambda a: torch.linalg.householder_product(a, a[..., 0, :]), (2, 3, 0), (3, 1, 3),
     (3, 1, 3)),
    (lambda a: a.var(-1), (2, 0, 3), (1, 1), (1, 1)),
    (lambda a: a.var(-1, keepdim=True), (2, 0, 0), (1, 1, 1), (1, 1, 1)),
    (lambda a: torch.var_mean(a, -1)[0], (0, 1, 1), (1, 1), (1, 1)),
    (lambda a: torch.var_mean(a, -1)[1], (0, 1, 1), (1, 1), (1, 1)),
    (lambda a: torch.linalg.lu_factor(a)[0], (2, 0, 3), (3, 1, 1), (3, 3, 1)),
    (lambda a: torch.linalg.lu(a)[1], (2, 0, 0), (1, 1, 1), (1, 1, 1)),
    (lambda a: torch.nn.functional.adaptive_avg_pool2d(a, 2), (2, 0, 2, 2), (4, 4, 2, 1),
     (4, 4, 2, 1)),
    (lambda a: torch.nn.functional.adaptive_avg_pool1d(a, 2), (2, 0, 2), (2, 2, 1), (2, 2, 1)),
]


@pytest.mark.parametrize(("call", "shape", "primal", "tangent"), CASES)
def test_an_empty_tangent_has_torchs_strides(call, shape, primal, tangent):
    p, t = _tangent(call, shape)
    assert (p.stride(), t.stride(), t.shape, t.dtype) == (primal, tangent, p.shape, p.dtype)


def test_a_tangent_with_elements_is_laid_out_as_its_primal():
    a = torch.eye(3, dtype=torch.float64).expand(2, 3, 3) * 2
    with fwAD.dual_level():
        dual = fwAD.make_dual(a, torch.ones(2, 3, 3, dtype=torch.float64))
        values = fwAD.unpack_dual(torch.linalg.eigvalsh(dual))
        exp = fwAD.unpack_dual(torch.linalg.matrix_exp(dual))
    assert (values.tangent.stride(), exp.tangent.stride()) == ((3, 1), (9, 3, 1))
    assert values.tangent.tolist() == [[1.0, 1.0, 1.0]] * 2
