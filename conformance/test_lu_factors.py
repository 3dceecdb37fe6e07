"""LU factors on torch's API: linalg.lu_factor(_ex), linalg.lu, lu_unpack, linalg.lu_solve.

The pivots and factors of the named matrices below are torch's (LAPACK's getrf with
partial pivoting, the first entry of largest magnitude on a tie); random matrices are
checked for what partial pivoting promises, and gradients with gradcheck.
"""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises
from conformance._warned import caught_always

RNG = np.random.default_rng(31)
# name: (matrix, pivots, info, LU), as LAPACK's getrf leaves them
FACTORED = {
    "cyclic": ([[1, 2, 3], [3, 1, 2], [2, 3, 1]], [2, 3, 3], 0,
               [[3, 1, 2], [2 / 3, 7 / 3, -1 / 3], [1 / 3, 5 / 7, 18 / 7]]),
    "no swaps": ([[1, 1, 1], [-1, 1, 2], [1, -1, 3]], [1, 2, 3], 0,
                 [[1, 1, 1], [-1, 2, 3], [1, -1, 5]]),
    "singular": ([[1, 1], [1, 1]], [1, 2], 2, [[1, 1], [1, 0]]),
    "four": ([[2, 1, 1, 0], [4, 3, 3, 1], [8, 7, 9, 5], [6, 7, 9, 8]], [3, 4, 4, 4], 0,
             [[8, 7, 9, 5], [0.75, 1.75, 2.25, 4.25], [0.5, -2 / 7, -6 / 7, -2 / 7],
              [0.25, -3 / 7, 1 / 3, 2 / 3]]),
    "zero column": ([[0, 1, 2], [0, 3, 4], [0, 5, 7]], [1, 3, 3], 1,
                    [[0, 1, 2], [0, 5, 7], [0, 0.6, -0.2]]),
    "tall, tied": ([[1, 2], [-3, 1], [3, 0], [2, 2]], [2, 4], 0,
                   [[-3, 1], [-2 / 3, 8 / 3], [-1, 0.375], [-1 / 3, 0.875]]),
    "wide": ([[1, -2, 3, 0], [2, 2, -1, 1]], [2, 2], 0, [[2, 2, -1, 1], [0.5, -3, 3.5, -0.5]]),
}


@pytest.mark.parametrize("name", FACTORED)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_lu_factor_ex_gives_lapacks_pivots(name, dtype):
    matrix, pivots, info, LU = FACTORED[name]
    result = torch.linalg.lu_factor_ex(torch.tensor(matrix, dtype=dtype))
    assert type(result).__name__ == "linalg_lu_factor_ex" and len(result) == 3
    assert result.pivots.dtype == result.info.dtype == torch.int32
    assert result.pivots.tolist() == pivots and result.info.item() == info
    assert result.LU.dtype == dtype and result.LU.stride() == (1, len(matrix))
    np.testing.assert_allclose(result.LU.numpy(), LU, atol=1e-6 if dtype == torch.float32
                               else 1e-15)


@pytest.mark.parametrize("shape", [(5, 5), (3, 6, 6), (7, 4), (2, 4, 7)])
def test_random_matrices_pivot_on_the_largest_entry(shape):
    a = RNG.uniform(-1.0, 1.0, shape)
    LU, pivots = torch.linalg.lu_factor(torch.tensor(a))
    P, L, U = torch.lu_unpack(LU, pivots)
    np.testing.assert_allclose((P @ L @ U).numpy(), a, atol=1e-14)
    assert (L.abs() <= 1).all()  # each pivot was the largest entry left in its column
    assert torch.equal(torch.linalg.lu(torch.tensor(a)).P, P)


