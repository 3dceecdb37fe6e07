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
