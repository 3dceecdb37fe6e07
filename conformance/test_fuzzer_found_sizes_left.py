"""Behaviour the differential fuzzer found: the first size a tensor resized in place to 0-d
still shows to kernels that read a dimension's size (argmax, argmin, vector_norm) through the
writes they count on a result of inference tensors, and nll_loss through the batch it reads;
the memory a reduced loss keeps; the writes flip, topk and aminmax count; the history an
integer tensor gets when a tensor that requires grad is written into it in place; operands
saved before an op's checks; the saved result of a write on a view; and an inference tensor
given a normal tensor's data. The same assertions run on torch.
"""

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises


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


@pytest.mark.parametrize("shape", [(0, 3), (0, 1), (3, 0), (0,), (2, 0, 1)])
def test_the_norm_of_an_empty_inference_tensor_fills_its_result(shape):
    with torch.inference_mode():
        t = torch.zeros(shape)
    assert t.norm()._version == 1
    assert torch.linalg.vector_norm(t, 1)._version == 1
    assert torch.linalg.vector_norm(t, 0.5, dim=0)._version == 1
    assert torch.zeros(shape).norm()._version == 0  # a normal operand: no write counted


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0,)])
def test_the_spread_of_an_empty_inference_tensor_fills_its_results(shape):
    with torch.inference_mode():
        t = torch.zeros(shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no degrees of freedom
        assert (t.std(0, correction=0)._version, t.var(0)._version, t.var()._version) == (1, 1, 1)
        assert [r._version for r in (*torch.var_mean(t, 0), *torch.std_mean(t))] == [1] * 4
    with torch.inference_mode():
        full = torch.ones(2, 3)
    assert [r._version for r in (full.var(0), *torch.var_mean(full, 0), full.std())] == [
        0, 0, 0, 1]


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


def test_a_0d_target_counts_the_size_it_left_as_its_batch():
    with torch.inference_mode():
        long_target = torch.zeros(1, dtype=torch.long)
        long_target.resize_(())
    with pytest.raises(ValueError, match=r"^Expected input batch_size \(2\) to match target "
                                         r"batch_size \(1\)\.$"):
        F.nll_loss(torch.zeros(2, 3), long_target)
    with pytest.raises(ValueError, match=r"batch_size \(1\) to match target batch_size \(0\)"):
        F.nll_loss(torch.zeros(1, 3), torch.tensor(1))  # born 0-d: 0
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no "):
        F.nll_loss(torch.zeros(1, 3), long_target)


def test_nll_loss_reads_the_target_dtype_before_its_size():
    with pytest.raises(RuntimeError, match="^expected target dtype to be Long or Byte, but "
                                           "got Float$"):
        F.cross_entropy(torch.zeros(0, 3), torch.tensor(0.5))
    with pytest.raises(RuntimeError, match="^expected target dtype to be Long or Byte, but "
                                           "got Float$"):
        F.nll_loss(torch.zeros(3), torch.zeros(2))
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no "):
        F.cross_entropy(torch.zeros(0, 3), torch.tensor(1))
    with pytest.raises(RuntimeError, match=r"^ArrayRef: invalid slice, N = 1; size = 0$"):
        F.nll_loss(torch.zeros(0, 3, 2), torch.tensor(1))


@pytest.mark.parametrize("conv", [F.conv1d, F.conv_transpose1d])
def test_a_convolution_saves_its_inference_operands_before_any_check(conv):
    x = torch.ones(1, 1, 3, requires_grad=True)
    with torch.inference_mode():
        flat, weight, bias = torch.ones(1), torch.ones(1, 1, 2), torch.ones(1)
    before = (x * 2).grad_fn._sequence_nr()
    for w in (flat, weight):
        with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for "):
            conv(x, w)
    assert (x * 2).grad_fn._sequence_nr() == before + 3  # each refused call made its node
    assert conv(x, torch.ones(1, 1, 2), bias).requires_grad  # the bias is not saved
    with torch.no_grad(), pytest.raises(RuntimeError, match="^weight should have at least "):
        conv(x, flat)


def _names(node):
    names, seen, stack = [], set(), [node]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(node.name())
        stack.extend(reversed([f for f, _ in node.next_functions]))
    return names


def test_a_result_written_on_a_view_that_is_gone_unpacks_onto_its_own_node():
    leaf = torch.tensor([[0.3, 0.6]], requires_grad=True)
    tiled = leaf.tile((2,))
    tiled.view(-1)[1:].exp_()  # the view goes with the statement
    weights = torch.tensor([[0.5, 0.25, 0.75, 1.0]])
    grad = torch.autograd.grad(tiled, leaf, weights, create_graph=True)[0]
    assert _names(grad.grad_fn)[3:7] == ["MulBackward0", "ExpBackward0", "SliceBackward0",
                                         "ViewBackward0"]
    held = leaf.tile((2,))
    view = held.view(-1)[1:]
    view.exp_()  # the view stays: its own node is the one unpacked
    grad = torch.autograd.grad(held, leaf, weights, create_graph=True)[0]
    assert _names(grad.grad_fn)[3:6] == ["MulBackward0", "AsStridedBackward0",
                                         "torch::autograd::CopySlices"]


def test_margin_losses_check_sizes_before_their_kernel_dtype():
    longs = torch.arange(3)
    with pytest.raises(RuntimeError, match="^multi_margin_loss: target tensor should be 1-D "):
        F.multi_margin_loss(longs, torch.zeros(3, dtype=torch.long))
    with pytest.raises(RuntimeError, match=r"^inconsistent weight size, expected 3 but got \[2\]$"):
        F.multi_margin_loss(longs, torch.zeros(1, dtype=torch.long), weight=torch.ones(2))
    with pytest.raises(RuntimeError, match="^Expected non-empty vector or matrix"):
        F.multi_margin_loss(torch.zeros(2, 0, dtype=torch.long), torch.zeros(2, dtype=torch.long))
    with pytest.raises(NotImplementedError, match="\"multi_margin_loss_cpu_kernel\" not "
                                                  "implemented for 'Long'"):
        F.multi_margin_loss(longs, torch.zeros(1))  # before the target's dtype
    with pytest.raises(RuntimeError, match=r"^inconsistent target size: \[2\] for input of "):
        F.multilabel_margin_loss(longs, torch.zeros(2, dtype=torch.long))
    with pytest.raises(NotImplementedError, match="multilabel_margin_loss_forward_out_frame"):
        F.multilabel_margin_loss(longs, torch.zeros(3, dtype=torch.long))


def test_vdot_saves_its_operands_before_its_checks():
    x = torch.ones(3, requires_grad=True)
    with torch.inference_mode():
        doubles = torch.ones(3, dtype=torch.double)
    with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for "):
        torch.vdot(doubles, x)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t.shape) or t,
                                                  lambda t: t):
        with pytest.raises(RuntimeError, match="^inconsistent tensor size"):
            torch.vdot(torch.ones(4), x)
    assert packed == [torch.Size([4])]  # only the other operand's gradient needs it


