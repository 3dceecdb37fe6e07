"""A user's dispatch mode and a profile together: torch records each op where its dispatcher
first meets it, then ``PythonDispatchMode`` for the hand-over to the mode, then what the mode
ran. The events inside an op's kernel are left aside, as in test_profiler.py; the hand-over and
what it holds are kept."""

import pytest
import torch
from torch.autograd.profiler import profile
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._profiler_user_modes_expected import OUTLINES


class Seen(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class Twice(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        func(*args, **(kwargs or {}))
        return func(*args, **(kwargs or {}))


class CloneFirst(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func is torch.ops.aten.neg.default:
            args[0].clone()
        return func(*args, **(kwargs or {}))


def _x():
    return torch.ones(3, requires_grad=True)


def mode_inside_the_profile(record):
    x = _x()
    with record() as prof:
        with Seen():
            torch.ones(2).neg()
            x.exp()  # autograd's detach of the saved result: no event above the op
            torch.autograd.grad((x * 2).sum(), x)
    return prof


def profile_inside_the_mode(record):
    x = _x()
    with Seen():
        with record() as prof:
            torch.ones(2).neg()
            x.sin()
    return prof


def two_modes(record):
    x = _x()
    with record() as prof:
        with Seen(), Seen():
            x.neg()
    return prof


def a_mode_that_calls_twice(record):
    x = _x()
    with record() as prof:
        with Twice():
            x.neg()
    return prof


def a_mode_that_runs_ops_of_its_own(record):
    x = _x()
    with record() as prof:
        with CloneFirst():
            x.neg()
    return prof


def composites_under_a_mode(record):
    x = _x()
    with record() as prof:
        with Seen():
            x @ x
            x.reshape(3, 1)
    return prof


PROGRAMS = [mode_inside_the_profile, profile_inside_the_mode, two_modes, a_mode_that_calls_twice,
            a_mode_that_runs_ops_of_its_own, composites_under_a_mode]
COMPOSITES = ("aten::matmul", "aten::reshape")


def outline(events) -> list:
    """(name, parent's name, sequence number from the profile's first, input shapes)."""
    def kept(e):
        parent = e.cpu_parent
        return (parent is None or not parent.name.startswith("aten::")
                or parent.name in COMPOSITES or e.name == "PythonDispatchMode")

    found = []
    for e in events:
        if kept(e) and (e.cpu_parent is None or any(e.cpu_parent is f for f in found)):
            found.append(e)
    numbers = [e.sequence_nr for e in found if e.sequence_nr >= 0]
    first = min(numbers) if numbers else 0
    return [(e.name, e.cpu_parent.name if e.cpu_parent is not None else None,
             e.sequence_nr - first if e.sequence_nr >= 0 else -1, e.input_shapes)
            for e in found]


def _recording():
    return profile(record_shapes=True)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_a_users_mode_in_a_profile(program):
    assert outline(program(_recording).function_events) == OUTLINES[program.__name__]


if __name__ == "__main__":  # run with torch to print the expected outlines
    import pprint

    pprint.pprint({p.__name__: outline(p(_recording).function_events) for p in PROGRAMS},
                  width=100)
