"""refgrad.autograd._engine: the loop, its queue, its memory and its threads."""

import gc
import inspect
import sys
import threading
import time
import weakref

import pytest
from hypothesis import given
from hypothesis import strategies as st

import refgrad
from refgrad.autograd import _engine_plan
from refgrad.autograd._introspection import _current_autograd_node
from refgrad.autograd._ready_queue import ReadyQueue
from refgrad.autograd._state import state


def leaf(*values):
    return refgrad.tensor(list(values), requires_grad=True)


class Entry:
    def __init__(self, seq, label):
        self._seq = seq
        self.label = label


# The order torch 2.13 runs n AccumulateGrad nodes that become ready together
# (recorded with pre-hooks on torch.stack(leaves).sum()).
TORCH_TIE_ORDERS = {
    2: [0, 1], 3: [0, 1, 2], 4: [0, 2, 1, 3], 5: [0, 2, 4, 1, 3], 6: [0, 2, 5, 4, 1, 3],
    7: [0, 2, 5, 6, 4, 1, 3], 8: [0, 2, 6, 5, 7, 4, 1, 3],
}


@pytest.mark.parametrize("count", sorted(TORCH_TIE_ORDERS))
def test_ties_come_out_as_from_torchs_heap(count):
    queue = ReadyQueue()
    for label in range(count):
        queue.push(Entry(2**64 - 1, label))
    assert [queue.pop().label for _ in range(count)] == TORCH_TIE_ORDERS[count]
    assert len(queue) == 0


@given(st.lists(st.one_of(st.integers(0, 20), st.none()), max_size=60))
def test_the_queue_always_pops_a_largest_number(script):
    queue, inside = ReadyQueue(), []
    for label, seq in enumerate(script):
        if seq is None:
            if inside:
                top = queue.pop()
                assert top._seq == max(e._seq for e in inside)
                inside.remove(top)
        else:
            entry = Entry(seq, label)
            queue.push(entry)
            inside.append(entry)
        assert len(queue) == len(inside)


def test_a_million_op_chain_backwards_without_recursion():
    assert sys.getrecursionlimit() == 1000  # the default, not raised for this test
    a = leaf(1.0)
    x = a
    start = time.perf_counter()
    for _ in range(1_000_000):
        x = x.clone()
    built = time.perf_counter()
    x.sum().backward()
    done = time.perf_counter()
    assert a.grad.tolist() == [1.0]
    del x
    freed = time.perf_counter()
    print(f"1e6 clones: forward {built - start:.1f}s, backward {done - built:.1f}s, "
          f"freeing {freed - done:.1f}s")


def test_backward_and_freeing_need_no_stack_depth():
    a = leaf(1.0)
    x = a
    for _ in range(5000):
        x = x * 1.0
    y = x.sum()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 60)
    try:
        y.backward()
        del x, y
    finally:
        sys.setrecursionlimit(limit)
    assert a.grad.tolist() == [1.0]


def test_nodes_die_by_reference_counting_alone():
    gc.disable()
    try:
        a = leaf(1.0, 2.0)
        b = a * 2
        c = b.sin()
        refs = [weakref.ref(b.grad_fn), weakref.ref(c.grad_fn)]
        acc = weakref.ref(b.grad_fn.next_functions[0][0])
        del b
        assert all(r() is not None for r in refs)  # c's node still leads to b's
        del c
        assert all(r() is None for r in refs)
        assert acc() is None
        assert a._grad_accumulator() is None
    finally:
        gc.enable()


def test_a_node_saving_its_output_makes_no_cycle():
    gc.disable()
    try:
        a = leaf(1.0, 2.0)
        e = a.exp()
        node = weakref.ref(e.grad_fn)
        unpacked = e.grad_fn._saved_result
        assert unpacked.grad_fn is e.grad_fn
        del unpacked
        del e
        assert node() is None
    finally:
        gc.enable()


def test_saved_values_are_released_by_backward():
    gc.disable()
    try:
        a = leaf(1.0, 2.0)
        h = a * 2
        y = (h * h).sum()
        saved = weakref.ref(h)
        del h
        assert saved() is not None  # kept by MulBackward0 for backward
        y.backward()
        assert saved() is None
        e = a.exp()
        s = e.sum()
        s.backward()
        assert e.grad_fn._saved[0]._data is None
    finally:
        gc.enable()


def test_retain_graph_keeps_saved_values():
    a = leaf(1.0, 2.0)
    h = a * 2
    y = (h * h).sum()
    saved = weakref.ref(h)
    del h
    y.backward(retain_graph=True)
    assert saved() is not None
    y.backward()
    assert saved() is None


