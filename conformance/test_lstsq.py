"""Least squares, on torch's API: torch.linalg.lstsq, its fields per driver, gradient, errors."""

import numpy as np
import pytest
import torch

from conformance._support import numeric_gradient, raises

RNG = np.random.default_rng(41)
TALL, SQUARE, WIDE = (RNG.standard_normal(s) for s in ((5, 3), (3, 3), (3, 5)))
DRIVERS = ["gels", "gelsy", "gelsd", "gelss"]


def _solve(a, b, driver="gelsy"):
    return torch.linalg.lstsq(torch.tensor(a), torch.tensor(b), driver=driver)


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("a", [TALL, SQUARE, WIDE], ids=["tall", "square", "wide"])
def test_solution_is_the_least_squares_one(a, driver):
    b = RNG.standard_normal((a.shape[0], 2))
    result = _solve(a, b, driver)
    assert type(result).__name__ == "linalg_lstsq"
    np.testing.assert_allclose(result.solution.numpy(), np.linalg.pinv(a) @ b, atol=1e-12)


@pytest.mark.parametrize("driver, residuals, rank, values", [
    ("gels", (2,), (0,), (0,)), ("gelsy", (0,), (), (0,)),
    ("gelsd", (2,), (), (3,)), ("gelss", (2,), (), (3,))])
def test_which_fields_each_driver_fills(driver, residuals, rank, values):
    b = RNG.standard_normal((5, 2))
    result = _solve(TALL, b, driver)
    assert tuple(result.residuals.shape) == residuals
    assert tuple(result.rank.shape) == rank and result.rank.dtype == torch.int64
    assert tuple(result.singular_values.shape) == values
    if residuals[0]:
        expected = ((b - TALL @ np.linalg.pinv(TALL) @ b) ** 2).sum(0)
        np.testing.assert_allclose(result.residuals.numpy(), expected, rtol=1e-10)
    if rank == ():
        assert result.rank.item() == 3
    if values[0]:
        np.testing.assert_allclose(result.singular_values.numpy(),
                                   np.linalg.svd(TALL, compute_uv=False), rtol=1e-12)


@pytest.mark.parametrize("driver", DRIVERS)
def test_no_residuals_unless_tall(driver):
    for a in (SQUARE, WIDE):
        assert _solve(a, RNG.standard_normal((3, 2)), driver).residuals.shape == (0,)


def test_a_batch_and_a_vector():
    a, b = RNG.standard_normal((2, 5, 3)), RNG.standard_normal((2, 5))
    result = _solve(a, b, "gelsd")
    assert tuple(result.solution.shape) == (2, 3)
    assert tuple(result.residuals.shape) == (2, 1)  # a vector B keeps its column
    assert result.rank.tolist() == [3, 3] and tuple(result.singular_values.shape) == (2, 3)
    vector = _solve(a[0], b[0], "gels")
    assert tuple(vector.solution.shape) == (3,) and tuple(vector.residuals.shape) == (1,)


def test_rank_follows_a_batch_alone():
    result = _solve(RNG.standard_normal((1, 5, 3)), RNG.standard_normal((2, 5, 2)), "gelsd")
    assert tuple(result.solution.shape) == (2, 3, 2)
    assert tuple(result.rank.shape) == (1,) and tuple(result.singular_values.shape) == (1, 3)


@pytest.mark.parametrize("driver", ["gelsd", "gelss"])
def test_rank_deficient_gives_the_shortest_solution(driver):
    a = RNG.standard_normal((5, 2)) @ RNG.standard_normal((2, 3))  # rank 2
    b = RNG.standard_normal((5, 2))
    result = _solve(a, b, driver)
    assert result.rank.item() == 2
    assert result.residuals.shape == (0,)  # not of full rank: no residuals
    np.testing.assert_allclose(result.solution.numpy(), np.linalg.pinv(a) @ b, atol=1e-10)


