"""Oracle test: every kind of hook, and the debug log, in the same order as torch 2.13.

Collected only in the oracle session. Hypothesis writes a small branching program;
it runs on both libraries with a tensor hook (and sometimes ``retain_grad``) on every
tensor, a pre- and a post-hook on every node, and post-accumulate hooks on the leaves.
The recorded traces, the debug log lines and the gradients must be equal.
"""

import logging
import re

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

import refgrad

OPS = ("mul", "add", "sin", "sum_pair", "unbind")


def build(lib, program, n_leaves):
    leaves = [lib.tensor([1.0 + i, 2.0 - i], requires_grad=True) for i in range(n_leaves)]
    values = list(leaves)
    for op, i, j in program:
        x, y = values[i % len(values)], values[j % len(values)]
        if op == "mul":
            values.append(x * y)
        elif op == "add":
            values.append(x + y * 2)
        elif op == "sin":
            values.append(x.sin())
        elif op == "sum_pair":
            values.append(x.sum() * y)
        elif x.dim() == 0:
            values.append(x * 3)
        else:
            first, second = x.unbind()
            values.append(first * y)
            values.append(second + 0)
    return leaves, values


def run(lib, program, n_leaves, retain, how):
    leaves, values = build(lib, program, n_leaves)
    names = {}
    trace = []
    for k, t in enumerate(values):
        if retain and t.grad_fn is not None and k % 2:
            t.retain_grad()
        t.register_hook(lambda g, k=k: trace.append(("tensor", k, _show(g))))
        node = t.grad_fn
        if node is not None and node not in names:
            names[node] = len(names)
            label = f"{node.name()}#{names[node]}"
            node.register_prehook(lambda go, label=label: trace.append(
                ("pre", label, [_show(g) for g in go])))
            node.register_hook(lambda gi, go, label=label: trace.append(
                ("post", label, [_show(g) for g in gi])))
    for k, leaf in enumerate(leaves):
        leaf.register_post_accumulate_grad_hook(
            lambda p, k=k: trace.append(("post_acc", k, _show(p.grad))))
    out = sum(v.sum() for v in values[n_leaves:])
    records = _logged(lib, lambda: _backward(lib, out, leaves, values, how))
    grads = [_show(leaf.grad) for leaf in leaves]
    return trace, records, grads


def _backward(lib, out, leaves, values, how):
    if how == "backward":
        out.backward()
        return None
    if how == "inputs":
        out.backward(inputs=[values[-1]] if values[-1].grad_fn is not None else leaves[:1])
        return None
    wanted = [v for v in values if v.grad_fn is not None][-1:] or leaves[:1]
    return [_show(g) for g in lib.autograd.grad(out, wanted, allow_unused=True)]


def _logged(lib, fn):
    log = logging.getLogger(lib.autograd.graph.__name__)
    lines = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(re.sub(r"0x[0-9a-f]+", "?", record.getMessage()))
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    try:
        result = fn()
    finally:
        log.setLevel(logging.NOTSET)
        log.removeHandler(handler)
        log.propagate = True
    return lines, result


class Values(tuple):
    """A gradient's values, compared with a float32 tolerance."""

    def __eq__(self, other):
        return len(self) == len(other) and bool(np.allclose(self, other, rtol=1e-5, atol=1e-6))

    __hash__ = tuple.__hash__


def _show(t):
    return None if t is None else Values(float(v) for v in t.reshape(-1).tolist())


@given(
    program=st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 20), st.integers(0, 20)),
                     min_size=1, max_size=6),
    n_leaves=st.integers(1, 3),
    retain=st.booleans(),
    how=st.sampled_from(["backward", "inputs", "grad"]),
)
def test_hook_traces_and_logs_match_torch(program, n_leaves, retain, how):
    assert run(refgrad, program, n_leaves, retain, how) == run(torch, program, n_leaves,
                                                               retain, how)