def test_every_call_is_a_new_graph_task():
    a = leaf(1.0)
    y = a * 2
    seen = []
    y.grad_fn.register_prehook(lambda grads: seen.append(state.graph_task))
    y.backward(retain_graph=True)
    refgrad.autograd.grad(y, a, retain_graph=True)
    y.backward()
    ids = [task.id for task in seen]
    assert len(set(ids)) == 3 and ids == sorted(ids)
    assert state.graph_task is None and _current_autograd_node() is None


def test_engine_state_is_restored_when_a_hook_raises():
    a = leaf(1.0)
    y = a * 2

    def fail(grads):
        raise ZeroDivisionError("division by zero")

    y.grad_fn.register_prehook(fail)
    with pytest.raises(ZeroDivisionError):
        y.backward()
    assert state.graph_task is None and _current_autograd_node() is None
    assert state.grad_enabled is True


def test_grad_mode_inside_backward_is_create_graph():
    a = leaf(1.0)
    y = a * 2
    seen = []
    y.grad_fn.register_prehook(lambda grads: seen.append(state.grad_enabled))
    y.backward(retain_graph=True)
    refgrad.autograd.grad(y, a, create_graph=True)
    assert seen == [False, True]


def test_threads_share_a_leaf_and_accumulate():
    w = refgrad.ones(3, requires_grad=True)
    errors = []

    def train():
        try:
            for _ in range(50):
                (w * 2).sum().backward()
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=train) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert w.grad.tolist() == [400.0, 400.0, 400.0]


def test_each_thread_has_its_own_graph_task():
    a = leaf(1.0)
    barrier = threading.Barrier(2)
    seen = {}

    def run(name):
        y = a * 2

        def hook(grads):
            seen[name] = state.graph_task.id
            barrier.wait()  # both backward calls are running now

        y.grad_fn.register_prehook(hook)
        y.backward()

    threads = [threading.Thread(target=run, args=(n,)) for n in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen["x"] != seen["y"]
    assert a.grad.tolist() == [4.0]


def test_plan_marks_only_nodes_on_a_path_to_the_targets():
    a, z = leaf(1.0), leaf(1.0)
    b = a * 2
    c = b * z
    roots = [c.grad_fn]
    acc_a = b.grad_fn.next_functions[0][0]
    info = _engine_plan.plan(roots, [(b.grad_fn, 0)], accumulate_grad=False)
    assert info[b.grad_fn].captures == [(0, 0)] and not info[b.grad_fn].needed
    assert info[c.grad_fn].needed
    assert acc_a not in info


def test_create_graph_warning_is_given_once(monkeypatch):
    from refgrad import _warn_once

    monkeypatch.setattr(_warn_once, "_given", set())
    a = leaf(1.0)
    with pytest.warns(UserWarning, match="reference cycle"):
        (a * a).sum().backward(create_graph=True)
    (a * a).sum().backward(create_graph=True)  # errors if it warned again
    assert a.grad.grad_fn.name() == "AddBackward0"


class _Returns(refgrad.autograd.Function):
    """y = x + w, whose backward returns whatever gradient for w the test asks for."""

    @staticmethod
    def forward(ctx, x, w, grad_for_w):
        ctx.grad_for_w = grad_for_w
        return x + w

    @staticmethod
    def backward(ctx, g):
        return g, ctx.grad_for_w, None


def _run(grad_for_w, post_hook: bool):
    x = refgrad.ones(2, 3, requires_grad=True)
    w = refgrad.zeros(3, requires_grad=True)
    y = _Returns.apply(x, w, grad_for_w)
    seen = []
    if post_hook:  # a post-hook makes the engine check the outputs before delivering
        y.grad_fn.register_hook(lambda grads, _: seen.append(grads[1]))
    y.sum().backward()
    return w.grad, seen


@pytest.mark.parametrize("post_hook", [False, True])
def test_gradients_are_conformed_whether_checked_apart_or_while_delivered(post_hook):
    grad, seen = _run(refgrad.ones(2, 3, dtype=refgrad.float64), post_hook)
    assert grad.dtype is refgrad.float32 and grad.tolist() == [2.0, 2.0, 2.0]
    if post_hook:  # the hook saw the checked gradient: summed down and cast
        assert seen[0].shape == (3,) and seen[0].dtype is refgrad.float32


@pytest.mark.parametrize("post_hook", [False, True])
def test_a_gradient_of_a_wrong_shape_fails_the_same_on_both_paths(post_hook):
    message = (r"Function _ReturnsBackward returned an invalid gradient at index 1 - got \[4\] "
               r"but expected shape compatible with \[3\]")
    with pytest.raises(RuntimeError, match=message):
        _run(refgrad.ones(4), post_hook)
    assert refgrad.is_grad_enabled() and state.graph_task is None
