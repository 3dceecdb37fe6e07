"""refgrad._tensor: fields, rules for requires_grad, versions and inference tensors."""

import numpy as np
import pytest

import refgrad as torch
from refgrad._tensor import Tensor, VersionCounter, make_tensor
from refgrad._tensor_values import wrap_dim
from refgrad.autograd._state import state


def test_tensor_fields_are_slots_and_attributes_go_to_its_dict():
    t = torch.ones(2)
    assert "_data" not in t.__dict__ and t.__dict__ == {}
    t.anything_new = 1
    assert t.__dict__ == {"anything_new": 1}
    with pytest.raises(AttributeError):
        t.is_leaf = False  # a field stays read-only


def test_make_tensor_fills_every_slot():
    t = make_tensor(np.zeros(3, np.float32))
    for name in Tensor.__slots__:
        if name not in ("__weakref__", "__dict__"):
            getattr(t, name)  # an unset slot would raise AttributeError
    assert t.grad_dtype is t.dtype
    assert isinstance(t._version_counter, VersionCounter) and t._version == 0


def test_detach_shares_the_version_counter_and_data_does_not():
    x = torch.ones(2, requires_grad=True)
    assert x.detach()._version_counter is x._version_counter
    assert x.data._version_counter is not x._version_counter
    x.detach()._version_counter.value += 1
    assert x._version == 1 and x.data._version == 0


def test_data_assignment_swaps_the_values():
    x = torch.ones(2)
    x.data = torch.zeros(3)
    assert x.tolist() == [0.0, 0.0, 0.0]


def test_requires_grad_on_a_non_leaf():
    x = make_tensor(np.ones(2, np.float32), requires_grad=True, grad_fn=object())
    assert x.requires_grad_() is x
    with pytest.raises(RuntimeError, match="^you can only change requires_grad flags of leaf"):
        x.requires_grad_(False)


def test_grad_of_a_non_leaf_warns_unless_retained():
    x = make_tensor(np.ones(2, np.float32), requires_grad=True, grad_fn=object())
    with pytest.warns(UserWarning, match="^The .grad attribute of a Tensor that is not a leaf"):
        assert x.grad is None
    x._retains_grad = True
    assert x.grad is None  # no warning: filterwarnings=error would raise


def test_factories_ignore_grad_mode():
    state.grad_enabled = False
    try:
        made = [f(2, requires_grad=True) for f in (torch.ones, torch.zeros, torch.rand)]
        made.append(torch.tensor([1.0], requires_grad=True))
    finally:
        state.grad_enabled = True
    assert all(t.requires_grad and t.is_leaf for t in made)


def test_inference_tensors_are_tagged_at_creation_and_have_no_version():
    with torch.inference_mode():
        t = torch.ones(2)
        inside = torch.ones(2, requires_grad=True)  # allowed inside the mode
    assert t.is_inference() and inside.requires_grad and not torch.ones(2).is_inference()
    with pytest.raises(RuntimeError, match="^Inference tensors do not track version counter.$"):
        t._version
    message = "^Setting requires_grad=True on inference tensor outside InferenceMode"
    with pytest.raises(RuntimeError, match=message):
        t.requires_grad_()
    with pytest.raises(RuntimeError, match=message):
        torch.nn.Parameter(t)


@pytest.mark.parametrize(("dim", "ndim", "wrapped"), [(0, 1, 0), (-1, 3, 2), (-1, 0, 0), (0, 0, 0)])
def test_wrap_dim(dim, ndim, wrapped):
    assert wrap_dim(dim, ndim) == wrapped


def test_scalar_conversions_and_array_protocol():
    t = torch.tensor([[1.5]])
    assert float(t) == 1.5 and int(t) == 1 and t.item() == 1.5
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    assert t.element_size() == 4 and t.is_floating_point() and not t.is_cuda


def test_parameter_shares_the_version_counter():
    base = torch.ones(2)
    p = torch.nn.Parameter(base)
    assert p._version_counter is base._version_counter and type(p) is torch.nn.Parameter


def test_size_of_a_0d_tensor_has_no_dimensions():
    message = "^Dimension specified as -1 but tensor has no dimensions$"
    with pytest.raises(IndexError, match=message):
        torch.tensor(1.0).size(-1)


def test_the_storage_of_a_view_made_through_a_helper_object_is_the_array_under_it():
    from refgrad._backend import storage_root

    base = np.arange(6.0)
    strided = np.lib.stride_tricks.as_strided(base[2:], (2,), (8,))  # its base is a helper
    assert storage_root(strided) is base
    t = torch.zeros(4)[1:].expand(2, 3)
    assert t.storage_offset() == 1 and t.stride() == (0, 1)


def test_a_grad_dtype_is_forgotten_with_its_tensor():
    import gc

    from refgrad import _dtype
    from refgrad._tensor_autograd import GRAD_DTYPES

    before = len(GRAD_DTYPES)
    t = make_tensor(np.zeros(3, np.float32))
    t.grad_dtype = _dtype.float64
    assert len(GRAD_DTYPES) == before + 1 and t.grad_dtype is _dtype.float64
    del t
    gc.collect()
    assert len(GRAD_DTYPES) == before
