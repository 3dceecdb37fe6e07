"""Symmetric eigenvalues (linalg.eigh, linalg.eigvalsh) and QR, on torch's API.

Eigenvectors and the columns of Q are determined only up to sign: the tests compare
values, products of the factors and gradients of losses that ignore the signs, against
NumPy and against finite differences of NumPy's own factorizations.
"""

import numpy as np
import pytest
import torch

from conformance._support import matrix_leaf, numeric_gradient, raises, saved_names
from conformance._warned import always_warned

RNG = np.random.default_rng(13)
SYMMETRIC = RNG.uniform(-1.0, 1.0, (3, 3))
SYMMETRIC = SYMMETRIC + SYMMETRIC.T
BATCH = RNG.uniform(-1.0, 1.0, (2, 4, 4))
BATCH = BATCH + BATCH.swapaxes(-1, -2)
TALL, WIDE = RNG.uniform(-1.0, 1.0, (4, 3)), RNG.uniform(-1.0, 1.0, (2, 4))
TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-12}


# --- eigh


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("values", [SYMMETRIC, BATCH])
def test_eigh_factors_rebuild_the_matrix(dtype, values):
    a = matrix_leaf(values, dtype)
    result = torch.linalg.eigh(a)
    assert type(result).__name__ == "linalg_eigh" and len(result) == 2
    L, V = result
    assert result.eigenvalues is L and result.eigenvectors is V
    assert L.dtype == V.dtype == dtype
    assert L.grad_fn.name() == V.grad_fn.name() == "LinalgEighBackward0"
    np.testing.assert_allclose(L.detach().numpy(), np.linalg.eigvalsh(values),
                               rtol=TOLERANCE[dtype] * 10, atol=TOLERANCE[dtype] * 10)
    rebuilt = (V * L.unsqueeze(-2)) @ V.mT
    np.testing.assert_allclose(rebuilt.detach().numpy(), values, atol=TOLERANCE[dtype] * 10)


def test_eigh_node_keeps_its_outputs_and_not_uplo():
    L, V = torch.linalg.eigh(matrix_leaf(SYMMETRIC), UPLO="U")
    node = L.grad_fn
    assert saved_names(node) == ["_saved_eigenvalues", "_saved_eigenvectors"]
    assert torch.equal(node._saved_eigenvalues, L) and torch.equal(node._saved_eigenvectors, V)
    assert torch.linalg.eigvalsh(matrix_leaf(SYMMETRIC)).grad_fn.name() == "LinalgEighBackward0"


@pytest.mark.parametrize("UPLO", ["L", "U", "l", "u"])
def test_eigh_reads_one_triangle(UPLO):
    kept = np.tril(SYMMETRIC) if UPLO in "Ll" else np.triu(SYMMETRIC)
    other = np.triu(np.full((3, 3), 7.0), 1) if UPLO in "Ll" else np.tril(np.full((3, 3), 7.0), -1)
    L = torch.linalg.eigvalsh(torch.tensor(kept + other), UPLO=UPLO)
    np.testing.assert_allclose(L.numpy(), np.linalg.eigvalsh(SYMMETRIC), atol=1e-12)


def test_eigh_gradient_of_a_sign_free_loss_matches_finite_differences():
    weights = RNG.uniform(-1.0, 1.0, (3,)), RNG.uniform(-1.0, 1.0, (3, 3))

    def loss(a):
        L, V = np.linalg.eigh(a + a.T)
        return (L * weights[0]).sum() + (V * V * weights[1]).sum()

    a = matrix_leaf(SYMMETRIC / 2)
    L, V = torch.linalg.eigh(a + a.mT)
    ((L * torch.tensor(weights[0])).sum() + (V * V * torch.tensor(weights[1])).sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), numeric_gradient(loss, SYMMETRIC / 2),
                               rtol=1e-6, atol=1e-8)


def test_eigh_gradient_is_symmetric_even_from_one_triangle():
    a = matrix_leaf(np.tril(SYMMETRIC))
    L, V = torch.linalg.eigh(a)
    (V[:, 0] ** 2 * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), a.grad.numpy().T, atol=1e-12)
    b = matrix_leaf(SYMMETRIC)
    torch.linalg.eigvalsh(b)[-1].backward()  # the largest eigenvalue's gradient: v vᵀ
    v = np.linalg.eigh(SYMMETRIC)[1][:, -1]
    np.testing.assert_allclose(b.grad.numpy(), np.outer(v, v), atol=1e-12)


def test_eigenvalues_alone_have_a_gradient_where_they_repeat():
    a = torch.eye(3, dtype=torch.float64, requires_grad=True)
    torch.linalg.eigvalsh(a).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.eye(3), atol=1e-12)


def test_eigh_of_an_empty_matrix():
    L, V = torch.linalg.eigh(torch.ones(0, 0))
    assert L.shape == (0,) and V.shape == (0, 0)


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.linalg.eigh(torch.ones(3)), RuntimeError,
     "linalg.eigh: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.linalg.eigh(torch.ones(2, 3), UPLO="X"), RuntimeError,
     "linalg.eigh: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: torch.linalg.eigvalsh(torch.ones(2, 2, dtype=torch.long), UPLO="X"), RuntimeError,
     "Expected UPLO argument to be 'L' or 'U', but got X"),
    (lambda: torch.linalg.eigh(torch.ones(2, 2), UPLO="LL"), RuntimeError,
     "Expected UPLO argument to be 'L' or 'U', but got LL"),
    (lambda: torch.linalg.eigh(torch.ones(2, 2, dtype=torch.long)), NotImplementedError,
     "\"linalg_eigh_cpu\" not implemented for 'Long'"),
    (lambda: torch.linalg.eigvalsh(torch.ones(2, 2, dtype=torch.bool)), NotImplementedError,
     "\"linalg_eigh_cpu\" not implemented for 'Bool'"),
    (lambda: torch.linalg.eigh(torch.ones(2, 2, dtype=torch.float16)), NotImplementedError,
     "\"linalg_eigh_cpu\" not implemented for 'Half'"),
])
def test_eigh_errors(call, kind, message):
    with raises(kind, message):
        call()


