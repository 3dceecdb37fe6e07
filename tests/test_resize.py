"""resize_: what refgrad leaves as it was after a refusal, and the memory it remembers."""

import gc

import numpy as np
import pytest

import refgrad as torch
from refgrad._backend import storage_root
from refgrad._from_numpy import _SHARED, shares_numpy_memory


@pytest.mark.parametrize("size", [(-2,), (2, -1), (2**62, 2**62)])
def test_a_refused_size_leaves_the_tensor_as_it_was(size):
    y = torch.arange(6.0)
    v0 = y._version
    with pytest.raises(RuntimeError):
        y.resize_(*size)
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and y._version == v0


def test_refused_memory_leaves_the_tensor_and_an_inference_tensor_is_resized_first():
    t = torch.from_numpy(np.arange(6.0))
    with pytest.raises(RuntimeError):
        t.resize_(8)
    assert t.shape == (6,) and t._version == 0
    with torch.inference_mode():
        u = torch.ones(3)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
        u.resize_(2)  # NOTE [Resized, then refused]: the sizes change, then the refusal
    assert u.shape == (2,)


def test_numpy_memory_is_remembered_only_while_its_array_lives():
    before = len(_SHARED)
    a = np.arange(4.0)
    t = torch.from_numpy(a[1:])
    assert shares_numpy_memory(storage_root(t._data)) and len(_SHARED) == before + 1
    del a, t
    gc.collect()
    assert len(_SHARED) == before
    assert not shares_numpy_memory(storage_root(torch.arange(3.0)._data))


def test_an_expanded_view_moves_with_its_strides():
    base = torch.arange(2.0)
    e = base.expand(3, 2)
    base.resize_(50)
    base[1] = 7.0
    assert e.stride() == (0, 1) and e.tolist() == [[0.0, 7.0]] * 3


def test_a_refused_format_leaves_the_tensor_as_it_was():
    y = torch.arange(6.0)
    with pytest.raises(RuntimeError):
        y.resize_(2, 3, memory_format=torch.preserve_format)
    with pytest.raises(RuntimeError):
        y.resize_(1, 2, 3, memory_format=torch.channels_last)
    assert y.shape == (6,) and y.stride() == (1,)


def test_views_of_an_inference_tensor_keep_the_old_memory():
    # The difference the chapter names: with no version counter, no view is registered.
    with torch.inference_mode():
        b = torch.arange(4.0)
        v = b[1:3]
        b.resize_(10)
        b[1] = 100.0
        assert v[0].item() == 1.0 and b[1].item() == 100.0
