"""register_multi_grad_hook (F96–F106, F192): black-box, against torch's API."""

import functools
import pickle
import threading
from collections import OrderedDict

import pytest
import torch
from torch.autograd.graph import _MultiHandle, register_multi_grad_hook
from torch.utils.hooks import RemovableHandle

from conformance._support import leaf, raises


# F96
def test_mode_is_keyword_only_and_checked():
    x = leaf(1.0)
    with raises(ValueError, "Expects mode to be one of ('all', 'any') but got some"):
        register_multi_grad_hook((x,), print, mode="some")
    with raises(
        TypeError,
        "register_multi_grad_hook() takes 2 positional arguments but 3 were given",
    ):
        register_multi_grad_hook((x,), print, "any")


# F97
def test_handle_holds_one_handle_per_tensor_and_removes_all():
    calls = []
    a, b = leaf(1.0), leaf(2.0)
    handle = register_multi_grad_hook([a, b], calls.append)
    assert type(handle) is _MultiHandle and isinstance(handle, RemovableHandle)
    assert len(handle.handles) == 2 and all(type(h) is RemovableHandle for h in handle.handles)
    assert repr(handle).startswith("<torch.autograd.graph._MultiHandle object at 0x")
    assert handle.__getstate__() is handle.handles
    handle.remove()
    (a * b).backward()
    assert calls == []
    assert register_multi_grad_hook((), print).handles == ()


def test_handle_pickles_as_its_handles():
    hooks = OrderedDict()
    inner = RemovableHandle(hooks)
    hooks[inner.id] = "hook"
    handle = _MultiHandle((inner,))
    hooks_copy, copy = pickle.loads(pickle.dumps((hooks, handle)))
    assert type(copy) is _MultiHandle and [h.id for h in copy.handles] == [inner.id]
    copy.remove()
    assert hooks_copy == {} and hooks == {inner.id: "hook"}


# F98
def test_all_mode_documented_example():
    seen = []
    a = torch.rand(2, 3, requires_grad=True)
    b = torch.rand(2, 3, requires_grad=True)
    c, d = a * b, a * b
    register_multi_grad_hook((a, b, c, d), lambda gs: seen.append((type(gs), [
        g is not None for g in gs])))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    assert seen == [(list, [True, True, True, False]), (list, [True, False, True, False])]


def test_all_mode_fires_inside_the_last_expected_tensor_hook():
    calls = []
    a = leaf(1.0)
    b = a * 2
    c = b * 3
    register_multi_grad_hook((a, b), lambda gs: calls.append(("multi", [
        None if g is None else g.item() for g in gs])))
    a.register_hook(lambda g: calls.append(("plain a", g.item())))
    b.register_hook(lambda g: calls.append(("plain b", g.item())))
    c.backward(retain_graph=True)
    assert calls == [("plain b", 3.0), ("multi", [6.0, 3.0]), ("plain a", 6.0)]
    calls.clear()
    (gb,) = torch.autograd.grad(c, b)
    assert calls == [("multi", [None, 3.0]), ("plain b", 3.0)] and gb.item() == 3.0


def test_all_mode_same_tensor_twice_fills_both_slots():
    seen = []
    a = leaf(1.0)
    register_multi_grad_hook([a, a], lambda gs: seen.append([g.item() for g in gs]))
    (a * 2).backward()
    assert seen == [[2.0, 2.0]]


def test_all_mode_ignores_tensors_not_in_the_graph():
    seen = []
    a, b, c = leaf(1.0), leaf(2.0), leaf(3.0)
    register_multi_grad_hook((a, b, c), lambda gs: seen.append(
        [None if g is None else g.item() for g in gs]))
    (a * 1).backward()
    (b * 10).backward()
    assert seen == [[1.0, None, None], [None, 10.0, None]]


def test_all_mode_return_value_is_ignored():
    a = leaf(1.0)
    register_multi_grad_hook((a,), lambda gs: "ignored")
    (a * 2).backward()
    assert a.grad.item() == 2.0


# F99, F100, F103
def test_misuse_messages():
    with raises(AssertionError, "Expected gradient function to be set"):
        register_multi_grad_hook((leaf(1.0), torch.ones(1)), print)
    a = leaf(1.0)
    register_multi_grad_hook((a,), print)
    with raises(AssertionError, "expected this hook to be called inside a backward call"):
        list(a._backward_hooks.values())[0](torch.ones(1))
    b = leaf(1.0)
    register_multi_grad_hook((b,), print, mode="any")
    with raises(AssertionError, "expected this hook to be called inside a backward call"):
        list(b._backward_hooks.values())[0](torch.ones(1))


def test_leaf_input_of_grad_is_torchs_known_limitation():
    a = leaf(1.0)
    b = a * 2
    register_multi_grad_hook((a, b), print)
    with raises(
        RuntimeError,
        "A leaf node was passed to _will_engine_execute_node but we are currently running "
        "autograd.grad(). This is currently not supported.",
    ):
        torch.autograd.grad(b * 3, a)


def test_any_mode_fires_once_per_backward_with_the_first_gradient():
    seen = []
    a, b = leaf(1.0), leaf(2.0)
    c, d = a * 10, b * 100
    handle = register_multi_grad_hook((a, b, c, d, torch.ones(1)),
                                      lambda g: seen.append(g.item()), mode="any")
    assert len(handle.handles) == 4
    out = c + d
    out.backward(retain_graph=True)
    out.backward()
    assert seen == [1.0, 1.0]


def test_any_mode_wraps_fn():
    def my_fn(grad):
        """doc"""

    a = leaf(1.0)
    register_multi_grad_hook((a,), my_fn, mode="any")
    wrapped = list(a._backward_hooks.values())[0]
    assert (wrapped.__name__, wrapped.__doc__, wrapped.__wrapped__) == ("my_fn", "doc", my_fn)


# F104, F192
@pytest.mark.parametrize("mode", ["all", "any"])
def test_eight_threads_each_get_their_own_callback(mode):
    x, y = leaf(1.0), leaf(2.0)
    results, lock = [], threading.Lock()

    def record(grads):
        with lock:
            results.append(grads)

    register_multi_grad_hook((x, y), record, mode=mode)
    barrier = threading.Barrier(8)

    def worker(k):
        out = x * k + y * (10 * k)
        barrier.wait()
        for _ in range(5):
            out.backward(retain_graph=True)

    threads = [threading.Thread(target=functools.partial(worker, k)) for k in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 40
    if mode == "all":
        expected = sorted([float(k), 10.0 * k] for k in range(1, 9) for _ in range(5))
        assert sorted([g.item() for g in gs] for gs in results) == expected
    else:
        assert sorted(g.item() for g in results) == sorted(
            10.0 * k for k in range(1, 9) for _ in range(5))


def test_a_nested_backward_resets_the_count_the_outer_call_waits_for():
    a, b = leaf(1.0, 2.0), leaf(1.0, 2.0)
    m, n = a * 2, b * 2
    fired = []
    register_multi_grad_hook((m, n), lambda grads: fired.append([g is not None for g in grads]))
    inner = (m * 5).sum()
    n.register_hook(lambda g: inner.backward(retain_graph=True))  # reaches only m
    (m + n).sum().backward()
    assert fired == [[True, False]]  # the nested call's; the outer call never fires
    assert a.grad.tolist() == [12.0, 12.0] and b.grad.tolist() == [2.0, 2.0]
