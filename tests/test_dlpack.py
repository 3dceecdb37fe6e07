"""refgrad._dlpack: capsules made and read through NumPy, and refgrad's own refusals."""

import numpy as np
import pytest

import refgrad as torch
from refgrad._dlpack import DLDeviceType, _writable
from refgrad._from_numpy import shares_numpy_memory


def test_writable_aliases_a_read_only_array_without_copying():
    a = np.arange(4.0)
    stretched = np.broadcast_to(a, (2, 4))
    assert not stretched.flags.writeable
    alias = _writable(stretched)
    assert alias.flags.writeable and alias.strides == (0, 8)
    alias[0, 1] = 10.0
    assert a[1] == 10.0
    assert _writable(a) is a


def test_another_device_is_refused():
    with pytest.raises(BufferError, match="unsupported device requested"):
        torch.ones(2).__dlpack__(dl_device=(DLDeviceType.kDLCUDA, 0))


def test_negative_strides_get_from_numpy_error():
    with pytest.raises(ValueError, match="At least one stride"):
        torch.from_dlpack(np.arange(4.0)[::-1])


def test_taken_memory_is_marked_shared_and_the_exporter_is_not():
    t = torch.arange(3.0)
    taken = torch.from_dlpack(np.from_dlpack(t))
    assert shares_numpy_memory(taken._data) and not shares_numpy_memory(t._data)
    t.resize_(10)  # the exporter's memory may still move
    assert t.shape == (10,)


def test_enum_lives_where_torch_keeps_it():
    assert DLDeviceType.__module__ == "refgrad.utils.dlpack"
    assert DLDeviceType.kDLMAIA == 17 and len(DLDeviceType) == 15
