"""Tensor.grad_dtype: the dtype a leaf's gradient must have, and what it converts."""

import pytest
import torch

from conformance._support import raises

MISMATCH = ("attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. "
            "The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). "
            "You can set the tensor's grad_dtype attribute with a specific dtype, or None to "
            "allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor "
            "and its gradient may break downstream systems that assume they match.")


def test_by_default_the_tensor_dtype():
    assert torch.ones(2, requires_grad=True).grad_dtype is torch.float32
    assert torch.ones(2, dtype=torch.int64).grad_dtype is torch.int64


@pytest.mark.parametrize("grad, names", [
    (torch.ones(2, dtype=torch.float64), ("double", "Float")),
    (torch.ones(2, dtype=torch.int64), ("long int", "Float")),
    (torch.ones(2, dtype=torch.bool), ("bool", "Float")),
    (torch.ones(2, dtype=torch.uint8), ("unsigned char", "Float")),
])
def test_assigning_another_dtype_is_refused(grad, names):
    with raises(RuntimeError, MISMATCH.format(*names)):
        torch.ones(2, requires_grad=True).grad = grad


def test_a_set_grad_dtype_converts_what_backward_brings():
    w = torch.ones(2, requires_grad=True)
    w.grad_dtype = torch.float64
    (w * 3).sum().backward()
    assert w.grad.dtype == torch.float64 and w.grad.tolist() == [3.0, 3.0]
    (w * 3).sum().backward()
    assert w.grad.dtype == torch.float64 and w.grad.tolist() == [6.0, 6.0]
    assert torch.autograd.grad((w * 2).sum(), w)[0].dtype == torch.float64
    with raises(RuntimeError, MISMATCH.format("float", "Double")):
        w.grad = torch.ones(2)


def test_it_applies_to_a_graph_made_before_it_was_set():
    w = torch.ones(2, requires_grad=True)
    y = (w * 2).sum()
    w.grad_dtype = torch.float16
    y.backward()
    assert w.grad.dtype == torch.float16


def test_none_allows_any_dtype():
    w = torch.ones(2, requires_grad=True)
    w.grad_dtype = None
    assert w.grad_dtype is None
    w.grad = torch.ones(2, dtype=torch.float64)
    (w * 2).sum().backward()
    assert w.grad.dtype == torch.float64 and w.grad.tolist() == [3.0, 3.0]


def test_a_held_gradient_must_agree():
    w = torch.ones(2, requires_grad=True)
    w.grad = torch.ones(2)
    with raises(RuntimeError, "Cannot set grad_dtype to 'Double' because there is already a "
                              "gradient with dtype 'float'. Please clear the gradient (.grad = "
                              "None) before changing grad_dtype, or ensure the new grad_dtype "
                              "matches the existing gradient's dtype."):
        w.grad_dtype = torch.float64
    w.grad_dtype = torch.float32
    w.grad = None
    w.grad_dtype = torch.float64
    assert w.grad_dtype is torch.float64 and w.detach().grad_dtype is torch.float32


def test_only_leaves_have_one():
    y = torch.ones(2, requires_grad=True) * 2
    with raises(RuntimeError, "grad_dtype can only be accessed on leaf tensors."):
        y.grad_dtype  # noqa: B018
    y.retain_grad()
    with raises(RuntimeError, "grad_dtype can only be set on leaf tensors."):
        y.grad_dtype = torch.float64
    with raises(RuntimeError, "grad_dtype must be a torch.dtype or None, but got str"):
        y.grad_dtype = "float"