# --- QR


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("values", [TALL, WIDE, BATCH[:, :, :3]])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_factors(dtype, values, mode):
    a = matrix_leaf(values, dtype)
    result = torch.linalg.qr(a, mode=mode)
    assert type(result).__name__ == "linalg_qr" and len(result) == 2
    Q, R = result
    assert result.Q is Q and result.R is R and Q.dtype == R.dtype == dtype
    m, n = values.shape[-2:]
    k = min(m, n)
    rows = m if mode == "complete" else k
    assert R.shape == values.shape[:-2] + (rows, n)
    assert torch.equal(R, R.triu()) and R.grad_fn.name() == "LinalgQrBackward0"
    expected = np.linalg.qr(values, "complete")[1] if mode == "complete" else np.linalg.qr(
        values, mode="r")
    np.testing.assert_allclose(np.abs(R.detach().numpy()), np.abs(expected),
                               atol=TOLERANCE[dtype] * 10)
    if mode == "r":
        assert Q.shape == (0,)
        return
    assert Q.shape == values.shape[:-2] + (m, rows)
    np.testing.assert_allclose((Q @ R).detach().numpy(), values, atol=TOLERANCE[dtype] * 10)
    np.testing.assert_allclose((Q.mT @ Q).detach().numpy(),
                               np.broadcast_to(np.eye(rows), Q.shape[:-2] + (rows, rows)),
                               atol=TOLERANCE[dtype] * 10)


def test_qr_node_keeps_q_r_and_mode():
    Q, R = torch.linalg.qr(matrix_leaf(WIDE), mode="complete")
    node = R.grad_fn
    assert saved_names(node) == ["_saved_Q", "_saved_R", "_saved_mode"]
    assert node._saved_mode == "complete" and torch.equal(node._saved_Q, Q)
    assert torch.equal(node._saved_R, R)


@pytest.mark.parametrize("values, mode", [(TALL, "reduced"), (WIDE, "reduced"),
                                          (WIDE, "complete"), (BATCH[0, :3], "reduced")])
def test_qr_gradient_of_a_sign_free_loss_matches_finite_differences(values, mode):
    k = min(values.shape)
    m, n = values.shape
    weights = RNG.uniform(-1.0, 1.0, (m, k)), RNG.uniform(-1.0, 1.0, (k, n))

    def loss(a):
        Q, R = np.linalg.qr(a, mode=mode)
        signs = np.sign(np.diagonal(R))
        return (Q * signs * weights[0]).sum() + (R * signs[:, None] * weights[1]).sum()

    a = matrix_leaf(values)
    Q, R = torch.linalg.qr(a, mode=mode)
    signs = torch.sign(torch.diagonal(R)).detach()
    ((Q * signs * torch.tensor(weights[0])).sum()
     + (R * signs.unsqueeze(-1) * torch.tensor(weights[1])).sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), numeric_gradient(loss, values),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("mode, message", [
    ("r", "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
          "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through "
          "linalg.qr."),
    ("complete", "The QR decomposition is not differentiable when mode='complete' and "
                 "nrows > ncols."),
])
def test_qr_refuses_a_backward_without_a_derivative(mode, message):
    a = matrix_leaf(TALL)
    R = torch.linalg.qr(a, mode=mode).R
    with raises(RuntimeError, message):
        R.sum().backward()
    assert a.grad is None


def test_qr_complete_of_a_wide_matrix_and_of_empty_ones():
    a = matrix_leaf(WIDE)
    torch.linalg.qr(a, mode="complete").R.sum().backward()
    assert a.grad.shape == (2, 4) and torch.isfinite(a.grad).all()
    Q, R = torch.linalg.qr(torch.ones(0, 2))
    assert Q.shape == (0, 0) and R.shape == (0, 2)


def test_torch_qr_is_the_older_spelling():
    with always_warned(torch):
        with pytest.warns(UserWarning, match="^torch.qr is deprecated in favor of torch.linalg.qr"):
            result = torch.qr(matrix_leaf(TALL), some=False)
    assert type(result).__name__ == "qr" and result.Q.shape == (4, 4)
    assert result.R.shape == (4, 3) and result.Q.grad_fn.name() == "LinalgQrBackward0"


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.linalg.qr(torch.ones(3)), RuntimeError,
     "linalg.qr: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.linalg.qr(torch.ones(2, 2, dtype=torch.long), mode="foo"), RuntimeError,
     "linalg.qr: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: torch.linalg.qr(torch.ones(2, 2), mode="foo"), RuntimeError,
     "qr received unrecognized mode 'foo' but expected one of 'reduced' (default), 'r', or "
     "'complete'"),
    (lambda: torch.linalg.qr(torch.ones(2, 2, dtype=torch.float16)), NotImplementedError,
     "\"geqrf_cpu\" not implemented for 'Half'"),
])
def test_qr_errors(call, kind, message):
    with raises(kind, message):
        call()
