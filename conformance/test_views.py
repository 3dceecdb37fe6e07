"""Views and writes through them: CopySlices and regenerated grad_fns (F122-F132)."""

import pytest
import torch
from torch.autograd.grad_mode import _force_original_view_tracking

from conformance._support import raises


def test_write_through_view_makes_copyslices():
    x = torch.ones(2, 3, requires_grad=True)
    y = x.clone()
    row = y[0]
    row.mul_(2)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert row.grad_fn.name() == "AsStridedBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [[2.0] * 3, [1.0] * 3]


def test_write_to_base_regenerates_views():
    y = torch.ones(2, 3, requires_grad=True).clone()
    views = [y.view(6), y[0], y.t()]
    y.mul_(2)
    assert [v.grad_fn.name() for v in views] == ["AsStridedBackward0"] * 3


def test_view_replay_is_fixed_at_creation():
    y = torch.ones(2, 3, requires_grad=True).clone()
    with _force_original_view_tracking(True):
        t = y.t()
        s = y[0]
    u = y.t()
    y.add_(1)
    assert (t.grad_fn.name(), s.grad_fn.name()) == ("TBackward0", "SelectBackward0")
    with _force_original_view_tracking(True):
        assert u.grad_fn.name() == "AsStridedBackward0"


def test_view_gradient_through_transposed_write():
    x = torch.arange(6.0).view(2, 3).requires_grad_()
    w = torch.full((2,), 3.0, requires_grad=True)
    y = x * 1
    y.t()[1].mul_(w)
    (y * y).sum().backward()
    expected_x = (2 * (x * 1).detach()).tolist()
    for i in range(2):
        expected_x[i][1] = 2 * 9.0 * x[i, 1].item()
    assert x.grad.tolist() == expected_x
    assert w.grad.tolist() == [2 * 3.0 * 1.0**2, 2 * 3.0 * 4.0**2]


def test_view_attributes_and_detach():
    b = torch.ones(2, 3, requires_grad=True)
    v = b[0]
    assert v._base is b and v._is_view() and not b._is_view()
    d = b.detach()
    d.add_(1)
    assert b._version == 1
    n = b.narrow(1, 1, 2)
    assert n._base is b and n.grad_fn.name() == "SliceBackward0"
    g = b.diagonal()
    assert g._base is b and g.grad_fn.name() == "DiagonalBackward0"


def test_setitem_forms():
    x = torch.zeros(3, 4)
    x[0] = 1
    x[1, 1:3] = torch.tensor([2.0, 3.0])
    x[..., 3] = 4
    x[torch.tensor([2]), 0] = 5
    x[x == 0] = 6
    assert x.tolist() == [[1, 1, 1, 4], [6, 2, 3, 4], [5, 6, 6, 4]]
    assert x._version == 5


def test_view_of_memory_that_no_view_can_describe_raises_torchs_error():
    t = torch.arange(6.0).view(2, 3).t()
    with pytest.raises(RuntimeError) as info:
        t.view(6)
    assert str(info.value) == (
        "view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
    )
    assert t.view(3, 2).data_ptr() == t.data_ptr()  # the same shape: still a view
    assert tuple(torch.zeros(0, 3).t().view(0).shape) == (0,)  # nothing to copy, so a view


def test_unfold_is_a_view_of_overlapping_windows():
    signal = torch.arange(6.0, requires_grad=True)
    windows = signal.unfold(0, 3, 2)
    assert windows.tolist() == [[0.0, 1.0, 2.0], [2.0, 3.0, 4.0]]
    assert windows._is_view() and windows.stride() == (2, 1)
    node = windows.grad_fn
    assert type(node).__name__ == "UnfoldBackward0"
    assert (node._saved_dimension, node._saved_size, node._saved_step) == (0, 3, 2)
    windows.sum().backward()
    assert signal.grad.tolist() == [1.0, 1.0, 2.0, 1.0, 1.0, 0.0]  # place 2 is in both
    plain = torch.zeros(5)
    plain.unfold(0, 2, 1)[0, 1] = 7.0  # writes through to the tensor it views
    assert plain.tolist() == [0.0, 7.0, 0.0, 0.0, 0.0] and plain._version == 1
    with raises(RuntimeError, "maximum size for tensor at dimension 0 is 6 but size is 7"):
        signal.unfold(0, 7, 1)
    with raises(RuntimeError, "step is 0 but must be > 0"):
        signal.unfold(0, 2, 0)
    with raises(RuntimeError, "size is -1 but must be >= 0"):
        signal.unfold(0, -1, 1)
    assert signal.unfold(0, 0, 2).shape == (4, 0)  # windows of nothing, one every 2
