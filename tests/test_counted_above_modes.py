"""White-box tests of refgrad.utils._counted_above_modes: writes held back below the modes
and counted again once they hand back."""

import pytest

import refgrad
from refgrad.utils._counted_above_modes import (
    UNCOUNTED,
    Writes,
    count_again,
    count_once,
    handed_over,
    held_back,
    outs_handed_back,
)


def test_held_back_puts_the_version_back_and_keeps_the_count():
    t = refgrad.zeros(2)
    writes = Writes()
    result = held_back((t,), lambda: t.add_(1).add_(1), writes)
    assert result is t and t._version == 0 and writes.counted == [(t, 2)]
    count_again(writes)
    assert t._version == 2


def test_closed_writes_count_as_usual():
    t = refgrad.zeros(2)
    writes = Writes()
    assert handed_over(lambda: 5, writes) == 5 and not writes.open
    held_back((t,), lambda: t.add_(1), writes)
    assert t._version == 1 and writes.counted == []


def test_handed_over_closes_on_failure():
    writes = Writes()
    with pytest.raises(KeyError):
        handed_over(lambda: {}["x"], writes)
    assert not writes.open


def test_held_back_counts_a_shared_counter_once():
    base = refgrad.zeros(4)
    view = base[:2]
    writes = Writes()
    held_back((base, view), lambda: view.add_(1), writes)
    assert writes.counted == [(base, 1)] and base._version == view._version == 0


def test_held_back_failing_counts_nothing():
    t = refgrad.zeros(2)
    writes = Writes()

    def fails():
        t.add_(1)
        raise ValueError("below")

    with pytest.raises(ValueError, match="below"):
        held_back((t,), fails, writes)
    assert t._version == 0 and writes.counted == [(t, 1)]  # kept, but only counted if asked


def test_held_back_skips_inference_tensors():
    with refgrad.inference_mode():
        t = refgrad.zeros(2)
        writes = Writes()
        held_back((t,), lambda: t.add_(1), writes)
        count_once((t,))
    assert writes.counted == [] and t._version_counter is None


def test_outs_handed_back():
    a, b = refgrad.zeros(1), refgrad.zeros(1)
    assert outs_handed_back(None, a, (a,), None) is a
    assert outs_handed_back([1], (a, b), (a, b), None) == (a, b)
    with pytest.raises(RuntimeError, match="^Object of type 'int' is not an instance"):
        outs_handed_back(3, (a, b), (a, b), None)


def test_uncounted_names_overloads():
    assert "linalg_svd.U" in UNCOUNTED and "mm.out" not in UNCOUNTED
    assert all("." in name for name in UNCOUNTED)