def test_lu_returns_p_without_a_gradient():
    A = torch.tensor(FACTORED["cyclic"][0], dtype=torch.float64, requires_grad=True)
    result = torch.linalg.lu(A)
    assert type(result).__name__ == "linalg_lu"
    P, L, U = result
    assert P.grad_fn is None and not P.requires_grad
    assert L.grad_fn is U.grad_fn and L.grad_fn.name() == "LinalgLuBackward0"
    assert sorted(n for n in dir(L.grad_fn) if n.startswith("_saved_")) == [
        "_saved_L", "_saved_P", "_saved_U", "_saved_pivot"]
    assert P.stride() == L.stride() == U.stride() == (3, 1)
    assert P.tolist() == [[0, 0, 1], [1, 0, 0], [0, 1, 0]]


def test_lu_factor_node():
    A = torch.tensor(FACTORED["four"][0], dtype=torch.float64, requires_grad=True)
    result = torch.linalg.lu_factor(A)
    assert type(result).__name__ == "linalg_lu_factor"
    LU, pivots = result
    assert not pivots.requires_grad and LU.grad_fn.name() == "LinalgLuFactorExBackward0"
    node = LU.grad_fn
    assert sorted(n for n in dir(node) if n.startswith("_saved_")) == [
        "_saved_LU", "_saved_pivot", "_saved_pivots"]
    assert node._saved_pivot is True and torch.equal(node._saved_pivots, pivots)


def test_lu_unpack_node_and_empty_parts():
    LU, pivots = torch.linalg.lu_factor(torch.tensor(FACTORED["wide"][0], dtype=torch.float64))
    LU.requires_grad_()
    result = torch.lu_unpack(LU, pivots)
    assert type(result).__name__ == "lu_unpack"
    node = result.L.grad_fn
    assert node.name() == "LuUnpackBackward0" and result.P.grad_fn is None
    assert (node._saved_LU_data_sym_argsize_minus_2, node._saved_LU_data_sym_argsize_minus_1) == (
        2, 4)
    assert result.L.shape == (2, 2) and result.U.shape == (2, 4)
    P, L, U = torch.lu_unpack(LU, pivots, unpack_data=False)
    assert L.shape == U.shape == (0,) and L.grad_fn is not None and P.shape == (2, 2)
    P, L, U = torch.lu_unpack(LU, pivots, unpack_pivots=False)
    assert P.shape == (0,) and L.shape == (2, 2)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_lu_solve_values(left, adjoint):
    a = RNG.uniform(-1.0, 1.0, (2, 3, 3))
    b = RNG.uniform(-1.0, 1.0, (4, 1, 3, 2) if left else (4, 1, 2, 3))
    LU, pivots = torch.linalg.lu_factor(torch.tensor(a))
    X = torch.linalg.lu_solve(LU, pivots, torch.tensor(b), left=left, adjoint=adjoint)
    op = a.swapaxes(-1, -2) if adjoint else a
    if left:
        expected = np.linalg.solve(op, b)
    else:
        expected = np.linalg.solve(op.swapaxes(-1, -2), b.swapaxes(-1, -2)).swapaxes(-1, -2)
    assert X.shape == expected.shape
    assert X.stride() == ((12, 6, 1, 3) if left else (12, 6, 3, 1))
    np.testing.assert_allclose(X.numpy(), expected, atol=1e-12)


def test_lu_solve_node():
    LU, pivots = torch.linalg.lu_factor(torch.tensor(FACTORED["cyclic"][0], dtype=torch.float64))
    LU.requires_grad_()
    X = torch.linalg.lu_solve(LU, pivots, torch.ones(3, 1, dtype=torch.float64), adjoint=True)
    node = X.grad_fn
    assert node.name() == "LinalgLuSolveBackward0" and len(node.next_functions) == 2
    assert sorted(n for n in dir(node) if n.startswith("_saved_")) == [
        "_saved_LU", "_saved_adjoint", "_saved_left", "_saved_pivots", "_saved_result"]
    assert (node._saved_left, node._saved_adjoint) == (True, True)


