"""Singular values, symmetric eigenvalues and QR, on torch's API.

Singular vectors, eigenvectors and the columns of Q are determined only up to sign, and
two LAPACK builds may choose differently: these tests compare what does not depend on the
signs (values, products of the factors, gradients of losses that ignore the signs), against
NumPy and against finite differences of NumPy's own factorizations.
"""

import numpy as np
import pytest
import torch

from conformance._support import (
    first_edges,
    matrix_leaf,
    numeric_gradient,
    raises,
    saved_names,
)

RNG = np.random.default_rng(11)
TALL, WIDE, BATCH = (RNG.uniform(-1.0, 1.0, s) for s in [(4, 3), (2, 4), (2, 3, 2)])
SYMMETRIC = RNG.uniform(-1.0, 1.0, (3, 3))
SYMMETRIC = SYMMETRIC + SYMMETRIC.T
TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-12}


def _svd_loss(a, weights):
    """A loss that ignores the signs of the singular vectors."""
    U, S, Vh = np.linalg.svd(a, full_matrices=False)
    return (S * weights[0]).sum() + (U * U * weights[1]).sum() + (U @ Vh * weights[2]).sum()


# --- the singular value decomposition


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("values", [TALL, WIDE, BATCH])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_factors_rebuild_the_matrix(dtype, values, full_matrices):
    a = matrix_leaf(values, dtype)
    result = torch.linalg.svd(a, full_matrices=full_matrices)
    assert type(result).__name__ == "linalg_svd"
    assert len(result) == 3 and all(
        x is y for x, y in zip((result.U, result.S, result.Vh), result))
    U, S, Vh = result
    m, n = values.shape[-2:]
    k = min(m, n)
    assert U.shape[-2:] == ((m, m) if full_matrices else (m, k))
    assert Vh.shape[-2:] == ((n, n) if full_matrices else (k, n))
    assert S.dtype == U.dtype == Vh.dtype == dtype
    assert [t.grad_fn.name() for t in result] == ["LinalgSvdBackward0"] * 3
    np.testing.assert_allclose(S.detach().numpy(), np.linalg.svd(values, compute_uv=False),
                               rtol=TOLERANCE[dtype] * 10)
    rebuilt = (U[..., :k] * S.unsqueeze(-2)) @ Vh[..., :k, :]
    np.testing.assert_allclose(rebuilt.detach().numpy(), values, atol=TOLERANCE[dtype] * 10)
    for factor in (U, Vh.mT):
        np.testing.assert_allclose((factor.mT @ factor).detach().numpy(),
                                   np.broadcast_to(np.eye(factor.shape[-1]),
                                                   factor.shape[:-2] + (factor.shape[-1],) * 2),
                                   atol=TOLERANCE[dtype] * 10)


def test_svd_node_keeps_the_factors_and_the_count_of_singular_values():
    U, S, Vh = torch.linalg.svd(matrix_leaf(TALL))
    node = S.grad_fn
    assert saved_names(node) == ["_saved_S", "_saved_S_sym_argsize_minus_1", "_saved_U",
                            "_saved_Vh", "_saved_full_matrices"]
    assert node._saved_full_matrices is True and node._saved_S_sym_argsize_minus_1 == 3
    assert torch.equal(node._saved_U, U) and torch.equal(node._saved_Vh, Vh)
    assert node is U.grad_fn and [n for n, _ in node.next_functions][0] is not None


@pytest.mark.parametrize("values", [TALL, WIDE, BATCH[0]])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_gradient_of_a_sign_free_loss_matches_finite_differences(values, full_matrices):
    weights = [RNG.uniform(-1.0, 1.0, s) for s in
               [(min(values.shape),), (values.shape[0], min(values.shape)), values.shape]]
    a = matrix_leaf(values)
    U, S, Vh = torch.linalg.svd(a, full_matrices=full_matrices)
    k = S.shape[-1]
    U, Vh = U[..., :k], Vh[..., :k, :]
    loss = ((S * torch.tensor(weights[0])).sum() + (U * U * torch.tensor(weights[1])).sum()
            + (U @ Vh * torch.tensor(weights[2])).sum())
    loss.backward()
    expected = numeric_gradient(lambda x: _svd_loss(x, weights), values)
    np.testing.assert_allclose(a.grad.numpy(), expected, rtol=1e-6, atol=1e-8)


