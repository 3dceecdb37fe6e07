"""torch.profiler's schedules: the action for each step, the stretches handed to
on_trace_ready, and the ProfilerStep* blocks, as torch gives them."""

import contextlib
import hashlib
import itertools
import os
import warnings

import pytest
import torch
from torch.profiler import ProfilerAction, profile, schedule, tensorboard_trace_handler


def _actions(**arguments) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chosen = schedule(**arguments)
    return [chosen(step).name[0] if chosen(step).name != "RECORD_AND_SAVE" else "S"
            for step in range(14)]


EXPECTED_ACTIONS = {  # N: NONE, W: WARMUP, R: RECORD, S: RECORD_AND_SAVE
    (1, 1, 2, 1, 0, 0): "NWRSNNNNNNNNNN",
    (1, 1, 2, 0, 0, 0): "NWRSNWRSNWRSNW",
    (2, 1, 1, 2, 1, 0): "NNNWSNNWSNNNNN",
    (2, 1, 1, 2, 1, 1): "NWSNNWSNNNNNNN",
    (0, 0, 1, 0, 2, 0): "NNSSSSSSSSSSSS",
    (0, 2, 3, 1, 0, 1): "WWRRSNNNNNNNNN",
}


@pytest.mark.parametrize("numbers", sorted(EXPECTED_ACTIONS))
def test_a_schedules_actions(numbers):
    names = ("wait", "warmup", "active", "repeat", "skip_first", "skip_first_wait")
    assert "".join(_actions(**dict(zip(names, numbers)))) == EXPECTED_ACTIONS[numbers]


def test_schedules_agree_over_a_grid():
    # a few sums over many schedules, read from torch once
    seen = []
    for wait, warmup, active, repeat in itertools.product(range(3), range(2), range(1, 3),
                                                          range(3)):
        seen.append("".join(_actions(wait=wait, warmup=warmup, active=active, repeat=repeat)))
    assert len(seen) == 36
    assert [sum(s.count(a) for s in seen) for a in "SRW"] == [98, 44, 45]
    assert hashlib.sha1("".join(seen).encode()).hexdigest() == (
        "716fb57a80427392ee6a8447826c17e4d945ea6a")


def test_what_a_schedule_refuses():
    with pytest.raises(AssertionError) as caught:
        schedule(wait=-1, warmup=1, active=1)
    assert str(caught.value) == (
        "Invalid profiler schedule arguments. Got wait=-1 (need >= 0), warmup=1 (need >= 0), "
        "active=1 (need > 0), repeat=0 (need >= 0), skip_first=0 (need >= 0).")
    with pytest.raises(AssertionError, match="active=0 \\(need > 0\\)"):
        schedule(wait=0, warmup=1, active=0)
    with pytest.warns(UserWarning, match="Profiler won't be using warmup, this can skew "
                                         "profiler results"):
        schedule(wait=0, warmup=0, active=1)
    with pytest.raises(AssertionError, match="^Step must be non-negative. Got -1.$"):
        schedule(wait=0, warmup=1, active=1)(-1)
    assert [a.value for a in ProfilerAction] == [0, 1, 2, 3, 4]


def _outline(events) -> list:
    return [e.name for e in events
            if e.cpu_parent is None or not e.cpu_parent.name.startswith("aten::")]


@contextlib.contextmanager
def _cleared_quietly():
    """torch warns, once a process, that a new stretch clears the last one's events."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Warning: Profiler clears events")
        yield


@pytest.mark.parametrize(("steps", "numbers", "expected"), [
    (6, (1, 1, 2, 1), [(4, ["ProfilerStep*", "aten::full", "aten::neg"] * 2)]),
    (5, (0, 1, 2, 0), [(3, ["ProfilerStep*", "aten::full", "aten::neg"] * 2),
                       (5, ["ProfilerStep*", "aten::full", "aten::neg", "ProfilerStep*",
                            "aten::ones"])]),
    (4, (0, 1, 2, 0), [(3, ["ProfilerStep*", "aten::full", "aten::neg"] * 2),
                       (4, ["ProfilerStep*", "aten::ones"])]),
    (3, None, [(3, ["aten::full", "aten::neg"] * 3 + ["aten::ones"])]),
])
def test_the_stretches_handed_over(steps, numbers, expected):
    got = []
    options = {}
    if numbers is not None:
        options["schedule"] = schedule(**dict(zip(("wait", "warmup", "active", "repeat"),
                                                  numbers)))
    with _cleared_quietly(), profile(
            on_trace_ready=lambda p: got.append((p.step_num, _outline(p.events()))),
            **options) as prof:
        for step in range(steps):
            torch.full((1,), float(step)).neg()
            prof.step()
        torch.ones(1)
    assert got == expected
    assert prof.step_num == steps


def test_a_step_block_holds_its_steps_backward():
    w = torch.ones(2, requires_grad=True)
    with profile(schedule=schedule(wait=0, warmup=1, active=1, repeat=1)) as prof:
        for step in range(3):
            (w * step).sum().backward()
            prof.step()
    (block,) = [e for e in prof.events() if e.name == "ProfilerStep*"]
    assert [c.name for c in block.cpu_children][:3] == ["aten::mul", "aten::sum",
                                                        "aten::ones_like"]
    assert "autograd::engine::evaluate_function: MulBackward0" in [
        c.name for c in block.cpu_children]


def test_the_tensorboard_handler_writes_a_trace_per_stretch(tmp_path):
    handler = tensorboard_trace_handler(str(tmp_path / "traces"), worker_name="worker")
    with _cleared_quietly(), profile(schedule=schedule(wait=0, warmup=1, active=1, repeat=2),
                                     on_trace_ready=handler) as prof:
        for _ in range(5):
            torch.ones(1).neg()
            prof.step()
    written = sorted(os.listdir(tmp_path / "traces"))
    assert len(written) == 2
    assert all(name.startswith("worker.") and name.endswith(".pt.trace.json")
               for name in written)


def test_events_kept_across_stretches():
    with _cleared_quietly(), profile(schedule=schedule(wait=0, warmup=1, active=1, repeat=2),
                                     acc_events=True) as prof:
        for step in range(5):
            torch.full((1,), float(step)).neg()
            prof.step()
    assert _outline(prof.events()) == ["ProfilerStep*", "aten::full", "aten::neg"] * 2
