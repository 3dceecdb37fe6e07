"""Black-box tests: the exception types of linalg refusals. lu_factor's refusal of a
singular matrix is a plain RuntimeError, not a LinAlgError; pinv with a number atol reads
the matrix's sizes before its checks, so fewer than two dimensions is an IndexError. The
same assertions run on torch."""

import pytest
import torch

SINGULAR = ("U[{0},{0}] is zero and using it on lu_solve would result in a division by "
            "zero. If you still want to perform the factorization, consider calling "
            "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


@pytest.mark.parametrize("call, message", [
    (lambda: torch.linalg.lu_factor(torch.ones(2, 3)),
     "torch.linalg.lu_factor: " + SINGULAR.format(2)),
    (lambda: torch.linalg.lu_factor(torch.zeros(2, 2, 2)),
     "torch.linalg.lu_factor: (Batch element 0): " + SINGULAR.format(1)),
    (lambda: torch.linalg.lu_factor_ex(torch.zeros(2, 2), check_errors=True),
     "torch.linalg.lu_factor_ex: " + SINGULAR.format(1)),
])
def test_lu_factor_refuses_a_singular_matrix_with_a_runtime_error(call, message):
    with pytest.raises(RuntimeError) as caught:
        call()
    assert type(caught.value) is RuntimeError and str(caught.value) == message


def test_inv_still_raises_a_linalg_error():
    with pytest.raises(torch.linalg.LinAlgError):
        torch.linalg.inv(torch.zeros(2, 2))


@pytest.mark.parametrize("shape, message", [
    ((3,), "Dimension out of range (expected to be in range of [-1, 0], but got -2)"),
    ((), "Dimension specified as -2 but tensor has no dimensions"),
])
@pytest.mark.parametrize("options", [
    {"atol": 0.5}, {"atol": 0.0}, {"atol": 2}, {"atol": 0.5, "hermitian": True}])
def test_pinv_with_a_number_atol_reads_the_sizes_first(shape, message, options):
    with pytest.raises(IndexError) as caught:
        torch.linalg.pinv(torch.ones(shape, dtype=torch.int64), **options)
    assert str(caught.value) == message


@pytest.mark.parametrize("options", [
    {}, {"atol": 0.5, "rtol": 0.1}, {"rtol": 0.5}, {"atol": torch.tensor(0.5)}])
def test_pinv_otherwise_refuses_fewer_than_two_dimensions_in_its_own_words(options):
    with pytest.raises(RuntimeError, match=r"linalg.pinv\(Float\{\[3\]\}\): expected a tensor"):
        torch.linalg.pinv(torch.ones(3), **options)
