"""The profiler's parts: what it installs and takes away again, the recorder's stack, the
events of a failed backward, and the formats of its table."""

import threading

import pytest

import refgrad as torch
from conformance._support import doubling_function
from refgrad.autograd import _engine
from refgrad.autograd._graph_task import GraphTask
from refgrad.autograd._profiler_engine import ProfiledTask, _make_task
from refgrad.autograd._profiler_events import FunctionEventAvg, format_share, format_time
from refgrad.autograd._profiler_recorder import Recorder, current_recorder, profiling
from refgrad.autograd._state import state, switched_on
from refgrad.autograd.profiler import profile, record_function


def _nothing_installed() -> bool:
    return (_engine.GraphTask is GraphTask and profiling[0] == 0 and not state.dispatch_modes
            and current_recorder() is None)


def test_a_profile_takes_away_all_it_put_in():
    modes = switched_on.dispatch_modes
    assert _nothing_installed()
    with profile():
        assert _engine.GraphTask is _make_task and profiling[0] == 1
        assert len(state.dispatch_modes) == 1 and current_recorder() is not None
    assert _nothing_installed() and switched_on.dispatch_modes == modes


def test_a_profile_ended_by_an_error_takes_it_away_too():
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(ValueError), profile() as prof:
        with record_function("block"):
            (x * 2).sum()
            raise ValueError
    assert _nothing_installed()
    block = prof.function_events[0]
    assert block.name == "block" and block.time_range.end >= block.time_range.start


def test_a_thread_that_does_not_record_gets_the_plain_task():
    made = {}
    with profile():
        assert type(_make_task(False, False)) is ProfiledTask
        other = threading.Thread(target=lambda: made.setdefault("task", _make_task(False, False)))
        other.start()
        other.join()
    assert type(made["task"]) is GraphTask


def test_the_failed_node_has_its_events_ended():
    x = torch.ones(3, requires_grad=True)
    y = x.exp()
    y.add_(1)
    with profile() as prof:
        with pytest.raises(RuntimeError):
            y.sum().backward()
    names = [e.name for e in prof.function_events]
    assert names[-2:] == ["autograd::engine::evaluate_function: ExpBackward0", "ExpBackward0"]
    assert all(e.time_range.end >= e.time_range.start for e in prof.function_events)
    assert _nothing_installed()


def test_ending_an_event_ends_what_was_left_open_inside_it():
    recorder = Recorder(False)
    outer = recorder.begin("outer")
    inner = recorder.begin("inner")
    recorder.end(outer)
    assert recorder.open == [] and inner.time_range.end == outer.time_range.end
    recorder.end(inner)  # ended already: nothing more happens
    assert inner.cpu_parent is outer and outer.cpu_children == [inner]


def _outline(events) -> list:
    """The names of the events not inside an op (chapter "The ops inside torch's kernels")."""
    return [e.name for e in events
            if e.cpu_parent is None or not e.cpu_parent.name.startswith("aten::")]


def test_profiles_nested_in_one_thread_both_record():
    with profile() as outer:
        torch.ones(1).neg()
        with profile() as inner:
            torch.ones(1).exp()
        torch.ones(1).cos()
    assert _outline(inner.function_events) == ["aten::ones", "aten::exp"]
    assert _outline(outer.function_events) == [
        "aten::ones", "aten::neg", "aten::ones", "aten::exp", "aten::ones", "aten::cos"]
    assert _nothing_installed()


def test_time_formats():
    assert format_time(0.5) == "0.500us"
    assert format_time(1500.0) == "1.500ms"
    assert format_time(2500000.0) == "2.500s"
    assert format_share(1.0, 4.0) == "25.00%"
    assert format_share(0.0, 0.0) == "NaN"


def test_a_table_in_a_chosen_unit():
    with profile() as prof:
        torch.ones(2).neg()
    rows = prof.table(time_unit="ms").split("\n")[3:5]
    for row in rows:
        cells = row.split()
        assert cells[2].endswith("ms") and cells[4].endswith("ms") and cells[5].endswith("ms")
    assert prof.table(row_limit=0).count("aten::") == 0


def test_the_total_average_shows_as_torchs_does():
    with profile() as prof:
        torch.ones(2).neg()
    shown = repr(prof.total_average())
    assert shown.startswith("<FunctionEventAvg key=Total self_cpu_time=")
    assert "  self_cuda_time=0.000us cuda_time=0.000us input_shapes=" in shown
    assert repr(FunctionEventAvg()).startswith("<FunctionEventAvg key=None ")


def test_a_custom_function_is_no_event_without_a_profile():
    Twice = doubling_function(torch, "Twice")
    x = torch.ones(2, requires_grad=True)
    Twice.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    with profile() as prof:
        Twice.apply(x)
    assert _outline(prof.function_events) == ["Twice", "aten::mul"]


def test_a_new_stretch_warns_once_that_it_clears_the_last():
    from refgrad import profiler as newer

    newer._warned.clear()
    with pytest.warns(UserWarning, match="^Warning: Profiler clears events at the end of each "
                                         "cycle") as caught:
        with newer.profile(schedule=newer.schedule(wait=0, warmup=1, active=1)) as prof:
            for _ in range(7):
                prof.step()
    assert len(caught) == 1
    assert _nothing_installed()
