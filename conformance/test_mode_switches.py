"""The other switches (multithreading, view tracking, version counters) and grad modes
across threads (F146, F155, F158, F159), against torch's API."""

import functools
import threading
import warnings

import pytest
import torch
import torch.autograd.grad_mode as gm

C = torch._C



def modes():
    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()


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


def test_the_scripting_and_compiling_questions_answer_no_outside_those_tools():
    import torch.compiler
    import torch.jit

    assert torch.jit.is_scripting() is False and torch.jit.is_tracing() is False
    assert torch.jit.is_scripting is torch._jit_internal.is_scripting
    assert (torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling(),
            torch.compiler.is_exporting()) == (False, False, False)


def test_the_c_module_has_the_stream_switches_setters_and_anomaly_mode():
    assert C.set_anomaly_enabled is torch.set_anomaly_enabled
    assert C.is_anomaly_enabled is torch.is_anomaly_enabled
    assert C.is_anomaly_check_nan_enabled is torch.is_anomaly_check_nan_enabled
    C.set_anomaly_enabled(True, False)
    try:
        assert C.is_anomaly_enabled() and not C.is_anomaly_check_nan_enabled()
    finally:
        C.set_anomaly_enabled(False)
    for name, ask, default in (
            ("_set_warn_on_accumulate_grad_stream_mismatch",
             C._warn_on_accumulate_grad_stream_mismatch, True),
            ("_set_override_stale_capture_stream", C._override_stale_capture_stream, False)):
        setter = getattr(C, name)
        try:
            assert setter(not default) is None and ask() is (not default)
        finally:
            setter(default)
        with pytest.raises(RuntimeError, match="enabled must be a bool, but got int"):
            setter(1)
        with pytest.raises(TypeError, match=rf"torch._C.{name}\(\) takes exactly one argument "
                                            r"\(0 given\)"):
            setter()
        with pytest.raises(TypeError, match=rf"torch._C.{name}\(\) takes no keyword arguments"):
            setter(enabled=True)
        assert ask() is default
