"""Views and writes through them: CopySlices and regenerated grad_fns (F122-F132)."""

import pytest
import torch
from torch.autograd.grad_mode import _force_original_view_tracking


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