def test_a_loss_that_depends_on_the_signs_is_not_refused_for_real_matrices():
    # torch checks the phase of the vectors for complex inputs only
    a = matrix_leaf(TALL)
    U, S, Vh = torch.linalg.svd(a, full_matrices=False)
    (U.sum() + Vh.sum()).backward()
    assert a.grad.shape == (4, 3) and torch.isfinite(a.grad).all()


def test_singular_values_alone_have_a_gradient_where_they_repeat():
    a = torch.eye(3, dtype=torch.float64, requires_grad=True)
    torch.linalg.svdvals(a).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.eye(3), atol=1e-12)


def test_svdvals_records_the_whole_decomposition_reduced():
    a = matrix_leaf(WIDE)
    S = torch.linalg.svdvals(a)
    assert S.grad_fn.name() == "LinalgSvdBackward0" and S.grad_fn._saved_full_matrices is False
    assert S.grad_fn._saved_U.shape == (2, 2) and S.grad_fn._saved_Vh.shape == (2, 4)
    S[0].backward()  # the gradient of the largest singular value: u₁ v₁ᵀ
    U, _, Vh = np.linalg.svd(WIDE)
    np.testing.assert_allclose(a.grad.numpy(), np.outer(U[:, 0], Vh[0]), atol=1e-12)


def test_torch_svd_returns_v_and_zeros_without_vectors():
    a = matrix_leaf(BATCH)
    result = torch.svd(a)
    assert type(result).__name__ == "svd"
    assert len(result) == 3 and all(
        x is y for x, y in zip((result.U, result.S, result.V), result))
    U, S, V = result
    assert U.shape == (2, 3, 2) and V.shape == (2, 2, 2)
    assert first_edges(V) == ["TransposeBackward0", "LinalgSvdBackward0"]
    np.testing.assert_allclose(((U * S.unsqueeze(-2)) @ V.mT).detach().numpy(), BATCH,
                               atol=1e-12)
    assert torch.svd(a, some=False).U.shape == (2, 3, 3)
    U, S, V = torch.svd(a, compute_uv=False)
    assert U.shape == (2, 3, 3) and V.shape == (2, 2, 2) and not U.requires_grad
    assert not U.any() and not V.any() and S.grad_fn.name() == "LinalgSvdBackward0"


def test_svd_of_empty_matrices():
    U, S, Vh = torch.linalg.svd(torch.ones(0, 2))
    assert U.shape == (0, 0) and S.shape == (0,) and torch.equal(Vh, torch.eye(2))
    assert torch.linalg.svdvals(torch.ones(2, 0, 3)).shape == (2, 0)


def test_svd_of_a_batch_with_a_non_finite_matrix():
    values = torch.tensor(BATCH[:, :2, :])
    values[1, 0, 0] = float("inf")
    S = torch.linalg.svdvals(values)
    assert torch.isnan(S[1]).all() and torch.isfinite(S[0]).all()


@pytest.mark.parametrize("call, message", [
    (lambda: torch.linalg.svd(torch.ones(3)),
     "linalg.svd: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.linalg.svd(torch.ones(3, dtype=torch.long)),
     "linalg.svd: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.linalg.svdvals(torch.ones(2, 2, dtype=torch.long)),
     "linalg.svd: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: torch.linalg.svd(torch.ones(2, 2, dtype=torch.bool)),
     "linalg.svd: Expected a floating point or complex tensor as input. Got Bool"),
    (lambda: torch.svd(torch.ones(3)),
     "linalg.svd: input should have at least 2 dimensions, but has 1 dimensions instead"),
    (lambda: torch.svd(torch.ones(2, 2, dtype=torch.int32)),
     "linalg.svd: Expected a floating point or complex tensor as input. Got Int"),
    (lambda: torch.linalg.svd(torch.ones(2, 2), driver="gesvd"),
     "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
     "cuSOLVER backend."),
])
def test_svd_errors(call, message):
    with raises(RuntimeError, message):
        call()


def test_svd_has_no_half_precision_kernel():
    with raises(NotImplementedError, "\"linalg_svd_cpu\" not implemented for 'Half'"):
        torch.linalg.svd(torch.ones(2, 2, dtype=torch.float16))


def test_svd_refuses_a_single_non_finite_matrix():
    with raises(torch.linalg.LinAlgError, "linalg.svd: The algorithm failed to converge "
                "because the input matrix contained non-finite values."):
        torch.linalg.svd(torch.tensor([[float("nan"), 1.0], [1.0, 1.0]]))


