"""Grad modes (F133–F165, F23, F157–F159, F197): black-box, against torch's API."""

import functools
import gc
import inspect
import threading
import warnings

import pytest
import torch
import torch.autograd.grad_mode as gm
from torch.utils._contextlib import context_decorator

from conformance._support import raises

C = torch._C


def modes():
    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()


# F162
def test_defaults_and_aliases():
    assert modes() == (True, False)
    for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode"):
        assert getattr(torch, name) is getattr(torch.autograd, name) is getattr(gm, name)
    assert torch.autograd.set_multithreading_enabled is gm.set_multithreading_enabled
    assert not hasattr(torch, "set_multithreading_enabled")
    assert torch.autograd.grad_mode is gm
    assert torch._jit_internal.is_scripting() is False


def test_grad_mode_all():
    assert gm.__all__[:5] == [
        "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
        "set_multithreading_enabled",
    ]
    for private in ("_force_original_view_tracking", "_unsafe_preserve_version_counter",
                    "_enter_inference_mode", "_exit_inference_mode"):
        assert callable(getattr(gm, private))


# F165
@pytest.mark.parametrize("factory", [torch.no_grad, torch.enable_grad,
                                     lambda: torch.set_grad_enabled(True),
                                     torch.inference_mode,
                                     lambda: torch.autograd.set_multithreading_enabled(True)])
def test_enter_returns_none(factory):
    with factory() as entered:
        assert entered is None


# F139, F141
def test_no_grad_and_enable_grad_nest():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        assert x.requires_grad
        with torch.enable_grad():
            assert torch.is_grad_enabled()
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    assert torch.no_grad().prev is False


# F140
def test_reusing_one_instance_leaves_the_mode_changed():
    for cls, value in ((torch.no_grad, False), (torch.enable_grad, True)):
        C._set_grad_enabled(not value)
        try:
            ctx = cls()
            with ctx:
                with ctx:
                    pass
            assert torch.is_grad_enabled() is value
        finally:
            C._set_grad_enabled(True)


# F163
def test_exceptions_restore_and_propagate():
    with pytest.raises(ZeroDivisionError):
        with torch.no_grad():
            1 / 0
    assert torch.is_grad_enabled()

    @torch.inference_mode()
    def fails():
        raise KeyError("k")

    with pytest.raises(KeyError):
        fails()
    assert modes() == (True, False)


# F141
def test_enable_grad_exit_without_enter():
    with pytest.raises(AttributeError, match="'enable_grad' object has no attribute 'prev'"):
        torch.enable_grad().__exit__(None, None, None)


# F133, F138, F141
def test_no_param_decorator_forms():
    def probe():
        """Doc."""
        return torch.is_grad_enabled()

    for decorated in (torch.no_grad(probe), torch.no_grad()(probe)):
        assert decorated() is False and torch.is_grad_enabled()
        assert decorated.__name__ == "probe" and decorated.__doc__ == "Doc."
        assert decorated.__wrapped__ is probe
    with torch.no_grad():
        assert torch.enable_grad(probe)() is True
        assert not torch.is_grad_enabled()
    assert isinstance(torch.enable_grad(None), torch.enable_grad)


# F138
def test_no_param_quirk_messages():
    with pytest.raises(TypeError) as info:
        torch.no_grad(None)
    assert str(info.value) == "no_grad.__init__() takes 1 positional argument but 2 were given"
    with pytest.raises(TypeError) as info:
        torch.no_grad(1, 2)
    assert str(info.value) == (
        "_NoParamDecoratorContextManager.__new__() takes from 1 to 2 positional arguments "
        "but 3 were given"
    )


# F133
def test_wraps_keeps_signature_and_qualname():
    def f(a, b=2, *, c):
        return a

    g = torch.no_grad()(f)
    assert inspect.signature(g) == inspect.signature(f)
    assert g.__qualname__ == f.__qualname__


# F135
def test_decorating_a_class_warns_and_returns_a_constructor():
    class Box:
        def __init__(self):
            self.grad = torch.is_grad_enabled()

    with pytest.warns(FutureWarning) as record:
        made = torch.no_grad()(Box)
    assert str(record[0].message) == (
        "Decorating classes is deprecated and will be disabled in future versions. You should "
        "only decorate functions or methods. To preserve the current behavior of class "
        "decoration, you can directly decorate the `__init__` method and nothing else."
    )
    assert not isinstance(made, type)
    box = made()
    assert isinstance(box, Box) and box.grad is False and torch.is_grad_enabled()


