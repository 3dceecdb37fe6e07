"""Grad modes' entry points: the names torch offers, the words of their complaints, the
frames their decorators add, and which thread a dropped inference guard restores. The same
assertions run on torch.
"""

import threading
import traceback

import numpy as np
import pytest
import torch
import torch.autograd.grad_mode as gm

from conformance._support import raises


def frames(error):
    return [frame.name for frame in traceback.extract_tb(error.__traceback__)]


def test_a_decorated_function_adds_one_frame_named_decorate_context():
    @torch.no_grad()
    def f():
        raise ValueError

    @torch.set_grad_enabled(False)
    def h():
        raise ValueError

    for decorated in (f, h):
        with pytest.raises(ValueError) as caught:
            decorated()
        assert frames(caught.value)[1:] == ["decorate_context", decorated.__wrapped__.__name__]
        assert decorated.__code__.co_name == "decorate_context"


def test_a_decorated_generator_adds_one_frame_named_generator_context():
    @torch.inference_mode()
    def g():
        yield torch.is_inference_mode_enabled()
        raise ValueError

    steps = g()
    assert next(steps) is True and not torch.is_inference_mode_enabled()
    with pytest.raises(ValueError) as caught:
        next(steps)
    assert frames(caught.value)[1:] == ["generator_context", "g"]
    steps = g()
    next(steps)
    with pytest.raises(KeyError) as caught:
        steps.throw(KeyError("k"))
    assert frames(caught.value)[1:] == ["generator_context", "g", "generator_context"]
    assert g.__code__.co_name == "generator_context"


@pytest.mark.parametrize("value", [1, "abc", None])
def test_decorating_what_has_no_name_gives_a_wrapper_named_decorate_context(value):
    for make in (torch.no_grad, torch.enable_grad, lambda: torch.inference_mode(True)):
        wrapper = make()(value)
        assert wrapper.__name__ == "decorate_context"
        assert wrapper.__qualname__ == "context_decorator.<locals>.decorate_context"
        assert wrapper.__wrapped__ is value
    assert torch.no_grad(1).__name__ == "decorate_context"
    assert torch.no_grad()(len).__name__ == "len"


def test_one_inference_mode_object_entered_in_two_threads():
    im = torch.inference_mode()
    seen = []

    def worker():
        with im:
            seen.append(torch.is_inference_mode_enabled())  # the dropped guard restored here
        seen.append(torch.is_inference_mode_enabled())

    with torch.inference_mode(False):  # whose exit restores this thread, leak or no leak
        with im:
            thread = threading.Thread(target=worker)
            thread.start()
            thread.join()
            seen.append(torch.is_inference_mode_enabled())
        seen.append(torch.is_inference_mode_enabled())  # the guard exited was the worker's
    assert seen == [False, False, True, True]


def test_private_names():
    assert torch.autograd._force_original_view_tracking is gm._force_original_view_tracking
    assert torch._C.is_grad_enabled is torch.is_grad_enabled
    assert torch._C.is_inference_mode_enabled is torch.is_inference_mode_enabled
    with raises(TypeError, "torch.is_grad_enabled() takes no arguments (1 given)"):
        torch._C.is_grad_enabled(1)
    with raises(TypeError, "torch.is_inference_mode_enabled() takes no keyword arguments"):
        torch._C.is_inference_mode_enabled(a=1)


def test_set_anomaly_enabled_sets_both_switches_and_keeps_them():
    try:
        assert torch.set_anomaly_enabled(True) is None
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, True)
        torch.set_anomaly_enabled(True, False)
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, False)
        torch.set_anomaly_enabled(enabled=False, check_nan=True)
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)
    finally:
        torch.set_anomaly_enabled(False)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: torch.set_anomaly_enabled(1),
     "set_anomaly_enabled(): argument 'enabled' (position 1) must be bool, not int"),
    (lambda: torch.set_anomaly_enabled(True, 1),
     "set_anomaly_enabled(): argument 'check_nan' (position 2) must be bool, not int"),
    (lambda: torch.set_anomaly_enabled(),
     'set_anomaly_enabled() missing 1 required positional arguments: "enabled"'),
    (lambda: torch.set_anomaly_enabled(True, True, True),
     "set_anomaly_enabled() takes from 1 to 2 positional arguments but 3 were given"),
    (lambda: torch.set_anomaly_enabled(True, foo=1),
     "set_anomaly_enabled() got an unexpected keyword argument 'foo'"),
    (lambda: torch.set_anomaly_enabled(True, enabled=True),
     "set_anomaly_enabled() got multiple values for argument 'enabled'"),
])
def test_set_anomaly_enabled_refuses_in_torchs_words(call, message):
    with raises(TypeError, message):
        call()
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)


