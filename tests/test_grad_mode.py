"""refgrad.autograd.grad_mode and refgrad._C: the modes and the switches under them."""

import gc
import threading

import numpy as np
import pytest

import refgrad
from refgrad import _C
from refgrad._typename import c_type_name
from refgrad.autograd import grad_mode as gm
from refgrad.autograd._state import state


def switches():
    return (state.grad_enabled, state.inference_mode, state.multithreading_enabled,
            state.view_replay_enabled)


def test_type_names_follow_torchs_parser():
    assert c_type_name(int) == "int" and c_type_name(np.bool_) == "numpy.bool"
    with pytest.raises(TypeError, match=r"must be bool, not numpy\.bool$"):
        _C._set_grad_enabled(np.bool_(True))
    assert state.grad_enabled is True


def test_is_inference_accepts_tensor_subclasses():
    param = refgrad.nn.Parameter(refgrad.ones(1))
    assert refgrad.is_inference(param) is False
    with pytest.raises(TypeError, match='^is_inference\\(\\) missing 1 required positional'):
        refgrad.is_inference()


def test_guard_sets_all_four_switches_and_restores_them():
    state.view_replay_enabled = True
    try:
        guard = _C._InferenceMode(True)
        assert switches() == (False, True, False, False)
        state.grad_enabled = state.multithreading_enabled = True
        assert guard.__enter__() is None
        guard.__exit__(None, None, None)
        assert switches() == (True, False, True, True)
        guard = _C._InferenceMode(False)
        assert switches() == (True, False, True, False)
        guard.__exit__(None, None, None)
        assert guard._saved is None
    finally:
        state.view_replay_enabled = False


def test_guard_restores_when_dropped():
    guard = _C._InferenceMode(1)
    assert state.inference_mode is True
    del guard
    gc.collect()
    assert switches() == (True, False, True, False)


# F155
def test_guard_restores_the_thread_that_uses_it():
    seen = []

    def work():
        guard = _C._InferenceMode(True)
        seen.append(switches())
        guard.__exit__(None, None, None)
        seen.append(switches())

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert seen == [(False, True, False, False), (True, False, True, False)]
    assert switches() == (True, False, True, False)


# F139, F147
def test_instances_keep_their_state_where_torch_does():
    assert vars(refgrad.no_grad()) == {"prev": False} and vars(refgrad.enable_grad()) == {}
    assert vars(refgrad.inference_mode()) == {"mode": True}
    im = refgrad.inference_mode()
    with im:
        assert isinstance(im._inference_mode_context, _C._InferenceMode)


# F143
def test_set_grad_enabled_uses_typename():
    ctx = gm.set_grad_enabled(True)
    assert refgrad.typename(ctx) == "torch.autograd.grad_mode.set_grad_enabled"
    assert str(ctx) == "torch.autograd.grad_mode.set_grad_enabled(mode=True)"


def test_unsafe_preserve_version_counter_sets_values_back():
    x = refgrad.ones(2)
    x._version_counter.value = 3
    keeper = gm._unsafe_preserve_version_counter(x)
    x._version_counter.value = 1  # even a lower value is put back
    with keeper:
        x._version_counter.value = 9
    assert x._version == 3


def test_jit_internal_and_all():
    assert refgrad._jit_internal.is_scripting() is False
    assert gm.__all__ == ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
                          "set_multithreading_enabled", "enforce_grad_layout_policy"]
    assert "grad_mode" in refgrad.autograd.__all__
    assert not hasattr(refgrad, "set_multithreading_enabled")


def test_view_replay_setter():
    _C._set_view_replay_enabled(True)
    try:
        assert _C._is_view_replay_enabled() is True
    finally:
        _C._set_view_replay_enabled(False)
    with pytest.raises(TypeError, match=r"^set_view_replay_enabled\(\): argument 'enabled'"):
        _C._set_view_replay_enabled(None)


def test_a_guard_dropped_in_another_thread_restores_that_thread():
    import threading

    from refgrad._C import _InferenceMode
    from refgrad.autograd._state import state

    box = []
    maker = threading.Thread(target=lambda: box.append(_InferenceMode(True)))
    maker.start()
    maker.join()
    # The maker thread never exited its guard; dropped here, like torch's C++
    # guard it restores this thread's switches to what it saved in the maker's.
    state.grad_enabled = False
    try:
        box.clear()
        restored = (state.grad_enabled, state.inference_mode)
    finally:
        state.grad_enabled = True
    assert restored == (True, False)
