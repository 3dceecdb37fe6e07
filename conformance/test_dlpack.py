"""Black-box tests: DLPack, a tensor's memory handed to NumPy and a NumPy array's taken in.

The same assertions run on torch.
"""

import numpy as np
import torch

from conformance._support import raises

REQUIRES_GRAD = "Can't export tensors that require gradient, use tensor.detach()"
INVALID = ("from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
           "consumed only once, so you might have already constructed a tensor from it once.")


def test_numpy_takes_a_tensor_memory():
    t = torch.arange(6.0).reshape(2, 3)
    a = np.from_dlpack(t)
    assert a.dtype == np.float32 and a.shape == (2, 3) and a.flags.writeable
    a[0, 0] = 42.0
    t[1, 2] = -1.0
    assert t[0, 0].item() == 42.0 and a[1, 2] == -1.0
    assert np.from_dlpack(t[:, ::2]).strides == (12, 8)
    assert np.from_dlpack(torch.ones(2).expand(3, 2)).strides == (0, 4)
    assert np.from_dlpack(torch.tensor(3, dtype=torch.int8)).shape == ()
    for dtype, kind in ((torch.bool, np.bool_), (torch.float16, np.float16),
                        (torch.uint8, np.uint8), (torch.int64, np.int64)):
        assert np.from_dlpack(torch.ones(2, dtype=dtype)).dtype == kind
    copied = np.from_dlpack(t, copy=True)
    copied[0, 0] = 0.0
    assert t[0, 0].item() == 42.0


def test_a_tensor_takes_numpy_memory():
    a = np.arange(4.0)
    t = torch.from_dlpack(a)
    assert t.dtype == torch.float64 and not t.requires_grad
    t[0] = 9.0
    a[3] = -3.0
    assert a[0] == 9.0 and t[3].item() == -3.0
    assert torch.from_dlpack(np.arange(12.0).reshape(3, 4)[:, ::2]).stride() == (4, 2)
    assert torch.from_dlpack(np.ones(3, dtype=bool)).dtype == torch.bool
    copied = torch.from_dlpack(a, copy=True)
    copied[1] = 100.0
    assert a[1] == 1.0
    assert torch.from_dlpack(a, device="cpu").data_ptr() == t.data_ptr()
    with raises(RuntimeError, "Trying to resize storage that is not resizable"):
        t.resize_(10)


def test_a_read_only_array_is_written_through():
    a = np.arange(3.0)
    a.flags.writeable = False
    t = torch.from_dlpack(a)
    t[0] = 7.0
    assert a[0] == 7.0


def test_tensor_to_tensor_shares_memory_not_identity():
    x = torch.ones(2)
    y = torch.from_dlpack(x)
    assert y is not x and y.data_ptr() == x.data_ptr() and y._version == 0
    y[0] = 5.0
    assert x[0].item() == 5.0


def test_dlpack_device_and_capsules():
    t = torch.arange(3.0)
    where = t.__dlpack_device__()
    assert where == (torch.utils.dlpack.DLDeviceType.kDLCPU, 0) and where[0] == 1
    assert type(where[0]).__name__ == "DLDeviceType"
    assert "dltensor\"" in repr(t.__dlpack__())
    assert "dltensor_versioned" in repr(t.__dlpack__(max_version=(1, 0)))
    assert "dltensor\"" in repr(t.__dlpack__(max_version=(0, 8), stream=None, copy=False))
    assert "dltensor\"" in repr(t.__dlpack__(dl_device=(1, 0)))
    assert torch.utils.dlpack.__all__ == ["DLDeviceType", "from_dlpack"]
    assert torch.from_dlpack is torch.utils.dlpack.from_dlpack
    assert torch.to_dlpack is torch.utils.dlpack.to_dlpack


def test_legacy_capsule_is_read_once():
    t = torch.arange(3.0)
    capsule = torch.utils.dlpack.to_dlpack(t)
    back = torch.from_dlpack(capsule)
    back[0] = -1.0
    assert t[0].item() == -1.0 and back.data_ptr() == t.data_ptr()
    with raises(RuntimeError, INVALID):
        torch.from_dlpack(capsule)
    with raises(AssertionError, "device and copy kwargs not supported when ext_tensor is "
                                "already a DLPack capsule."):
        torch.from_dlpack(torch.utils.dlpack.to_dlpack(t), copy=True)
    for bad in (3, [1, 2], "x"):
        with raises(RuntimeError, INVALID):
            torch.from_dlpack(bad)
    with raises(TypeError, "_to_dlpack(): argument 'data' (position 1) must be Tensor, not int"):
        torch.utils.dlpack.to_dlpack(3)


def test_refusals():
    leaf = torch.ones(2, requires_grad=True)
    for export in (leaf.__dlpack__, lambda: np.from_dlpack(leaf), lambda: torch.from_dlpack(leaf),
                   lambda: leaf.__dlpack__(stream=1.0)):
        with raises(BufferError, REQUIRES_GRAD):
            export()
    with torch.no_grad(), raises(BufferError, REQUIRES_GRAD):
        leaf.__dlpack__()
    assert "dltensor" in repr(torch.utils.dlpack.to_dlpack(leaf))  # the old form does not ask
    t = torch.ones(2)
    with raises(AssertionError, "stream should be None on cpu."):
        t.__dlpack__(stream=1)
    with raises(TypeError, "stream must be ``int`` or ``none``"):
        t.__dlpack__(stream=1.0)
    with raises(TypeError, "Tensor.__dlpack__() takes 1 positional argument but 2 were given"):
        t.__dlpack__(1)
    with raises(TypeError,
                "Tensor.__dlpack_device__() takes 1 positional argument but 2 were given"):
        t.__dlpack_device__(1)
