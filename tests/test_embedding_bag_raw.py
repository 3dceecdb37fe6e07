"""White-box tests: the frequencies embedding_bag's gradient is divided by, and its bookkeeping."""

import numpy as np

import refgrad
from refgrad._ops.embedding_bag import _frequencies, bags


def _by_rule(idx):
    """NOTE [The frequency torch divides by], walked one run at a time."""
    ordered = sorted(idx)
    runs = sorted(set(idx))
    return [ordered.count(ordered[runs.index(i)]) for i in idx]


def test_frequencies_follow_the_kernels_runs():
    for idx in ([1, 1, 2], [3, 0, 3, 3, 1], [4], [2, 2, 2], [0, 1, 2, 3], [5, 1, 1, 0, 5, 5]):
        assert _frequencies(np.array(idx)).tolist() == _by_rule(idx)


def _bookkeeping(weight, indices, offsets, padding_idx):
    return bags(weight, indices, offsets, 0, None, False, padding_idx, False)[1:]


def test_bookkeeping_of_sum_is_empty_only_on_the_fast_path():
    indices, offsets = refgrad.tensor([2, 2, 0, 1]), refgrad.tensor([0, 2])
    for dtype, padding_idx, empty in ((refgrad.float32, -1, True), (refgrad.float64, -1, False),
                                      (refgrad.float32, 3, False)):
        weight = refgrad.zeros(5, 3, dtype=dtype)
        offset2bag, sizes, _ = _bookkeeping(weight, indices, offsets, padding_idx)
        assert (offset2bag.numel() == 0) == empty and sizes.tolist() == [0, 0]
    strided = refgrad.zeros(3, 5).t()
    assert _bookkeeping(strided, indices, offsets, -1)[0].tolist() == [0, 0, 1, 1]


def test_the_bookkeeping_has_no_gradient_and_the_node_keeps_no_table():
    weight = refgrad.ones(5, 3, requires_grad=True)
    out, *kept = bags(weight, refgrad.tensor([2, 2, 0, 1]), refgrad.tensor([0, 2]), 2, None,
                      False, -1, False)
    assert out.grad_fn.name() == "EmbeddingBagBackward0"
    assert all(not t.requires_grad and t.grad_fn is None for t in kept)
    assert out.grad_fn._saved_weight is None and out.grad_fn._saved_weight_sym_argsize_0 == 5