# --- the norms made of singular values


@pytest.mark.parametrize("ord, pick", [("nuc", np.sum), (2, np.max), (-2, np.min)])
@pytest.mark.parametrize("dim", [(-2, -1), (0, 2), (-1, -2), (2, 0)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norms_of_singular_values(ord, pick, dim, keepdim):
    values = RNG.uniform(-1.0, 1.0, (2, 3, 4))
    a = matrix_leaf(values)
    result = torch.linalg.matrix_norm(a, ord, dim=dim, keepdim=keepdim)
    moved = np.moveaxis(values, dim, (-2, -1))
    expected = pick(np.linalg.svd(moved, compute_uv=False), axis=-1)
    if keepdim:
        expected = np.expand_dims(expected, tuple(sorted(d % 3 for d in dim)))
    np.testing.assert_allclose(result.detach().numpy(), expected, rtol=1e-12)
    head = {"nuc": "SumBackward1", 2: "AmaxBackward0", -2: "AminBackward0"}[ord]
    chain = [head, "LinalgSvdBackward0", "PermuteBackward0"]
    assert first_edges(result) == (["PermuteBackward0", "UnsqueezeBackward0"] + chain
                                   if keepdim else chain)


@pytest.mark.parametrize("ord", ["nuc", 2, -2])
def test_matrix_norm_gradients(ord):
    a = matrix_leaf(TALL)
    torch.linalg.norm(a, ord).backward()
    U, _, Vh = np.linalg.svd(TALL, full_matrices=False)
    expected = {"nuc": U @ Vh, 2: np.outer(U[:, 0], Vh[0]), -2: np.outer(U[:, -1], Vh[-1])}
    np.testing.assert_allclose(a.grad.numpy(), expected[ord], atol=1e-12)


def test_torch_norm_takes_nuc():
    a = matrix_leaf(BATCH)
    result = torch.norm(a, "nuc", dim=(2, 0), keepdim=True)
    assert result.shape == (1, 3, 1)
    assert first_edges(torch.norm(a[0], "nuc")) == ["SumBackward1", "LinalgSvdBackward0",
                                                     "PermuteBackward0", "SelectBackward0"]
    with raises(RuntimeError, "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2"):
        torch.norm(a, "nuc")


def test_spectral_norms_of_empty_matrices():
    a = torch.ones(3, 0, 2, requires_grad=True)
    zero = torch.linalg.matrix_norm(a, 2)
    assert torch.equal(zero, torch.zeros(3)) and not zero.requires_grad
    assert torch.linalg.matrix_norm(a, 2, dim=(0, 2), keepdim=True).shape == (1, 0, 1)
    assert torch.equal(torch.linalg.matrix_norm(a, "nuc"), torch.zeros(3))
    with raises(IndexError, "amin(): Expected reduction dim -1 to have non-zero size."):
        torch.linalg.matrix_norm(a, -2)


def test_matrix_norm_dtype_converts_first():
    a = matrix_leaf(TALL, torch.float32)
    result = torch.linalg.matrix_norm(a, "nuc", dtype=torch.float64)
    assert result.dtype == torch.float64
    assert first_edges(result) == ["SumBackward1", "LinalgSvdBackward0", "PermuteBackward0",
                                   "ToCopyBackward0"]
    with raises(RuntimeError, "linalg.matrix_norm: the dtype of the input (Double) should be "
                "convertible without narrowing to the specified dtype (Float)"):
        torch.linalg.matrix_norm(matrix_leaf(TALL), 2, dtype=torch.float32)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: torch.norm(torch.ones(2, 3, 2), "abc"),
     "linalg.matrix_norm: Order abc not supported."),
    (lambda: torch.linalg.matrix_norm(torch.ones(3), 3),
     "linalg.matrix_norm: Order 3 not supported."),
    (lambda: torch.linalg.matrix_norm(torch.ones(3), 1),
     "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.linalg.matrix_norm(torch.ones(2, 3, 2), 2.5),
     "linalg.matrix_norm: Order 2.5 not supported."),
    (lambda: torch.linalg.matrix_norm(torch.ones(2, 3, 2), "fro", dim=(0, 1, 2)),
     "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2"),
])
def test_matrix_norm_checks_the_order_first(call, message):
    with raises(RuntimeError, message):
        call()
