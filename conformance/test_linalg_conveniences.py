"""torch.linalg.diagonal and torch.linalg.vander, on torch's API."""

import numpy as np
import pytest
import torch

from conformance._support import raises


def test_vander_values_dtype_and_node():
    x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    V = torch.linalg.vander(x)
    assert V.grad_fn.name() == "CatBackward0" and V.stride() == (3, 1)
    np.testing.assert_array_equal(V.detach().numpy(), np.vander([1.0, 2.0, 3.0],
                                                                increasing=True))
    assert torch.linalg.vander(x, N=5).shape == (3, 5)
    assert torch.linalg.vander(torch.tensor([1, 2], dtype=torch.uint8)).dtype == torch.int64
    assert torch.linalg.vander(torch.ones(2, 3), N=2).shape == (2, 3, 2)
    assert torch.autograd.gradcheck(lambda t: torch.linalg.vander(t, N=4), (x,))
    assert torch.autograd.gradgradcheck(lambda t: torch.linalg.vander(t, N=4), (x,))


def test_diagonal_is_a_view_of_the_last_two_dimensions():
    A = torch.arange(24.0).reshape(2, 3, 4).clone().requires_grad_()
    d = torch.linalg.diagonal(A)
    assert d.grad_fn.name() == "DiagonalBackward0" and d._base is A
    assert d.tolist() == [[0.0, 5.0, 10.0], [12.0, 17.0, 22.0]]
    assert torch.linalg.diagonal(A, offset=1, dim1=0, dim2=2).tolist() == [
        [1.0, 14.0], [5.0, 18.0], [9.0, 22.0]]


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.linalg.vander(torch.ones(3), N=1), RuntimeError, "N must be greater than 1."),
    (lambda: torch.linalg.vander(torch.tensor(2.0)), RuntimeError, "N must be greater than 1."),
    (lambda: torch.linalg.vander(torch.tensor([True])), RuntimeError,
     "linalg.vander supports floating point, complex, and integer tensors, but got Bool"),
    (lambda: torch.linalg.vander(torch.ones(2).half()), RuntimeError,
     "linalg.vander supports floating point, complex, and integer tensors, but got Half"),
    (lambda: torch.linalg.vander(torch.ones(3), 3), TypeError,
     "linalg_vander() takes 1 positional argument but 2 were given"),
    (lambda: torch.linalg.diagonal(torch.ones(3)), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got -2)"),
    (lambda: torch.linalg.diagonal(torch.ones(3, 3), 1), TypeError,
     "linalg_diagonal() takes 1 positional argument but 2 were given"),
])
def test_errors(call, kind, message):
    with raises(kind, message):
        call()


# --- linalg.cond

MATRIX = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.5, 1.0, 4.0]])
ORDERS = [(None, "SqueezeBackward1"), (2, "SqueezeBackward1"), (-2, "SqueezeBackward1"),
          ("fro", "NanToNumBackward0"), ("nuc", "MulBackward0"),
          (float("inf"), "NanToNumBackward0"), (float("-inf"), "NanToNumBackward0"),
          (1, "NanToNumBackward0"), (-1, "NanToNumBackward0")]


@pytest.mark.parametrize("p, node", ORDERS)
def test_cond_values_and_nodes(p, node):
    A = torch.tensor(MATRIX, requires_grad=True)
    c = torch.linalg.cond(A, p)
    assert c.shape == () and c.dtype == torch.float64 and c.grad_fn.name() == node
    np.testing.assert_allclose(c.item(), np.linalg.cond(MATRIX, p), rtol=1e-12)
    if node != "NanToNumBackward0":
        assert torch.autograd.gradcheck(lambda x: torch.linalg.cond(x, p), (A,))
        return
    # the inverse was filled in place after inv_ex saved it
    with raises(RuntimeError, "one of the variables needed for gradient computation has been "
                "modified by an inplace operation: [torch.DoubleTensor [3, 3]], which is output "
                "0 of LinalgInvEx, is at version 1; expected version 0 instead. Hint: enable "
                "anomaly detection to find the operation that failed to compute its gradient, "
                "with torch.autograd.set_detect_anomaly(True, check_nan=False)."):
        c.backward()


@pytest.mark.parametrize("p", [1, "fro", float("inf")])
def test_cond_of_a_singular_matrix_is_infinite(p):
    c = torch.linalg.cond(torch.tensor([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]]],
                                       dtype=torch.float64), p)
    assert c[0].item() == float("inf") and c[1].item() == pytest.approx(
        np.linalg.cond(np.diag([1.0, 2.0]), p))


def test_cond_of_empty_and_rectangular_matrices():
    assert torch.linalg.cond(torch.zeros(2, 0, 0), 1).tolist() == [0.0, 0.0]
    np.testing.assert_allclose(torch.linalg.cond(torch.tensor(MATRIX[:2])).item(),
                               np.linalg.cond(MATRIX[:2]), rtol=1e-12)


