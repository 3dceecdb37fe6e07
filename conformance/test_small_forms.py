"""Small forms torch accepts: copy_ from a number, subtract and multiply with a number first,
matrix transposes of a 0-d tensor; and diagonal refusing one dimension twice."""


import pytest
import torch

from conformance._support import raises
from conformance._warned import caught_always


@pytest.mark.parametrize("target, value, expected", [
    (torch.zeros(2), 3, [3.0, 3.0]),
    (torch.zeros(2), 3.5, [3.5, 3.5]),
    (torch.zeros(2, dtype=torch.int64), 2.7, [2, 2]),
    (torch.zeros(2, dtype=torch.float64), 0.1, [0.1, 0.1]),
    (torch.zeros(2, dtype=torch.bool), 1, [True, True]),
])
def test_copy_from_a_number_fills(target, value, expected):
    assert target.copy_(value).tolist() == expected
    assert target._version == 1


def test_copy_from_a_number_records_a_copy():
    x = torch.ones(2, requires_grad=True).clone()
    x.copy_(3)
    assert x.grad_fn.name() == "torch::autograd::CopyBackwards"
    with raises(TypeError, "copy_(): argument 'other' (position 1) must be Tensor, not str"):
        torch.zeros(2).copy_("a")


def test_subtract_and_multiply_take_a_number_first():
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    assert torch.subtract(3, t).tolist() == [2.0, 1.0]
    assert torch.multiply(3, t).tolist() == [3.0, 6.0]
    assert torch.subtract(3, t).grad_fn.name() == torch.sub(3, t).grad_fn.name()
    assert torch.subtract(t, 1, alpha=2).tolist() == [-1.0, 0.0]


@pytest.mark.parametrize("read, message", [
    (lambda x: x.mT, "Tensor.mT is deprecated on 0-D tensors. This function is the identity in "
                     "these cases."),
    (lambda x: x.mH, "Tensor.mH is deprecated on 0-D tensors. Consider using x.conj()."),
    (lambda x: x.H, "Tensor.H is deprecated on 0-D tensors. Consider using x.conj()."),
    (lambda x: x.adjoint(), "adjoint() is deprecated on 0-D tensors. Consider using x.conj()."),
])
def test_a_0d_tensor_is_its_own_matrix_transpose_with_a_warning(read, message):
    x = torch.tensor(5.0, requires_grad=True)
    with caught_always(torch) as caught:
        assert read(x) is x
    assert [str(w.message).split(" (Triggered")[0] for w in caught] == [message]


@pytest.mark.parametrize("dims, text", [((0, 0), "0, 0"), ((1, -1), "1, -1")])
def test_diagonal_refuses_one_dimension_twice(dims, text):
    with raises(RuntimeError, f"diagonal dimensions cannot be identical {text}"):
        torch.ones(2, 3).diagonal(0, *dims)