# F164
def test_recursive_decorated_function_restores():
    @torch.no_grad()
    def depth(n):
        if n == 0:
            return [torch.is_grad_enabled()]
        with torch.enable_grad():
            inner = depth(n - 1)
        return [torch.is_grad_enabled(), *inner]

    assert depth(3) == [False, False, False, False]
    assert torch.is_grad_enabled()


# F136
def test_async_function_body_runs_in_callers_mode():
    @torch.no_grad()
    async def body():
        return torch.is_grad_enabled()

    coroutine = body()
    with pytest.raises(StopIteration) as info:
        coroutine.send(None)
    assert info.value.value is True


# F134
def test_generator_steps_run_in_the_mode():
    log = []

    @torch.no_grad()
    def gen():
        log.append("started")
        got = yield torch.is_grad_enabled()
        while True:
            try:
                got = yield (got, torch.is_grad_enabled())
            except ValueError as error:
                got = f"caught {error}"
            finally:
                log.append(torch.is_grad_enabled())

    it = gen()
    assert log == [] and inspect.isgeneratorfunction(gen)
    assert next(it) is False and torch.is_grad_enabled()
    assert it.send("a") == ("a", False) and torch.is_grad_enabled()
    assert it.throw(ValueError("v")) == ("caught v", False)
    it.close()
    assert log == ["started", False, False] and torch.is_grad_enabled()


# F134, F163
def test_generator_return_value_and_exceptions():
    @torch.inference_mode()
    def gen():
        yield torch.is_inference_mode_enabled()
        return "done"

    def outer():
        return (yield from gen())

    it = outer()
    assert next(it) is True and modes() == (True, False)
    with pytest.raises(StopIteration) as info:
        next(it)
    assert info.value.value == "done"

    @torch.no_grad()
    def raising():
        yield 1
        raise KeyError("inside")

    it = raising()
    next(it)
    with pytest.raises(KeyError):
        next(it)
    assert torch.is_grad_enabled()


# F134
def test_generator_that_ignores_close():
    refusals = []

    @torch.no_grad()
    def stubborn():
        while True:
            try:
                yield 1
            except GeneratorExit:
                refusals.append(torch.is_grad_enabled())
                if len(refusals) > 1:  # give in the second time, when collected
                    return

    it = stubborn()
    next(it)
    with pytest.raises(RuntimeError, match="generator ignored GeneratorExit"):
        it.close()
    # The refusal ran under the mode; the mode is back afterwards.
    assert torch.is_grad_enabled() and refusals[0] is False


# F137
def test_context_decorator_rules():
    with pytest.raises(AssertionError) as info:
        context_decorator(torch.no_grad, lambda: None)
    assert str(info.value) == (
        f"Passed in {torch.no_grad} is both callable and also a valid context manager "
        "(has __enter__), making it ambiguous which interface to use.  If you intended to "
        "pass a context manager factory, rewrite your call as context_decorator(lambda: "
        "ctx()); if you intended to pass a context manager directly, rewrite your call as "
        "context_decorator(lambda: ctx)"
    )
    with pytest.raises(RuntimeError) as info:
        context_decorator(lambda: torch.no_grad(), int)
    assert str(info.value).startswith("Cannot decorate classes; it is ambiguous")
    assert str(info.value).endswith("class at definition-site will prevent use of the "
                                    "identifier as a conventional type.  To specify which "
                                    "methods to decorate, decorate each of them individually.")
    entered = []

    class Multi:
        def __enter__(self):
            entered.append(1)

        def __exit__(self, *exc):
            return None

    f = context_decorator(Multi(), lambda: 5)
    assert (f(), f(), entered) == (5, 5, [1, 1])


# F142
def test_set_grad_enabled_construction_and_restore():
    try:
        ctx = torch.set_grad_enabled(False)
        assert not torch.is_grad_enabled() and ctx.prev is True and ctx.mode is False
    finally:
        torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    ctx = torch.set_grad_enabled(False)
    C._set_grad_enabled(True)
    with ctx:
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()  # the prev of construction


# F143, F145
def test_set_grad_enabled_repr_and_clone():
    ctx = torch.set_grad_enabled(False)
    try:
        assert repr(ctx) == str(ctx) == "torch.autograd.grad_mode.set_grad_enabled(mode=False)"
        C._set_grad_enabled(True)
        copy = ctx.clone()
        assert copy is not ctx and copy.mode is False and copy.prev is True
        assert not torch.is_grad_enabled()
    finally:
        C._set_grad_enabled(True)


