"""Black-box tests: torch.asarray shares the memory of tensors, arrays and buffers where it
can, copies where it must, and sets requires_grad as torch does. The same assertions run on
torch.
"""

import array

import numpy as np
import pytest
import torch

from conformance._support import raises
from conformance._warned import caught_always

FOLLOWS_OBJ = ("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad "
               "instead of False. Pass requires_grad=False explicitly to get the old behavior "
               "and silence this warning.")
BUFFER_NOT_WRITABLE = (
    "The given buffer is not writable, and PyTorch does not support non-writable tensors. "
    "This means you can write to the underlying (supposedly non-writable) buffer using the "
    "tensor. You may want to copy the buffer to protect its data or make it writable before "
    "converting it to a tensor. This type of warning will be suppressed for the rest of this "
    "program.")


def _warnings(call):
    """What ``call()`` gives, and its warnings as (message before torch's suffix, file, line),
    with the line ``call`` is written on to compare."""
    with caught_always(torch) as caught:
        result = call()
    found = [(str(w.message).split(" (Triggered internally")[0], w.filename, w.lineno)
             for w in caught]
    return result, found, call.__code__.co_firstlineno


def test_python_data_is_copied_with_torch_tensors_dtypes():
    cases = [([1, 2.5], torch.float32, [1.0, 2.5]), ([1, 2], torch.int64, [1, 2]),
             ([True, False], torch.bool, [True, False]), (3, torch.int64, 3),
             (2.5, torch.float32, 2.5), ((1, 2), torch.int64, [1, 2]),
             (np.float32(1.5), torch.float32, 1.5), (np.int32(3), torch.int32, 3),
             ([torch.tensor(1.0), torch.tensor(2.0)], torch.float32, [1.0, 2.0])]
    for data, dtype, values in cases:
        t = torch.asarray(data)
        assert t.dtype == dtype and t.tolist() == values and t.device == torch.device("cpu")
    nested = torch.asarray([[1, 2], [3, 4]], dtype=torch.float64, device="cpu")
    assert nested.dtype == torch.float64 and nested.shape == (2, 2)
    assert torch.asarray(obj=[1]).tolist() == [1] and torch.asarray([]).shape == (0,)
    with raises(ValueError, "expected sequence of length 1 at dim 1 (got 2)"):
        torch.asarray([[1], [1, 2]])
    with raises(ValueError, "Overflow when unpacking long long"):
        torch.asarray([2**64])
    with raises(RuntimeError, "Could not infer dtype of object"):
        torch.asarray(object())


def test_arrays_are_shared_unless_a_copy_is_asked_or_needed():
    for kwargs, seen in (({}, 7.0), ({"copy": False}, 7.0), ({"dtype": torch.float64}, 7.0),
                         ({"copy": True}, 0.0), ({"dtype": torch.float32}, 0.0)):
        values = np.zeros(3)
        t = torch.asarray(values, **kwargs)
        values[0] = 7.0
        assert t[0].item() == seen, kwargs
    stepped = torch.asarray(np.arange(6.0)[::2])
    assert stepped.tolist() == [0.0, 2.0, 4.0] and stepped.stride() == (2,)
    with raises(ValueError, "can't alias tensor with dtype 'Double' into dtype 'Float'."):
        torch.asarray(np.zeros(3), dtype=torch.float32, copy=False)


def test_tensors_come_back_themselves_unless_copied():
    t = torch.zeros(3)
    assert torch.asarray(t) is t and torch.asarray(t, copy=False, device="cpu") is t
    copied, converted = torch.asarray(t, copy=True), torch.asarray(t, dtype=torch.float64)
    t[0] = 7.0
    assert copied.tolist() == [0.0] * 3 and converted.dtype == torch.float64
    assert converted.tolist() == [0.0] * 3
    with raises(ValueError, "can't alias tensor with dtype 'Float' into dtype 'Double'."):
        torch.asarray(t, dtype=torch.float64, copy=False)


