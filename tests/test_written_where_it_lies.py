"""NOTE [Written where it lies]: what inplace offers, to whom, and that nothing is left offered."""

import threading

import numpy as np
import pytest

import refgrad as torch
from refgrad._ops import destination, inplace
from refgrad.autograd._state import state

N = destination.DIRECT_BYTES // 4  # float32 elements of the smallest tensor offered


@pytest.fixture
def write_backs(monkeypatch):
    """Counts the copies of a result back into the written tensor."""
    calls = []
    real = inplace.write_back

    def counted(target, source):
        calls.append(source.shape)
        return real(target, source)

    monkeypatch.setattr(inplace, "write_back", counted)
    return calls


def _pair(n):
    rng = np.random.default_rng(n)
    return (torch.tensor(rng.standard_normal(n).astype(np.float32)),
            torch.tensor(rng.standard_normal(n).astype(np.float32)))


@pytest.mark.parametrize("name", ["mul_", "add_", "sub_", "div_"])
def test_a_large_write_is_made_in_the_tensor_and_not_copied_back(write_backs, name):
    x, y = _pair(N)
    expected = getattr(x, name[:-1])(y).numpy().tobytes()
    memory = x.data_ptr()
    with torch.no_grad():
        getattr(x, name)(y)
    assert write_backs == [] and x.data_ptr() == memory
    assert x.numpy().tobytes() == expected and x._version == 1 and state.offer is None


def test_a_small_write_is_copied_back(write_backs):
    x, y = _pair(N - 1)
    with torch.no_grad():
        x.mul_(y)
    assert write_backs == [(N - 1,)] and state.offer is None


def test_an_input_interleaved_with_the_tensor_is_not_offered(write_backs):
    x = torch.arange(4 * N, dtype=torch.float32)
    expected = (x[::2] + x[1::2]).numpy().tobytes()
    with torch.no_grad():
        x[::2].add_(x[1::2])
    assert write_backs and x[::2].numpy().tobytes() == expected


def test_a_refused_write_leaves_nothing_offered():
    x, y = _pair(N)
    before = x.numpy().tobytes()
    with pytest.raises(RuntimeError, match="must match the size"):
        with torch.no_grad():
            x.mul_(y[:-1])
    assert state.offer is None and x.numpy().tobytes() == before and x._version == 0


def test_offered_answers_the_function_offered_to_once_and_nobody_else():
    t, other = _pair(4)

    def asked(u):  # stands for a function that inplace called: it asks for itself
        return destination.offered(u, depth=1)

    def another(u):
        return destination.offered(u, depth=1)

    given = (t, asked.__code__, t._data)
    answers = inplace.call_offering(
        given, lambda: [another(t), asked(other), asked(t), asked(t)])
    assert answers[:2] == [None, None] and answers[2] is t._data and answers[3] is None
    assert state.offer is None


def test_an_offer_is_the_offering_threads_alone():
    t, _ = _pair(4)
    inside, seen = threading.Event(), []

    def look():
        inside.wait()
        seen.append(state.offer)

    other = threading.Thread(target=look)
    other.start()

    def run():
        seen.append(state.offer)
        inside.set()
        other.join()

    inplace.call_offering((t, run.__code__, t._data), run)
    assert seen[0] is not None and seen[1] is None and state.offer is None


def test_an_offer_is_put_back_after_a_raising_call():
    t, _ = _pair(4)

    def fails():
        raise ValueError("stop")

    with pytest.raises(ValueError, match="stop"):
        inplace.call_offering((t, fails.__code__, t._data), fails)
    assert state.offer is None