@pytest.mark.parametrize("p, shown", [(1, "1"), (-1, "-1"), (1.0, "1.000000"),
                                      (float("inf"), "inf"), (float("-inf"), "-inf"),
                                      ("nuc", "nuc"), ("fro", "fro"), ("foo", "foo")])
def test_cond_of_a_rectangular_matrix_needs_the_2_norm(p, shown):
    with raises(RuntimeError, f"linalg.cond(ord={shown}): A must be batches of square "
                "matrices, but they are 3 by 4 matrices"):
        torch.linalg.cond(torch.ones(3, 4), p)


@pytest.mark.parametrize("call, message", [
    (lambda: torch.linalg.cond(torch.ones(3)),
     "linalg.cond: The input tensor must have at least 2 dimensions."),
    (lambda: torch.linalg.cond(torch.eye(3), 3), "linalg.cond got an invalid norm type: 3"),
    (lambda: torch.linalg.cond(torch.eye(3), "foo"), "linalg.cond got an invalid norm type: foo"),
    (lambda: torch.linalg.cond(torch.ones(3, 3).int(), 1),
     "linalg.inv: Expected a floating point or complex tensor as input. Got Int"),
])
def test_cond_errors(call, message):
    with raises(RuntimeError, message):
        call()


# --- linalg.tensorinv and linalg.tensorsolve

RNG = np.random.default_rng(41)


def test_tensorinv_values_and_gradient():
    a = RNG.uniform(-1.0, 1.0, (4, 6, 8, 3)).reshape(24, 24) + 5 * np.eye(24)
    a = a.reshape(4, 6, 8, 3)
    inverse = torch.linalg.tensorinv(torch.tensor(a), ind=2)
    assert inverse.shape == (8, 3, 4, 6)
    np.testing.assert_allclose(inverse.numpy(), np.linalg.tensorinv(a, ind=2), atol=1e-12)
    small = torch.tensor(a[:2, :2, :2, :2].reshape(4, 4) + 3 * np.eye(4)).reshape(2, 2, 2, 2)
    small.requires_grad_()
    assert torch.autograd.gradcheck(lambda x: torch.linalg.tensorinv(x), (small,))


def test_tensorsolve_values_node_and_gradient():
    a = (RNG.uniform(-1.0, 1.0, (6, 6)) + 4 * np.eye(6)).reshape(2, 3, 6)
    b = RNG.uniform(-1.0, 1.0, (2, 3))
    A = torch.tensor(a, requires_grad=True)
    B = torch.tensor(b, requires_grad=True)
    X = torch.linalg.tensorsolve(A, B)
    assert X.shape == (6,) and X.grad_fn.name() == "ViewBackward0"
    np.testing.assert_allclose(X.detach().numpy(), np.linalg.tensorsolve(a, b), atol=1e-12)
    assert torch.autograd.gradcheck(torch.linalg.tensorsolve, (A, B))
    moved = np.moveaxis(a.reshape(6, 2, 3), 0, -1)  # the rows last: dims=(0, 1) moves the others
    np.testing.assert_allclose(
        torch.linalg.tensorsolve(torch.tensor(moved), torch.tensor(b.reshape(6)),
                                 dims=(0, 1)).numpy(),
        np.linalg.tensorsolve(a.reshape(6, 2, 3), b.reshape(6)), atol=1e-12)


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.linalg.tensorinv(torch.ones(4, 6, 8, 3), ind=0), RuntimeError,
     "Expected a strictly positive integer for 'ind', but got 0"),
    (lambda: torch.linalg.tensorinv(torch.ones(4, 6, 8, 2)), RuntimeError,
     "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
     "prod(self.shape[:ind]), but got 16 != 24"),
    (lambda: torch.linalg.tensorinv(torch.ones(4, 6, 8, 3).int()), RuntimeError,
     "linalg.inv: Expected a floating point or complex tensor as input. Got Int"),
    (lambda: torch.linalg.tensorinv(torch.zeros(2, 2), ind=1), torch.linalg.LinAlgError,
     "inv: The diagonal element 1 is zero, the inversion could not be completed because the "
     "input matrix is singular."),
    (lambda: torch.linalg.tensorinv(torch.eye(4).reshape(2, 2, 4), 1.5), TypeError,
     "linalg_tensorinv(): argument 'ind' (position 2) must be int, not float"),
    (lambda: torch.linalg.tensorsolve(torch.eye(6).reshape(6, 2, 3), torch.ones(6), dims=(0,)),
     RuntimeError, "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
     "prod(self.shape[:other.ndim]), but got 18 != 6"),
    (lambda: torch.linalg.tensorsolve(torch.ones(2, 3, 6), torch.ones(2, 2)), RuntimeError,
     "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
     "prod(self.shape[:other.ndim]), but got 6 != 4"),
    (lambda: torch.linalg.tensorsolve(torch.zeros(2, 2), torch.ones(2)),
     torch.linalg.LinAlgError,
     "torch.linalg.solve: The solver failed because the input matrix is singular."),
])
def test_tensor_errors(call, kind, message):
    with raises(kind, message):
        call()
