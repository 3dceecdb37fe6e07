"""White-box tests of NOTE [Regenerating lazily]: a write marks only the views whose node was
current, so n writes to n kept views regenerate O(n) nodes, not O(n^2), and a view is held,
weakly, in one of its counter's two sets at a time."""

import pytest

import refgrad as torch
from refgrad._ops import view_regeneration
from refgrad.autograd.grad_mode import _force_original_view_tracking


def _counting(monkeypatch, name):
    calls = []
    original = getattr(view_regeneration, name)

    def counted(*args):
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(view_regeneration, name, counted)
    return calls


@pytest.mark.parametrize("replayed", [False, True])
def test_writing_each_of_n_kept_rows_regenerates_linearly(monkeypatch, replayed):
    n = 200
    calls = _counting(monkeypatch, "_replayed" if replayed else "_as_strided_node")
    x = torch.zeros(n, 4, requires_grad=True)
    y = x * 1
    with _force_original_view_tracking(replayed):
        rows = [y[i] for i in range(n)]
    for r in rows:
        r.mul_(2)
    # each row: once as the in-place op takes it (after the first), once after its write
    assert 2 * n - 1 <= len(calls) <= 2 * n
    y.sum().backward()
    assert x.grad.tolist() == [[2.0] * 4] * n
    assert len(calls) <= 2 * n  # the backward regenerates nothing


def test_a_write_regenerates_nothing_until_a_view_is_needed(monkeypatch):
    calls = _counting(monkeypatch, "_as_strided_node")
    x = torch.ones(6, requires_grad=True)
    y = x * 1
    kept = [y[i:i + 2] for i in range(5)]
    for _ in range(10):
        y.add_(1)
    assert calls == []
    assert all(v._view_info.pending is not None for v in kept)
    assert type(kept[3].grad_fn).__name__ == "AsStridedBackward0"
    assert len(calls) == 1 and kept[3]._view_info.pending is None


def test_a_view_moves_between_the_counter_sets_and_dies_out_of_either():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    keep = y[:2]
    for _ in range(100):
        y[1:]  # noqa: B018 - a view that dies at once
    counter = y._version_counter
    assert (len(counter.views), len(counter.waiting)) == (1, 0)
    y.mul_(2)
    assert (len(counter.views), len(counter.waiting)) == (0, 1)
    assert keep._view_info.pending is not None
    keep.grad_fn  # noqa: B018 - regenerated: current again
    assert (len(counter.views), len(counter.waiting)) == (1, 0)
    y.mul_(2)
    del keep
    assert (len(counter.views), len(counter.waiting)) == (0, 0)


def test_swapping_a_waiting_view_keeps_it_waiting_and_watched():
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    v = y[:2]
    other = torch.zeros(2)
    y.mul_(2)
    torch.utils.swap_tensors(v, other)
    assert other._view_info.pending is not None and v._view_info is None
    assert type(other.grad_fn).__name__ == "AsStridedBackward0"
    y.mul_(2)
    assert other._view_info.pending is not None


def test_a_replayed_view_read_in_inference_mode_keeps_its_history():
    # torch fails an internal assertion here; refgrad replays with inference mode off
    x = torch.ones(2, 2, requires_grad=True)
    y = x * 1
    with torch.autograd.grad_mode._force_original_view_tracking(True):
        v = y.t()[0]
    y.mul_(2)
    with torch.inference_mode():
        assert not v.is_leaf
    assert type(v.grad_fn).__name__ == "SelectBackward0"
    (v * 3).sum().backward()
    assert x.grad.tolist() == [[6.0, 0.0], [6.0, 0.0]]


def _held_in(view, which):
    counter = view._version_counter
    return any(ref() is view for ref in getattr(counter, which))


def test_a_stale_view_without_grad_stays_in_views_and_refuses_only_while_its_base_requires_grad():
    base = torch.zeros(3)
    with torch.no_grad():
        view = base[:2]
    base.add_(1)
    info = view._view_info
    assert info.stale is not None and info.held is None  # NOTE [Refused when asked]
    assert info.refusal(view) is None and _held_in(view, "views")
    base.requires_grad_()
    assert info.refusal(view) == info.stale and view._requires_grad
    base.requires_grad_(False)
    assert info.refusal(view) is None and not view._requires_grad


def test_a_waiting_view_that_stops_requiring_grad_goes_back_to_views_still_waiting():
    base = torch.zeros(3)
    view = base[:2]
    base.requires_grad_()
    with torch.no_grad():
        base.add_(1)
    assert _held_in(view, "waiting")
    base.requires_grad_(False)
    assert _held_in(view, "views") and not _held_in(view, "waiting")
    assert view._view_info.pending is not None and view._view_info.ref is None


def test_a_stale_views_accumulator_is_parked_not_in_its_slot():
    base = torch.zeros(3)
    with torch.no_grad():
        view = base[:2]
    view.requires_grad_()
    node = (view * 1).grad_fn.next_functions[0][0]
    base.add_(1)
    assert view._grad_accumulator is None and view._view_info.parked() is node
    view.requires_grad_(False)
    view.requires_grad_(True)  # the own flag moves nothing into the slot
    assert view._grad_accumulator is None and view._view_info.parked() is node
