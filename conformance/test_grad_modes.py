"""no_grad and enable_grad as blocks, decorators and around generators (F133–F141, F160,
F163–F165), against torch's API."""

import inspect

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


@pytest.mark.parametrize("name", ["is_grad_enabled", "is_inference_mode_enabled",
                                  "is_anomaly_enabled", "is_anomaly_check_nan_enabled"])
def test_the_mode_queries_take_no_arguments(name):
    query = getattr(torch, name)
    with raises(TypeError, f"torch.{name}() takes no arguments (1 given)"):
        query(1)
    with raises(TypeError, f"torch.{name}() takes no keyword arguments"):
        query(x=1)
    assert query() in (True, False)
