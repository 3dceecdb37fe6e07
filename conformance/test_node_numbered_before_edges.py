"""An op's node is numbered before its edges are collected: a view a write left waiting,
regenerated as the op's edge, gets the next number after the op's node. A custom
Function collects its edges first. An op whose kernel refuses has used a number up.
The same assertions run on torch."""

import pytest
import torch


def _waiting(size=4):
    """A non-leaf, a view of it and the write that left the view waiting."""
    base = torch.ones(size, requires_grad=True).clone()
    view = base[:2]
    base.mul_(2)
    return base, view


def _after(node, base):
    return node._sequence_nr() - base.grad_fn._sequence_nr()


def test_an_op_on_a_waiting_view_is_numbered_before_the_view():
    base, view = _waiting()
    out = view * 3
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"
    assert (_after(out.grad_fn, base), _after(view.grad_fn, base)) == (1, 2)
    assert torch.autograd._get_sequence_nr() == view.grad_fn._sequence_nr() + 1
    assert _after((out * 2).grad_fn, base) == 3


def test_reading_grad_fn_regenerates_with_the_next_number():
    base, view = _waiting()
    assert _after(view.grad_fn, base) == 1
    assert _after((view * 3).grad_fn, base) == 2


def test_two_waiting_views_in_one_op_follow_in_operand_order():
    base = torch.ones(4, requires_grad=True).clone()
    first, second = base[:2], base[2:]
    base.mul_(2)
    out = first + second
    assert _after(out.grad_fn, base) == 1
    assert [_after(n, base) for n, _ in out.grad_fn.next_functions] == [2, 3]


def test_reading_the_next_number_does_not_take_it():
    base, view = _waiting()
    before = torch.autograd._get_sequence_nr()
    out = view * 3
    assert out.grad_fn._sequence_nr() == before
    assert torch.autograd._get_sequence_nr() == before + 2
    assert torch.autograd._get_sequence_nr() == before + 2
    assert (out * 2).grad_fn._sequence_nr() == before + 2


def test_an_in_place_op_on_a_waiting_view():
    base, view = _waiting()
    view.mul_(3)
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"
    assert _after(view.grad_fn, base) == 1
    assert _after(view.grad_fn.next_functions[0][0], base) == 0


class _Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, None


def test_a_function_collects_its_edges_before_making_its_node():
    base = torch.ones(4, requires_grad=True).clone()
    first, second = base[:2], base[2:]
    base.mul_(2)
    out = _Twice.apply(first, second)
    assert _after(out.grad_fn, base) == 3
    assert [_after(n, base) for n, _ in out.grad_fn.next_functions] == [1, 2]


def test_a_function_under_no_grad_leaves_its_inputs_waiting():
    base, view = _waiting()
    with torch.no_grad():
        _Twice.apply(view, view)
    later = torch.ones(1, requires_grad=True) * 2
    assert _after(later.grad_fn, base) == 2  # the Function's node took 1
    assert _after(view.grad_fn, base) == 3


_REFUSED_IN_THE_KERNEL = {
    "add": lambda a: a + torch.ones(3, 2),
    "mm": lambda a: a.mm(a),
    "cat": lambda a: torch.cat([a, torch.ones(2, 2)]),
    "gather": lambda a: a.gather(1, torch.tensor([[5]])),
    "matmul": lambda a: a @ a,
    "linear": lambda a: torch.nn.functional.linear(a, torch.ones(4, 4)),
    "stack": lambda a: torch.stack([a, torch.ones(3)]),
    "pow": lambda a: a.pow(torch.ones(4)),
}


@pytest.mark.parametrize("name", list(_REFUSED_IN_THE_KERNEL))
def test_a_refused_op_has_used_a_number_up(name):
    a = torch.ones(2, 3, requires_grad=True) * 1
    with pytest.raises(RuntimeError):
        _REFUSED_IN_THE_KERNEL[name](a)
    assert (a * 2).grad_fn._sequence_nr() == a.grad_fn._sequence_nr() + 2


def test_a_refused_op_on_a_waiting_view():
    base, view = _waiting()
    with pytest.raises(RuntimeError):
        view + torch.ones(3)
    assert _after(view.grad_fn, base) == 2
    assert _after((torch.ones(1, requires_grad=True) * 2).grad_fn, base) == 3


def test_a_refused_op_without_grad_takes_no_number():
    a = torch.ones(2, 3, requires_grad=True) * 1
    with torch.no_grad(), pytest.raises(RuntimeError):
        a + torch.ones(3, 2)
    with pytest.raises(RuntimeError):
        torch.ones(2, 3) + torch.ones(3, 2)
    assert (a * 2).grad_fn._sequence_nr() == a.grad_fn._sequence_nr() + 1


def test_a_leaf_view_written_without_grad_goes_on_waiting():
    leaf = torch.rand(2, 3).t().requires_grad_(True)
    with torch.no_grad():
        leaf.add_(torch.ones(3, 2))
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        torch.ones(2, 1, requires_grad=True) @ leaf
    before = torch.autograd._get_sequence_nr()
    out = leaf * 2
    assert out.grad_fn._sequence_nr() == before
    assert type(out.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    assert leaf.grad_fn is None and leaf.is_leaf
    assert torch.autograd._get_sequence_nr() == before + 1