# F142
@pytest.mark.parametrize(
    "value, name", [(1, "int"), (None, "NoneType"), (len, "builtin_function_or_method")]
)
def test_set_grad_enabled_rejects_non_bools(value, name):
    with pytest.raises(TypeError) as info:
        torch.set_grad_enabled(value)
    assert str(info.value) == (
        f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {name}"
    )
    assert torch.is_grad_enabled()


# F142
def test_set_grad_enabled_messages_for_missing_and_function():
    with pytest.raises(TypeError) as info:
        torch.set_grad_enabled()
    assert str(info.value) == (
        "set_grad_enabled.__init__() missing 1 required positional argument: 'mode'"
    )
    with pytest.raises(TypeError, match=r"must be bool, not function$"):
        @torch.set_grad_enabled
        def f():
            pass


# F144
def test_set_grad_enabled_decorator_does_not_leak():
    @torch.set_grad_enabled(False)
    def f():
        return torch.is_grad_enabled()

    assert torch.is_grad_enabled()
    assert f() is False and torch.is_grad_enabled()

    @torch.set_grad_enabled(False)
    def gen():
        yield torch.is_grad_enabled()

    assert list(gen()) == [False] and torch.is_grad_enabled()


def test_private_setters_check_types():
    for setter, name in ((C._set_grad_enabled, "set_grad_enabled"),
                         (C._set_multithreading_enabled, "set_multithreading_enabled"),
                         (C._set_view_replay_enabled, "set_view_replay_enabled")):
        with pytest.raises(TypeError) as info:
            setter(1)
        assert str(info.value) == (
            f"{name}(): argument 'enabled' (position 1) must be bool, not int"
        )
        with pytest.raises(TypeError) as info:
            setter()
        assert str(info.value) == f'{name}() missing 1 required positional arguments: "enabled"'


# F147, F151, F152
def test_inference_mode_basics():
    with torch.inference_mode():
        assert modes() == (False, True)
        t = torch.ones(2)
        leaf = torch.zeros(2, requires_grad=True)
        with torch.enable_grad():
            assert torch.is_grad_enabled()
            assert torch.ones(1).is_inference()
    assert modes() == (True, False)
    assert t.is_inference() and torch.is_inference(t) and not t.requires_grad
    assert leaf.is_inference() and leaf.requires_grad and leaf.is_leaf
    assert not torch.ones(1).is_inference()
    with pytest.raises(RuntimeError) as info:
        t._version
    assert str(info.value) == "Inference tensors do not track version counter."
    assert torch.inference_mode().mode is True


# F149
def test_inference_mode_false_enables_grad_even_in_no_grad():
    with torch.no_grad():
        with torch.inference_mode(False):
            assert modes() == (True, False)
            assert not torch.ones(1).is_inference()
        assert modes() == (False, False)
    with torch.inference_mode():
        with torch.inference_mode(mode=False):
            assert modes() == (True, False)
        assert modes() == (False, True)


def test_is_inference_rejects_non_tensors():
    with pytest.raises(TypeError) as info:
        torch.is_inference(1)
    assert str(info.value) == (
        "is_inference(): argument 'input' (position 1) must be Tensor, not int"
    )


# F148
def test_inference_mode_decorator_forms():
    @torch.inference_mode
    def bare():
        return modes()

    @torch.inference_mode()
    def called():
        return modes()

    @torch.inference_mode(False)
    def off():
        return modes()

    assert bare() == called() == (False, True)
    with torch.inference_mode():
        assert off() == (True, False)
    assert modes() == (True, False)
    clone = torch.inference_mode(False).clone()
    assert isinstance(clone, torch.inference_mode) and clone.mode is False
    odd = torch.inference_mode(1)
    with pytest.raises(TypeError, match="'int' object is not callable"):
        odd()
    with pytest.raises(TypeError) as info:
        torch.inference_mode(True, 2)
    assert str(info.value) == (
        "inference_mode.__new__() takes from 1 to 2 positional arguments but 3 were given"
    )


# F148, F134
def test_inference_mode_generator():
    @torch.inference_mode()
    def gen():
        for _ in range(2):
            yield modes()

    assert list(gen()) == [(False, True), (False, True)]
    assert modes() == (True, False)


