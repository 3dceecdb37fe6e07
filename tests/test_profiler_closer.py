"""The profiler's schema counts, composite events and a user's mode: the parts torch's
outlines do not show (what is left behind, what an unknown overload lists)."""

import refgrad as torch
from refgrad.autograd import _profiler_schema_counts as counts
from refgrad.autograd._profiler_composites import beginning
from refgrad.autograd._state import state
from refgrad.autograd.profiler import profile
from refgrad.utils._python_dispatch import TorchDispatchMode


class Seen(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def test_counts_of_overloads_with_defaults():
    assert counts.argument_count("sum", "default") == 2
    assert counts.argument_count("sum", "dim_IntList") == 4
    assert counts.argument_count("add", "Tensor") == 3
    assert counts.argument_count("mul", "Tensor") is None  # every argument given: no entry


def test_an_unknown_overload_lists_what_was_handed():
    t = torch.ones(2)
    assert counts.schema_shapes("no_such_op", "default", (t, 1), {}) == [[2], []]


def test_a_tensor_given_as_a_keyword_goes_last():
    t, out = torch.ones(2), torch.ones(3)
    assert counts.schema_shapes("add", "out", (t, t), {"alpha": 2, "out": out}) == [
        [2], [2], [], [3]]


def test_no_composite_event_without_a_profile():
    assert not beginning("matmul")
    with Seen():
        out = torch.ones(2, 3) @ torch.ones(3)
    assert out.tolist() == [3.0, 3.0]


def test_a_profile_inside_a_mode_leaves_the_stack_as_it_found_it():
    with Seen() as mode:
        with profile() as prof:
            torch.ones(2).neg()
            assert [m for m in state.dispatch_modes if m is mode] == [mode]
            assert len(state.dispatch_modes) == 2
        assert state.dispatch_modes == [mode]
    assert state.dispatch_modes == []
    names = [e.name for e in prof.function_events]
    assert names.count("PythonDispatchMode") == 2


def test_a_mode_that_fails_inside_a_profile_leaves_the_stack_as_it_found_it():
    class Failing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            raise ValueError("no")

    x = torch.ones(2)
    with Failing() as mode:
        with profile() as prof:
            try:
                x.neg()
            except ValueError:
                pass
        assert state.dispatch_modes == [mode]
    events = {e.name: e for e in prof.function_events}
    assert events["PythonDispatchMode"].cpu_parent is events["aten::neg"]
    assert all(e.time_range.end >= e.time_range.start for e in prof.function_events)
