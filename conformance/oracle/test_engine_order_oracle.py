"""Oracle test: the order in which the engine runs nodes, refgrad against real torch 2.13.

Collected only in the oracle session, where torch is installed. Hypothesis
writes a small program: a few leaves, a sequence of operations that branch
and merge, and a backward call (one root, several roots, ``grad()`` for some
tensors, or ``backward(inputs=...)``). The program runs once on each library.
Before the backward call, a pre-hook on every node of the graph (found by
walking ``next_functions`` from the roots) records the node's label; the two
recorded orders must be equal, and so must the gradients.
"""

import warnings

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

import refgrad

UNARY = ("neg", "exp", "sin", "cos", "clone", "mul2", "add1", "rsub", "view", "unsqueeze")
BINARY = ("add", "sub", "mul", "div", "where")


def apply_unary(lib, name, x):
    if name == "neg":
        return -x
    if name == "exp":
        return x.exp()
    if name == "sin":
        return x.sin()
    if name == "cos":
        return x.cos()
    if name == "clone":
        return x.clone()
    if name == "mul2":
        return x * 2
    if name == "add1":
        return x + 1
    if name == "rsub":
        return 2 - x
    if name == "view":
        return x.view(2, 1).view(2)
    return x.unsqueeze(0).squeeze(0)


def apply_binary(lib, name, x, y):
    if name == "add":
        return x + y
    if name == "sub":
        return x - y
    if name == "mul":
        return x * y
    if name == "div":
        return x / (y * y + 1)
    return lib.where(lib.tensor([True, False]), x, y)


step = st.one_of(
    st.tuples(st.just("unary"), st.sampled_from(UNARY), st.integers(0, 99)),
    st.tuples(st.just("binary"), st.sampled_from(BINARY), st.integers(0, 99), st.integers(0, 99)),
    st.tuples(st.just("stack"), st.lists(st.integers(0, 99), min_size=2, max_size=5)),
    st.tuples(st.just("unbind"), st.just("unbind"), st.integers(0, 99)),
    st.tuples(st.just("leaves"), st.integers(0, 99), st.integers(2, 8)),
)
programs = st.fixed_dictionaries({
    "leaves": st.integers(1, 8),
    "steps": st.lists(step, min_size=1, max_size=14),
    "mode": st.sampled_from(("backward", "roots", "grad", "inputs")),
    "picks": st.lists(st.integers(0, 99), min_size=1, max_size=3),
})


def build(lib, program):
    # float64: long exp and sin chains drift apart in float32 by more than any tolerance.
    leaves = [lib.tensor([1.0 + i, 0.5 * i - 1.0], dtype=lib.float64, requires_grad=True)
              for i in range(program["leaves"])]
    pool = list(leaves)
    for kind, *args in program["steps"]:
        if kind == "leaves":  # several leaves at once: their nodes become ready together
            start, count = args
            pool.append(lib.stack([leaves[(start + k) % len(leaves)] for k in range(count)]).sum(0))
            continue
        pick = [pool[i % len(pool)] for i in (args[-1] if kind == "stack" else args[1:])]
        if kind == "unary":
            pool.append(apply_unary(lib, args[0], pick[0]))
        elif kind == "binary":
            pool.append(apply_binary(lib, args[0], *pick))
        elif kind == "stack":
            pool.append(lib.stack(pick).sum(0))
        else:
            pool.extend(lib.stack([pick[0], pick[0] * 3]).unbind())
    return leaves, pool


def label_nodes(roots):
    """Every node reachable from ``roots``, labelled in order of discovery."""
    labels, stack = {}, [r.grad_fn for r in roots if r.grad_fn is not None]
    stack.reverse()
    while stack:
        node = stack.pop()
        if node in labels:
            continue
        labels[node] = len(labels)
        stack.extend(reversed([n for n, _ in node.next_functions if n is not None]))
    return labels


def run(lib, program):
    leaves, pool = build(lib, program)
    picked = [pool[i % len(pool)] for i in program["picks"]]
    out = pool[-1].sum()
    roots = [out] + [p.sum() for p in picked] if program["mode"] == "roots" else [out]
    labels = label_nodes(roots)
    order = []
    for node, label in labels.items():
        node.register_prehook(lambda grads, label=label: order.append(label))
    mode = program["mode"]
    if mode == "grad":
        wanted = [p for p in picked if p.requires_grad]
        grads = lib.autograd.grad(out, wanted, allow_unused=True) if wanted else ()
        values = [None if g is None else g.tolist() for g in grads]
    elif mode == "inputs":
        out.backward(inputs=leaves[: len(program["picks"])])
        values = [None if x.grad is None else x.grad.tolist() for x in leaves]
    else:
        lib.autograd.backward(roots)
        values = [None if x.grad is None else x.grad.tolist() for x in leaves]
    return order, values


@given(programs)
def test_engine_order_matches_torch(program):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch_order, torch_values = run(torch, program)
    ref_order, ref_values = run(refgrad, program)
    assert ref_order == torch_order
    assert len(ref_values) == len(torch_values)
    for r, t in zip(ref_values, torch_values):
        assert (r is None) == (t is None)
        if r is not None:
            np.testing.assert_allclose(r, t, rtol=1e-5, atol=1e-6)
