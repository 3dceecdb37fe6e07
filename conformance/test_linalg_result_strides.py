"""The layouts of a few linear-algebra results, as torch lays them out."""

import warnings

import pytest
import torch

A = (torch.arange(9.0).reshape(3, 3) + 10 * torch.eye(3)).mT


@pytest.mark.parametrize("n", [0, 1])
def test_the_powers_zero_and_one_are_laid_out_by_rows(n):
    assert torch.linalg.matrix_power(A, n).stride() == (3, 1)
    assert torch.matrix_power(A, n).stride() == (3, 1)
    assert torch.linalg.matrix_power(torch.ones(2, 3, 3).mT, n).stride() == (9, 3, 1)


def test_an_empty_cholesky_returns_at_once():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.cholesky(torch.zeros(0, 3, 3)).stride() == (9, 3, 1)
        assert torch.cholesky(torch.zeros(0, 3)).shape == (0, 3)
        assert torch.cholesky(torch.zeros(0, 0, dtype=torch.bool)).dtype == torch.bool
        x = torch.zeros(0, 3, 3, requires_grad=True)
        assert type(torch.cholesky(x).grad_fn).__name__ == "CholeskyBackward0"


def test_cholesky_inverse_resizes_its_out_by_columns():
    L = torch.linalg.cholesky(torch.tensor([[4.0, 1.0], [1.0, 3.0]]))
    assert torch.cholesky_inverse(L, out=torch.empty(0)).stride() == (1, 2)
    assert torch.cholesky_inverse(L.expand(2, 2, 2), out=torch.empty(0)).stride() == (4, 1, 2)
    assert torch.cholesky_inverse(L, out=torch.empty(2, 2)).stride() == (2, 1)


def test_svd_without_vectors_gives_v_by_columns():
    r = torch.svd(torch.ones(3, 4), compute_uv=False)
    assert r.U.stride() == (3, 1) and r.V.stride() == (1, 4)
    assert r.U._version == 1 and r.V._version == 1
    assert torch.svd(torch.ones(2, 4, 3), compute_uv=False).V.stride() == (9, 1, 3)