# F156
def test_reusing_inference_mode_leaks():
    reused = torch.inference_mode()
    with torch.inference_mode(False):  # a fence that restores the leak
        with reused:
            assert torch.is_inference_mode_enabled()
            with reused:
                inner = modes()
            between = modes()
        after = modes()
    assert (inner, between, after) == ((True, False), (False, True), (False, True))


# F156
def test_inference_mode_exit_without_enter():
    with pytest.raises(AttributeError) as info:
        torch.inference_mode().__exit__(None, None, None)
    assert str(info.value) == "'inference_mode' object has no attribute '_inference_mode_context'"


# F156
def test_out_of_order_exits_restore_in_exit_order():
    with torch.inference_mode(False):  # fence
        outer, inner = torch.inference_mode(), torch.inference_mode(False)
        outer.__enter__()
        inner.__enter__()
        outer.__exit__(None, None, None)
        first = modes()
        inner.__exit__(None, None, None)
        second = modes()
    assert (first, second) == ((True, False), (False, True))


# F157
def test_functional_pair():
    guard = gm._enter_inference_mode(True)
    try:
        assert modes() == (False, True)
    finally:
        gm._exit_inference_mode(guard)
    assert modes() == (True, False)


def test_inference_guard_sets_and_restores_the_other_switches():
    C._set_view_replay_enabled(True)
    try:
        with torch.inference_mode():
            assert not C._is_multithreading_enabled() and not C._is_view_replay_enabled()
            C._set_multithreading_enabled(True)
        assert C._is_multithreading_enabled() and C._is_view_replay_enabled()
    finally:
        C._set_view_replay_enabled(False)


def test_inference_guard_is_raii():
    guard = C._InferenceMode(True)
    assert modes() == (False, True)  # made, not yet entered
    del guard
    gc.collect()
    assert modes() == (True, False)
    guard = C._InferenceMode(True)
    guard.__exit__(None, None, None)
    C._set_grad_enabled(False)
    try:
        guard.__exit__(None, None, None)  # a second exit does nothing
        assert modes() == (False, False)
    finally:
        C._set_grad_enabled(True)


# F158
def test_set_multithreading_enabled():
    assert C._is_multithreading_enabled()
    ctx = torch.autograd.set_multithreading_enabled(False)
    try:
        assert not C._is_multithreading_enabled()
        with ctx:
            assert not C._is_multithreading_enabled()
        assert C._is_multithreading_enabled()
        with torch.autograd.set_multithreading_enabled(False):
            assert not C._is_multithreading_enabled()
        copy = ctx.clone()
        assert copy.mode is False and not C._is_multithreading_enabled()
    finally:
        C._set_multithreading_enabled(True)
    with pytest.raises(TypeError) as info:
        torch.autograd.set_multithreading_enabled(1)
    assert str(info.value) == (
        "set_multithreading_enabled(): argument 'enabled' (position 1) must be bool, not int"
    )


# F159
def test_set_multithreading_enabled_decorator_leaks():
    try:
        @torch.autograd.set_multithreading_enabled(False)
        def f():
            return C._is_multithreading_enabled()

        assert not C._is_multithreading_enabled()  # decorating leaked the mode
        assert f() is False
        assert not C._is_multithreading_enabled()  # the call restored the leaked value
        C._set_multithreading_enabled(True)
        assert f() is False
        assert C._is_multithreading_enabled()
    finally:
        C._set_multithreading_enabled(True)


def test_force_original_view_tracking():
    assert not C._is_view_replay_enabled()
    ctx = gm._force_original_view_tracking(True)
    try:
        assert C._is_view_replay_enabled()
        C._set_view_replay_enabled(False)
        with ctx:
            assert C._is_view_replay_enabled()
        assert not C._is_view_replay_enabled()
        assert ctx.clone().mode is True and C._is_view_replay_enabled()
    finally:
        C._set_view_replay_enabled(False)

    @gm._force_original_view_tracking(True)
    def f():
        return C._is_view_replay_enabled()

    assert not C._is_view_replay_enabled()
    assert f() is True and not C._is_view_replay_enabled()


