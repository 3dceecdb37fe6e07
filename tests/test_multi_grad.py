"""White-box tests of refgrad.autograd._multi_grad."""

import pytest

import refgrad
from refgrad.autograd._accumulate import AccumulateGrad
from refgrad.autograd._edges import get_gradient_edge
from refgrad.autograd._multi_grad import _get_grad_fn_or_grad_acc, register_multi_grad_hook


def test_node_for_each_kind_of_tensor():
    a = refgrad.tensor([1.0], requires_grad=True)
    b = a * 2
    assert _get_grad_fn_or_grad_acc(b) is b.grad_fn
    assert type(_get_grad_fn_or_grad_acc(a)) is AccumulateGrad
    assert _get_grad_fn_or_grad_acc(get_gradient_edge(b)) is b.grad_fn
    with pytest.raises(AssertionError):
        _get_grad_fn_or_grad_acc(refgrad.ones(1))


def test_all_mode_forgets_a_call_once_it_fired():
    a = refgrad.tensor([1.0], requires_grad=True)
    register_multi_grad_hook((a,), lambda gs: None)
    hook = list(a._backward_hooks.values())[0]
    (a * 2).backward()
    calls = hook.func.__closure__  # the counters live in the closure of inner_hook
    counters = next(c.cell_contents for c in calls if isinstance(c.cell_contents, dict))
    assert counters == {}


def test_all_mode_shares_its_expected_count_between_graph_tasks():
    seen = []
    a = refgrad.tensor([1.0], requires_grad=True)
    b = refgrad.tensor([2.0], requires_grad=True)
    register_multi_grad_hook((a, b), seen.append)
    inner_done = []

    def nested(g):
        # A backward nested inside another one is its own graph task, and sets the
        # expected count to its own (one), which the outer task's two calls then miss.
        if not inner_done:
            inner_done.append(True)
            with refgrad.enable_grad():
                (a * 5).backward()

    b.register_hook(nested)
    (a * 1 + b * 1).backward()
    assert [[None if g is None else g.item() for g in gs] for gs in seen] == [[5.0, None]]
    (a * 1 + b * 1).backward()  # a later call counts afresh
    assert [[None if g is None else g.item() for g in gs] for gs in seen] == [
        [5.0, None], [1.0, 1.0]]


def test_an_inference_leaf_has_no_node_for_the_hook():
    with refgrad.inference_mode():
        a = refgrad.ones(2, requires_grad=True)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute"):
        _get_grad_fn_or_grad_acc(a)
    assert a._grad_accumulator is None
