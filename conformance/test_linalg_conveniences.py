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