def test_unsafe_preserve_version_counter():
    x = torch.ones(2)
    y = torch.zeros(2)
    before = (x._version, y._version)
    with gm._unsafe_preserve_version_counter((x, y)) as entered:
        assert entered is None
    assert (x._version, y._version) == before
    keeper = gm._unsafe_preserve_version_counter(x)
    assert keeper.tensors == (x,) and keeper.prev_versions == (x._version,)
    with pytest.raises(AssertionError) as info:
        gm._unsafe_preserve_version_counter([x])
    assert str(info.value) == "Expected tensors to be a tuple"
    with torch.inference_mode():
        t = torch.ones(1)
    with pytest.raises(RuntimeError, match="^Inference tensors do not track version counter.$"):
        gm._unsafe_preserve_version_counter(t)


def test_unsafe_preserve_version_counter_decorator_fails_when_called():
    x = torch.ones(1)

    @gm._unsafe_preserve_version_counter(x)
    def f():
        return 1

    with pytest.raises(TypeError) as info:
        f()
    assert str(info.value) == (
        "_unsafe_preserve_version_counter.__init__() missing 1 required positional "
        "argument: 'tensors'"
    )


def run_in_thread(target):
    seen = []
    worker = threading.Thread(target=lambda: seen.append(target()))
    worker.start()
    worker.join()
    return seen[0]


# F146, F155, F158
def test_new_threads_start_from_the_defaults():
    def look():
        return modes(), C._is_multithreading_enabled()

    with torch.no_grad():
        assert run_in_thread(look) == ((True, False), True)
    with torch.inference_mode():
        assert run_in_thread(look) == ((True, False), True)
    with torch.autograd.set_multithreading_enabled(False):
        assert run_in_thread(look) == ((True, False), True)
    assert run_in_thread(lambda: torch.set_grad_enabled(False) and None) is None
    assert torch.is_grad_enabled()


# F146, F155
def test_eight_threads_toggle_independently():
    barrier = threading.Barrier(8)
    errors = []

    def worker(i):
        try:
            mode = [torch.no_grad, torch.enable_grad, torch.inference_mode,
                    functools.partial(torch.inference_mode, False)][i % 4]
            expected = [(False, False), (True, False), (False, True), (True, False)][i % 4]
            for _ in range(50):
                with mode():
                    barrier.wait()
                    if modes() != expected:
                        errors.append((i, modes()))
                    barrier.wait()
                if modes() != (True, False):
                    errors.append((i, "after", modes()))
        except BaseException as error:  # surface anything in the main thread
            errors.append((i, repr(error)))
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []


def test_warning_filter_untouched():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.no_grad()(lambda: None)()


# F150
def test_enable_grad_inside_inference_mode_still_records_nothing():
    # Grad mode reads True, but results are inference tensors without grad.
    y = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        with torch.enable_grad():
            enabled = torch.is_grad_enabled()
            q = y * 2
    assert enabled and not q.requires_grad and q.is_inference()


# F151
def test_views_made_in_inference_mode_follow_their_base():
    # A view of a normal tensor stays normal; a view of an inference tensor is one.
    x = torch.ones(2, 3)
    with torch.inference_mode():
        v, it = x[0], torch.ones(2)
        iv = it[0]
    assert not v.is_inference() and v._version == 0 and iv.is_inference()


# F133, F164
@pytest.mark.parametrize("make", [torch.no_grad, torch.inference_mode,
                                  lambda: torch.set_grad_enabled(False)])
def test_each_call_runs_in_a_fresh_clone_so_plain_recursion_restores(make):
    # Sharing one instance would let the inner call overwrite the outer's saved
    # mode, and the outer exit would then leave the mode switched off.
    decorator = make()

    @decorator
    def countdown(n):
        return torch.is_grad_enabled() if n == 0 else countdown(n - 1)

    assert countdown(3) is False and modes() == (True, False)


# F133
def test_the_decorating_instance_is_never_entered():
    grad_on, inference = torch.enable_grad(), torch.inference_mode()
    grad_on(lambda: None)()
    inference(lambda: None)()
    # Each call entered a clone, so the instances never saved any state.
    assert not hasattr(grad_on, "prev")
    assert not hasattr(inference, "_inference_mode_context")


# F134
def test_generator_steps_use_the_mode_whatever_the_caller_has():
    @torch.enable_grad()
    def gen():
        try:
            while True:
                yield torch.is_grad_enabled()
        finally:
            closed.append(torch.is_grad_enabled())

    closed = []
    it = gen()
    with torch.no_grad():
        assert next(it) is True and not torch.is_grad_enabled()
    assert next(it) is True
    with torch.no_grad():
        with pytest.raises(KeyError):
            it.throw(KeyError("k"))  # not caught: it propagates, the caller's mode is back
        assert not torch.is_grad_enabled()
    assert closed == [True]