def test_buffers_are_read_as_raw_bytes_and_shared():
    raw = bytearray(8)
    floats = torch.asarray(raw)
    raw[0] = 1
    assert floats.dtype == torch.float32 and floats.shape == (2,) and floats[0].item() > 0
    assert torch.asarray(bytearray(8), copy=True).tolist() == [0.0, 0.0]
    doubles = array.array("d", [1.0, 2.0])
    assert torch.asarray(doubles).shape == (4,)  # read in the default dtype, not the items'
    shared = torch.asarray(doubles, dtype=torch.float64)
    doubles[0] = 5.0
    assert shared.tolist() == [5.0, 2.0]
    signed = torch.asarray(memoryview(bytearray(b"\x01\xff")), dtype=torch.int8)
    assert signed.tolist() == [1, -1]
    result, caught, line = _warnings(lambda: torch.asarray(b"\x01\x02", dtype=torch.uint8))
    assert result.tolist() == [1, 2] and caught == [(BUFFER_NOT_WRITABLE, __file__, line)]
    with raises(ValueError, "buffer length (2 bytes) after offset (0 bytes) must be a "
                            "multiple of element size (4)"):
        torch.asarray(bytearray(2))


def test_copy_false_refuses_what_cannot_be_shared():
    with raises(ValueError, "can't alias arbitrary sequence into a tensor."):
        torch.asarray([1, 2], copy=False)
    with raises(ValueError, "can't alias arbitrary sequence into a tensor."):
        torch.asarray(1, copy=False)
    with raises(RuntimeError, "can't alias NumPy scalars. Either remove copy=False or "
                              "transform it in a ndarray. "):
        torch.asarray(np.float64(1), copy=False)
    assert torch.asarray(np.array(1.0), copy=False).shape == ()


def test_requires_grad_of_a_shared_tensor_is_set_on_it():
    leaf = torch.ones(2)
    assert torch.asarray(leaf, requires_grad=True) is leaf and leaf.requires_grad
    assert torch.asarray(leaf, requires_grad=False) is leaf and not leaf.requires_grad
    product = torch.ones(2, requires_grad=True) * 2
    assert torch.asarray(product, requires_grad=True) is product
    detached = torch.asarray(product, requires_grad=False)
    assert detached is not product and detached.is_leaf and not detached.requires_grad
    fresh = torch.ones(2)
    made = torch.asarray(fresh, requires_grad=True, copy=True)
    assert made.is_leaf and made.requires_grad and not fresh.requires_grad
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require "
                              "gradients"):
        torch.asarray(torch.ones(2, dtype=torch.int64), requires_grad=True)
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require "
                              "gradients"):
        torch.asarray([1, 2], requires_grad=True)
    assert torch.asarray(np.ones(2), requires_grad=True).requires_grad


@pytest.mark.parametrize("kwargs, node", [({}, None), ({"copy": True}, "CloneBackward0"),
                                          ({"dtype": torch.float64}, "ToCopyBackward0")])
def test_an_unspecified_requires_grad_follows_the_tensor_with_a_warning(kwargs, node):
    leaf = torch.ones(2, requires_grad=True)
    result, caught, line = _warnings(lambda: torch.asarray(leaf, **kwargs))
    assert caught == [(FOLLOWS_OBJ, __file__, line)]
    assert result.requires_grad and (result is leaf) == (node is None)
    assert type(result.grad_fn).__name__ == type(None).__name__ if node is None else node
    quiet, caught, _ = _warnings(lambda: torch.asarray(leaf, requires_grad=False, **kwargs))
    assert caught == [] and not quiet.requires_grad and quiet.grad_fn is None


def test_argument_errors():
    with raises(TypeError, "asarray() takes 1 positional argument but 2 were given"):
        torch.asarray([1], torch.float32)
    with raises(TypeError, "asarray(): argument 'dtype' must be torch.dtype, not str"):
        torch.asarray([1], dtype="float")
    with raises(TypeError, "asarray(): argument 'copy' must be bool, not int"):
        torch.asarray([1], copy=1)
    with raises(TypeError, "asarray(): argument 'requires_grad' must be bool, not int"):
        torch.asarray([1.0], requires_grad=1)
    with raises(TypeError, "asarray() got an unexpected keyword argument 'foo'"):
        torch.asarray([1], foo=1)
    with raises(TypeError, "asarray() missing 1 required positional arguments: \"obj\""):
        torch.asarray()
    with raises(TypeError, "new(): invalid data type 'str'"):
        torch.asarray("a")
