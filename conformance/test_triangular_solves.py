"""Triangular solves, on torch's API: linalg.solve_triangular and torch.triangular_solve.

Values are checked against NumPy's general solver applied to the triangle that is read,
gradients against finite differences of that same NumPy solve.
"""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import numeric_gradient, raises
from conformance._warned import caught_always

RNG = np.random.default_rng(29)
SQUARE = RNG.uniform(-1.0, 1.0, (3, 3)) + 3 * np.eye(3)
BATCH = RNG.uniform(-1.0, 1.0, (2, 3, 3)) + 3 * np.eye(3)
RHS = RNG.uniform(-1.0, 1.0, (3, 2))
TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-12}


def _triangle(a, upper, unitriangular=False):
    n = a.shape[-1]
    t = np.triu(a) if upper else np.tril(a)
    return t * (1 - np.eye(n)) + np.eye(n) if unitriangular else t


def _expected(a, b, upper, left=True, unitriangular=False):
    t = _triangle(a, upper, unitriangular)
    if not left:  # X A = B is Aᵀ Xᵀ = Bᵀ
        t, b = t.swapaxes(-1, -2), b.swapaxes(-1, -2)
    batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    x = np.linalg.solve(np.broadcast_to(t, batch + t.shape[-2:]),
                        np.broadcast_to(b, batch + b.shape[-2:]))
    return x if left else x.swapaxes(-1, -2)


def _quiet_triangular_solve(*args, **kwargs):
    with warnings.catch_warnings():  # deprecated, and warned once per process
        warnings.simplefilter("ignore")
        return torch.triangular_solve(*args, **kwargs)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_solve_triangular_reads_only_its_triangle(dtype, upper, unitriangular):
    A = torch.tensor(SQUARE, dtype=dtype)
    X = torch.linalg.solve_triangular(A, torch.tensor(RHS, dtype=dtype), upper=upper,
                                      unitriangular=unitriangular)
    assert X.dtype == dtype and X.shape == (3, 2)
    assert X.stride() == (1, 3)  # laid out by columns, as LAPACK leaves it
    np.testing.assert_allclose(X.numpy(), _expected(SQUARE, RHS, upper, True, unitriangular),
                               rtol=TOLERANCE[dtype] * 10, atol=TOLERANCE[dtype] * 10)


@pytest.mark.parametrize("upper", [True, False])
def test_solve_triangular_on_the_right_and_in_batches(upper):
    b = RNG.uniform(-1.0, 1.0, (4, 1, 2, 3))
    X = torch.linalg.solve_triangular(torch.tensor(BATCH), torch.tensor(b), upper=upper,
                                      left=False)
    assert X.shape == (4, 2, 2, 3) and X.stride() == (12, 6, 1, 2)
    np.testing.assert_allclose(X.numpy(), _expected(BATCH, b, upper, left=False), atol=1e-12)


def test_b_is_solved_in_the_dtype_of_a():
    A = torch.tensor(SQUARE, dtype=torch.float32, requires_grad=True)
    B = torch.ones(3, 1, dtype=torch.float64, requires_grad=True)
    X = torch.linalg.solve_triangular(A, B, upper=True)
    assert X.dtype == torch.float32
    assert [type(n).__name__ for n, _ in X.grad_fn.next_functions] == ["AccumulateGrad"] * 2
    X.sum().backward()
    assert A.grad.dtype == torch.float32 and B.grad.dtype == torch.float64
    assert torch.linalg.solve_triangular(A.detach().double(), torch.ones(3, 1).int(),
                                         upper=True).dtype == torch.float64


def test_a_zero_on_the_diagonal_gives_infinities():
    A = torch.tensor([[1.0, 2.0], [0.0, 0.0]])
    X = torch.linalg.solve_triangular(A, torch.ones(2, 1), upper=True)
    assert X.flatten().tolist() == [float("-inf"), float("inf")]
    assert _quiet_triangular_solve(torch.ones(2, 1), A).solution.flatten().tolist() == [
        float("-inf"), float("inf")]


def test_empty_matrices():
    assert torch.linalg.solve_triangular(torch.ones(2, 0, 0), torch.ones(0, 3),
                                         upper=True).shape == (2, 0, 3)
    assert _quiet_triangular_solve(torch.ones(0, 3), torch.ones(2, 0, 0)).solution.shape == (
        2, 0, 3)


