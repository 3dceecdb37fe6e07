"""torch.range, torch.frombuffer, from_numpy's storage, Tensor.name and NumPy's copy=."""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

DEPRECATED = (
    "torch.range is deprecated and will be removed in a future release because its behavior "
    "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
    "values in [start, end).")


def _caught(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [(w.category, str(w.message)) for w in caught]


def test_range_includes_its_end_in_the_default_float_dtype():
    made, caught = _caught(lambda: torch.range(0, 3))
    assert made.dtype == torch.float32 and made.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert caught == [(UserWarning, DEPRECATED)]
    warnings.simplefilter("ignore")  # pytest restores the filters after the test
    assert torch.range(1, 0, -0.25).tolist() == [1.0, 0.75, 0.5, 0.25, 0.0]
    assert torch.range(0.1, 0.35, 0.05, dtype=torch.float64).numel() == 5
    assert torch.range(-0.5, 3.7, dtype=torch.int32).tolist() == [0, 1, 2, 3]
    assert torch.range(0, 300, 100, dtype=torch.uint8).tolist() == [0, 100, 200, 44]
    assert torch.range(0, 3, requires_grad=True).requires_grad


def test_range_warns_once_per_line_under_python_default_filter():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            torch.range(0, 1)
    assert len(caught) == 1 and caught[0].filename == __file__


def test_range_out_keeps_a_matching_shape_and_refuses_as_torch():
    warnings.simplefilter("ignore")
    out = torch.empty(2, 2)
    assert torch.range(0, 3, out=out) is out and out.shape == (2, 2)
    assert torch.range(0, 4, out=out).shape == (5,)
    with raises(RuntimeError, "dtype Float does not match dtype of out parameter (Long)"):
        torch.range(0, 3, dtype=torch.float32, out=torch.empty(4, dtype=torch.int64))


@pytest.mark.parametrize("args, kwargs, kind, message", [
    ((4, 1), {}, RuntimeError, "upper bound and lower bound inconsistent with step sign"),
    ((0, 3, 0), {}, RuntimeError, "step must be nonzero"),
    ((0, float("inf")), {}, RuntimeError, "unsupported range: 0 -> inf"),
    ((0, 3), {"dtype": torch.bool}, NotImplementedError,
     "\"range_cpu\" not implemented for 'Bool'"),
    ((3,), {}, TypeError, 'range() missing 1 required positional arguments: "end"'),
    ((0, 1e20), {}, RuntimeError,
     "IntArrayRef contains an int that cannot be represented as a SymInt: "
     "-9223372036854775808"),
])
def test_range_refusals(args, kwargs, kind, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(kind, message):
            torch.range(*args, **kwargs)


def test_frombuffer_shares_the_buffer_from_its_offset():
    memory = bytearray(b"\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00")
    t = torch.frombuffer(memory, dtype=torch.int32, offset=4)
    assert t.tolist() == [2, 3] and t.storage_offset() == 0
    assert t.untyped_storage().nbytes() == 8
    t[0] = 7
    memory[8] = 9
    assert memory[4] == 7 and t.tolist() == [7, 9]
    assert torch.frombuffer(memory, dtype=torch.int32, count=1, offset=8).tolist() == [9]


@pytest.mark.parametrize("buffer, kwargs, kind, message", [
    (bytearray(12), {"count": 4}, ValueError,
     "requested buffer length (4 * 4 bytes) after offset (0 bytes) must not be greater than "
     "actual buffer length (12 bytes)"),
    (bytearray(12), {"offset": 12}, ValueError,
     "offset (12 bytes) must be non-negative and no greater than buffer length (12 bytes) "
     "minus 1"),
    (bytearray(12), {"count": 0}, ValueError,
     "both buffer length (12) and count (0) must not be 0"),
    (bytearray(), {}, ValueError, "both buffer length (0) and count (-1) must not be 0"),
    (bytearray(12), {"offset": 2}, ValueError,
     "buffer length (10 bytes) after offset (2 bytes) must be a multiple of element size (4)"),
    ([1, 2], {}, ValueError, "object does not implement Python buffer protocol."),
    (memoryview(bytearray(8))[::2], {}, RuntimeError, "could not retrieve buffer from object"),
])
def test_frombuffer_refusals(buffer, kwargs, kind, message):
    with raises(kind, message):
        torch.frombuffer(buffer, dtype=torch.int32, **kwargs)


def test_frombuffer_of_bytes_writes_through_it(warn_always):
    made, caught = _caught(lambda: torch.frombuffer(b"abcd", dtype=torch.uint8))
    assert made.tolist() == [97, 98, 99, 100]
    assert [kind for kind, _ in caught] == [UserWarning]
    assert caught[0][1].startswith("The given buffer is not writable")


def test_from_numpy_storage_starts_at_the_first_element():
    a = np.arange(12.0)
    t = torch.from_numpy(a[3:])
    assert t.storage_offset() == 0 and t.untyped_storage().nbytes() == 72
    assert t.data_ptr() == a[3:].ctypes.data == t.untyped_storage().data_ptr()
    block = torch.from_numpy(a.reshape(3, 4)[1:, 1:3])
    assert (block.storage_offset(), block.stride()) == (0, (4, 1))
    assert block.untyped_storage().nbytes() == 48
    t[0] = 100.0
    assert a[3] == 100.0
    with raises(ValueError, "At least one stride in the given numpy array is negative, and "
                            "tensors with negative strides are not currently supported. (You "
                            "can probably work around this by making a copy of your array  "
                            "with array.copy().) "):
        torch.from_numpy(a[::-1])


def test_numpy_matrix_becomes_a_plain_tensor():
    warnings.simplefilter("ignore", PendingDeprecationWarning)  # NumPy's, of np.matrix
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    for made in (torch.tensor(m), torch.as_tensor(m), torch.from_numpy(m), torch.asarray(m)):
        assert made.shape == (2, 2) and made.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    with raises(ValueError, "too many dimensions 'matrix'"):
        torch.tensor([m, m])


def test_every_tensor_is_named_none():
    x = torch.ones(2)
    assert x.name is None and x.detach().name is None
    with raises(AttributeError, "attribute 'name' of 'torch._C.TensorBase' objects is not "
                                "writable"):
        x.name = "x"


def test_numpy_copy_keyword_meets_an_array_taking_only_dtype():
    x = torch.arange(3.0)
    copied, caught = _caught(lambda: np.asarray(x, copy=True))
    assert not np.shares_memory(copied, x.numpy()) and copied.tolist() == [0.0, 1.0, 2.0]
    assert [kind for kind, _ in caught] == [DeprecationWarning]
    warnings.simplefilter("ignore", DeprecationWarning)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        np.array(x, copy=False)
    with raises(TypeError, "Tensor.__array__() got an unexpected keyword argument 'copy'"):
        x.__array__(copy=True)
    assert np.shares_memory(np.asarray(x), x.numpy())


def test_int64_edges():
    assert (torch.tensor([2**63 - 1]) + 1).tolist() == [-(2**63)]
    assert torch.tensor([-(2**63)]).tolist() == [-(2**63)]
    with raises(ValueError, "Overflow when unpacking long long"):
        torch.tensor(2**63)
    with raises(RuntimeError, "value cannot be converted to type int64_t without overflow"):
        torch.full((1,), 2**63)
    with raises(RuntimeError, "value cannot be converted to type int64_t without overflow"):
        torch.zeros(1, dtype=torch.int64).fill_(2**63)
