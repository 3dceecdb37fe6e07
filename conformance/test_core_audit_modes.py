"""An adversarial pass over saved-tensor hooks and the grad-mode switches: misuse,
exceptions, threads, and the state each leaves behind.

Black-box, against torch's API; every message and value here was recorded from torch 2.13.
"""

import threading

import pytest
import torch
from torch.autograd.graph import (
    allow_mutation_on_saved_tensors,
    disable_saved_tensors_hooks,
    saved_tensors_hooks,
)

from conformance._support import FREED


def boom(*args):
    raise ValueError("boom")


def modes():
    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()


# --- saved-tensor hooks misused
def test_an_unpack_hook_that_raises_keeps_raising_on_a_kept_graph():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda x: x, boom):
        b = a.sin()
    for _ in range(2):
        with pytest.raises(ValueError, match="^boom$"):
            b.sum().backward(retain_graph=True)


@pytest.mark.parametrize("value, name", [(5, "int"), (None, "NoneType"), ("x", "str")])
def test_an_unpack_hook_must_return_a_tensor(value, name):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda x: x, lambda x: value):
        b = a.sin()
    with pytest.raises(TypeError) as info:
        b.sum().backward()
    assert str(info.value) == ("Output of saved tensor unpack_hook expected to be a Tensor "
                               f"but got result of type {name}")


def test_a_pack_hook_must_not_write_its_input():
    for make in (lambda a: a, lambda a: a * 1):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with saved_tensors_hooks(lambda x: x.add_(1), lambda x: x):
            with pytest.raises(RuntimeError, match="^A saved tensor pack hook is modifying"):
                make(a).sin()


def test_hooks_inside_a_pack_hook_are_not_called():
    seen = []
    a = torch.tensor([1.0, 2.0], requires_grad=True)

    def pack(x):
        with saved_tensors_hooks(lambda z: seen.append("inner") or z, lambda z: z):
            a.exp()
        return x

    with saved_tensors_hooks(pack, lambda x: x):
        (a * 1).sin()
    assert seen == []


def test_disable_saved_tensors_hooks_nested_says_the_innermost_message():
    with disable_saved_tensors_hooks("one"):
        with disable_saved_tensors_hooks("two"):
            with pytest.raises(RuntimeError, match="^two$"):
                with saved_tensors_hooks(lambda x: x, lambda x: x):
                    pass
        with pytest.raises(RuntimeError, match="^one$"):  # the outer message is back
            with saved_tensors_hooks(lambda x: x, lambda x: x):
                pass
    with saved_tensors_hooks(lambda x: x, lambda x: x):  # on again once both are left
        pass


def test_disabling_while_hooks_are_on_refuses_at_once():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with disable_saved_tensors_hooks("off"):
        assert a.exp().grad_fn.name() == "ExpBackward0"
    with saved_tensors_hooks(lambda x: x, lambda x: x):
        with pytest.raises(RuntimeError, match="^off$"):
            with disable_saved_tensors_hooks("off"):
                pass
        assert a.exp().grad_fn.name() == "ExpBackward0"

    @disable_saved_tensors_hooks("as a decorator")
    def inner():
        with saved_tensors_hooks(lambda x: x, lambda x: x):
            pass

    with pytest.raises(RuntimeError, match="^as a decorator$"):
        inner()
    with saved_tensors_hooks(lambda x: x, lambda x: x):
        pass


def test_saved_tensors_hooks_are_per_thread():
    seen = []

    def worker():
        with pytest.raises(KeyError):
            with disable_saved_tensors_hooks("in the worker"):
                raise KeyError(1)
        with saved_tensors_hooks(lambda x: x, lambda x: x):
            seen.append("entered")
        seen.append(modes())

    with disable_saved_tensors_hooks("in the main thread"):
        with torch.no_grad():
            thread = threading.Thread(target=worker)
            thread.start()
            thread.join()
    assert seen == ["entered", (True, False)]


def test_register_hooks_on_a_saved_tensor_twice_or_freed():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda x: x, lambda x: x):
        y = a.exp()
    with pytest.raises(RuntimeError, match="^Calling register_hooks on a saved tensor whose"):
        y.grad_fn._raw_saved_result.register_hooks(lambda x: x, lambda x: x)
    z = a.exp()
    raw = z.grad_fn._raw_saved_result
    z.sum().backward()
    with pytest.raises(RuntimeError, match="^Calling register_hooks on a saved tensor after"):
        raw.register_hooks(lambda x: x, lambda x: x)
    with pytest.raises(RuntimeError) as info:
        z.grad_fn._saved_result
    assert str(info.value) == FREED


