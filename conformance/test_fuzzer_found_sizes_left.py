"""Behaviour the differential fuzzer found: the first size a tensor resized in place to 0-d
still shows to kernels that read a dimension's size (argmax, argmin, vector_norm) through the
writes they count on a result of inference tensors; the memory a reduced loss keeps; the
writes flip, topk and aminmax count; and the history an integer tensor gets when a tensor that
requires grad is written into it in place. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch
import torch.nn.functional as F


def _resized_to_0d(shape):
    with torch.inference_mode():
        t = torch.zeros(shape)
        t.resize_(())
    return t


@pytest.mark.parametrize(("shape", "expected"), [((1,), 1), ((1, 3), 1), ((2,), 0),
                                                 ((3, 1), 0), ((1, 1, 1, 1, 1, 1), 1)])
def test_a_dim_read_from_the_size_a_0d_tensor_left(shape, expected):
    t = _resized_to_0d(shape)
    assert t.shape == ()
    for result in (t.argmax(-1, keepdim=True), t.argmin(0), t.norm(dim=0),
                   torch.linalg.vector_norm(t, ord=1, dim=(0,))):
        assert result._version == expected
    assert t.argmax()._version == 0  # no dim, no size read
    assert t.sum(0)._version == 1  # filled whatever the size


def test_a_0d_tensor_born_so_reads_0():
    with torch.inference_mode():
        t = torch.tensor(2.0)
    assert (t.argmax(0)._version, t.norm(dim=0)._version, t.norm()._version) == (0, 0, 1)


def test_every_change_in_place_leaves_a_size():
    with torch.inference_mode():
        squeezed = torch.zeros(1, 1).squeeze_()
        three_then_one = torch.zeros(3)
        three_then_one.resize_(1)
        three_then_one.resize_(())
        one_then_three = torch.zeros(1)
        one_then_three.resize_(())
        one_then_three.resize_(3)
        one_then_three.resize_(())
        set_to_0d = torch.zeros(1).set_(torch.tensor(2.0))
        strided = torch.zeros(1).as_strided_((), ())
    assert [t.argmax(0)._version for t in (squeezed, three_then_one, one_then_three,
                                           set_to_0d, strided)] == [1, 1, 0, 1, 1]


def test_a_normal_operand_counts_no_write():
    t = torch.zeros(1)
    t.resize_(())
    assert t.argmax(0)._version == 0


def test_a_reduced_dim_of_size_1():
    with torch.inference_mode():
        t = torch.ones(1, 1, 3)
    assert (t.argmax(0)._version, t.argmax(2)._version, t.argmin(1, True)._version) == (1, 0, 1)
    assert (t.norm(dim=(0, 1))._version, t.norm(dim=(0, 2))._version, t.norm()._version) == (
        1, 0, 0)


def _pair(shape):
    rng = np.random.default_rng(7)
    return (torch.tensor(rng.uniform(0.1, 0.9, shape).astype(np.float32)),
            torch.tensor(rng.uniform(0.0, 1.0, shape).astype(np.float32)))


@pytest.mark.parametrize("loss", [F.binary_cross_entropy, F.mse_loss, F.smooth_l1_loss,
                                  F.soft_margin_loss])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_a_reduced_loss_keeps_the_losses_memory(loss, reduction):
    x, y = _pair((3, 2))
    reduced = loss(x, y, reduction=reduction)
    assert reduced.shape == () and reduced.untyped_storage().nbytes() == 24
    assert reduced.storage_offset() == 0
    with torch.inference_mode():
        kept = loss(x, y, reduction=reduction)
    assert kept.argmax(0)._version == 0  # it was (3, 2)
    with torch.inference_mode():
        one = loss(*_pair((1, 2)), reduction=reduction)
    assert one.argmax(0)._version == 1  # it was (1, 2)


def test_the_other_elements_of_a_cross_entropy_are_its_losses():
    x, y = _pair((3,))
    reduced = F.binary_cross_entropy(x, y)
    each = F.binary_cross_entropy(x, y, reduction="none")
    whole = torch.tensor([], dtype=torch.float32).set_(reduced.untyped_storage(), 0, (3,))
    assert whole[1:].tolist() == each[1:].tolist()
    assert whole[0].item() == reduced.item()


def test_losses_that_reduce_into_new_memory():
    x, y = _pair((3, 2))
    assert F.smooth_l1_loss(x, y, beta=0.0).untyped_storage().nbytes() == 4
    for loss in (F.l1_loss, F.huber_loss, F.binary_cross_entropy_with_logits):
        assert loss(x, y).untyped_storage().nbytes() == 4
    empty = torch.zeros(0)
    assert F.mse_loss(empty, empty, reduction="sum").untyped_storage().nbytes() == 4


def test_flip_topk_aminmax_writes():
    with torch.inference_mode():
        t, scalar, empty = torch.ones(1, 1, 3), torch.tensor(2.0), torch.zeros(1, 0)
        wide = torch.ones(1, 3).expand(2, 3)
    assert [t.flip(d)._version for d in (0, (0, 1), (0, 2), 2)] == [1, 1, 0, 0]
    assert (scalar.flip(0)._version, empty.flip(1)._version, wide.flip(0)._version) == (1, 1, 1)
    assert [r._version for r in scalar.topk(1)] == [1, 1]
    assert [r._version for r in t.topk(1)] == [0, 0]
    for keepdim in (False, True):
        assert [r._version for r in scalar.aminmax(dim=0, keepdim=keepdim)] == [1, 1]
    assert [r._version for r in t.aminmax(dim=0)] == [2, 2]


@pytest.mark.parametrize("dtype", [torch.long, torch.bool])
@pytest.mark.parametrize(("write", "node"), [
    (lambda t, v: t.index_fill_(0, torch.tensor([0]), v), "IndexFillBackward1"),
    (lambda t, v: t.masked_fill_(t == 0, v), "MaskedFillBackward1"),
    (lambda t, v: t.fill_(v), "FillBackward3"),
])
def test_an_integer_tensor_written_in_place_gets_a_history(dtype, write, node):
    t = torch.zeros(2, 3, dtype=dtype)
    total = torch.ones(2, 3, requires_grad=True).sum()
    assert write(t, total) is t
    assert type(t.grad_fn).__name__ == node
    assert t.grad_fn.next_functions[-1][0] is total.grad_fn
    assert (t.dtype, t.requires_grad, t.is_leaf, t._version) == (dtype, True, False, 1)


def test_out_of_place_an_integer_result_is_still_refused():
    t = torch.zeros(2, 3, dtype=torch.long)
    total = torch.ones(3, requires_grad=True).sum()
    with pytest.raises(RuntimeError, match="^Autograd not support dtype: Long$"):
        t.index_fill(0, torch.tensor([0]), total)
    with pytest.raises(RuntimeError, match="^Autograd not support dtype: Long$"):
        t.masked_fill(t == 0, total)


def test_an_integer_view_written_gets_copy_slices():
    t = torch.zeros(2, 3, dtype=torch.long)
    total = torch.ones(3, requires_grad=True).sum()
    t[0] = total
    assert type(t.grad_fn).__name__ == "CopySlices"
    assert t.tolist() == [[3, 3, 3], [0, 0, 0]]
    element = torch.zeros(2, 3, dtype=torch.long)
    element[0, 1] = total  # a 0-d target is copied into: no history for an integer
    assert element.grad_fn is None and not element.requires_grad
