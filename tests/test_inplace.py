"""White-box tests of the in-place modules: casting rules, saved values, the op table."""

import numpy as np
import pytest

import refgrad as torch
from refgrad._ops import OPS, shared_memory_fills, write_checks


@pytest.mark.parametrize(("source", "target", "ok"), [
    ("float64", "float32", True), ("int64", "float32", True), ("float32", "int64", False),
    ("complex64", "float32", False), ("int64", "bool", False), ("bool", "int64", True),
])
def test_can_cast(source, target, ok):
    assert write_checks._can_cast(np.dtype(source), np.dtype(target)) is ok


def test_rows_of_writes_declare_what_they_write():
    for name in ("zero_", "fill_", "fill_.Tensor", "copy_", "index_put_"):
        assert OPS[name].writes == ("self",)


def test_saved_result_follows_self():
    x = torch.ones(2, requires_grad=True)
    b = x * 1
    b.exp_()
    saved = b.grad_fn._raw_saved_result
    assert saved._counter is b._version_counter
    assert saved._version == b._version == 1


def test_original_self_is_cloned_only_when_saved():
    x = torch.ones(2, requires_grad=True)
    b = x * 1
    b.add_(1)  # add saves nothing
    assert b.grad_fn.next_functions[0][0].name() == "MulBackward0"
    c = x * 1
    c.mul_(c)  # self is cloned; ``other`` is c itself, now one version ahead (as in torch)
    node = c.grad_fn
    assert node._saved_self.grad_fn.name() == "CloneBackward0"
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        node._saved_other


def test_readonly_arrays_are_refused():
    e = torch.ones(1).expand(3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        e.add_(1)


def test_inplace_in_inference_mode_keeps_working():
    with torch.inference_mode():
        t = torch.ones(2)
        t.add_(1)
    assert t.tolist() == [2.0, 2.0]


def test_a_recorded_single_value_write_where_elements_share_memory_refuses_in_backward():
    # NOTE [Writes where elements share memory], NOTE [A window that shares memory]
    x = torch.ones(3, requires_grad=True)
    c = x.clone()
    c.expand(2, 3).fill_(2.0)
    assert c._version == 1 and c.tolist() == [2.0, 2.0, 2.0]
    assert c.grad_fn.name() == "torch::autograd::CopySlices" and c.grad_fn._shared
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        c.sum().backward()
    assert x.grad is None


@pytest.mark.parametrize("write", [
    lambda e: e.masked_fill_(torch.tensor([True, False, False]), 1.0),
    lambda e: e.index_put_((torch.tensor([0]),), torch.tensor(5.0)),
    lambda e: e.__setitem__(torch.tensor([True, False]), 2.0),
])
def test_a_recorded_masked_or_indexed_write_where_elements_share_memory_warns_and_writes(
        write):
    # torch warns too, writes, and fails in the backward
    c = torch.zeros(3, requires_grad=True).clone()
    with pytest.warns(UserWarning, match="on expanded tensors is deprecated"):
        write(c.expand(2, 3))
    assert c._version == 1 and c.tolist() != [0.0, 0.0, 0.0]
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        c.sum().backward()


def test_the_shared_write_form_is_used_only_where_elements_share_memory():
    x = torch.zeros(2, 3)
    x.masked_fill_(torch.tensor([True, False, True]), 4.0)  # no warning: nothing shared
    assert x.tolist() == [[4.0, 0.0, 4.0]] * 2 and x._version == 1
    fills = shared_memory_fills
    assert fills._masked_fill.shared_warnings == (fills.MASKED_FILL_WARNING,)


def test_a_recorded_index_fill_where_elements_share_memory_writes_then_refuses_in_backward():
    import warnings

    leaf = torch.zeros(3, 1, requires_grad=True)
    shared = (leaf * 1).expand(3, 2)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        shared.index_fill_(0, torch.tensor([1]), 5.0)
    assert shared.tolist() == [[0.0, 0.0], [5.0, 5.0], [0.0, 0.0]]
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        shared.sum().backward()
    assert leaf.grad is None


def test_an_inference_tensor_outside_the_mode_gets_an_unrecorded_result():
    from refgrad._ops.inplace import _unrecorded

    with torch.inference_mode():
        a = torch.ones(2, requires_grad=True)
        b = torch.ones(2)
    y = torch.full((2,), 3.0, requires_grad=True)
    result = _unrecorded(b, torch.mul, (y,), {})  # recorded, it would save b: seen by autograd
    assert result.grad_fn is None and not result.requires_grad and result.tolist() == [3.0, 3.0]
    assert _unrecorded(a, torch.mul, (b,), {}).grad_fn is None  # inference operands alone
    with pytest.raises(RuntimeError, match="a leaf Variable"):
        _unrecorded(a, torch.add, (y,), {})


def test_in_inference_mode_with_grad_enabled_a_write_to_a_leaf_view_records_nothing():
    a = torch.ones(3, requires_grad=True)
    with torch.inference_mode(), torch.enable_grad():
        v = a[:2]
        assert v.mul_(2) is v
        assert v._grad_fn is None and a._grad_fn is None
    assert a.tolist() == [2.0, 2.0, 1.0] and a._version_counter.value == 1
