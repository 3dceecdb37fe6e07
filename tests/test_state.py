"""refgrad.autograd._state: one thread-local object, fresh defaults in every thread."""

import threading

from refgrad.autograd import _state
from refgrad.autograd._state import is_grad_enabled, next_sequence_nr, state


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