A2, B2, A3 = torch.ones(3, 3), torch.ones(3, 2), torch.ones(2, 3, 3)
SOLVE_TRIANGULAR_ERRORS = [
    (lambda: torch.linalg.solve_triangular(torch.ones(3), B2, upper=True), RuntimeError,
     "linalg.solve_triangular: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.linalg.solve_triangular(torch.ones(3, 2).int(), B2, upper=True), RuntimeError,
     "linalg.solve_triangular: A must be batches of square matrices, but they are 3 by 2 "
     "matrices"),
    (lambda: torch.linalg.solve_triangular(A2, torch.ones(3), upper=True), RuntimeError,
     "linalg.solve_triangular: The input tensor B must have at least 2 dimensions."),
    (lambda: torch.linalg.solve_triangular(A2.int(), torch.ones(2, 2), upper=True),
     RuntimeError, "linalg.solve_triangular: Incompatible shapes of A and B for the equation "
     "AX = B (3x3 and 2x2)"),
    (lambda: torch.linalg.solve_triangular(A2, torch.ones(2, 2), upper=True, left=False),
     RuntimeError, "linalg.solve_triangular: Incompatible shapes of A and B for the equation "
     "XA = B (3x3 and 2x2)"),
    (lambda: torch.linalg.solve_triangular(A3, torch.ones(3, 3, 2), upper=True), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
     "dimension 0"),
    (lambda: torch.linalg.solve_triangular(A2.int(), B2, upper=True), NotImplementedError,
     "\"triangular_solve_cpu\" not implemented for 'Int'"),
    (lambda: torch.linalg.solve_triangular(A2.half(), B2, upper=True), NotImplementedError,
     "\"triangular_solve_cpu\" not implemented for 'Half'"),
    (lambda: torch.linalg.solve_triangular(A2, B2), TypeError,
     "linalg_solve_triangular() missing 1 required positional arguments: \"upper\""),
    (lambda: torch.linalg.solve_triangular(A2, B2, upper=1), TypeError,
     "linalg_solve_triangular(): argument 'upper' must be bool, not int"),
    (lambda: torch.linalg.solve_triangular(A2, 3, upper=True), TypeError,
     "linalg_solve_triangular(): argument 'B' (position 2) must be Tensor, not int"),
]
TRIANGULAR_SOLVE_ERRORS = [
    (lambda: torch.triangular_solve(torch.ones(3), torch.ones(2)), RuntimeError,
     "torch.triangular_solve: Expected b to have at least 2 dimensions, but it has 1 "
     "dimensions instead"),
    (lambda: torch.triangular_solve(B2, torch.ones(3)), RuntimeError,
     "torch.triangular_solve: Expected A to have at least 2 dimensions, but it has 1 "
     "dimensions instead"),
    (lambda: torch.triangular_solve(B2.double(), torch.ones(2, 3)), RuntimeError,
     "Expected b and A to have the same dtype, but found b of type Double and A of type Float "
     "instead."),
    (lambda: torch.triangular_solve(B2.half(), torch.ones(2, 3).half()), RuntimeError,
     "A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: torch.triangular_solve(torch.ones(2, 2), A2), RuntimeError,
     "Incompatible matrix sizes for triangular_solve: each A matrix is 3 by 3 but each b "
     "matrix is 2 by 2"),
    (lambda: torch.triangular_solve(torch.ones(2, 3, 2), torch.ones(3, 3, 3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
     "dimension 0"),
    (lambda: torch.triangular_solve(B2.int(), A2.int()), NotImplementedError,
     "\"triangular_solve_cpu\" not implemented for 'Int'"),
    (lambda: torch.triangular_solve(B2, A2, upper=1), TypeError,
     "triangular_solve(): argument 'upper' must be bool, not int"),
    (lambda: B2.triangular_solve(3), TypeError,
     "triangular_solve(): argument 'A' (position 1) must be Tensor, not int"),
]


@pytest.mark.parametrize("index", range(len(SOLVE_TRIANGULAR_ERRORS)))
def test_solve_triangular_errors(index):
    call, kind, message = SOLVE_TRIANGULAR_ERRORS[index]
    with raises(kind, message):
        call()


@pytest.mark.parametrize("index", range(len(TRIANGULAR_SOLVE_ERRORS)))
def test_triangular_solve_errors(index):
    call, kind, message = TRIANGULAR_SOLVE_ERRORS[index]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(kind, message):
            call()


# --- the graph and the gradients


def _leaf(values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def test_solve_triangular_node():
    A, B = _leaf(SQUARE), _leaf(RHS)
    X = torch.linalg.solve_triangular(A, B, upper=False, left=True, unitriangular=True)
    node = X.grad_fn
    assert node.name() == "LinalgSolveTriangularBackward0"
    assert sorted(n for n in dir(node) if n.startswith("_saved_")) == [
        "_saved_left", "_saved_result", "_saved_self", "_saved_unitriangular", "_saved_upper"]
    assert (node._saved_left, node._saved_upper, node._saved_unitriangular) == (
        True, False, True)
    assert torch.equal(node._saved_self, A) and torch.equal(node._saved_result, X)


def test_triangular_solve_node_and_result():
    A, b = _leaf(SQUARE), _leaf(RHS)
    result = _quiet_triangular_solve(b, A, upper=False, transpose=True)
    assert type(result).__name__ == "triangular_solve"
    solution, coefficient = result
    assert result.solution is solution and result.cloned_coefficient is coefficient
    node = solution.grad_fn
    assert node is coefficient.grad_fn and node.name() == "TriangularSolveBackward0"
    assert sorted(n for n in dir(node) if n.startswith("_saved_")) == [
        "_saved_A", "_saved_self", "_saved_solution", "_saved_transpose",
        "_saved_unitriangular", "_saved_upper"]
    assert (node._saved_transpose, node._saved_upper, node._saved_unitriangular) == (
        True, False, False)
    np.testing.assert_allclose(solution.detach().numpy(),
                               np.linalg.solve(np.tril(SQUARE).T, RHS), atol=1e-12)
    assert torch.equal(coefficient, A) and coefficient.data_ptr() != A.data_ptr()
    assert solution.stride() == coefficient.stride() == (1, 3)


def test_triangular_solve_copies_a_to_the_batch():
    b = torch.tensor(RNG.uniform(-1.0, 1.0, (2, 3, 4)))
    solution, coefficient = _quiet_triangular_solve(b, torch.tensor(SQUARE))
    assert coefficient.shape == (2, 3, 3) and coefficient.stride() == (9, 1, 3)
    assert solution.shape == (2, 3, 4) and solution.stride() == (12, 1, 3)
    np.testing.assert_allclose(solution.numpy(), _expected(SQUARE, b.numpy(), True),
                               atol=1e-12)


def test_saved_tensors_in_torchs_order():
    packed = []
    A = _leaf(3 * np.eye(3))
    b = _leaf(np.ones((3, 4)))
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(float(t.sum())) or t,
                                                  lambda t: t):
        torch.linalg.solve_triangular(A, b, upper=True)
        _quiet_triangular_solve(b, A)
    assert packed == [9.0, 4.0, 9.0, 12.0, 4.0]


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_solve_triangular_gradients_are_finite_differences(upper, left, unitriangular):
    b = RNG.uniform(-1.0, 1.0, (3, 3))
    weights = RNG.uniform(-1.0, 1.0, (2, 3, 3))
    A, B = _leaf(BATCH), _leaf(b)
    X = torch.linalg.solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)
    (X * torch.tensor(weights)).sum().backward()

    def loss(a, b):
        return float((_expected(a, b, upper, left, unitriangular) * weights).sum())

    np.testing.assert_allclose(A.grad.numpy(), numeric_gradient(lambda a: loss(a, b), BATCH),
                               atol=1e-7)
    np.testing.assert_allclose(B.grad.numpy(), numeric_gradient(lambda x: loss(BATCH, x), b),
                               atol=1e-7)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
def test_triangular_solve_gradients_are_finite_differences(upper, transpose):
    weights, cloned = RNG.uniform(-1.0, 1.0, (3, 2)), RNG.uniform(-1.0, 1.0, (3, 3))
    A, b = _leaf(SQUARE), _leaf(RHS)
    solution, coefficient = _quiet_triangular_solve(b, A, upper=upper, transpose=transpose)
    ((solution * torch.tensor(weights)).sum() + (coefficient * torch.tensor(cloned)).sum()
     ).backward()

    def loss(a, x):
        t = _triangle(a, upper)
        return float((np.linalg.solve(t.T if transpose else t, x) * weights).sum()
                     + (a * cloned).sum())

    np.testing.assert_allclose(A.grad.numpy(), numeric_gradient(lambda a: loss(a, RHS), SQUARE),
                               atol=1e-7)
    np.testing.assert_allclose(b.grad.numpy(), numeric_gradient(lambda x: loss(SQUARE, x), RHS),
                               atol=1e-7)


def test_second_derivatives():
    A, B = _leaf(SQUARE), _leaf(RHS)
    assert torch.autograd.gradgradcheck(
        lambda a, b: torch.linalg.solve_triangular(a, b, upper=True, left=True), (A, B))
    assert torch.autograd.gradgradcheck(
        lambda a, b: tuple(_quiet_triangular_solve(b, a, upper=False, transpose=True)), (A, B))


def test_the_deprecation_warning_points_at_the_caller():
    with caught_always(torch) as caught:
        torch.triangular_solve(torch.ones(2, 1), torch.eye(2))
    assert [w.category for w in caught] == [UserWarning]
    assert str(caught[0].message).startswith(
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will "
        "be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its "
        "arguments reversed and does not return a copy of one of the inputs.\nX = "
        "torch.triangular_solve(B, A).solution\nshould be replaced with\nX = "
        "torch.linalg.solve_triangular(A, B).")
    assert caught[0].filename == __file__