def test_saved_tensors_in_torchs_order():
    shapes = []
    A = torch.tensor(FACTORED["tall, tied"][0], dtype=torch.float64, requires_grad=True)
    B = torch.ones(2, 5, dtype=torch.float64, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(
            lambda t: shapes.append((tuple(t.shape), str(t.dtype))) or t, lambda t: t):
        torch.linalg.lu(A)
        LU, pivots = torch.linalg.lu_factor(A[:2])
        torch.linalg.lu_solve(LU, pivots, B)
    double, integer = "torch.float64", "torch.int32"
    assert shapes == [((4, 2), double), ((4, 4), double), ((2, 2), double),
                      ((2, 2), double), ((2,), integer),
                      ((2, 2), double), ((2,), integer), ((2, 5), double)]


def _square(x):
    return x @ x.mT + 2 * torch.eye(x.shape[-1], dtype=x.dtype)


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (4, 2), (2, 4)])
def test_gradients_of_the_factors(shape):
    a = torch.tensor(RNG.uniform(-1.0, 1.0, shape), requires_grad=True)
    assert torch.autograd.gradcheck(lambda x: tuple(torch.linalg.lu(x))[1:], (a,))
    assert torch.autograd.gradgradcheck(lambda x: tuple(torch.linalg.lu(x))[1:], (a,))
    assert torch.autograd.gradcheck(lambda x: torch.linalg.lu_factor(x).LU, (a,))
    pivots = torch.linalg.lu_factor(a.detach()).pivots
    assert torch.autograd.gradcheck(lambda x: tuple(torch.lu_unpack(x, pivots))[1:], (a,))


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_lu_solve_gradients(left, adjoint):
    a = torch.tensor(RNG.uniform(-1.0, 1.0, (3, 3)) + 3 * np.eye(3), requires_grad=True)
    LU, pivots = torch.linalg.lu_factor(a.detach())
    LU.requires_grad_()
    b = torch.tensor(RNG.uniform(-1.0, 1.0, (2, 3, 2) if left else (2, 2, 3)),
                     requires_grad=True)

    def solve(lu, x):
        return torch.linalg.lu_solve(lu, pivots, x, left=left, adjoint=adjoint)

    assert torch.autograd.gradcheck(solve, (LU, b))
    assert torch.autograd.gradgradcheck(solve, (LU, b))
    # Through lu_factor, the gradient for A is that of linalg.solve.
    b.grad = None
    torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b.detach(), left=left,
                          adjoint=adjoint).sum().backward()
    expected = torch.tensor(a.detach().numpy(), requires_grad=True)
    torch.linalg.solve(expected.mT if adjoint else expected, b.detach(), left=left).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), expected.grad.numpy(), atol=1e-12)


