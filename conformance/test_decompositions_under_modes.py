"""Black-box tests: linalg.svd, linalg.svdvals, torch.svd, linalg.eigh, linalg.eigvalsh,
linalg.qr, linalg.inv(_ex), linalg.cholesky(_ex), det, slogdet and linalg.lu_factor(_ex)
under a dispatch mode. A refused input (too few dimensions, a dtype the kernel lacks, a
non-square or non-finite matrix, a bad UPLO or mode) reaches the mode as torch's op
(aten._linalg_svd, aten._linalg_eigh, aten.linalg_qr, aten.linalg_inv_ex,
aten.linalg_cholesky_ex, aten._linalg_det, aten._linalg_slogdet,
aten.linalg_lu_factor_ex) before the refusal, in torch's words; torch.svd's and logdet's
own checks come first. The detaches of the saved outputs, after the op and when backward
unpacks them, come S first. The same assertions run on torch."""

import pytest
import torch

from conformance._support import calling_mode, shape_and_dtype

Calls = calling_mode(show=shape_and_dtype)
SVD, EIGH = "aten._linalg_svd.default", "aten._linalg_eigh.default"
DET, SLOGDET = "aten._linalg_det.default", "aten._linalg_slogdet.default"
LU = "aten.linalg_lu_factor_ex.default"
QR, INV, CHOLESKY = ("aten.linalg_qr.default", "aten.linalg_inv_ex.default",
                     "aten.linalg_cholesky_ex.default")
TOO_FEW = "The input tensor A must have at least 2 dimensions."

