"""checkpoint(debug=True): a failed unpack prints the operators of both runs."""

import re

import pytest
import torch
from torch.utils.checkpoint import CheckpointError, checkpoint, set_checkpoint_debug_enabled

HEAD = (
    " An error happened while unpacking tensors; dumping logs of latest computation\n"
    "because you passed `debug=True` to `torch.utils.checkpoint.checkpoint()`.\n"
    "Scroll all the way down for guidance on how to navigate these logs.\n\n"
    "+" + "~" * 78 + "+\n"
    "|        1. Stack traces of the operators that ran in the original forward     |\n"
    "+" + "-" * 78 + "+\n\n"
)
TAIL = (
    " 1. Stack traces of the operators that ran in the original forward\n"
    " 2. Stack traces of the operators that ran during recomputation\n"
    " 3. Log of operators in the original forward and recomputation\n"
    " 4. Error message                                             <--- You are here\n"
    + "-" * 80 + "\n"
)
RECOMPUTE_HEADER = (
    "\n+" + "~" * 78 + "+\n"
    "|        2. Stack traces of the operators that ran during recomputation        |\n"
    "+" + "-" * 78 + "+\n\n"
)


def _differs_second_time(kind):
    calls = [0]

    def fn(t):
        calls[0] += 1
        if calls[0] == 2 and kind == "shape":
            t = t.reshape(2, 2)
        if calls[0] == 2 and kind == "dtype":
            t = t.double()
        if calls[0] == 2 and kind == "fewer":
            return t.sum()
        return t.sin().exp().sum()

    return fn


def _debug_error(fn, **options):
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = checkpoint(fn, x, use_reentrant=False, **options)
    with pytest.raises(CheckpointError) as info:
        y.backward()
    return info.value


def _ops(message, title):
    start = message.index(title) + len(title) + 2
    return message[start:message.index("\n\n", start)].split("\n")


FORWARD = [
    "$1: f32[4] = torch._ops.aten.sin.default($0)",
    "$2: f32[4] = torch._ops.aten.exp.default($1)",
    "$3: f32[] = torch._ops.aten.sum.default($2)",
]


@pytest.mark.parametrize("kind, recomputed", [
    ("shape", [
        "$1: f32[2, 2] = torch._ops.aten.view.default($0, ['2', '2'])",
        "$2: f32[2, 2] = torch._ops.aten.detach.default($1)",
        "$3: f32[2, 2] = torch._ops.aten.sin.default($1)",
        "$4: f32[2, 2] = torch._ops.aten.exp.default($3)",
        "$5: f32[2, 2] = torch._ops.aten.detach.default($4)",
    ]),
    ("dtype", [
        "$1: f64[4] = torch._ops.aten._to_copy.default($0, dtype=torch.float64)",
        "$2: f64[4] = torch._ops.aten.detach.default($1)",
        "$3: f64[4] = torch._ops.aten.sin.default($1)",
        "$4: f64[4] = torch._ops.aten.exp.default($3)",
        "$5: f64[4] = torch._ops.aten.detach.default($4)",
    ]),
    ("fewer", ["$1: f32[] = torch._ops.aten.sum.default($0)"]),
])
def test_the_log_lists_the_operators_of_both_runs(kind, recomputed):
    error = _debug_error(_differs_second_time(kind), debug=True)
    message = str(error)
    assert message.startswith(HEAD) and message.endswith(TAIL)
    assert _ops(message, "Operations executed during the original forward:") == FORWARD
    assert _ops(message, "Operations executed during recomputation:") == recomputed
    # the short message is kept as the cause
    assert type(error.__cause__) is CheckpointError
    assert str(error.__cause__).startswith("torch.utils.checkpoint: ")


def test_each_operator_comes_with_its_callers_stack():
    message = str(_debug_error(_differs_second_time("shape"), debug=True))
    traces = message[len(HEAD):message.index(RECOMPUTE_HEADER)]
    entries = traces.split("\n\n\n")
    assert [e.split("\n")[0] for e in entries[:3]] == [
        f"{line}   ({i} of 3 in original)" for i, line in enumerate(FORWARD, 1)
    ]
    frame = re.compile(r"^.+:\d+:\S+$")
    for entry in entries[:3]:
        stack = entry.split("\n")[2:]
        assert stack and all(frame.match(line) for line in stack)
        # the function's own line is named among the callers
        assert any(line.endswith(":fn") and __file__ in line for line in stack)


def test_the_switch_overrides_the_argument():
    with set_checkpoint_debug_enabled(True):
        assert str(_debug_error(_differs_second_time("shape"))).startswith(HEAD)
    with set_checkpoint_debug_enabled(False):
        short = str(_debug_error(_differs_second_time("shape"), debug=True))
    assert short.startswith("torch.utils.checkpoint: Recomputed values")
    with set_checkpoint_debug_enabled(None):
        assert str(_debug_error(_differs_second_time("shape"), debug=True)).startswith(HEAD)


def test_saving_more_is_reported_with_the_log_too():
    calls = [0]

    def fn(t):
        calls[0] += 1
        return (t.sin().exp() if calls[0] == 2 else t.sin()).sum()

    error = _debug_error(fn, debug=True, early_stop=False)
    assert str(error).startswith(HEAD)
    assert str(error.__cause__).startswith(
        "torch.utils.checkpoint: trying to save more tensors during recomputation"
    )
    assert _ops(str(error), "Operations executed during recomputation:")[-1] == (
        "$4: f32[4] = torch._ops.aten.detach.default($3)"
    )


def test_no_check_means_no_error_even_with_debug():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    fn = _differs_second_time("dtype")
    y = checkpoint(fn, x, use_reentrant=False, debug=True, determinism_check="none")
    y.backward()
    assert x.grad.dtype == torch.float32


def test_a_second_backward_cannot_enter_the_log_again():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = checkpoint(lambda t: t.sin().exp().sum(), x, use_reentrant=False, debug=True)
    y.backward(retain_graph=True)
    with pytest.raises(AttributeError, match="^'_GeneratorContextManager' object has no "
                                             "attribute 'args'$"):
        y.backward()
