"""An adversarial pass over the graph and grad-mode core: hooks that raise or return the
wrong thing, misused context managers, odd nodes, and the state each leaves behind.

Black-box, against torch's API; every message and value here was recorded from torch 2.13.
"""

import threading

import pytest
import torch
from torch.autograd.graph import (
    register_multi_grad_hook,
)


def boom(*args):
    raise ValueError("boom")


def made():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return a, (a * 2).sin()


def modes():
    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()


# --- a raising hook of every kind: its own exception object, state restored, hooks kept
class Raised(Exception):
    def __init__(self, a, b):
        super().__init__(a, b)
        self.extra = 42


def register_raising(kind, a, b, error):
    def raiser(*args):
        raise error

    if kind == "tensor":
        b.register_hook(raiser)
    elif kind == "leaf":
        a.register_hook(raiser)
    elif kind == "post_accumulate":
        a.register_post_accumulate_grad_hook(raiser)
    elif kind == "prehook":
        b.grad_fn.register_prehook(raiser)
    elif kind == "posthook":
        b.grad_fn.register_hook(raiser)
    elif kind == "multi_all":
        register_multi_grad_hook((b,), raiser)
    else:
        register_multi_grad_hook((b,), raiser, mode="any")


KINDS = ["tensor", "leaf", "post_accumulate", "prehook", "posthook", "multi_all", "multi_any"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("error", [Raised(1, 2), KeyboardInterrupt("kb"), StopIteration(7)])
def test_a_raising_hook_lets_its_own_exception_out(kind, error):
    a, b = made()
    register_raising(kind, a, b, error)
    with pytest.raises(type(error)) as info:
        b.sum().backward(retain_graph=True)
    assert info.value is error
    assert info.value.__cause__ is None and info.value.__context__ is None
    assert getattr(info.value, "extra", None) == getattr(error, "extra", None)
    assert modes() == (True, False)
    with pytest.raises(type(error)):  # the graph was kept and the hook is still there
        b.sum().backward()


@pytest.mark.parametrize("kind", ["tensor", "prehook", "posthook", "multi_all"])
def test_a_raising_hook_inside_grad_with_create_graph(kind):
    a, b = made()
    register_raising(kind, a, b, ValueError("boom"))
    with pytest.raises(ValueError, match="^boom$"):
        torch.autograd.grad(b.sum(), a, create_graph=True)
    assert modes() == (True, False)


def test_a_removed_raising_hook_lets_backward_finish():
    a, b = made()
    handle = b.register_hook(boom)
    with pytest.raises(ValueError):
        b.sum().backward(retain_graph=True)
    handle.remove()
    b.sum().backward()
    assert a.grad is not None


def test_a_hook_that_changes_modes_and_raises_leaves_them_restored():
    a, b = made()

    def hook(grad):
        torch.set_grad_enabled(True)
        with torch.inference_mode():
            raise KeyError("inf")

    b.register_hook(hook)
    loss = b.sum()
    with torch.no_grad():
        with pytest.raises(KeyError):
            loss.backward()
        assert modes() == (False, False)


def test_a_raising_hook_in_a_thread_and_in_a_nested_backward():
    seen = []

    def worker():
        a, b = made()
        b.register_hook(boom)
        try:
            b.sum().backward()
        except ValueError as e:
            seen.append(str(e))
        seen.append(modes())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == ["boom", (True, False)]

    a, b = made()

    def nested(grad):
        with torch.enable_grad():
            x = torch.tensor([1.0], requires_grad=True)
            y = x * 2
            y.register_hook(boom)
            y.sum().backward()
        return grad

    b.register_hook(nested)
    with pytest.raises(ValueError, match="^boom$"):
        b.sum().backward()
    assert modes() == (True, False)


# --- what a hook returns
@pytest.mark.parametrize("value, error, message", [
    (torch.zeros(2), RuntimeError, "hook '<lambda>' has changed the size of value"),
    (torch.zeros(3, dtype=torch.float64), RuntimeError,
     "hook '<lambda>' has changed the type of value (was torch.FloatTensor got "
     "torch.DoubleTensor)"),
    (torch.zeros(3, dtype=torch.int64), RuntimeError,
     "hook '<lambda>' has changed the type of value (was torch.FloatTensor got "
     "torch.LongTensor)"),
    ("x", TypeError, "expected Variable, but hook returned 'str'"),
    ((torch.zeros(3),), TypeError, "expected Variable, but hook returned 'tuple'"),
])
def test_a_tensor_hook_returning_the_wrong_thing(value, error, message):
    for on_leaf in (False, True):
        a, b = made()
        (a if on_leaf else b).register_hook(lambda g: value)
        with pytest.raises(error) as info:
            b.sum().backward()
        assert str(info.value) == message


@pytest.mark.parametrize("value, error, message", [
    (torch.zeros(3), TypeError, "expected tuple, but hook returned 'Tensor'"),
    ([torch.zeros(3)], TypeError, "expected tuple, but hook returned 'list'"),
    (5, TypeError, "expected tuple, but hook returned 'int'"),
    ((torch.zeros(3), torch.zeros(3)), RuntimeError,
     "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)"),
    ((torch.zeros(2),), RuntimeError, "hook '<lambda>' has changed the size of value"),
])
def test_a_node_hook_returning_the_wrong_thing(value, error, message):
    for pre in (True, False):
        a, b = made()
        if pre:
            b.grad_fn.register_prehook(lambda g: value)
        else:
            b.grad_fn.register_hook(lambda gi, go: value)
        with pytest.raises(error) as info:
            b.sum().backward()
        assert str(info.value) == message


def test_node_hooks_returning_none_in_a_tuple_cut_the_gradient():
    a, b = made()
    b.grad_fn.register_prehook(lambda g: (None,))
    b.sum().backward()
    assert a.grad is None


def test_a_post_accumulate_grad_hook_must_return_none():
    a, b = made()
    a.register_post_accumulate_grad_hook(lambda t: torch.zeros(3))
    with pytest.raises(RuntimeError) as info:
        b.sum().backward()
    assert str(info.value) == "Tensor post accumulate grad hooks should return None."


def test_retain_grad_and_a_raising_hook_in_either_order():
    for retain_first in (True, False):
        a, b = made()
        if retain_first:
            b.retain_grad()
        b.register_hook(boom)
        if not retain_first:
            b.retain_grad()
        with pytest.raises(ValueError):
            b.sum().backward()
        assert b.grad is None