LU3, PIVOTS3 = torch.ones(3, 3), torch.tensor([1, 2, 3], dtype=torch.int32)
ERRORS = [
    (lambda: torch.linalg.lu_factor(torch.ones(3)), RuntimeError,
     "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead"),
    (lambda: torch.linalg.lu(torch.ones(3)), RuntimeError,
     "linalg.lu: Expected tensor with 2 or more dimensions. Got size: [3] instead"),
    (lambda: torch.linalg.lu_factor(torch.ones(3, 3).int()), NotImplementedError,
     "\"lu_cpu\" not implemented for 'Int'"),
    (lambda: torch.linalg.lu(torch.ones(3, 3).half()), NotImplementedError,
     "\"lu_cpu\" not implemented for 'Half'"),
    (lambda: torch.linalg.lu_factor(torch.ones(3, 3), pivot=False), RuntimeError,
     "linalg.lu_factor: LU without pivoting is not implemented on the CPU"),
    (lambda: torch.linalg.lu_factor(torch.zeros(3, 3)), RuntimeError,
     "torch.linalg.lu_factor: U[1,1] is zero and using it on lu_solve would result in a "
     "division by zero. If you still want to perform the factorization, consider calling "
     "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"),
    (lambda: torch.linalg.lu_factor_ex(torch.eye(3).expand(2, 3, 3) * torch.tensor(
        [1.0, 0.0]).reshape(2, 1, 1), check_errors=True), RuntimeError,
     "torch.linalg.lu_factor_ex: (Batch element 1): U[1,1] is zero and using it on lu_solve "
     "would result in a division by zero. If you still want to perform the factorization, "
     "consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"),
    (lambda: torch.linalg.lu_solve(LU3, PIVOTS3, torch.ones(2, 2)), RuntimeError,
     "linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x2)"),
    (lambda: torch.linalg.lu_solve(LU3, PIVOTS3.long(), torch.ones(3, 2)), RuntimeError,
     "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32"),
    (lambda: torch.linalg.lu_solve(LU3, PIVOTS3, torch.ones(3, 2).double()), RuntimeError,
     "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type Float "
     "and B of type Double instead"),
    (lambda: torch.linalg.lu_solve(LU3, PIVOTS3, torch.ones(3)), RuntimeError,
     "linalg.lu_solve: The input tensor B must have at least 2 dimensions."),
    (lambda: torch.linalg.lu_solve(torch.ones(2, 3), PIVOTS3, torch.ones(3, 2)), RuntimeError,
     "torch.linalg.lu_solve: A must be batches of square matrices, but they are 2 by 3 "
     "matrices"),
    (lambda: torch.linalg.lu_solve(LU3, PIVOTS3[:2], torch.ones(3, 2)), RuntimeError,
     "linalg.lu_solve: Number of pivots per batch should be same as the dimension of the "
     "matrix"),
    (lambda: torch.lu_unpack(LU3, PIVOTS3.long()), RuntimeError,
     "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype."
     "\nNote: this function is intended to be used with the output produced by "
     "torch.linalg.lu_factor"),
    (lambda: torch.linalg.lu_factor(torch.ones(3, 3), pivot=1), TypeError,
     "linalg_lu_factor(): argument 'pivot' must be bool, not int"),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors(index):
    call, kind, message = ERRORS[index]
    with raises(kind, message):
        call()


# --- the older torch.lu and torch.lu_solve


def _quietly(function, *args, **kwargs):
    with warnings.catch_warnings():  # deprecated, and warned once per process
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_torch_lu_is_lu_factor_ex():
    A = torch.tensor(FACTORED["cyclic"][0], dtype=torch.float64, requires_grad=True)
    result = _quietly(torch.lu, A)
    assert type(result) is tuple and len(result) == 2
    assert result[0].grad_fn.name() == "LinalgLuFactorExBackward0"
    assert result[1].tolist() == [2, 3, 3]
    singular = _quietly(torch.lu, torch.ones(2, 2), get_infos=True)
    assert type(singular).__name__ == "_lu_with_info" and singular.info.item() == 2
    assert _quietly(torch.Tensor.lu, torch.ones(2, 2))[1].tolist() == [1, 2]


def test_torch_lu_solve_takes_b_first():
    a = RNG.uniform(-1.0, 1.0, (3, 3))
    LU, pivots = torch.linalg.lu_factor(torch.tensor(a))
    b = torch.ones(3, 2, dtype=torch.float64)
    X = _quietly(torch.lu_solve, b, LU, pivots)
    np.testing.assert_allclose(X.numpy(), np.linalg.solve(a, np.ones((3, 2))), atol=1e-12)
    assert torch.equal(_quietly(b.lu_solve, LU, pivots), X)


@pytest.mark.parametrize("call, start", [
    (lambda: torch.lu(torch.eye(2)), "torch.lu is deprecated in favor of torch.linalg.lu_factor "
     "/ torch.linalg.lu_factor_ex and will be removed in a future PyTorch release.\nLU, pivots "
     "= torch.lu(A, compute_pivots)\nshould be replaced with\n"),
    (lambda: torch.lu_solve(torch.ones(2, 1), *torch.linalg.lu_factor(torch.eye(2))),
     "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
     "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
     "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, "
     "pivots, B)"),
])
def test_the_older_functions_warn(call, start):
    with caught_always(torch) as caught:
        call()
    assert [w.category for w in caught] == [UserWarning]
    assert str(caught[0].message).startswith(start)
