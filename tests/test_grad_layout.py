"""The gradient layout contract: which arrays are dense, and copies in a leaf's order."""

import numpy as np

from refgrad.autograd._grad_layout import _dense, _laid_out_like


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


def test_a_copy_takes_even_the_strides_of_the_leafs_dimensions_of_size_one():
    leaf = np.lib.stride_tricks.as_strided(np.zeros(10), (2, 1, 5), (40, 8, 8))
    copy = _laid_out_like(np.ones((2, 1, 5)), leaf)
    assert copy.strides == leaf.strides and (copy == 1).all()
    assert _dense(np.zeros((0, 3))[:, ::2])  # no elements: dense, as torch counts it


def test_an_elementwise_result_takes_the_first_operands_order_where_it_decides():
    from refgrad._iterated_layout import iterated_strides

    shape, rows, cl = (2, 3, 4, 5), (60, 20, 5, 1), (60, 1, 15, 3)
    assert iterated_strides(shape, (rows, rows)) is None
    assert iterated_strides(shape, (cl, cl)) == cl
    assert iterated_strides(shape, (cl, rows)) == cl
    assert iterated_strides(shape, (rows, cl)) is None
    assert iterated_strides(shape, ((0, 1, 15, 3), rows)) == cl  # a 0 stride: the order stays
    assert iterated_strides((3, 2), ((1, 3), (0, 0))) == (1, 3)  # a transposed matrix
