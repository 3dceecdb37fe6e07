"""The 1- and ∞-norms of matrices with no rows or columns, on torch's API."""

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (2, 0, 0), (2, 3, 0)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_the_largest_of_no_column_sums_is_a_new_zero(shape, keepdim):
    A = torch.zeros(shape, requires_grad=True)
    result = torch.linalg.matrix_norm(A, 1, keepdim=keepdim)
    expected = list(shape[:-2]) + [1, 1] * keepdim
    assert list(result.shape) == expected and result.grad_fn is None
    assert not result.any()


def test_the_inf_norm_of_no_rows_and_linalg_norm():
    assert torch.linalg.matrix_norm(torch.zeros(2, 0, 0), float("inf")).tolist() == [0.0, 0.0]
    assert torch.linalg.norm(torch.zeros(0, 0), float("inf")).item() == 0.0
    assert torch.linalg.matrix_norm(torch.zeros(0, 3), float("inf")).grad_fn is None


def test_the_smallest_of_none_is_refused():
    with raises(IndexError, "amin(): Expected reduction dim 0 to have non-zero size."):
        torch.linalg.matrix_norm(torch.zeros(0, 0), -1)