# F135
def test_decorating_a_class_without_parentheses():
    class Box:
        def __init__(self):
            self.grad = torch.is_grad_enabled()

    with pytest.warns(FutureWarning, match="^Decorating classes is deprecated"):
        made = torch.no_grad(Box)
    assert inspect.isfunction(made) and made().grad is False and torch.is_grad_enabled()


# F137
def test_context_decorator_exact_texts_and_factories():
    class Both:
        def __call__(self):
            return None

        def __enter__(self):
            return None

        def __exit__(self, *exc):
            return None

    both = Both()
    with pytest.raises(AssertionError) as info:
        context_decorator(both, lambda: None)
    assert str(info.value) == (
        f"Passed in {both} is both callable and also a valid context manager (has "
        "__enter__), making it ambiguous which interface to use.  If you intended to pass a "
        "context manager factory, rewrite your call as context_decorator(lambda: ctx()); if "
        "you intended to pass a context manager directly, rewrite your call as "
        "context_decorator(lambda: ctx)"
    )
    with pytest.raises(RuntimeError) as info:
        context_decorator(lambda: torch.no_grad(), Both)
    assert str(info.value) == (
        "Cannot decorate classes; it is ambiguous whether or not only the constructor or all "
        "methods should have the context manager applied; additionally, decorating a class at "
        "definition-site will prevent use of the identifier as a conventional type.  To specify "
        "which methods to decorate, decorate each of them individually."
    )
    made = []

    def factory():
        made.append(torch.no_grad())
        return made[-1]

    f = context_decorator(factory, torch.is_grad_enabled)
    assert (f(), f(), len(made), torch.is_grad_enabled()) == (False, False, 2, True)
    assert made[0] is not made[1]
    log = []

    class Multi:
        def __enter__(self):
            log.append("enter")

        def __exit__(self, *exc):
            log.append("exit")

    g = context_decorator(Multi(), lambda: log.append("body"))
    g()
    g()
    assert log == ["enter", "body", "exit"] * 2


# F139
def test_no_grad_results_and_the_saved_previous_mode():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = x * 2
    assert (y.requires_grad, y.grad_fn, y.is_leaf) == (False, None, True)
    ctx = torch.no_grad()
    assert ctx.__enter__() is None and ctx.prev is True and not torch.is_grad_enabled()
    assert not ctx.__exit__(ValueError, ValueError("v"), None)  # never suppresses
    assert torch.is_grad_enabled()
    with torch.no_grad():
        inner = torch.no_grad()
        with inner:
            assert inner.prev is False


# F141
def test_enable_grad_records_inside_no_grad():
    x = torch.ones(2, requires_grad=True)

    @torch.enable_grad()
    def double(t):
        return t * 2

    with torch.no_grad():
        y = double(x)
        assert not torch.is_grad_enabled()
        ctx = torch.enable_grad()
        assert ctx.__enter__() is None and ctx.prev is False and torch.is_grad_enabled()
        assert not ctx.__exit__(None, None, None)
        assert not torch.is_grad_enabled()
    assert y.requires_grad and y.grad_fn.name() == "MulBackward0"


# F147
def test_inference_mode_enters_a_fresh_guard_each_time():
    x = torch.ones(2, requires_grad=True)
    im = torch.inference_mode()
    with im:
        first = im._inference_mode_context
        y = x * 2
    with im:
        second = im._inference_mode_context
    assert isinstance(first, torch._C._InferenceMode) and first is not second
    assert (y.is_inference(), y.requires_grad, y.grad_fn) == (True, False, None)
    assert modes() == (True, False)


# F148
def test_inference_mode_none_and_keyword_forms():
    odd = torch.inference_mode(None)  # decorates None: fails only when called
    with pytest.raises(TypeError) as info:
        odd()
    assert str(info.value) == "'NoneType' object is not callable"

    @torch.inference_mode(mode=False)
    def off():
        return modes()

    with torch.inference_mode():
        assert off() == (True, False)
    assert torch.inference_mode(mode=False).clone().mode is False


