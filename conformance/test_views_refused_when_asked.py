"""A view past regenerating that has no node of its own is refused, or not, when its grad_fn
is asked for: whether its base requires grad then decides, not at the write. The same
assertions run on torch."""

import pytest
import torch

from conformance._support import CUSTOM_VIEW, MULTI_VIEW, raises

NOT_LEAF = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = "
    "var.detach()."
)
AMBIGUOUS = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked)."
)
NO_GRAD = ("A view was created in no_grad mode and its base or another view of its base has "
           "been modified inplace with grad mode enabled.")
INFERENCE = ("A view was created in inference mode and its base or another view of its base "
             "has been modified inplace in normal mode.")


class Head(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2]

    @staticmethod
    def backward(ctx, g):
        return torch.cat([g, g.new_zeros(1)])


def _no_grad(base):
    with torch.no_grad():
        return base[:2]


def _inference(base):
    with torch.inference_mode():
        return base[:2]


MADE = [
    pytest.param(_no_grad, NO_GRAD + AMBIGUOUS, id="no_grad"),
    pytest.param(_inference, INFERENCE + AMBIGUOUS.replace("no_grad", "inference_mode"),
                 id="inference_mode"),
    pytest.param(lambda b: b.unbind()[0], NO_GRAD + " " + MULTI_VIEW, id="unbind"),
    pytest.param(lambda b: b.split(2)[0], NO_GRAD + " " + MULTI_VIEW, id="split"),
    pytest.param(Head.apply, NO_GRAD + " " + CUSTOM_VIEW, id="custom_function"),
]


@pytest.mark.parametrize("make, message", MADE)
@pytest.mark.parametrize("written_under_no_grad", [False, True])
def test_a_base_given_grad_after_the_write_has_the_view_refused(make, message,
                                                                 written_under_no_grad):
    base = torch.zeros(3)
    view = make(base)
    if written_under_no_grad:
        with torch.no_grad():
            base.add_(1)
    else:
        base[2:].add_(1)
    assert view.grad_fn is None and view.is_leaf and not view.requires_grad
    base.requires_grad_()
    assert view.requires_grad
    with raises(RuntimeError, message):
        view.grad_fn  # noqa: B018 - the read is refused
    with raises(RuntimeError, message):
        view.is_leaf  # noqa: B018
    with raises(RuntimeError, message):
        view * 2
    assert "grad_fn=<Invalid>" in repr(view)


@pytest.mark.parametrize("make, message", MADE[:2])
def test_a_base_that_gives_grad_up_has_the_view_answer_none_again(make, message):
    base = torch.zeros(3, requires_grad=True)
    view = make(base)
    with torch.no_grad():
        base.add_(1)
    with raises(RuntimeError, message):
        view.grad_fn  # noqa: B018
    base.requires_grad_(False)
    assert view.grad_fn is None and not view.requires_grad
    assert (view * 2).grad_fn is None
    with raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
        view.retain_grad()
    view.mul_(2)  # nothing recorded: no refusal
    assert base.tolist() == [2.0, 2.0, 1.0]


def test_the_views_own_accumulator_is_kept_through_the_refusal():
    base = torch.zeros(3)
    view = _no_grad(base).requires_grad_()
    first = (view * 1).grad_fn.next_functions[0][0]
    base.add_(1)
    assert (view * 1).grad_fn.next_functions[0][0] is first
    base.requires_grad_()
    with raises(RuntimeError, NO_GRAD + AMBIGUOUS):
        view * 1
    base.requires_grad_(False)
    assert (view * 1).grad_fn.next_functions[0][0] is first
    (view * 3).sum().backward()
    assert view.grad.tolist() == [3.0, 3.0]


def test_a_base_given_a_history_by_a_later_write_has_the_view_refused():
    base = torch.zeros(3)
    view = base.unbind()[1]
    base.add_(1)
    x = torch.ones(3, requires_grad=True)
    base.copy_(x * 2)
    assert view.requires_grad
    with raises(RuntimeError, NO_GRAD + " " + MULTI_VIEW):
        view.grad_fn  # noqa: B018


@pytest.mark.parametrize("stale", [False, True])
def test_a_waiting_view_whose_base_gave_grad_up_follows_a_later_history(stale):
    base = torch.zeros(3)
    view = _no_grad(base) if stale else base[:2]
    base.requires_grad_()
    with torch.no_grad():
        base.add_(1)
    base.requires_grad_(False)
    assert not view.requires_grad
    base.copy_(torch.ones(3, requires_grad=True) * 2)
    assert view.requires_grad
    if stale:
        with raises(RuntimeError, NO_GRAD + AMBIGUOUS):
            view.grad_fn  # noqa: B018
    else:
        assert view.grad_fn.name() == "AsStridedBackward0"


def test_a_view_that_had_a_node_is_no_leaf_to_requires_grad_after_the_write():
    base = torch.zeros(3, requires_grad=True) * 1
    view = base.unbind()[0]
    with torch.no_grad():
        base.add_(1)
    assert view.requires_grad
    with raises(RuntimeError, NOT_LEAF):
        view.requires_grad_(False)