REFUSALS = [  # (id, call, input, what the mode sees, error type, message)
    ("svd_1d", lambda A: torch.linalg.svd(A), [1.0, 2.0], (SVD, ("T[2] float32", True)),
     RuntimeError, f"linalg.svd: {TOO_FEW}"),
    ("svd_0d", lambda A: torch.linalg.svd(A, full_matrices=False), 1.0,
     (SVD, ("T[] float32",)), RuntimeError, f"linalg.svd: {TOO_FEW}"),
    ("svd_int", lambda A: torch.linalg.svd(A.long()), [[1.0, 2.0], [3.0, 4.0]],
     (SVD, ("T[2, 2] int64", True)), RuntimeError,
     "linalg.svd: Expected a floating point or complex tensor as input. Got Long"),
    ("svd_half", lambda A: torch.linalg.svd(A.half()), [[1.0, 2.0], [3.0, 4.0]],
     (SVD, ("T[2, 2] float16", True)), NotImplementedError,
     "\"linalg_svd_cpu\" not implemented for 'Half'"),
    ("svd_nan", lambda A: torch.linalg.svd(A), [[1.0, float("nan")], [0.0, 1.0]],
     (SVD, ("T[2, 2] float32", True)), torch.linalg.LinAlgError,
     "linalg.svd: The algorithm failed to converge because the input matrix contained "
     "non-finite values."),
    ("svd_driver", lambda A: torch.linalg.svd(A, driver="gesvd"), [[1.0, 2.0], [3.0, 4.0]],
     (SVD, ("T[2, 2] float32", True), {"driver": "gesvd"}), RuntimeError,
     "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
     "cuSOLVER backend."),
    ("svdvals_1d", lambda A: torch.linalg.svdvals(A), [1.0, 2.0], (SVD, ("T[2] float32",)),
     RuntimeError, f"linalg.svd: {TOO_FEW}"),
    ("torch_svd_int", lambda A: torch.svd(A.long()), [[1.0, 2.0], [3.0, 4.0]],
     (SVD, ("T[2, 2] int64",)), RuntimeError,
     "linalg.svd: Expected a floating point or complex tensor as input. Got Long"),
    ("torch_svd_full_int", lambda A: torch.svd(A.long(), some=False), [[1.0, 2.0], [3.0, 4.0]],
     (SVD, ("T[2, 2] int64", True)), RuntimeError,
     "linalg.svd: Expected a floating point or complex tensor as input. Got Long"),
    ("eigh_1d", lambda A: torch.linalg.eigh(A), [1.0, 2.0], (EIGH, ("T[2] float32",)),
     RuntimeError, f"linalg.eigh: {TOO_FEW}"),
    ("eigh_not_square", lambda A: torch.linalg.eigh(A), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
     (EIGH, ("T[2, 3] float32",)), RuntimeError,
     "linalg.eigh: A must be batches of square matrices, but they are 2 by 3 matrices"),
    ("eigh_uplo", lambda A: torch.linalg.eigh(A, UPLO="X"), [[1.0, 2.0], [2.0, 1.0]],
     (EIGH, ("T[2, 2] float32", "X")), RuntimeError,
     "Expected UPLO argument to be 'L' or 'U', but got X"),
    ("eigh_int", lambda A: torch.linalg.eigh(A.long()), [[1.0, 2.0], [2.0, 1.0]],
     (EIGH, ("T[2, 2] int64",)), NotImplementedError,
     "\"linalg_eigh_cpu\" not implemented for 'Long'"),
    ("eigvalsh_1d", lambda A: torch.linalg.eigvalsh(A), [1.0, 2.0],
     (EIGH, ("T[2] float32",)), RuntimeError, f"linalg.eigh: {TOO_FEW}"),
    ("qr_1d", lambda A: torch.linalg.qr(A), [1.0, 2.0], (QR, ("T[2] float32",)),
     RuntimeError, f"linalg.qr: {TOO_FEW}"),
    ("qr_half", lambda A: torch.linalg.qr(A.half()), [[1.0, 2.0], [3.0, 4.0]],
     (QR, ("T[2, 2] float16",)), NotImplementedError,
     "\"geqrf_cpu\" not implemented for 'Half'"),
    ("qr_mode", lambda A: torch.linalg.qr(A, mode="x"), [[1.0, 2.0], [3.0, 4.0]],
     (QR, ("T[2, 2] float32", "x")), RuntimeError,
     "qr received unrecognized mode 'x' but expected one of 'reduced' (default), 'r', or "
     "'complete'"),
    ("inv_not_square", lambda A: torch.linalg.inv(A), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
     (INV, ("T[2, 3] float32",)), RuntimeError,
     "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices"),
    ("inv_ex_int", lambda A: torch.linalg.inv_ex(A.long()), [[1.0, 2.0], [3.0, 4.0]],
     (INV, ("T[2, 2] int64",)), RuntimeError,
     "linalg.inv: Expected a floating point or complex tensor as input. Got Long"),
    ("inverse_1d", lambda A: torch.inverse(A), [1.0, 2.0], (INV, ("T[2] float32",)),
     RuntimeError, f"linalg.inv: {TOO_FEW}"),
    ("det_1d", lambda A: torch.linalg.det(A), [1.0, 2.0], (DET, ("T[2] float32",)),
     RuntimeError, f"linalg.det: {TOO_FEW}"),
    ("det_half", lambda A: torch.det(A.half()), [[1.0, 2.0], [3.0, 4.0]],
     (DET, ("T[2, 2] float16",)), NotImplementedError, "\"lu_cpu\" not implemented for 'Half'"),
    ("slogdet_not_square", lambda A: torch.linalg.slogdet(A), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
     (SLOGDET, ("T[2, 3] float32",)), RuntimeError,
     "linalg.slogdet: A must be batches of square matrices, but they are 2 by 3 matrices"),
    ("torch_slogdet_int", lambda A: torch.slogdet(A.long()), [[1.0, 2.0], [3.0, 4.0]],
     (SLOGDET, ("T[2, 2] int64",)), RuntimeError,
     "linalg.slogdet: Expected a floating point or complex tensor as input. Got Long"),
    ("lu_factor_1d", lambda A: torch.linalg.lu_factor(A), [1.0, 2.0], (LU, ("T[2] float32",)),
     RuntimeError, "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [2] "
     "instead"),
    ("lu_factor_ex_int", lambda A: torch.linalg.lu_factor_ex(A.long()), [[1.0, 2.0], [3.0, 4.0]],
     (LU, ("T[2, 2] int64",)), NotImplementedError, "\"lu_cpu\" not implemented for 'Long'"),
    ("cholesky_1d", lambda A: torch.linalg.cholesky(A), [1.0, 2.0],
     (CHOLESKY, ("T[2] float32",)), RuntimeError, f"linalg.cholesky: {TOO_FEW}"),
    ("cholesky_ex_half", lambda A: torch.linalg.cholesky_ex(A.half()), [[1.0, 2.0], [3.0, 4.0]],
     (CHOLESKY, ("T[2, 2] float16",)), NotImplementedError,
     "\"cholesky_cpu\" not implemented for 'Half'"),
]