# --- grad-mode context managers misused
@pytest.mark.parametrize("value", [1, 0, None, "x", 1.0])
def test_set_grad_enabled_takes_a_bool_only(value):
    with pytest.raises(TypeError) as info:
        torch.set_grad_enabled(value)
    assert str(info.value) == ("set_grad_enabled(): argument 'enabled' (position 1) must be "
                               f"bool, not {type(value).__name__}")
    assert modes() == (True, False)


def test_a_decorated_generator_switches_modes_only_while_it_runs():
    @torch.no_grad()
    def gen():
        try:
            x = yield modes()
            yield x, modes()
        finally:
            seen.append(modes())

    seen = []
    g = gen()
    assert next(g) == (False, False) and modes() == (True, False)
    assert g.send(5) == (5, (False, False)) and modes() == (True, False)
    g.close()
    assert seen == [(False, False)] and modes() == (True, False)
    g = gen()
    next(g)
    with pytest.raises(KeyError):
        g.throw(KeyError("k"))
    assert modes() == (True, False)

    @torch.inference_mode(mode=False)
    def outside():
        yield modes()

    with torch.inference_mode():
        assert list(outside()) == [(True, False)]
        assert modes() == (False, True)


def test_decorating_a_class_warns_and_wraps_its_constructor():
    for manager, grad in [(torch.no_grad(), False), (torch.enable_grad(), True),
                          (torch.inference_mode(), False)]:
        with pytest.warns(FutureWarning, match="^Decorating classes is deprecated"):
            @manager
            class Made:
                def __init__(self):
                    self.grad = torch.is_grad_enabled()

        assert type(Made).__name__ == "function"
        assert Made().grad is grad
        assert modes() == (True, False)


def test_no_grad_under_staticmethod_and_on_a_coroutine():
    import asyncio
    import inspect

    class Holder:
        @staticmethod
        @torch.no_grad()
        def still():
            return torch.is_grad_enabled()

    @torch.no_grad()
    async def coroutine():
        return torch.is_grad_enabled()

    assert Holder.still() is False
    assert not inspect.iscoroutinefunction(coroutine)  # the wrapper is a plain function
    assert asyncio.run(coroutine()) is True  # that returned before the body ran


def test_a_manager_entered_twice_restores_what_it_saw_last():
    manager = torch.no_grad()
    with manager:
        with manager:
            pass
        assert modes() == (False, False)
    assert modes() == (False, False)  # the outer exit restored the inner one's False
    torch.set_grad_enabled(True)


@pytest.mark.parametrize("switch, read", [
    (torch.autograd.set_multithreading_enabled, torch.autograd.is_multithreading_enabled),
    (torch.autograd._force_original_view_tracking, torch._C._is_view_replay_enabled),
])
def test_switches_used_as_decorators_and_through_exceptions(switch, read):
    before = read()
    with pytest.raises(KeyError):
        with switch(not before):
            assert read() is (not before)
            raise KeyError("k")
    assert read() is before

    made_now = switch(not before)  # the switch is made on construction, as in torch
    assert read() is (not before)
    with made_now:
        pass
    assert read() is before
    assert type(switch(before).clone()).__name__ == switch.__name__
    assert read() is before


def test_the_stream_mismatch_switch_is_a_function():
    from torch.autograd.graph import set_warn_on_accumulate_grad_stream_mismatch as switch

    assert switch(False) is None and switch(True) is None
    with pytest.raises(RuntimeError, match="^enabled must be a bool, but got int$"):
        switch(1)


def test_allow_mutation_on_saved_tensors_after_errors():
    def works():
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        with allow_mutation_on_saved_tensors():
            b = a.clone()
            c = b.sin()
            b.mul_(2)
            c.sum().backward()
        return a.grad

    expected = works()
    with pytest.raises(ValueError):
        with allow_mutation_on_saved_tensors():
            raise ValueError("x")
    with pytest.raises(KeyError):
        with allow_mutation_on_saved_tensors():
            a = torch.tensor([1.0, 2.0], requires_grad=True)
            b = a.clone()
            c = b.sin()
            b.mul_(2)
            c.register_hook(lambda g: (_ for _ in ()).throw(KeyError("hook")))
            c.sum().backward()
    assert torch.equal(works(), expected)
    with allow_mutation_on_saved_tensors():
        with pytest.raises(RuntimeError, match="contexts cannot be nested$"):
            with allow_mutation_on_saved_tensors():
                pass