def test_rcond_cuts_the_rank():
    a = np.diag([4.0, 2.0, 1e-3])
    result = torch.linalg.lstsq(torch.tensor(a), torch.eye(3, dtype=torch.float64), rcond=1e-2,
                                driver="gelsd")
    assert result.rank.item() == 2
    np.testing.assert_allclose(result.solution.numpy(), np.diag([0.25, 0.5, 0.0]), atol=1e-15)


def test_nodes_and_what_has_none():
    A = torch.tensor(TALL, requires_grad=True)
    result = torch.linalg.lstsq(A, torch.tensor(RNG.standard_normal((5, 2))), driver="gelsd")
    assert type(result.solution.grad_fn).__name__ == "LinalgLstsqBackward0"
    assert result.residuals.grad_fn is result.solution.grad_fn
    assert result.rank.grad_fn is None and result.singular_values.grad_fn is None
    assert not result.singular_values.requires_grad


@pytest.mark.parametrize("driver", ["gels", "gelsd"])
@pytest.mark.parametrize("a", [TALL, WIDE], ids=["tall", "wide"])
def test_gradient_of_solution_and_residuals(a, driver):
    b = RNG.standard_normal((a.shape[0], 2))
    weights = RNG.standard_normal((a.shape[1], 2))

    def loss(A, B):
        result = torch.linalg.lstsq(A, B, driver=driver)
        return (result.solution * torch.tensor(weights)).sum() + 0.5 * result.residuals.sum()

    A, B = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    loss(A, B).backward()
    np.testing.assert_allclose(A.grad.numpy(), numeric_gradient(
        lambda x: loss(torch.tensor(x), torch.tensor(b)).item(), a), atol=1e-6)
    np.testing.assert_allclose(B.grad.numpy(), numeric_gradient(
        lambda x: loss(torch.tensor(a), torch.tensor(x)).item(), b), atol=1e-6)


F64 = torch.float64


@pytest.mark.parametrize("a, b, a_dtype, b_dtype, driver, message", [
    ((3,), (3, 5, 2), F64, torch.float32, None, "input must have at least 2 dimensions."),
    ((5, 3), (3, 5, 2), F64, torch.float32, None, "Expected input and other to have the same "
     "dtype, but got input's dtype Double and other's dtype Float"),
    ((5, 3), (3, 5, 2), F64, F64, "x", "input.dim() must be greater or equal to other.dim() "
     "and (input.dim() - other.dim()) <= 1"),
    ((5, 3), (4, 2), torch.int64, torch.int64, "x", "input.size(-2) should match other.size(-2)"),
    ((5, 3), (4,), F64, F64, None, "input.size(-2) should match other.size(-1)"),
    ((2, 5, 3), (3, 4), F64, F64, None, "input.size(-2) should match other.size(-2)"),
    ((5, 3), (5, 2), torch.int64, torch.int64, "x",
     "parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"),
])
def test_lstsq_errors(a, b, a_dtype, b_dtype, driver, message):
    A, B = torch.ones(a, dtype=a_dtype), torch.ones(b, dtype=b_dtype)
    with raises(RuntimeError, "torch.linalg.lstsq: " + message):
        torch.linalg.lstsq(A, B, driver=driver)


@pytest.mark.parametrize("a, b, dtype, message", [
    ((5, 3), (5, 2), torch.float16, "This function doesn't handle types other than float and "
     "double"),
    ((2, 5, 3), (3, 5, 2), F64, "The size of tensor a (2) must match the size of tensor b (3) "
     "at non-singleton dimension 0"),
    ((2, 5, 3), (5, 2), F64, "The size of tensor a (2) must match the size of tensor b (5) at "
     "non-singleton dimension 0"),
])
def test_lstsq_errors_of_kind_and_batch(a, b, dtype, message):
    with raises(RuntimeError, message):
        torch.linalg.lstsq(torch.ones(a, dtype=dtype), torch.ones(b, dtype=dtype))
