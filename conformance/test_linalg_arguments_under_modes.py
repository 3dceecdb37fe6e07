"""Black-box tests: the linear algebra operators, the gradients with kernels of their own
and nan_to_num hand a dispatch mode their arguments as torch's schema binds them, and the
func a mode is handed gives the same result when called again with those arguments. The
same assertions run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode
from conformance._support import transposed_leaf as _leaf

F = torch.nn.functional
F64 = torch.float64

Calls = calling_mode()


def _matrix():
    return torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=F64)


def _ones():
    return torch.ones(2, 2, dtype=F64)


def _lu_solve(**options):
    LU, pivots = torch.linalg.lu_factor(_matrix())
    return torch.linalg.lu_solve(LU, pivots, _ones(), **options)


FORWARD = [
    (lambda: torch.linalg.det(_matrix()), ("aten._linalg_det.default", ("T",), {})),
    (lambda: torch.linalg.slogdet(_matrix()), ("aten._linalg_slogdet.default", ("T",), {})),
    (lambda: torch.linalg.solve_ex(_matrix(), _ones()),
     ("aten._linalg_solve_ex.default", ("T", "T"), {})),
    (lambda: torch.linalg.solve_ex(_matrix(), _ones(), left=False),
     ("aten._linalg_solve_ex.default", ("T", "T"), {"left": False})),
    (lambda: torch.linalg.lu_factor(_matrix()),
     ("aten.linalg_lu_factor_ex.default", ("T",), {})),
    (lambda: _lu_solve(adjoint=True),
     ("aten.linalg_lu_solve.default", ("T", "T", "T"), {"adjoint": True})),
    (lambda: _lu_solve(left=False),
     ("aten.linalg_lu_solve.default", ("T", "T", "T"), {"left": False})),
    (lambda: torch.linalg.solve_triangular(_matrix().triu(), _ones(), upper=True),
     ("aten.linalg_solve_triangular.default", ("T", "T"), {"upper": True})),
    (lambda: torch.linalg.solve_triangular(_matrix().triu(), _ones(), upper=True,
                                           unitriangular=True),
     ("aten.linalg_solve_triangular.default", ("T", "T"),
      {"upper": True, "unitriangular": True})),
    (lambda: torch.linalg.cholesky(_matrix()), ("aten.linalg_cholesky_ex.default", ("T",), {})),
    (lambda: torch.linalg.cholesky(_matrix(), upper=True),
     ("aten.linalg_cholesky_ex.default", ("T",), {"upper": True})),
    (lambda: torch.linalg.svd(_matrix(), full_matrices=False),
     ("aten._linalg_svd.default", ("T",), {})),
    (lambda: torch.linalg.qr(_matrix(), mode="complete"),
     ("aten.linalg_qr.default", ("T", "complete"), {})),
    (lambda: torch.linalg.eigh(_matrix(), UPLO="U"),
     ("aten._linalg_eigh.default", ("T", "U"), {})),
    (lambda: torch.linalg.pinv(_matrix()), ("aten.linalg_pinv.atol_rtol_tensor", ("T",), {})),
    (lambda: torch.aminmax(_matrix(), dim=0), ("aten.aminmax.default", ("T",), {"dim": 0})),
    (lambda: torch.linalg.lstsq(_matrix(), _ones()),
     ("aten.linalg_lstsq.default", ("T", "T"), {})),
    (lambda: torch.linalg.lstsq(_matrix(), _ones(), driver="gelsd"),
     ("aten.linalg_lstsq.default", ("T", "T"), {"driver": "gelsd"})),
    (lambda: torch.aminmax(_matrix()), ("aten.aminmax.default", ("T",), {})),
    (lambda: torch.fmod(_matrix(), 2), ("aten.fmod.Scalar", ("T", 2), {})),
    (lambda: torch.nan_to_num(_matrix()), ("aten.nan_to_num.default", ("T",), {})),
    (lambda: torch.nan_to_num(_matrix(), 0.0), ("aten.nan_to_num.default", ("T", 0.0), {})),
    (lambda: torch.nan_to_num(_matrix(), None, 1.0),
     ("aten.nan_to_num.default", ("T", None, 1.0), {})),
    (lambda: F.multi_margin_loss(_matrix(), torch.tensor([0, 1]), p=2, margin=2),
     ("aten.multi_margin_loss.default", ("T", "T", 2, 2), {})),
    (lambda: F.multi_margin_loss(_matrix(), torch.tensor([0, 1]), reduction="sum"),
     ("aten.multi_margin_loss.default", ("T", "T", 1, 1.0, None, 2), {})),
]


@pytest.mark.parametrize("call, entry", FORWARD)
def test_an_operator_is_handed_its_schemas_arguments(call, entry):
    with Calls() as mode:
        call()
    assert entry in mode.seen


def _first(result):
    return result[0] if isinstance(result, tuple | list) else result


@pytest.mark.parametrize("call, entry", FORWARD)
def test_func_called_again_gives_the_same_result(call, entry):
    with Calls() as mode:
        call()
    func, given, named = mode.kept[mode.seen.index(entry)]
    again, alone = _first(func(*given, **named)), _first(call())
    assert torch.allclose(again, alone, rtol=0, atol=1e-12) and again.dtype == alone.dtype


BACKWARD = [
    (lambda x: torch.det(x[:, :2] + torch.eye(2, dtype=F64)),
     ("aten.linalg_lu_solve.default", ("T", "T", "T"), {"adjoint": True})),
    (lambda x: F.hardsigmoid(x).sum(), ("aten.hardsigmoid_backward.default", ("T", "T"), {})),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0, 2])),
     ("aten.multi_margin_loss_backward.default", ("T", "T", "T", 1, 1.0, None), {})),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0, 2]), reduction="sum"),
     ("aten.multi_margin_loss_backward.default", ("T", "T", "T", 1, 1.0, None, 2), {})),
    (lambda x: torch.linalg.cholesky(x @ x.t() + torch.eye(2, dtype=F64)).sum(),
     ("aten.linalg_solve_triangular.default", ("T", "T"), {"upper": False, "left": False})),
]


@pytest.mark.parametrize("call, entry", BACKWARD)
def test_a_gradient_is_handed_its_schemas_arguments(call, entry):
    x = _leaf()
    with Calls() as mode:
        call(x).backward()
    assert entry in mode.seen
    func, given, named = mode.kept[mode.seen.index(entry)]
    again = func(*given, **named)
    assert again.shape == given[0].shape or again.shape == given[1].shape


@pytest.mark.parametrize("call, api", [
    (torch.linalg.solve, "torch.linalg.solve"),
    (lambda A, B: torch.linalg.lu_factor(A), "torch.linalg.lu_factor"),
])
def test_a_mode_sees_torchs_check_of_the_factorization(call, api):
    for A, is_matrix in ((_matrix(), True), (_matrix()[None], False)):
        B = _ones()
        with Calls() as mode:
            call(A, B)
        entry = ("aten._linalg_check_errors.default", ("T", api), {"is_matrix": is_matrix})
        assert mode.seen[1:] == [entry]  # after the factorization, and last
        func, given, named = mode.kept[1]
        assert func(*given, **named) is None
