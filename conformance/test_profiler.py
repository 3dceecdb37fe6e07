"""The profiler: which events a profile records, their names, order and nesting, as
torch's.

torch's kernels call further ops, which its profile records inside the op that called them
(``aten::as_strided`` inside ``aten::expand``); refgrad's kernels are NumPy. So the events are
compared in outline: every event that is not inside an op.
"""

import threading

import pytest
import torch
import torch.utils.checkpoint as checkpoint
from torch.autograd.profiler import profile, record_function

from conformance._profiler_expected import OUTLINES


def product_and_sum():
    x = torch.ones(3, requires_grad=True)
    (x * 2).sum().backward()


def matrix_product():
    a = torch.ones(2, 3, requires_grad=True)
    b = torch.ones(3, 4, requires_grad=True)
    a.mm(b).sum().backward()


def views():
    a = torch.ones(2, 3, requires_grad=True)
    a.t()[1].unsqueeze(0).expand(2, 2).sum().backward()


def write_through_a_view():
    a = torch.ones(3, requires_grad=True)
    b = a * 1
    b.add_(1)
    b[1:].mul_(2)
    b.sum().backward()


def second_order():
    x = torch.ones(3, requires_grad=True)
    (g,) = torch.autograd.grad((x.sin() * 2).sum(), x, create_graph=True)
    g.sum().backward()


def without_grad():
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        x.neg()
    with torch.inference_mode():
        torch.ones(2).neg()
    torch.zeros(2).relu()


def labelled_blocks():
    x = torch.ones(3, requires_grad=True)

    @record_function("outer")
    def f(t):
        with record_function("inner"):
            return t.sin()

    f(x).sum().backward()


def hooks():
    x = torch.ones(3, requires_grad=True)
    y = x.exp()
    y.retain_grad()
    z = y.relu()
    z.register_hook(lambda g: g * 2)
    z.grad_fn.register_prehook(lambda g: None)
    z.sum().backward()


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


def custom_function():
    x = torch.ones(3, requires_grad=True)
    Square.apply(x).sum().backward()


def grad_of_one_input():
    x = torch.ones(3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    torch.autograd.grad((x * w).sum(), [x])


def failing_backward():
    x = torch.ones(3, requires_grad=True)
    y = x.exp()
    y.add_(1)
    try:
        y.sum().backward()
    except RuntimeError:
        pass
    x.neg()


def reentrant_checkpoint():
    x = torch.ones(3, requires_grad=True)
    checkpoint.checkpoint(lambda t: t.sin(), x, use_reentrant=True).sum().backward()


PARAMETER = torch.nn.Parameter(torch.ones(3))


def optimizer_step():
    optimizer = torch.optim.SGD([PARAMETER], lr=0.1, momentum=0.9)
    for _ in range(2):
        optimizer.zero_grad()
        (PARAMETER * 3).sum().backward()
        optimizer.step()


PROGRAMS = [product_and_sum, matrix_product, views, write_through_a_view, second_order,
            without_grad, labelled_blocks, hooks, custom_function, grad_of_one_input,
            failing_backward, reentrant_checkpoint, optimizer_step]


def outline(events) -> list:
    """(name, parent's name, sequence number from the profile's first) of each event not
    inside an op: torch records its kernels' own ops inside an op, refgrad has none."""
    kept = [e for e in events
            if e.cpu_parent is None or not e.cpu_parent.name.startswith("aten::")]
    numbers = [e.sequence_nr for e in kept if e.sequence_nr >= 0]
    first = min(numbers) if numbers else 0
    return [(e.name, e.cpu_parent.name if e.cpu_parent is not None else None,
             e.sequence_nr - first if e.sequence_nr >= 0 else -1) for e in kept]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_outline_of_a_profile(program):
    with profile() as prof:
        program()
    assert outline(prof.function_events) == OUTLINES[program.__name__]


def test_parents_know_their_children():
    with profile() as prof:
        labelled_blocks()
    for event in prof.function_events:
        if event.cpu_parent is not None:
            assert any(child is event for child in event.cpu_parent.cpu_children)
        for child in event.cpu_children:
            assert child.cpu_parent is event
            assert event.time_range.start <= child.time_range.start
            assert child.time_range.end <= event.time_range.end


def test_a_disabled_profile_is_none_and_records_nothing():
    with profile(enabled=False) as prof:
        torch.ones(2).neg()
    assert prof is None


def test_shapes_of_ops_and_nodes():
    x = torch.ones(3, requires_grad=True)
    with profile(record_shapes=True) as prof:
        (x * 2).sum().backward()
    shapes = {e.name: e.input_shapes for e in prof.function_events
              if e.name in ("aten::mul", "SumBackward0", "MulBackward0",
                            "torch::autograd::AccumulateGrad")}
    assert shapes == {"aten::mul": [[3], []], "SumBackward0": [[]], "MulBackward0": [[3]],
                      "torch::autograd::AccumulateGrad": [[3]]}
    with profile() as prof:
        (x * 2).sum()
    assert [e.input_shapes for e in prof.function_events][0] == []


def test_the_threads_of_the_events():
    x = torch.ones(3, requires_grad=True)
    with profile() as prof:
        (x * 2).sum().backward()
    events = outline_events(prof.function_events)
    assert len({e.thread for e in events}) == 1
    forward = {e.fwd_thread for e in events if e.name in ("SumBackward0", "MulBackward0")}
    assert forward == {events[0].thread}
    assert {e.fwd_thread for e in events if "AccumulateGrad" in e.name} == {0}
    assert {e.fwd_thread for e in events if e.name.startswith("aten::")} == {0}


def outline_events(events) -> list:
    return [e for e in events
            if e.cpu_parent is None or not e.cpu_parent.name.startswith("aten::")]


def test_only_the_thread_that_profiles_records():
    seen = {}

    def elsewhere():
        with profile() as inner:
            torch.ones(2).exp()
        seen["events"] = [(e.name, e.thread) for e in outline_events(inner.function_events)]

    with profile() as prof:
        other = threading.Thread(target=lambda: torch.ones(2).cos())
        other.start()
        other.join()
        torch.ones(2).neg()
    assert [e.name for e in outline_events(prof.function_events)] == ["aten::ones", "aten::neg"]
    other = threading.Thread(target=elsewhere)
    other.start()
    other.join()
    assert [name for name, _ in seen["events"]] == ["aten::ones", "aten::exp"]
    assert seen["events"][0][1] != prof.function_events[0].thread
