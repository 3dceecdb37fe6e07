"""Solving with a Cholesky factor, on torch's API: torch.cholesky_solve, torch.cholesky_inverse."""

import numpy as np
import pytest
import torch

from conformance._support import raises

RNG = np.random.default_rng(37)
_M = RNG.uniform(-1.0, 1.0, (2, 3, 3))
SPD = _M @ _M.swapaxes(-1, -2) + np.eye(3)


def _factor(upper):
    L = torch.linalg.cholesky(torch.tensor(SPD))
    return L.mT.contiguous() if upper else L


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_values(upper):
    b = RNG.uniform(-1.0, 1.0, (4, 1, 3, 2))
    X = torch.cholesky_solve(torch.tensor(b), _factor(upper), upper)
    assert X.shape == (4, 2, 3, 2) and X.stride() == (12, 6, 1, 3)
    np.testing.assert_allclose(X.numpy(), np.linalg.solve(SPD, b), atol=1e-12)
    assert torch.equal(torch.tensor(b).cholesky_solve(_factor(upper), upper=upper), X)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_values(upper):
    inverse = torch.cholesky_inverse(_factor(upper), upper=upper)
    assert inverse.stride() == (9, 1, 3)
    np.testing.assert_allclose(inverse.numpy(), np.linalg.inv(SPD), atol=1e-12)
    assert torch.equal(_factor(upper).cholesky_inverse(upper), inverse)


def test_a_zero_on_the_diagonal():
    factor = torch.tensor([[2.0, 0.0], [1.0, 0.0]])
    assert torch.cholesky_solve(torch.ones(2, 1), factor).flatten().tolist() == [
        float("-inf"), float("inf")]
    with raises(torch.linalg.LinAlgError, "cholesky_inverse: The diagonal element 2 is zero, "
                "the inversion could not be completed because the input matrix is singular."):
        torch.cholesky_inverse(factor)


def test_nodes_and_saved_tensors():
    L = (torch.eye(3, dtype=torch.float64) * 3).requires_grad_()
    b = torch.ones(3, 4, dtype=torch.float64, requires_grad=True)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(float(t.sum())) or t,
                                                  lambda t: t):
        X = torch.cholesky_solve(b, L)
        inverse = torch.cholesky_inverse(L, upper=True)
    assert packed == pytest.approx([9.0, 12.0, 12 / 9, 9.0, 1 / 3])
    assert X.grad_fn.name() == "CholeskySolveBackward0"
    assert sorted(n for n in dir(X.grad_fn) if n.startswith("_saved_")) == [
        "_saved_input2", "_saved_result", "_saved_self", "_saved_upper"]
    assert inverse.grad_fn.name() == "CholeskyInverseBackward0"
    assert inverse.grad_fn._saved_upper is True


@pytest.mark.parametrize("upper", [False, True])
def test_gradients(upper):
    u = torch.tensor(RNG.uniform(-1.0, 1.0, (3, 3)), requires_grad=True)
    b = torch.tensor(RNG.uniform(-1.0, 1.0, (2, 3, 2)), requires_grad=True)

    def factor(x):
        return (x.triu() if upper else x.tril()) + 2 * torch.eye(3, dtype=x.dtype)

    def solve(x, y):
        return torch.cholesky_solve(y, factor(x), upper)

    def invert(x):
        return torch.cholesky_inverse(factor(x), upper)

    for function, inputs in ((solve, (u, b)), (invert, (u,))):
        assert torch.autograd.gradcheck(function, inputs)
        assert torch.autograd.gradgradcheck(function, inputs)


def test_the_factors_gradient_is_not_cut_to_its_triangle():
    L = torch.tensor([[2.0, 0.0], [1.0, 3.0]], dtype=torch.float64, requires_grad=True)
    torch.cholesky_inverse(L).sum().backward()
    inverse = torch.linalg.inv(L.detach() @ L.detach().mT)
    g = torch.ones(2, 2, dtype=torch.float64)
    np.testing.assert_allclose(L.grad.numpy(), (-(inverse @ (g + g.mT) @ inverse) @ L).detach(),
                               atol=1e-14)
    assert L.grad[0, 1] != 0


B, U = torch.ones(3, 2), torch.eye(3)
ERRORS = [
    (lambda: torch.cholesky_solve(torch.ones(3), U), RuntimeError,
     "b should have at least 2 dimensions, but has 1 dimensions instead"),
    (lambda: torch.cholesky_solve(B, torch.ones(3)), RuntimeError,
     "u should have at least 2 dimensions, but has 1 dimensions instead"),
    (lambda: torch.cholesky_solve(B, U.double()), RuntimeError,
     "Expected b and A to have the same dtype, but found b of type Float and A of type Double "
     "instead."),
    (lambda: torch.cholesky_solve(torch.ones(2, 2), U), RuntimeError,
     "Incompatible matrix sizes for cholesky_solve: each A matrix is 3 by 3 but each b matrix "
     "is 2 by 2"),
    (lambda: torch.cholesky_solve(B, torch.ones(3, 2)), RuntimeError,
     "A must be batches of square matrices, but they are 3 by 2 matrices"),
    (lambda: torch.cholesky_solve(B.int(), U.int()), NotImplementedError,
     "\"cholesky_solve_cpu\" not implemented for 'Int'"),
    (lambda: torch.cholesky_solve(torch.ones(2, 3, 2), torch.ones(3, 3, 3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
     "dimension 0"),
    (lambda: torch.cholesky_solve(B, U, 1), TypeError,
     "cholesky_solve(): argument 'upper' (position 3) must be bool, not int"),
    (lambda: torch.cholesky_inverse(torch.ones(3)), RuntimeError,
     "cholesky_inverse: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.cholesky_inverse(torch.ones(3, 2)), RuntimeError,
     "cholesky_inverse: A must be batches of square matrices, but they are 3 by 2 matrices"),
    (lambda: torch.cholesky_inverse(U.half()), NotImplementedError,
     "\"cholesky_inverse_out_cpu\" not implemented for 'Half'"),
    (lambda: torch.cholesky_inverse(torch.zeros(2, 2, 2)), torch.linalg.LinAlgError,
     "cholesky_inverse: (Batch element 0): The diagonal element 1 is zero, the inversion could "
     "not be completed because the input matrix is singular."),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors(index):
    call, kind, message = ERRORS[index]
    with raises(kind, message):
        call()
