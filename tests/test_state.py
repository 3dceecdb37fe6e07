"""refgrad.autograd._state: one thread-local object, fresh defaults in every thread."""

import threading

import pytest

import refgrad
from refgrad.autograd import _state
from refgrad.autograd._state import is_grad_enabled, next_sequence_nr, state
from refgrad.utils._python_dispatch import TorchDispatchMode


def test_defaults():
    fresh = _state.AutogradState()
    assert fresh.grad_enabled and not fresh.inference_mode and fresh.multithreading_enabled
    assert not fresh.view_replay_enabled and fresh.saved_tensors_hooks == []
    assert fresh.saved_tensors_hooks_disabled_message is None and fresh.graph_task is None


def test_a_new_thread_starts_from_the_defaults():
    seen = []
    state.grad_enabled, state.inference_mode = False, True
    try:
        worker = threading.Thread(target=lambda: seen.append(
            (is_grad_enabled(), _state.is_inference_mode_enabled())))
        worker.start()
        worker.join()
    finally:
        state.grad_enabled, state.inference_mode = True, False
    assert seen == [(True, False)]


def test_eight_threads_each_see_only_their_own_switches():
    barrier = threading.Barrier(8)
    results = {}

    def toggle(index: int) -> None:
        mine = index % 2 == 0
        state.grad_enabled = mine
        barrier.wait()  # every thread has written before any reads
        results[index] = [is_grad_enabled() for _ in range(200)]
        state.grad_enabled = True

    threads = [threading.Thread(target=toggle, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(set(results[i]) == {i % 2 == 0} for i in range(8))
    assert is_grad_enabled()


def test_sequence_numbers_increase_per_thread():
    first, second = next_sequence_nr(), next_sequence_nr()
    assert second == first + 1
    other = []
    worker = threading.Thread(target=lambda: other.append(next_sequence_nr()))
    worker.start()
    worker.join()
    assert other == [0]


# NOTE [Rarely switched on]: the counts in front of three thread-local switches.
# A guard another test let another thread collect stays counted for good (the
# counts err high), so each test compares against the counts it started from.
def _counts():
    return (_state.switched_on.inference_mode, _state.switched_on.dispatch_modes,
            _state.switched_on.saved_tensors_hooks)


def _above(before):
    return tuple(now - then for now, then in zip(_counts(), before))


def test_each_switch_is_counted_while_it_is_on():
    before = _counts()

    class Passing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    assert _above(before) == (0, 0, 0)
    with refgrad.inference_mode():
        assert _above(before) == (1, 0, 0)
        with refgrad.inference_mode(False):  # the flag is off: the count follows it
            assert _above(before) == (0, 0, 0)
        assert _above(before) == (1, 0, 0)
    with Passing():
        assert _above(before) == (0, 1, 0)
    with refgrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        assert _above(before) == (0, 0, 1)
    assert _above(before) == (0, 0, 0)


def test_the_counts_come_back_after_an_exception():
    before = _counts()
    with pytest.raises(ZeroDivisionError):
        with refgrad.inference_mode(), refgrad.autograd.graph.saved_tensors_hooks(
                lambda t: t, lambda t: t):
            1 / 0
    with pytest.raises(TypeError):  # refused before anything is pushed or counted
        refgrad.autograd.graph.saved_tensors_hooks(1, 2).__enter__()
    assert _above(before) == (0, 0, 0)


def _in_thread(body) -> None:
    failures = []

    def run() -> None:
        try:
            body()
        except BaseException as error:  # re-raised in the test's thread
            failures.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failures:
        raise failures[0]


def test_guards_left_out_of_order_keep_the_count_with_the_flag():
    before = _counts()

    def body() -> None:
        outer, inner = refgrad.inference_mode(), refgrad.inference_mode(False)
        outer.__enter__()
        inner.__enter__()
        outer.__exit__(None, None, None)
        assert _above(before) == (0, 0, 0)  # the flag is off
        inner.__exit__(None, None, None)  # and on again: counted again
        assert refgrad.is_inference_mode_enabled() and _above(before) == (1, 0, 0)
        _state.set_inference_mode(False)
        assert _above(before) == (0, 0, 0)

    _in_thread(body)
    assert _above(before) == (0, 0, 0)


def test_a_backward_uncounts_what_a_hook_left_on():
    before = _counts()

    class Passing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    def body() -> None:
        kept = []

        def hook(grad):
            refgrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
            Passing().__enter__()
            kept.append(refgrad._C._InferenceMode(True))
            assert _above(before) == (1, 1, 1)
            raise ValueError("hook failed")

        y = refgrad.ones(2, requires_grad=True) * 2
        y.register_hook(hook)
        with pytest.raises(ValueError, match="hook failed"):
            y.sum().backward()
        assert _above(before) == (0, 0, 0)

    _in_thread(body)
    assert _above(before) == (0, 0, 0)


def test_many_threads_entering_at_once_lose_no_count():
    before = _counts()
    barrier = threading.Barrier(8)
    inside = []

    def enter_and_leave() -> None:
        barrier.wait()
        for _ in range(200):
            with refgrad.inference_mode():
                inside.append(_state.switched_on.inference_mode >= before[0] + 1)

    threads = [threading.Thread(target=enter_and_leave) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(inside) and len(inside) == 1600
    assert _above(before) == (0, 0, 0)


def test_a_thread_in_inference_mode_leaves_others_recording():
    before = _counts()
    entered, release, seen = threading.Event(), threading.Event(), {}

    def infer() -> None:
        with refgrad.inference_mode():
            x = refgrad.ones(2, requires_grad=True)
            seen["worker"] = ((x * 2).grad_fn, (x * 2).is_inference())
            entered.set()
            release.wait()

    worker = threading.Thread(target=infer)
    worker.start()
    entered.wait()
    try:
        y = refgrad.ones(2, requires_grad=True) * 2  # here, the count is 1 but the switch off
        assert type(y.grad_fn).__name__ == "MulBackward0" and not y.is_inference()
        assert _above(before) == (1, 0, 0)
    finally:
        release.set()
        worker.join()
    assert seen["worker"] == (None, True)
    assert _above(before) == (0, 0, 0)