@pytest.mark.parametrize("requires_grad", [False, True], ids=["plain", "requires_grad"])
@pytest.mark.parametrize(("call", "values", "seen", "kind", "message"),
                         [case[1:] for case in REFUSALS], ids=[case[0] for case in REFUSALS])
def test_a_refusal_comes_after_the_mode_sees_the_op(call, values, seen, kind, message,
                                                     requires_grad):
    A = torch.tensor(values, requires_grad=requires_grad)
    with Calls() as mode:
        with pytest.raises(kind) as caught:
            call(A)
    assert str(caught.value) == message
    assert mode.seen[-1][:len(seen)] == seen and (len(seen) == 3 or mode.seen[-1][2] == {})


def test_logdet_checks_before_the_op():
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    with Calls() as mode:
        with pytest.raises(RuntimeError) as caught:
            torch.logdet(v)
    assert mode.seen == []
    assert str(caught.value) == f"logdet: {TOO_FEW}"


def test_torch_svd_counts_dimensions_before_the_op():
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    with Calls() as mode:
        with pytest.raises(RuntimeError) as caught:
            torch.svd(v)
    assert mode.seen == []
    assert str(caught.value) == ("linalg.svd: input should have at least 2 dimensions, but "
                                 "has 1 dimensions instead")


def test_uplo_reaches_the_mode_as_given():
    A = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    with Calls() as mode:
        lower = torch.linalg.eigh(A, UPLO="u")
    assert mode.seen == [(EIGH, ("T[2, 2] float32", "u"), {})]
    assert torch.allclose(lower.eigenvalues, torch.linalg.eigh(A).eigenvalues)


def _detaches(mode) -> list:
    return [args[0] for name, args, _ in mode.seen if name == "aten.detach.default"]


SVDS = {
    "linalg_svd": lambda A: torch.linalg.svd(A, full_matrices=False),
    "linalg_svd_full": lambda A: torch.linalg.svd(A),
    "svdvals": lambda A: torch.linalg.svdvals(A),
    "torch_svd": lambda A: torch.svd(A),
}


@pytest.mark.parametrize("call", SVDS.values(), ids=SVDS.keys())
def test_svd_detaches_its_saved_outputs_s_first(call):
    A = torch.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2]], requires_grad=True)
    with Calls() as mode:
        call(A)
    assert _detaches(mode)[0] == "T[2] float32" and len(_detaches(mode)) == 3


def test_svd_backward_unpacks_s_first():
    A = torch.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2]], requires_grad=True)
    S = torch.linalg.svdvals(A)
    with Calls() as mode:
        S.sum().backward()
    assert _detaches(mode)[:3] == ["T[2] float32", "T[2, 2] float32", "T[2, 3] float32"]
    assert A.grad.shape == (2, 3)


def test_eigh_detaches_its_eigenvalues_first():
    A = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
    with Calls() as mode:
        torch.linalg.eigh(A)
    assert _detaches(mode) == ["T[2] float32", "T[2, 2] float32"]
