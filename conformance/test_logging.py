"""Backward debug logging (F166–F172): black-box, against torch's API.

The logger is found by the graph module's ``__name__``: ``torch.autograd.graph`` in torch,
``refgrad.autograd.graph`` in refgrad.
"""

import inspect
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch.autograd.graph import _engine_run_backward

from conformance._support import graph_log_lines


@pytest.fixture
def records():
    with graph_log_lines() as lines:
        yield lines


def test_the_logger_is_the_graph_modules():
    assert torch.autograd.graph.log is logging.getLogger(torch.autograd.graph.__name__)


# F168, F59
def test_two_branches_log_in_engine_order(records):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    c = (a * 2).sum() + b.sum()
    c.backward()
    assert records == [
        "Executing: <AddBackward0 object at 0x?> with grad_outputs: [f64[]]",
        "Executing: <SumBackward0 object at 0x?> with grad_outputs: [f64[]]",
        "Executing: <AccumulateGrad object at 0x?> with grad_outputs: [f64[2, 3]]",
        "Executing: <SumBackward0 object at 0x?> with grad_outputs: [f32[]]",
        "Executing: <MulBackward0 object at 0x?> with grad_outputs: [f32[2]]",
        "Executing: <AccumulateGrad object at 0x?> with grad_outputs: [f32[2]]",
    ]
    assert a.grad.tolist() == [2.0, 2.0] and b.grad.tolist() == [[1.0] * 3] * 2


# F171, F168 (None entries)
def test_grad_logs_only_executed_nodes_with_none_entries(records):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    p, q = (x * 2).unbind()
    torch.autograd.grad(p * 3, x)
    assert records == [
        "Executing: <MulBackward0 object at 0x?> with grad_outputs: [f32[]]",
        "Executing: <UnbindBackward0 object at 0x?> with grad_outputs: [f32[],None]",
        "Executing: <MulBackward0 object at 0x?> with grad_outputs: [f32[2]]",
    ]


# F169
@pytest.mark.parametrize(
    ("dtype", "abbr"),
    [(torch.float16, "f16"), (torch.float32, "f32"), (torch.float64, "f64")],
)
def test_dtype_abbreviations_in_records(records, dtype, abbr):
    a = torch.ones(2, 3, dtype=dtype, requires_grad=True)
    a.sum().backward()
    assert records[-1] == (
        f"Executing: <AccumulateGrad object at 0x?> with grad_outputs: [{abbr}[2, 3]]")


def test_dtype_abbreviation_table():
    from torch.utils._dtype_abbrs import dtype_abbrs

    expected = {torch.uint8: "u8", torch.int8: "i8", torch.int16: "i16", torch.int32: "i32",
                torch.int64: "i64", torch.float16: "f16", torch.float32: "f32",
                torch.float64: "f64", torch.bool: "b8"}
    assert {k: dtype_abbrs[k] for k in expected} == expected


# F167: hooks only for the call, and only at DEBUG
def test_hooks_are_removed_after_the_call_and_not_added_when_quiet(records):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (a * 2).sum()
    y.backward(retain_graph=True)
    assert len(records) == 3
    log = logging.getLogger(torch.autograd.graph.__name__)
    log.setLevel(logging.WARNING)
    seen = []
    y.grad_fn.register_prehook(lambda go: seen.append(len(go)))
    y.backward()
    assert len(records) == 3 and seen == [1]


def test_hooks_are_removed_when_the_backward_fails(records):
    a = torch.tensor([1.0], requires_grad=True)
    b = a * 2
    a.register_hook(lambda g: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        b.backward(retain_graph=True)
    logging.getLogger(torch.autograd.graph.__name__).setLevel(logging.WARNING)
    records.clear()
    with pytest.raises(ZeroDivisionError):
        b.backward()
    assert records == []


# F172
def test_logging_runs_after_user_pre_hooks_and_changes_nothing(records):
    order = []
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    b.grad_fn.register_prehook(lambda go: order.append("user") or (go[0] * 10,))
    b.sum().backward()
    assert order == ["user"]
    assert records[1] == "Executing: <MulBackward0 object at 0x?> with grad_outputs: [f32[2]]"
    assert a.grad.tolist() == [20.0, 20.0]


# F170
def test_gradient_edge_outputs_are_roots(records):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    edge = torch.autograd.graph.get_gradient_edge(b)
    torch.autograd.backward((edge,), (torch.ones(2),))
    assert records == [
        "Executing: <MulBackward0 object at 0x?> with grad_outputs: [f32[2]]",
        "Executing: <AccumulateGrad object at 0x?> with grad_outputs: [f32[2]]",
    ]


# F166
def test_engine_run_backward_positional_arguments():
    assert list(inspect.signature(_engine_run_backward).parameters) == [
        "t_outputs", "args", "kwargs"]
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (a * 2).sum()
    (g,) = _engine_run_backward((y,), (torch.ones(()),), True, False, (a,), False, False)
    assert g.tolist() == [2.0, 2.0] and a.grad is None
    assert _engine_run_backward((y,), (torch.ones(()),), False, False, (), False, True) is None
    assert a.grad.tolist() == [2.0, 2.0]


def test_the_top_logger_is_quiet_keeps_its_records_and_has_its_own_handler():
    top = logging.getLogger(torch.__name__)
    assert top.level == logging.WARNING and top.propagate is False
    # (pytest may add its own handlers to a logger that keeps its records)
    (handler,) = [h for h in top.handlers if type(h) is logging.StreamHandler]
    assert handler.level == logging.DEBUG
    graph_log = logging.getLogger(torch.autograd.graph.__name__)
    assert graph_log.level == logging.NOTSET and graph_log.getEffectiveLevel() == logging.WARNING


def test_a_record_names_the_graph_module_and_the_prehook():
    log = logging.getLogger(torch.autograd.graph.__name__)
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        (torch.ones(2, requires_grad=True) * 2).sum().backward()
    finally:
        log.setLevel(logging.NOTSET)
        log.removeHandler(handler)
    assert [(r.module, r.funcName, r.levelname, r.name) for r in records] == [
        ("graph", "prehook", "DEBUG", torch.autograd.graph.__name__)] * 3


def test_the_root_loggers_level_does_not_switch_the_log_on_but_the_graph_loggers_does():
    # Logging's configuration is process-wide, so in a process of its own.
    script = (
        f"import logging, sys\nimport {torch.__name__} as torch\n"
        "logging.basicConfig(level=logging.DEBUG, format='ROOT %(message)s', stream=sys.stdout)\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "(x * 2).sum().backward()\n"
        "print('quiet', x.grad.tolist(), flush=True)\n"
        "logging.getLogger(torch.autograd.graph.__name__).setLevel(logging.DEBUG)\n"
        "(x * 2).sum().backward()\n"
    )
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), *sys.path])}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", script], env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout == "quiet [2.0, 2.0]\n"
    line = (r"V\d{4} \d\d:\d\d:\d\d\.\d{6} \d+ \S*graph\.py:\d+\] Executing: <%s object at "
            r"0x[0-9a-f]+> with grad_outputs: \[%s\]")
    expected = [("SumBackward0", r"f32\[\]"), ("MulBackward0", r"f32\[2\]"),
                 ("AccumulateGrad", r"f32\[2\]")]
    lines = done.stderr.splitlines()
    assert len(lines) == 3
    for text, (node, grads) in zip(lines, expected):
        assert re.fullmatch(line % (node, grads), text), text
