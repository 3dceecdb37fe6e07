"""torch.linalg's functions read their arguments as torch's parser reads them."""

import numpy as np
import pytest
import torch

from conformance._support import raises

A = torch.eye(3, dtype=torch.float64) * 2


@pytest.mark.parametrize("call", [
    lambda: torch.linalg.cholesky(input=A), lambda: torch.linalg.eigvalsh(input=A),
    lambda: torch.linalg.matrix_norm(input=A), lambda: torch.linalg.vector_norm(input=A),
    lambda: torch.linalg.matrix_power(input=A, n=2), lambda: torch.linalg.lstsq(input=A, b=A),
    lambda: torch.linalg.pinv(x=A), lambda: torch.det(x=A), lambda: torch.linalg.eigh(a=A),
    lambda: torch.linalg.cholesky_ex(x1=A), lambda: torch.linalg.matrix_exp(input=A),
    lambda: torch.matrix_exp(a=A), lambda: torch.matrix_power(x=A, n=2),
    lambda: torch.linalg.ldl_factor(input=A), lambda: torch.linalg.cross(x1=A, x2=A),
    lambda: torch.linalg.tensorsolve(input=A, other=A[0]), lambda: torch.linalg.norm(A, axis=0),
    lambda: torch.linalg.matmul(input=A, other=A),
])
def test_torchs_names_and_numpys_are_taken(call):
    result = call()
    assert isinstance(result if isinstance(result, torch.Tensor) else result[0], torch.Tensor)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: torch.linalg.eigvalsh(A=A),
     'linalg_eigvalsh() missing 1 required positional arguments: "input"'),
    (lambda: torch.linalg.matrix_power(A=A, n=2),
     'linalg_matrix_power() missing 2 required positional argument: "input", "n"'),
    (lambda: torch.det(A=A), 'det() missing 1 required positional arguments: "input"'),
    (lambda: torch.linalg.det(input=A),
     'linalg_det() missing 1 required positional arguments: "A"'),
    (lambda: torch.linalg.vecdot(x1=A, x2=A),
     'linalg_vecdot() missing 2 required positional argument: "x", "y"'),
    (lambda: torch.linalg.det(A, foo=1), "linalg_det() got an unexpected keyword argument 'foo'"),
    (lambda: torch.linalg.det([[1.0, 2.0], [3.0, 4.0]]),
     "linalg_det(): argument 'A' (position 1) must be Tensor, not list"),
    (lambda: torch.linalg.det(np.eye(2)),
     "linalg_det(): argument 'A' (position 1) must be Tensor, not numpy.ndarray"),
    (lambda: torch.linalg.det(None),
     "linalg_det(): argument 'A' (position 1) must be Tensor, not NoneType"),
    (lambda: torch.linalg.eigh(A, UPLO=1), "linalg_eigh(): argument 'UPLO' must be str, not int"),
    (lambda: torch.linalg.qr(A, mode=1), "linalg_qr(): argument 'mode' must be str, not int"),
    (lambda: torch.linalg.multi_dot(torch.eye(2)),
     "linalg_multi_dot(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    (lambda: torch.linalg.multi_dot(None),
     "linalg_multi_dot(): argument 'tensors' (position 1) must be tuple of Tensors, not NoneType"),
    (lambda: torch.linalg.multi_dot([torch.eye(2), 3]),
     "expected Tensor as element 1 in argument 0, but got int"),
])
def test_torchs_parser_refuses_first(call, message):
    with raises(TypeError, message):
        call()


def test_an_int_may_come_as_a_tensor_or_a_numpy_int():
    assert torch.linalg.matrix_power(A, torch.tensor(2)).tolist() == (A @ A).tolist()
    assert torch.linalg.matrix_power(A, np.int64(2)).tolist() == (A @ A).tolist()


def test_a_dim_for_matrix_norm_must_be_a_tuple():
    with pytest.raises(TypeError) as caught:
        torch.linalg.matrix_norm(A, dim=0)
    assert str(caught.value).startswith(
        "linalg_matrix_norm() received an invalid combination of arguments - got (Tensor, "
        "dim=int), but expected one of:")


def test_vecdot_of_two_vectors_is_vdot():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert type(torch.linalg.vecdot(x, x).grad_fn).__name__ == "VdotBackward0"
    assert type(torch.linalg.vecdot(x, x.expand(2, 3)).grad_fn).__name__ == "SumBackward1"
    assert torch.linalg.vecdot(x, x, dim=1).item() == 14.0
    with raises(RuntimeError, "inconsistent tensor size, expected tensor [3] and src [1] to have "
                "the same number of elements, but got 3 and 1 elements respectively"):
        torch.linalg.vecdot(torch.ones(3), torch.ones(1))
