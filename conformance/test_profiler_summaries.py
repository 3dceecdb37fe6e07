"""The profiler's summaries (averages, table, total, Chrome trace), its newer front
torch.profiler, and a user's dispatch mode inside a profile, as torch gives them."""

import json

import pytest
import torch
from torch.autograd.profiler import profile, record_function
from torch.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode_stack

TITLES = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
          "# of Calls"]


def _product_profile(**options):
    x = torch.ones(3, requires_grad=True)
    with profile(**options) as prof:
        with record_function("step"):
            (x * 2).sum().backward()
    return prof


def test_averages_are_grouped_by_name():
    averages = {a.key: a for a in _product_profile().key_averages()}
    assert averages["aten::mul"].count == 2
    assert averages["step"].count == 1
    assert averages["SumBackward0"].count == 1
    assert averages["aten::mul"].input_shapes == ""


def test_averages_grouped_by_input_shape():
    averages = _product_profile(record_shapes=True).key_averages(group_by_input_shape=True)
    muls = [(a.input_shapes, a.count) for a in averages if a.key == "aten::mul"]
    assert muls == [([[3], []], 2)]


def test_the_averages_keep_the_order_names_first_occur():
    keys = [a.key for a in _product_profile().key_averages()]
    assert keys.index("step") < keys.index("aten::mul") < keys.index("aten::sum")
    assert keys.index("aten::sum") < keys.index("SumBackward0") < keys.index("MulBackward0")


def _rows(text: str) -> list:
    return [line for line in text.split("\n") if line]


def test_the_table_has_torchs_columns():
    prof = _product_profile()
    lines = _rows(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=3))
    rule = lines[0]
    assert rule == lines[2] == lines[-2]
    assert [len(part) for part in rule.split()] == [55, 12, 12, 12, 12, 12, 12]
    assert lines[1].split("  ") and [t.strip() for t in lines[1].split("  ") if t.strip()] \
        == TITLES
    assert len(lines) == 3 + 3 + 2  # the rules and titles, three rows, a rule and the total
    assert lines[-1].startswith("Self CPU time total: ")
    for row in lines[3:-2]:
        cells = row.split()
        assert cells[-1] == str(int(cells[-1]))
        assert cells[-2].endswith(("us", "ms", "s"))
        assert cells[-6].endswith("%")


def test_the_table_shows_shapes_when_recorded():
    prof = _product_profile(record_shapes=True)
    header = _rows(prof.key_averages(group_by_input_shape=True).table(row_limit=2))[1]
    assert header.split()[-2:] == ["Input", "Shapes"]
    header = _rows(prof.key_averages().table(row_limit=2))[1]
    assert header.split()[-3:] == ["#", "of", "Calls"]


def test_the_total_average():
    prof = _product_profile()
    total = prof.total_average()
    assert total.key == "Total"
    assert total.count == len(prof.function_events)


def test_the_chrome_trace(tmp_path):
    prof = _product_profile(record_shapes=True)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    assert {"schemaVersion", "deviceProperties", "displayTimeUnit", "baseTimeNanoseconds",
            "traceEvents", "traceName"} <= set(trace)
    assert "record_shapes" not in trace  # only the newer front notes it
    complete = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert {"name", "cat", "ph", "pid", "tid", "ts", "dur", "args"} <= set(complete[0])
    names = [e["name"] for e in complete]
    assert names[:2] == ["step", "aten::mul"]
    assert "autograd::engine::evaluate_function: SumBackward0" in names
    mul = complete[1]["args"]
    assert mul["Sequence number"] >= 0 and mul["Input Dims"] == [[3], []]
    assert mul["External id"] == complete[0]["args"]["External id"] + 1 and "Ev Idx" in mul


def test_the_newer_front(tmp_path):
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as newer
    from torch.profiler import record_function as labelled

    prof = newer(activities=[ProfilerActivity.CPU], record_shapes=True)
    with pytest.raises(AssertionError, match="Profiler must be initialized before accessing "
                                             "events"):
        prof.events()
    with prof:
        with labelled("block"):
            torch.ones(2, 2).sum()
    names = [(e.name, e.cpu_parent.name if e.cpu_parent else None) for e in prof.events()
             if e.cpu_parent is None or not e.cpu_parent.name.startswith("aten::")]
    assert names == [("block", None), ("aten::ones", "block"), ("aten::sum", "block")]
    assert [a.key for a in prof.key_averages()][0] == "block"
    assert ProfilerActivity.CPU.value == 0 and ProfilerActivity.CUDA.value == 2
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    assert json.loads(path.read_text())["record_shapes"] == 1


def test_a_users_mode_inside_a_profile():
    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), len(_get_current_dispatch_mode_stack())))
            return func(*args, **(kwargs or {}))

    x = torch.ones(3)
    with profile() as prof:
        assert _get_current_dispatch_mode_stack() == []
        with Seen() as mode:
            assert _get_current_dispatch_mode_stack() == [mode]
            x.neg()
    assert seen == [("aten.neg.default", 0)]
    assert "aten::neg" in [e.name for e in prof.function_events]


def test_a_profile_inside_a_users_mode():
    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    x = torch.ones(3)
    with Seen() as mode:
        with profile() as prof:
            assert _get_current_dispatch_mode_stack() == [mode]
            x.neg()
    assert seen == ["aten.neg.default"]
    assert [e.name for e in prof.function_events][0] == "aten::neg"


def test_record_function_outside_a_profile_does_nothing():
    with record_function("alone") as block:
        y = torch.ones(2).neg()
    assert block.name == "alone" and y.tolist() == [-1.0, -1.0]

    @record_function("decorated")
    def f(t):
        return t * 2

    assert f(torch.ones(1)).tolist() == [2.0]
    with profile() as prof:
        f(torch.ones(1))
    assert [e.name for e in outline_of(prof)] == ["aten::ones", "decorated", "aten::mul"]


def outline_of(prof) -> list:
    return [e for e in prof.function_events
            if e.cpu_parent is None or not e.cpu_parent.name.startswith("aten::")]


def test_gradients_are_the_same_under_a_profile():
    x = torch.tensor([0.5, 1.5, -2.0], requires_grad=True)
    (x.exp() * x.sin()).sum().backward()
    expected = x.grad.clone()
    x.grad = None
    with profile():
        (x.exp() * x.sin()).sum().backward()
    assert torch.equal(x.grad, expected)


def test_the_event_classes_where_torch_keeps_them():
    from torch.autograd.profiler_util import EventList, FunctionEvent, FunctionEventAvg

    prof = _product_profile()
    assert type(prof.function_events) is EventList
    assert all(type(e) is FunctionEvent for e in prof.function_events)
    assert type(prof.key_averages()) is EventList
    assert type(prof.key_averages()[0]) is FunctionEventAvg
    assert type(prof.total_average()) is FunctionEventAvg
    event = prof.function_events[0]
    assert event.device_type == torch.autograd.DeviceType.CPU
    assert str(event.device_type) == "DeviceType.CPU"
    assert int(torch.autograd.DeviceType.MTIA) == 19
