"""refgrad's state for a dispatch mode's own ops (NOTE [Below autograd]): set while a mode
runs, put back by func for the op it was handed, and restored however the mode leaves."""

import pytest

import refgrad
from refgrad.autograd._state import state
from refgrad.utils._python_dispatch import TorchDispatchMode


class Watching(TorchDispatchMode):
    def __init__(self, fail=False, keep=None):
        self.fail, self.keep, self.seen = fail, keep, []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(("body", state.mode_body, state.below_autograd, state.grad_enabled))
        if self.keep is not None:
            self.keep.append(func)
        if self.fail:
            raise KeyError("refused")
        return func(*args, **(kwargs or {}))


def _clean():
    return (state.mode_body, state.below_autograd, state.handed_levels, state.grad_enabled) == (
        False, False, [], True)


def test_the_body_is_marked_and_the_grad_mode_left_alone():
    mode = Watching()
    x = refgrad.ones(2, requires_grad=True)
    with mode:
        y = x * 2
    assert mode.seen == [("body", True, False, True)]
    assert y.grad_fn.name() == "MulBackward0" and _clean()


def test_a_failing_body_restores_the_state():
    x = refgrad.ones(2, requires_grad=True)
    with pytest.raises(KeyError):
        with Watching(fail=True):
            x * 2
    assert _clean()


def test_a_failing_row_below_restores_the_state():
    class Mismatched(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            refgrad.ones(2) + refgrad.ones(3)  # the mode's own op refuses
            return func(*args, **(kwargs or {}))

    with pytest.raises(RuntimeError, match="must match"):
        with Mismatched():
            refgrad.ones(2, requires_grad=True) * 2
    assert _clean()


def test_a_func_kept_and_called_after_the_mode_records():
    kept = []
    x = refgrad.ones(2, requires_grad=True)
    with Watching(keep=kept):
        x.sin()
    out = kept[0](x)
    assert out.grad_fn.name() == "SinBackward0" and _clean()


def test_a_write_below_keeps_the_tensors_counter():
    class Writing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            counter = args[0]._version_counter
            args[0].add_(1)
            assert args[0]._version_counter is counter
            return func(*args, **(kwargs or {}))

    h = refgrad.ones(2, requires_grad=True) * 1
    view = h[0]
    with Writing():
        h.cos()
    assert h._version == 0 and view._version == 0 and view.grad_fn.name() == "SelectBackward0"
    assert h.tolist() == [2.0, 2.0] and _clean()
