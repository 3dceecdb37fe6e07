"""A tensor's read-only attributes refuse assignment and del in torch's words."""

import pytest
import torch

from conformance._support import raises

READ_ONLY = ["grad_fn", "is_leaf", "retains_grad", "output_nr", "_version", "shape", "ndim",
             "dtype", "device", "is_cuda"]


@pytest.mark.parametrize("attribute", READ_ONLY)
def test_assigning_or_deleting_a_read_only_attribute_is_refused(attribute):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    m = a * 2
    before = getattr(m, attribute)
    message = f"attribute '{attribute}' of 'torch._C.TensorBase' objects is not writable"
    with raises(AttributeError, message):
        setattr(m, attribute, None)
    with raises(AttributeError, message):
        delattr(m, attribute)
    assert getattr(m, attribute) == before


VIEWS_AND_SIZES = ["T", "mT", "H", "mH", "is_cpu", "itemsize", "nbytes", "layout", "is_sparse"]


def _plain(value):
    return value.tolist() if isinstance(value, torch.Tensor) else value


@pytest.mark.parametrize("attribute", VIEWS_AND_SIZES)
def test_views_sizes_and_layout_refuse_in_the_same_words(attribute):
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True) * 2
    before = _plain(getattr(m, attribute))
    message = f"attribute '{attribute}' of 'torch._C.TensorBase' objects is not writable"
    with raises(AttributeError, message):
        setattr(m, attribute, 1)
    with raises(AttributeError, message):
        delattr(m, attribute)
    assert _plain(getattr(m, attribute)) == before


def test_a_parameter_refuses_in_the_same_words():
    p = torch.nn.Parameter(torch.ones(2))
    with raises(AttributeError,
                "attribute 'grad_fn' of 'torch._C.TensorBase' objects is not writable"):
        p.grad_fn = None
    with raises(AttributeError,
                "attribute 'is_leaf' of 'torch._C.TensorBase' objects is not writable"):
        del p.is_leaf
    assert p.is_leaf and p.grad_fn is None


def test_writable_attributes_stay_writable():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a.grad = torch.ones(2)
    a.requires_grad = False
    a.data = torch.zeros(2)
    assert a.grad.tolist() == [1.0, 1.0] and not a.requires_grad and a.tolist() == [0.0, 0.0]


def test_a_views_base_refuses_writes():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    view = a[1:]
    message = "attribute '_base' of 'torch._C.TensorBase' objects is not writable"
    with raises(AttributeError, message):
        view._base = None
    with raises(AttributeError, message):
        del view._base
    with raises(AttributeError, message):
        a._base = view
    assert view._base is a and a._base is None and view._is_view() and not a._is_view()