def test_an_inference_tensor_given_normal_data_is_no_longer_one_and_has_no_counter():
    with torch.inference_mode():
        frozen = torch.ones(3)
    frozen.data = torch.ones(3, 2) * 2
    assert not frozen.is_inference() and not torch.is_inference(frozen)
    assert frozen.shape == (3, 2)
    with pytest.raises(RuntimeError, match="^Inference tensors do not track version counter"):
        frozen._version  # noqa: B018
    with pytest.raises(RuntimeError, match="^Inplace update to inference tensor outside "):
        frozen.add_(1)
    assert frozen.requires_grad_().requires_grad
    assert type((frozen * 2).grad_fn).__name__ == "MulBackward0"
    with torch.inference_mode():
        frozen.data = torch.ones(2)
    assert frozen.is_inference()


NO_COUNTER = "Inference tensors do not track version counter."
VIEWS_OF_IT = [lambda t: t.view(-1), lambda t: t.reshape(-1), lambda t: t.flatten(),
               lambda t: t[0], lambda t: t.t(), lambda t: t.unsqueeze(0),
               lambda t: t.split(1), lambda t: t.expand(2, 2, 3), lambda t: t.diagonal(),
               lambda t: t.detach().view(6), lambda t: t.detach()[:, 1]]


def _given_normal_data():
    with torch.inference_mode():
        frozen = torch.ones(2, 3) * 3
    frozen.data = torch.ones(2, 3)
    return frozen


@pytest.mark.parametrize("view", VIEWS_OF_IT)
def test_a_view_of_an_inference_tensor_given_normal_data_is_refused(view):
    frozen = _given_normal_data()
    with raises(RuntimeError, NO_COUNTER):
        view(frozen)
    with torch.inference_mode(), raises(RuntimeError, NO_COUNTER):
        view(frozen)


def test_what_is_made_of_an_inference_tensor_given_normal_data():
    frozen = _given_normal_data()
    detached = frozen.detach()
    assert not detached.is_inference()
    with raises(RuntimeError, NO_COUNTER):
        detached._version  # noqa: B018
    with torch.inference_mode():
        assert not frozen.detach().is_inference()
    data = frozen.data  # a shallow copy with a counter of its own
    assert not data.is_inference() and data._version == 0
    assert data.view(-1).shape == (6,)
    assert [t._version for t in (frozen.clone(), frozen.sum(), frozen.abs(),
                                 frozen[[0]])] == [0, 0, 0, 0]
    assert frozen.float() is frozen
    with raises(RuntimeError, NO_COUNTER):  # a dtype's view shares the lack of a counter
        frozen.view(torch.int32)._version  # noqa: B018


def test_a_normal_tensor_given_inference_data_keeps_counting():
    plain = torch.ones(3)
    with torch.inference_mode():
        frozen = torch.ones(2)
    plain.data = frozen
    assert plain.is_inference()
    assert (plain._version, plain.add_(1)._version) == (0, 1)


def test_a_roots_gradient_is_checked_against_its_node():
    leaf = torch.tensor([[0.5], [0.25]], requires_grad=True)
    out = leaf.amax(-1, keepdim=True) * 1
    out.data = torch.ones(1, 2)
    with pytest.raises(RuntimeError, match=r"^invalid gradient at index 0 - got \[1, 2\] but "
                                           r"expected shape compatible with \[2, 1\]$"):
        torch.autograd.grad(out, [leaf], grad_outputs=torch.ones_like(out))
    summed = leaf.sum(0, keepdim=True) * 1
    summed.data = torch.ones(3, 1)
    grad, = torch.autograd.grad(summed, [leaf], grad_outputs=torch.full((3, 1), 2.0))
    assert grad.tolist() == [[6.0], [6.0]]