# F151
def test_inference_tensors_from_ops_views_leaves_and_clones():
    x = torch.ones(2)
    with torch.inference_mode():
        made = torch.ones(2)
        from_op = x * 2
        leaf = torch.ones(2, requires_grad=True)
        from_leaf = leaf * 2
        normal_view = x[0]
    assert from_op.is_inference() and made.is_inference()
    assert leaf.is_inference() and leaf.requires_grad and leaf.is_leaf
    assert from_leaf.is_inference() and not from_leaf.requires_grad
    assert made[0].is_inference() and made.view(2).is_inference()  # views made outside
    x.add_(1)
    assert not normal_view.is_inference() and normal_view._version == 1  # shares x's counter
    assert repr(made) == "tensor([1., 1.])"
    assert repr(leaf) == "tensor([1., 1.], requires_grad=True)"
    assert not made.clone().is_inference()


# F153
@pytest.mark.parametrize("write, after", [
    (lambda t: t.add_(1), [2.0, 2.0]),
    (lambda t: t.mul_(3), [3.0, 3.0]),
    (lambda t: t.zero_(), [0.0, 0.0]),
    (lambda t: t.__setitem__(0, 7.0), [7.0, 1.0]),
    (lambda t: t.copy_(torch.full((2,), 9.0)), [9.0, 9.0]),
])
def test_inference_tensor_writes_outside_land_then_raise(write, after):
    with torch.inference_mode():
        t = torch.ones(2)
    with pytest.raises(RuntimeError) as info:
        write(t)
    assert str(info.value) == (
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
        "a clone to get a normal tensor before doing inplace update.See "
        "https://github.com/pytorch/rfcs/pull/17 for more details."
    )
    assert t.tolist() == after


# F153
def test_inference_tensors_in_recorded_ops_outside():
    with torch.inference_mode():
        t = torch.ones(2)
    x = torch.ones(2, requires_grad=True)
    for must_save in (lambda: x * t, lambda: t * x, lambda: x.exp() * t):
        with pytest.raises(RuntimeError) as info:
            must_save()
        assert str(info.value) == (
            "Inference tensors cannot be saved for backward. Please do not use Tensors created "
            "in inference mode in computation tracked by autograd. To work around this, you can "
            "make a clone to get a normal tensor and use it in autograd, or use "
            "`torch.no_grad()` instead of `torch.inference_mode()`."
        )
    assert (x + t).grad_fn.name() == "AddBackward0"
    with pytest.raises(RuntimeError) as info:
        t.requires_grad_()
    assert str(info.value) == (
        "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
    )


# F158
def test_set_multithreading_enabled_keeps_prev_and_backward_still_works():
    ctx = torch.autograd.set_multithreading_enabled(False)
    try:
        assert ctx.prev is True and ctx.mode is False
        a = torch.ones(2, requires_grad=True)
        (a * 2).sum().backward()
        assert a.grad.tolist() == [2.0, 2.0]
    finally:
        ctx.__exit__(None, None, None)
    assert C._is_multithreading_enabled()


# F160
def test_custom_function_forward_and_backward_run_without_grad_mode():
    seen = []

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(("forward", torch.is_grad_enabled()))
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            seen.append(("backward", torch.is_grad_enabled()))
            return grad * 2

    a = torch.ones(1, requires_grad=True)
    Double.apply(a).backward()
    assert seen == [("forward", False), ("backward", False)] and torch.is_grad_enabled()
    assert a.grad.tolist() == [2.0]


# F165
def test_enter_values_of_the_graph_context_managers():
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t) as entered:
        assert entered is None
    b = torch.ones(1, requires_grad=True) * 2
    for handle in (b.register_hook(lambda g: None),
                   b.grad_fn.register_hook(lambda *g: None),
                   b.grad_fn.register_prehook(lambda g: None)):
        with handle as entered:
            assert entered is handle
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as entered:
        assert type(entered).__name__ == "_AllowMutationOnSavedContext"

# F151 (quirk): torch 2.13 reports version 1 for a clone of an inference tensor made outside.
def test_clone_of_an_inference_tensor_outside_reports_version_one():
    with torch.inference_mode():
        t = torch.ones(2)
    c = t.clone()
    assert not c.is_inference() and c._version == 1


def test_the_scripting_and_compiling_questions_answer_no_outside_those_tools():
    import torch.compiler
    import torch.jit

    assert torch.jit.is_scripting() is False and torch.jit.is_tracing() is False
    assert torch.jit.is_scripting is torch._jit_internal.is_scripting
    assert (torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling(),
            torch.compiler.is_exporting()) == (False, False, False)


# The gradient layout contract, and enforce_grad_layout_policy


