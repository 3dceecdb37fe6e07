"""Black-box tests: tensors that share a NumPy array, and lists of one-element tensors.

The same assertions run on torch. Its two warnings (a read-only array, and float() of a
tensor that requires grad) are given once per program unless ``set_warn_always(True)``, which
the test of the second turns on so that it does not depend on what ran before it.
"""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises
from conformance._warned import caught_always

NEGATIVE = ("At least one stride in the given numpy array is negative, and tensors with "
            "negative strides are not currently supported. (You can probably work around this "
            "by making a copy of your array  with array.copy().) ")


def test_from_numpy_shares_memory_both_ways():
    a = np.arange(6.0).reshape(2, 3)
    t = torch.from_numpy(a)
    assert t.dtype == torch.float64 and t.shape == (2, 3) and not t.requires_grad
    a[0, 0] = 100.0
    t[1, 1] = -5.0
    assert t[0, 0].item() == 100.0 and a[1, 1] == -5.0
    view = torch.from_numpy(a.T)
    assert view.stride() == (1, 3) and view[1, 0].item() == 1.0
    assert torch.from_numpy(a[:, ::2]).stride() == (3, 2)
    assert torch.from_numpy(np.array(3.5)).shape == ()


def test_from_numpy_refuses_what_a_tensor_cannot_hold():
    a = np.arange(6.0).reshape(2, 3)
    with raises(TypeError, "expected np.ndarray (got list)"):
        torch.from_numpy([1, 2])
    with raises(TypeError, "expected np.ndarray (got numpy.float64)"):
        torch.from_numpy(np.float64(3))
    with raises(ValueError, NEGATIVE):
        torch.from_numpy(a[:, ::-1])
    with raises(ValueError, NEGATIVE):
        torch.as_tensor(a[::-1])
    with raises(ValueError, "given numpy array has byte order different from the native byte "
                            "order. Conversion between byte orders is currently not supported."):
        torch.from_numpy(np.arange(3, dtype=">i4"))
    with pytest.raises(TypeError, match=r"^can't convert np.ndarray of type numpy.object_\. "
                                        r"The only supported types are: float64, float32"):
        torch.from_numpy(np.array([object()]))


def test_a_read_only_array_is_shared_with_one_warning():
    frozen = np.arange(3)
    frozen.flags.writeable = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first, second = torch.from_numpy(frozen), torch.as_tensor(frozen)
    assert first.tolist() == second.tolist() == [0, 1, 2]
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and messages[0].startswith(
        "The given NumPy array is not writable, and PyTorch does not support non-writable "
        "tensors.")


def test_as_tensor_shares_or_converts_or_copies():
    a = np.arange(3.0)
    shared = torch.as_tensor(a)
    a[0] = 9.0
    assert shared.tolist() == [9.0, 1.0, 2.0]
    converted = torch.as_tensor(a, dtype=torch.float32)
    a[1] = 7.0
    assert converted.tolist() == [9.0, 1.0, 2.0] and converted.dtype == torch.float32
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert torch.as_tensor(x) is x
    y = torch.as_tensor(x, dtype=torch.float64)
    assert type(y.grad_fn).__name__ == "ToCopyBackward0"
    assert torch.as_tensor([[1, 2], [3, 4.5]]).dtype == torch.float32
    assert torch.as_tensor(3, dtype=torch.int8).dtype == torch.int8
    with raises(TypeError, "as_tensor() takes 1 positional argument but 2 were given"):
        torch.as_tensor(a, torch.float32)


def test_a_list_of_one_element_tensors_is_a_list_of_numbers():
    assert torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]).tolist() == [1.0, 2.0]
    assert torch.tensor([torch.tensor([1.0]), torch.tensor([2.0])]).shape == (2,)
    assert torch.tensor([torch.tensor(1, dtype=torch.int8), 2]).dtype == torch.int64
    assert torch.tensor([torch.tensor(1, dtype=torch.int8), 2.5]).dtype == torch.float32
    assert torch.tensor([torch.tensor(1.5, dtype=torch.float64), 2]).dtype == torch.float64
    assert torch.tensor([[torch.tensor(1)], [2]]).tolist() == [[1], [2]]
    assert torch.tensor([torch.tensor(True), False]).dtype == torch.bool
    assert torch.as_tensor([torch.tensor(1.0), torch.tensor(2.0)]).tolist() == [1.0, 2.0]
    with raises(ValueError, "only one element tensors can be converted to Python scalars"):
        torch.tensor([torch.tensor([1.0, 2.0]), torch.tensor([2.0])])
    with raises(TypeError, "only integer tensors of a single element can be converted to an "
                           "index"):
        torch.tensor([torch.tensor(3.5)], dtype=torch.int64)
    with raises(RuntimeError, "value cannot be converted to type uint8 without overflow"):
        torch.tensor([torch.tensor(300)], dtype=torch.uint8)


def test_reading_a_tensor_that_requires_grad_as_a_float_warns():
    leaf = torch.tensor(1.5, requires_grad=True)
    with caught_always(torch) as caught:
        losses = torch.tensor([leaf, 2.5])
        assert float(leaf) == 1.5 and int(leaf) == 1
    assert losses.tolist() == [1.5, 2.5] and not losses.requires_grad
    messages = [str(w.message) for w in caught]
    # tensor() reads each element as float() does; int() gives no warning
    assert len(messages) == 2 and all(m.startswith(
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior.\nConsider using tensor.detach() first.") for m in messages)
