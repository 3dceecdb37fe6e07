"""refgrad.utils._contextlib: context managers that decorate functions and generators."""

import inspect

import pytest

from refgrad.utils import _contextlib as cl


class Recorder:
    """A context manager that logs enters and exits into a shared list."""

    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")

    def __exit__(self, *exc):
        self.log.append("exit")


# F133
def test_plain_function_is_wrapped_per_call():
    log = []
    f = cl.context_decorator(lambda: Recorder(log), lambda x: log.append(x) or x)
    assert f(3) == 3 and log == ["enter", 3, "exit"]


# F134
def test_generator_steps_each_run_in_a_fresh_context():
    log = []

    def gen():
        got = yield 1
        log.append(got)
        yield 2

    wrapped = cl.context_decorator(lambda: Recorder(log), gen)
    assert inspect.isgeneratorfunction(wrapped)
    it = wrapped()
    assert log == []
    assert next(it) == 1 and log == ["enter", "exit"]
    assert it.send("s") == 2 and log == ["enter", "exit", "enter", "s", "exit"]
    it.close()
    assert log[-2:] == ["enter", "exit"]


# F134
def test_throw_is_forwarded_and_may_be_caught():
    def gen():
        try:
            yield 1
        except KeyError:
            yield "caught"

    it = cl.context_decorator(lambda: Recorder([]), gen)()
    next(it)
    assert it.throw(KeyError("k")) == "caught"
    with pytest.raises(ValueError):
        it.throw(ValueError("v"))


# F134
def test_return_value_becomes_stop_iteration_value():
    def gen():
        yield 1
        return "r"

    it = cl.context_decorator(lambda: Recorder([]), gen)()
    next(it)
    with pytest.raises(StopIteration) as info:
        next(it)
    assert info.value.value == "r"


# F137
def test_non_callable_context_is_reused():
    log = []
    rec = Recorder(log)
    f = cl.context_decorator(rec, lambda: None)
    f()
    f()
    assert log == ["enter", "exit"] * 2


# F137
def test_refusals():
    with pytest.raises(AssertionError, match=r"^Passed in .* is both callable"):
        cl.context_decorator(Recorder, lambda: None)
    with pytest.raises(RuntimeError) as info:
        cl.context_decorator(lambda: Recorder([]), Recorder)
    assert str(info.value) == cl.CANNOT_DECORATE_CLASSES
    assert "use.  If" in cl.ambiguous_context(1) and "type.  To" in cl.CANNOT_DECORATE_CLASSES


def test_base_class_is_abstract():
    base = cl._DecoratorContextManager()
    with pytest.raises(NotImplementedError):
        base.__enter__()
    with pytest.raises(NotImplementedError):
        base.__exit__(None, None, None)
    assert type(base.clone()) is cl._DecoratorContextManager


# F135
def test_class_decoration_warns_and_builds_under_the_mode():
    log = []

    class Mode(cl._DecoratorContextManager):
        def __enter__(self):
            log.append("in")

        def __exit__(self, *exc):
            log.append("out")

    class Thing:
        def __init__(self, v):
            log.append(v)

    with pytest.warns(FutureWarning, match="^Decorating classes is deprecated"):
        make = Mode()(Thing)
    assert make.__name__ == "<lambda>"
    assert isinstance(make(7), Thing) and log == ["in", 7, "out"]


# F138
def test_no_param_new():
    log = []

    class Mode(cl._NoParamDecoratorContextManager):
        def __enter__(self):
            log.append("in")

        def __exit__(self, *exc):
            log.append("out")

    def f():
        return "f"

    assert isinstance(Mode(), Mode)
    decorated = Mode(f)
    assert decorated.__wrapped__ is f and decorated() == "f" and log == ["in", "out"]
