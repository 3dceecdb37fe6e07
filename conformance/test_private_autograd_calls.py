"""torch._C._autograd's calls on the saved-tensor hooks stack, the sequence counter and the
running backward, on torch's API."""

import threading

import numpy as np
import pytest
import torch

autograd_c = torch._C._autograd
PREFIX = "(): incompatible function arguments. The following argument types are supported:\n    1. "
PUSH_FORM = "(arg0: collections.abc.Callable, arg1: collections.abc.Callable) -> None"
TOP_FORM = ("(arg0: bool) -> tuple[collections.abc.Callable, collections.abc.Callable] | None")
DISABLE_FORM = "(error_message: str, fail_if_non_empty: bool = True) -> None"


def same(t):
    return t


@pytest.fixture(autouse=True)
def _hooks_switched_back_on():
    yield
    autograd_c._saved_tensors_hooks_enable()


def test_a_pushed_pair_packs_until_popped():
    packed = []
    torch.autograd._push_saved_tensors_default_hooks(lambda t: packed.append(t.shape) or t, same)
    try:
        x = torch.ones(2, 3, requires_grad=True)
        (x * x).sum()
        top = autograd_c._top_saved_tensors_default_hooks(False)
    finally:
        torch.autograd._pop_saved_tensors_default_hooks()
    (x * x).sum()
    assert packed == [torch.Size([2, 3])] * 2
    assert type(top) is tuple and top[1] is same
    assert autograd_c._top_saved_tensors_default_hooks(True) is None


def test_a_refused_switch_off_leaves_hooks_switched_off():
    autograd_c._push_saved_tensors_default_hooks(same, same)
    with pytest.raises(RuntimeError, match="^no hooks here$"):
        autograd_c._saved_tensors_hooks_disable("no hooks here")
    assert not autograd_c._saved_tensors_hooks_is_enabled()
    with pytest.raises(RuntimeError, match="^no hooks here$"):
        autograd_c._push_saved_tensors_default_hooks(same, same)
    autograd_c._pop_saved_tensors_default_hooks()
    autograd_c._saved_tensors_hooks_enable()
    assert autograd_c._saved_tensors_hooks_get_disabled_error_message() is None


def test_switching_off_may_leave_a_full_stack_alone():
    autograd_c._push_saved_tensors_default_hooks(same, same)
    try:
        autograd_c._saved_tensors_hooks_disable(error_message=b"kept", fail_if_non_empty=None)
        assert autograd_c._saved_tensors_hooks_get_disabled_error_message() == "kept"
    finally:
        autograd_c._pop_saved_tensors_default_hooks()


@pytest.mark.parametrize("name, form, args, kwargs, shown", [
    ("_push_saved_tensors_default_hooks", PUSH_FORM, (same,), {"arg1": same},
     "{same!r}; kwargs: arg1={same!r}"),
    ("_push_saved_tensors_default_hooks", PUSH_FORM, (same, 1), {}, "{same!r}, 1"),
    ("_pop_saved_tensors_default_hooks", "() -> None", (1,), {}, "1"),
    ("_top_saved_tensors_default_hooks", TOP_FORM, (), {"arg0": True}, "kwargs: arg0=True"),
    ("_top_saved_tensors_default_hooks", TOP_FORM, ("x",), {}, "'x'"),
    ("_saved_tensors_hooks_disable", DISABLE_FORM, ("m",), {"x": 1}, "'m'; kwargs: x=1"),
    ("_saved_tensors_hooks_disable", DISABLE_FORM, ("m",), {"error_message": "n"},
     "'m'; kwargs: error_message='n'"),
    ("_saved_tensors_hooks_disable", DISABLE_FORM, (1,), {}, "1"),
    ("_saved_tensors_hooks_disable", DISABLE_FORM, ("m", "x"), {}, "'m', 'x'"),
    ("_saved_tensors_hooks_enable", "() -> None", (1,), {}, "1"),
    ("_get_sequence_nr", "() -> int", (), {"a": 1}, "kwargs: a=1"),
    ("_get_current_graph_task_keep_graph", "() -> bool", (1,), {}, "1"),
])
def test_refusals_are_pybind11s(name, form, args, kwargs, shown):
    with pytest.raises(TypeError) as caught:
        getattr(autograd_c, name)(*args, **kwargs)
    assert str(caught.value) == f"{name}{PREFIX}{form}\n\nInvoked with: " + shown.format(same=same)
    assert autograd_c._saved_tensors_hooks_is_enabled()


@pytest.mark.parametrize("flag", [1, 0, None, np.bool_(True), 1.0])
def test_the_top_takes_what_pybind11_converts_to_bool(flag):
    assert autograd_c._top_saved_tensors_default_hooks(flag) is None


def test_the_next_sequence_number_is_read_not_taken_and_counted_per_thread():
    first = torch.autograd._get_sequence_nr()
    assert autograd_c._get_sequence_nr() == first
    w = torch.ones(2, requires_grad=True)
    v = w * 3
    assert v.grad_fn._sequence_nr() == first
    assert autograd_c._get_sequence_nr() == first + 1
    seen = []
    thread = threading.Thread(target=lambda: seen.append(autograd_c._get_sequence_nr()))
    thread.start()
    thread.join()
    assert seen == [0]


def test_keep_graph_is_the_running_backwards_and_true_outside_one():
    w = torch.ones(2, requires_grad=True)
    v = w * 3
    kept = []
    v.register_hook(lambda g: kept.append(autograd_c._get_current_graph_task_keep_graph()))
    v.sum().backward(retain_graph=True)
    v.sum().backward()
    assert kept == [True, False]
    assert autograd_c._get_current_graph_task_keep_graph() is True


def test_unsafe_preserve_version_counter_is_offered_by_autograd():
    x = torch.ones(2)
    with torch.autograd._unsafe_preserve_version_counter(x):
        x.add_(1)
    assert x._version == 0