def _first_grad(leaf, make_out=lambda p: p * 2, grad=None):
    out = make_out(leaf)
    out.backward(torch.ones_like(out) if grad is None else grad)
    return leaf.grad


def test_a_first_gradient_takes_the_layout_of_a_dense_leaf():
    permuted = torch.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()
    assert _first_grad(permuted).stride() == (1, 12, 4)
    transposed = torch.ones(3, 4).t().requires_grad_()
    assert _first_grad(transposed, lambda p: p * 1, torch.ones(4, 3)).stride() == (1, 4)
    contiguous = torch.ones(4, 3, requires_grad=True)
    assert _first_grad(contiguous, lambda p: p.view(4, 3), torch.ones(3, 4).t()).stride() == (
        3, 1)
    gaps = torch.ones(4, 6)[:, ::2].detach().requires_grad_()
    assert _first_grad(gaps).stride() == (3, 1)  # not dense: row by row
    transposed = torch.ones(3, 4).t().requires_grad_()
    transposed.backward(torch.ones(4, 3))
    transposed.backward(torch.ones(3, 4).t())  # added in place: the layout stays
    assert transposed.grad.stride() == (1, 4) and transposed.grad.sum().item() == 24.0


def test_relaxing_the_contract_lets_a_gradient_nobody_holds_be_stolen():
    transposed = torch.ones(3, 4).t().requires_grad_()
    with torch.autograd.enforce_grad_layout_policy(False):
        assert _first_grad(transposed, lambda p: p * 1, torch.ones(4, 3)).stride() == (3, 1)
    assert torch._C._is_grad_layout_enforcement_enabled()


def test_enforce_grad_layout_policy_acts_at_construction_per_thread():
    assert torch._C._is_grad_layout_enforcement_enabled()
    torch.autograd.enforce_grad_layout_policy(False)
    assert not torch._C._is_grad_layout_enforcement_enabled()
    seen = []
    worker = threading.Thread(
        target=lambda: seen.append(torch._C._is_grad_layout_enforcement_enabled()))
    worker.start()
    worker.join()
    torch.autograd.enforce_grad_layout_policy(True)
    assert seen == [True]

    @torch.autograd.enforce_grad_layout_policy(False)
    def inside():
        return torch._C._is_grad_layout_enforcement_enabled()

    assert (inside(), torch._C._is_grad_layout_enforcement_enabled()) == (False, True)
    assert torch.autograd.grad_mode.enforce_grad_layout_policy is (
        torch.autograd.enforce_grad_layout_policy)
    with raises(TypeError, "set_grad_layout_enforcement_enabled(): argument 'enabled' "
                           "(position 1) must be bool, not int"):
        torch.autograd.enforce_grad_layout_policy(1)
    assert torch._C._is_grad_layout_enforcement_enabled()


def test_the_questions_torch_autograd_answers():
    assert torch.autograd.is_multithreading_enabled is torch._C._is_multithreading_enabled
    assert torch.autograd.is_view_replay_enabled is torch._C._is_view_replay_enabled
    assert (torch.autograd.is_multithreading_enabled(),
            torch.autograd.is_view_replay_enabled()) == (True, False)
    x = torch.ones(2, requires_grad=True)
    assert type(x.exp().grad_fn._raw_saved_result) is torch.autograd.SavedTensor


def test_an_inference_grad_is_added_into_then_refused_outside_inference_mode():
    with torch.inference_mode():
        inference_grad = torch.ones(2)
    a = torch.ones(2, requires_grad=True)
    a.grad = inference_grad
    with pytest.raises(RuntimeError, match=r"\AInplace update to inference tensor outside "
                       r"InferenceMode is not allowed\."):
        (a * 2).sum().backward()
    assert a.grad is inference_grad and a.grad.tolist() == [3.0, 3.0]
    b = (a * 2).sum()
    with torch.inference_mode():
        b.backward()
    assert a.grad is inference_grad and a.grad.tolist() == [5.0, 5.0]


@pytest.mark.parametrize("name", ["is_grad_enabled", "is_inference_mode_enabled",
                                  "is_anomaly_enabled", "is_anomaly_check_nan_enabled"])
def test_the_mode_queries_take_no_arguments(name):
    query = getattr(torch, name)
    with raises(TypeError, f"torch.{name}() takes no arguments (1 given)"):
        query(1)
    with raises(TypeError, f"torch.{name}() takes no keyword arguments"):
        query(x=1)
    assert query() in (True, False)
