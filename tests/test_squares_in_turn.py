"""The squared distances of a variance's share, added in pieces (NOTE [A running sum of
its own]), make the same chain of float64 additions as one running sum over the share,
on one thread or on several."""

import threading

import numpy as np
import pytest

from refgrad._ops.moments import _PIECE, _squares_in_turn


def _one_running_sum(values, centre: float) -> float:
    squares = np.square(values.astype(np.float64) - centre)
    return float(np.add.accumulate(squares)[-1])


@pytest.mark.parametrize("size", [1, 5, _PIECE - 1, _PIECE, _PIECE + 1, 3 * _PIECE + 17])
def test_pieces_add_as_one_running_sum(size):
    values = np.random.default_rng(size).standard_normal(size).astype(np.float32) * 1e3
    assert _squares_in_turn(values, 0.25) == _one_running_sum(values, 0.25)


def test_the_order_shows():
    # A pairwise sum of the same squares differs from the running sum: the test can fail.
    values = np.random.default_rng(0).standard_normal(3 * _PIECE).astype(np.float32) * 1e3
    squares = np.square(values.astype(np.float64) - 0.25)
    assert float(np.sum(squares)) != _squares_in_turn(values, 0.25)


def test_shares_on_threads_give_each_share_its_own_total():
    values = np.random.default_rng(1).standard_normal(4 * _PIECE + 3).astype(np.float32)
    shares = np.array_split(values, 2)
    got = [None, None]

    def run(k):
        got[k] = _squares_in_turn(shares[k], -0.5)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == [_one_running_sum(share, -0.5) for share in shares]