def test_the_stream_mismatch_warning_switch():
    switch = torch.autograd.graph.set_warn_on_accumulate_grad_stream_mismatch
    assert torch._C._warn_on_accumulate_grad_stream_mismatch() is True
    try:
        assert switch(False) is None
        assert torch._C._warn_on_accumulate_grad_stream_mismatch() is False
        seen = []
        thread = threading.Thread(
            target=lambda: seen.append(torch._C._warn_on_accumulate_grad_stream_mismatch()))
        thread.start()
        thread.join()
        assert seen == [False]  # one switch for the process
        for value, name in ((1, "int"), ("x", "str"), (None, "NoneType"), (np.bool_(True),
                                                                           "numpy.bool")):
            with raises(RuntimeError, f"enabled must be a bool, but got {name}"):
                switch(value)
        assert torch._C._warn_on_accumulate_grad_stream_mismatch() is False
        with raises(TypeError, "set_warn_on_accumulate_grad_stream_mismatch() missing 1 "
                               "required positional argument: 'enabled'"):
            switch()
        with raises(TypeError, "torch._C._warn_on_accumulate_grad_stream_mismatch() takes no "
                               "arguments (1 given)"):
            torch._C._warn_on_accumulate_grad_stream_mismatch(1)
    finally:
        switch(enabled=True)


SETTERS = ("set_grad_enabled", "set_multithreading_enabled", "set_view_replay_enabled",
           "set_grad_layout_enforcement_enabled")


@pytest.mark.parametrize("name", SETTERS)
def test_a_setter_takes_one_argument_named_enabled(name):
    setter = getattr(torch._C, "_" + name)
    getter = {"set_grad_enabled": torch.is_grad_enabled,
              "set_multithreading_enabled": torch._C._is_multithreading_enabled,
              "set_view_replay_enabled": torch._C._is_view_replay_enabled,
              "set_grad_layout_enforcement_enabled":
                  torch._C._is_grad_layout_enforcement_enabled}[name]
    before = getter()
    with raises(TypeError, f"{name}() takes 1 positional argument but 2 were given"):
        setter(not before, not before)
    with raises(TypeError, f"{name}() takes 1 positional argument but 3 were given"):
        setter(1, True, True)
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "enabled"'):
        setter(x=True)
    with raises(TypeError, f"{name}() got an unexpected keyword argument 'x'"):
        setter(not before, x=1)
    with raises(TypeError, f"{name}() got multiple values for argument 'enabled'"):
        setter(not before, enabled=not before)
    assert getter() is before
    setter(enabled=not before)
    assert getter() is (not before)
    setter(before)


@pytest.mark.parametrize("name", ["_is_view_replay_enabled", "_is_multithreading_enabled",
                                  "_is_grad_layout_enforcement_enabled"])
def test_a_private_question_takes_nothing(name):
    with raises(TypeError, f"torch._C.{name}() takes no arguments (1 given)"):
        getattr(torch._C, name)(1)
    with raises(TypeError, f"torch._C.{name}() takes no keyword arguments"):
        getattr(torch._C, name)(a=1)


def test_is_inference_takes_nothing():
    t = torch.ones(1)
    with raises(TypeError, "TensorBase.is_inference() takes no arguments (1 given)"):
        t.is_inference(1)
    with raises(TypeError, "TensorBase.is_inference() takes no arguments (2 given)"):
        t.is_inference(1, 2)
    with raises(TypeError, "TensorBase.is_inference() takes no keyword arguments"):
        t.is_inference(a=1)


def test_setting_an_inference_tensors_version_is_refused_after_the_ones_before():
    from torch._C._autograd import _unsafe_set_version_counter

    with torch.inference_mode():
        t = torch.ones(2)
    a = torch.ones(1)
    with raises(RuntimeError, "Tried to call torch.autograd._unsafe_set_version() on a tensor "
                              "that does not have a version counter. Was it created in "
                              "inference mode?"):
        _unsafe_set_version_counter((a, t), (3, 4))
    assert a._version == 3


def test_a_decorated_class_becomes_a_lambda_written_in_call():
    with pytest.warns(FutureWarning):
        @torch.enable_grad()
        class A:
            pass
    assert A.__qualname__ == "_DecoratorContextManager.__call__.<locals>.<lambda>"
    assert A.__name__ == "<lambda>" and type(A()).__name__ == "A"


@pytest.mark.parametrize(("call", "message"), [
    (lambda: torch._C._set_grad_enabled(enabled=1),
     "set_grad_enabled(): argument 'enabled' must be bool, not int"),
    (lambda: torch._C._set_grad_enabled(1),
     "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not int"),
    (lambda: torch._C._set_view_replay_enabled(enabled="x"),
     "set_view_replay_enabled(): argument 'enabled' must be bool, not str"),
    (lambda: torch.set_anomaly_enabled(enabled=1),
     "set_anomaly_enabled(): argument 'enabled' must be bool, not int"),
    (lambda: torch.set_anomaly_enabled(True, check_nan=1),
     "set_anomaly_enabled(): argument 'check_nan' must be bool, not int"),
    (lambda: torch.is_inference(input=1),
     "is_inference(): argument 'input' must be Tensor, not int"),
    (lambda: torch.is_inference(1), "is_inference(): argument 'input' (position 1) must be "
                                    "Tensor, not int"),
])
def test_an_argument_given_by_keyword_is_named_without_a_position(call, message):
    grad, replay = torch.is_grad_enabled(), torch._C._is_view_replay_enabled()
    with raises(TypeError, message):
        call()
    assert (torch.is_grad_enabled(), torch._C._is_view_replay_enabled()) == (grad, replay)
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)
