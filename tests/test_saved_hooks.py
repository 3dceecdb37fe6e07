"""refgrad.autograd._saved_hooks and the hooks path of _saved."""

import threading

import pytest

import refgrad
from refgrad.autograd._saved_hooks import POP_EMPTY, pop_hooks, saved_tensors_hooks_is_enabled
from refgrad.autograd._state import state
from refgrad.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks


def test_innermost_pair_is_captured_at_save_time():
    log = []
    a = refgrad.ones(2, requires_grad=True)
    with saved_tensors_hooks(lambda x: log.append("p1") or x, lambda x: log.append("u1") or x):
        with saved_tensors_hooks(lambda x: log.append("p2") or x, lambda x: log.append("u2") or x):
            y = a.sin()
    assert state.saved_tensors_hooks == []
    y.sum().backward()
    assert log == ["p2", "u2"]


def test_pack_runs_without_grad_and_numbers_are_not_packed():
    modes = []
    a = refgrad.ones(2, requires_grad=True)
    with saved_tensors_hooks(lambda x: modes.append(refgrad.is_grad_enabled()) or x, lambda x: x):
        a * 2
        a * a
    assert modes == [False, False]


def test_unpack_grad_mode_follows_create_graph():
    modes = []
    a = refgrad.ones(2, requires_grad=True)
    with saved_tensors_hooks(lambda x: x.detach(),
                             lambda x: modes.append(refgrad.is_grad_enabled()) or x):
        y = (a * a).sum()
    refgrad.autograd.grad(y, a, retain_graph=True)
    refgrad.autograd.grad(y, a, create_graph=True)
    assert modes == [False, False, True, True]


def test_unpacked_leaf_routes_double_backward_to_the_leaf():
    a = refgrad.tensor([3.0], requires_grad=True)
    with saved_tensors_hooks(lambda x: x.detach(), lambda x: x):
        y = (a * a).sum()
    (g,) = refgrad.autograd.grad(y, a, create_graph=True)
    g.sum().backward()
    assert a.grad.tolist() == [2.0]


def test_pop_on_an_empty_stack_is_an_error():
    with pytest.raises(RuntimeError, match=POP_EMPTY):
        pop_hooks()


def test_disable_is_thread_local_and_restored():
    seen = []
    with disable_saved_tensors_hooks("m1"):
        assert not saved_tensors_hooks_is_enabled()
        thread = threading.Thread(target=lambda: seen.append(saved_tensors_hooks_is_enabled()))
        thread.start()
        thread.join()
    assert seen == [True] and saved_tensors_hooks_is_enabled()


def test_register_hooks_on_a_raw_saved_output():
    a = refgrad.ones(2, requires_grad=True)
    y = a.exp()
    got = []
    y.grad_fn._raw_saved_result.register_hooks(lambda x: got.append(x) or x.detach(), lambda x: x)
    assert got[0].grad_fn is None
    assert y.grad_fn._saved_result.grad_fn is y.grad_fn
