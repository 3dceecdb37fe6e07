"""A view of a tensor without grad comes to require grad when a write gives its base a
history, whether or not an earlier write left it waiting, and backward reaches through
it. The same assertions run on torch."""

import pytest
import torch


def test_a_view_of_a_buffer_written_from_a_leaf():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    buf = torch.zeros(3)
    v = buf[:]
    buf.copy_(x)
    assert v.requires_grad
    ((v * v).sum() + buf.sum()).backward()
    assert x.grad.tolist() == [3.0, 5.0, 7.0]


def test_a_buffer_zeroed_then_written_from_a_leaf():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    buf = torch.ones(3)
    v = buf[:2]
    buf.zero_()  # a write without history first
    assert not v.requires_grad
    buf.add_(x)
    buf.mul_(2)
    assert v.requires_grad
    (v * 3).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0, 0.0]
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"


def test_rows_beside_the_row_written():
    w = torch.ones(4, requires_grad=True)
    m = torch.zeros(3, 4)
    rows = [m[i] for i in range(3)]
    rows[0].copy_(w)
    assert [r.requires_grad for r in rows] == [True, True, True]
    (rows[0] * 2 + rows[1]).sum().backward()
    assert w.grad.tolist() == [2.0] * 4


def test_a_write_through_a_waiting_view_made_before_its_base_had_history():
    # The view's own node is still none, so the write sees a leaf that requires grad.
    w = torch.ones(2, requires_grad=True)
    b = torch.ones(3)
    v = b[:2]
    b.mul_(torch.cat([w, torch.ones(1)]))
    with pytest.raises(RuntimeError) as info:
        v.mul_(2)
    assert str(info.value) == ("a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
    assert type(b.grad_fn).__name__ == "MulBackward0" and b._version == 1


def test_a_base_marked_dirty_by_a_custom_function():
    class AddInto(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            x.add_(w)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g, g

    w = torch.ones(3, requires_grad=True)
    b = torch.zeros(3)
    v = b[:2]
    AddInto.apply(b, w)
    assert v.requires_grad
    (v * 3).sum().backward()
    assert w.grad.tolist() == [3.0, 3.0, 0.0]


def test_a_view_whose_base_gave_up_grad_after_the_write():
    b = torch.ones(3, requires_grad=True)
    v = b[:2]
    with torch.no_grad():
        b.mul_(2)
    b.requires_grad_(False)
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert v.grad_fn.next_functions == ((None, 0),)
