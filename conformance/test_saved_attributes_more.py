"""Saved values nodes show: custom Functions', nll_loss's total weight, copy_'s, checkpoint's."""

import pytest
import torch
import torch.utils.checkpoint as cp
from torch.autograd.graph import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks

from conformance._support import FREED, doubling_function, leaf, raises, saved_names

F = torch.nn.functional
NOT_WRITABLE = "attribute '{}' of 'torch._C._FunctionBase' objects is not writable"


class SaveTwo(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, None)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2, None


def test_a_custom_node_shows_its_raw_saved_tensors_until_released():
    a = leaf(1.0, 2.0)
    y = SaveTwo.apply(a, a)
    raw = y.grad_fn._raw_saved_tensors
    assert type(raw) is tuple and len(raw) == 2
    assert all(isinstance(s, torch.autograd.SavedTensor) for s in raw)
    assert raw[0].unpack() is a and raw[1].data is None
    assert doubling_function(torch).apply(a).grad_fn._raw_saved_tensors == ()
    y.sum().backward()
    for read in (lambda: y.grad_fn._raw_saved_tensors, lambda: y.grad_fn.saved_tensors):
        with raises(RuntimeError, FREED):
            read()


def test_hooks_registered_on_a_custom_nodes_raw_saved_tensor_give_its_value():
    a = leaf(1.0, 2.0)
    y = SaveTwo.apply(a, a)
    y.grad_fn._raw_saved_tensors[0].register_hooks(lambda t: t, lambda t: t * 10)
    assert y.grad_fn.saved_tensors[0].tolist() == [10.0, 20.0]


@pytest.mark.parametrize("name", ["saved_tensors", "_raw_saved_tensors", "saved_variables"])
def test_a_custom_nodes_saved_tensors_cannot_be_assigned_or_deleted(name):
    node = SaveTwo.apply(leaf(1.0), leaf(2.0)).grad_fn
    with raises(AttributeError, NOT_WRITABLE.format(name)):
        setattr(node, name, ())
    with raises(AttributeError, NOT_WRITABLE.format(name)):
        delattr(node, name)


NLL = [
    ({}, 2.0), ({"weight": torch.tensor([1.0, 2.0, 3.0])}, 4.0), ({"reduction": "sum"}, 2.0),
    ({"reduction": "none"}, 0.0), ({"ignore_index": 0}, 1.0),
]


@pytest.mark.parametrize(("given", "total"), NLL, ids=["mean", "weight", "sum", "none", "ignore"])
def test_nll_loss_keeps_the_total_weight(given, total):
    x = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], requires_grad=True)
    node = F.nll_loss(x, torch.tensor([0, 2]), **given).grad_fn
    assert "_saved_total_weight" in saved_names(node)
    kept = node._saved_total_weight
    assert (kept.tolist(), kept.dtype, kept.shape, kept.requires_grad) == (
        total, torch.float32, torch.Size([]), False)


def test_nll_loss_packs_the_total_weight_last():
    x = torch.zeros(2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
    log = []
    with saved_tensors_hooks(lambda t: log.append((tuple(t.shape), t.dtype)) or t, lambda t: t):
        y = F.nll_loss(x, torch.zeros(2, 2, 2, dtype=torch.long))
    assert type(y.grad_fn).__name__ == "NllLoss2DBackward0"
    assert log == [((2, 3, 2, 2), torch.float64), ((2, 2, 2), torch.int64),
                   ((), torch.float64)]
    assert y.grad_fn._saved_total_weight.tolist() == 8.0
    y.backward()
    with raises(RuntimeError, FREED):
        y.grad_fn._saved_total_weight


def test_copy_backwards_shows_nothing_saved():
    b = leaf(1.0, 2.0) * 1
    b.copy_(torch.ones(2, dtype=torch.float64))
    assert b.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert saved_names(b.grad_fn) == []


def test_a_checkpoint_keeps_holders_in_place_of_tensors():
    a = leaf(1.0, 2.0)
    y = cp.checkpoint(lambda x: x * x, a, use_reentrant=False)
    assert type(y.grad_fn._raw_saved_self.data).__name__ == "_Holder"


def test_the_c_module_tells_whether_saved_tensor_hooks_are_enabled():
    autograd = torch._C._autograd
    assert autograd._saved_tensors_hooks_is_enabled()
    assert autograd._saved_tensors_hooks_get_disabled_error_message() is None
    with disable_saved_tensors_hooks("m1"):
        assert not autograd._saved_tensors_hooks_is_enabled()
        assert autograd._saved_tensors_hooks_get_disabled_error_message() == "m1"
    assert autograd._saved_tensors_hooks_is_enabled()


def test_save_on_cpu_pinned_copies_into_a_fresh_contiguous_tensor():
    a = torch.ones(2, 3, requires_grad=True)
    b = a.t()
    with save_on_cpu(pin_memory=True):
        y = b * b
    device, copy = y.grad_fn._raw_saved_self.data
    assert device == torch.device("cpu") and copy is not b
    assert (copy.stride(), copy.is_contiguous(), copy._version, copy._base) == (
        (2, 1), True, 1, None)
    assert y.grad_fn._saved_self.stride() == (2, 1)
    y.sum().backward()
    assert a.grad.tolist() == [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
