"""The gradient layout contract: which arrays are dense, and copies in a leaf's order."""

import numpy as np

from refgrad.autograd._accumulate import _dense, _laid_out_like


def test_dense_arrays_fill_their_memory_in_some_order():
    a = np.zeros((2, 3, 4))
    assert _dense(a) and _dense(a.transpose(2, 0, 1)) and _dense(a[:1])
    assert not _dense(a[:, :1]) and not _dense(a[:, ::2])
    assert not _dense(np.broadcast_to(np.zeros(3), (2, 3)))


def test_a_copy_in_the_leafs_order_keeps_the_values():
    leaf = np.zeros((3, 4)).T
    data = np.arange(12.0).reshape(4, 3)
    copy = _laid_out_like(data, leaf)
    assert copy.strides == leaf.strides and (copy == data).all()
    assert _laid_out_like(data, np.zeros((4, 6))[:, ::2]).flags.c_contiguous
