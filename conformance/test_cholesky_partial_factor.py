"""linalg.cholesky_ex on a matrix that is not positive-definite: LAPACK's partial factor."""

import numpy as np
import pytest
import torch


def test_the_factor_stops_at_the_failing_pivot():
    A = torch.tensor([[4.0, 2.0, 1.0], [2.0, 1.0, 0.0], [1.0, 0.0, 3.0]], dtype=torch.float64)
    L, info = torch.linalg.cholesky_ex(A)
    assert L.tolist() == [[2.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 3.0]]
    assert info.item() == 2


def test_the_failing_pivot_keeps_its_negative_value():
    L, info = torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
    assert L.tolist() == [[1.0, 0.0], [2.0, -3.0]] and info.item() == 2
    U, info = torch.linalg.cholesky_ex(torch.tensor([[4.0, 1.0], [1.0, -3.0]]), upper=True)
    assert U.tolist() == [[2.0, 0.5], [0.0, -3.25]] and info.item() == 2


def test_a_batch_keeps_the_factors_that_succeed():
    A = torch.tensor([[[1.0, 2.0], [2.0, 1.0]], [[4.0, 2.0], [2.0, 5.0]]])
    L, info = torch.linalg.cholesky_ex(A)
    assert L.tolist() == [[[1.0, 0.0], [2.0, -3.0]], [[2.0, 0.0], [1.0, 2.0]]]
    assert info.tolist() == [2, 0] and L.stride() == (4, 1, 2)


@pytest.mark.parametrize("n", [3, 8, 33, 100])
def test_larger_matrices_match_the_unblocked_algorithm(n):
    rng = np.random.default_rng(n)
    M = rng.standard_normal((n, n))
    A = M @ M.T + n * np.eye(n)
    A[n // 2, n // 2] = -1.0
    L, info = torch.linalg.cholesky_ex(torch.tensor(A))
    expected = np.tril(A)
    for j in range(n):
        pivot = expected[j, j] - expected[j, :j] @ expected[j, :j]
        if pivot <= 0:
            expected[j, j] = pivot
            break
        expected[j, j] = np.sqrt(pivot)
        expected[j + 1:, j] = (expected[j + 1:, j] - expected[j + 1:, :j] @ expected[j, :j]) / (
            expected[j, j])
    assert info.item() == n // 2 + 1
    np.testing.assert_allclose(L.numpy(), expected, rtol=1e-10, atol=1e-10)


def test_the_gradient_runs_through_the_partial_factor():
    B = torch.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=torch.float64, requires_grad=True)
    L, _ = torch.linalg.cholesky_ex(B)
    L.sum().backward()
    np.testing.assert_allclose(B.grad.numpy(), [[-7 / 6, 5 / 6], [5 / 6, -1 / 6]], rtol=1e-12)


def test_the_ex_forms_refuse_in_their_own_names():
    from conformance._support import raises

    singular = torch.eye(3, dtype=torch.float64)
    singular[1, 1] = 0
    inverse = ("The diagonal element 2 is zero, the inversion could not be completed because the "
               "input matrix is singular.")
    with raises(torch.linalg.LinAlgError, f"linalg.inv_ex: {inverse}"):
        torch.linalg.inv_ex(singular, check_errors=True)
    with raises(torch.linalg.LinAlgError, f"linalg.inv: {inverse}"):
        torch.linalg.inv(singular)
    factor = ("The factorization could not be completed because the input is not "
              "positive-definite (the leading minor of order 1 is not positive-definite).")
    with raises(torch.linalg.LinAlgError, f"linalg.cholesky_ex: {factor}"):
        torch.linalg.cholesky_ex(-torch.eye(2), check_errors=True)
    with raises(torch.linalg.LinAlgError, f"linalg.cholesky: {factor}"):
        torch.linalg.cholesky(-torch.eye(2))
