"""The engine (F50, F51, F59, F71, F101, F13): black-box, against torch's API."""

import re

import pytest
import torch
from torch.autograd.graph import get_gradient_edge

from conformance._support import leaf

C = torch._C


def accumulator(t):
    return get_gradient_edge(t).node


def record(order, nodes):
    """Make each ``{name: node}`` append its name to ``order`` when it runs."""
    return [n.register_prehook(lambda grads, name=name: order.append(name))
            for name, n in nodes.items()]


# F59
def test_ready_nodes_run_latest_created_first():
    a = leaf(1.0)
    x1, x2, x3 = a * 2, a * 3, a * 4
    s = x1 + x2
    t = s + x3
    order = []
    record(order, {"t": t.grad_fn, "s": s.grad_fn, "x3": x3.grad_fn, "x2": x2.grad_fn,
                   "x1": x1.grad_fn, "acc_a": accumulator(a)})
    t.backward()
    assert order == ["t", "s", "x3", "x2", "x1", "acc_a"]
    assert a.grad.tolist() == [9.0]


def test_a_leaf_is_accumulated_as_soon_as_it_is_ready():
    p, q = leaf(1.0), leaf(1.0)
    order = []
    first = p * 2 + q * 3  # the graph keeps the leaves' nodes alive
    record(order, {"p": accumulator(p), "q": accumulator(q)})
    first.backward()
    assert order == ["q", "p"]
    order.clear()
    (q * 3 + p * 2).backward()
    assert order == ["p", "q"]


def test_mixed_order_of_leaves_and_operations():
    p, q = leaf(1.0), leaf(2.0)
    m = p * q
    n = m.exp()
    out = (n + p).sum()
    order = []
    record(order, {"out": out.grad_fn, "add": out.grad_fn.next_functions[0][0],
                   "exp": n.grad_fn, "mul": m.grad_fn, "p": accumulator(p),
                   "q": accumulator(q)})
    out.backward()
    assert order == ["out", "add", "exp", "mul", "p", "q"]


@pytest.mark.parametrize("count, expected", [
    (2, [0, 1]), (3, [0, 1, 2]), (4, [0, 2, 1, 3]), (5, [0, 2, 4, 1, 3]),
    (8, [0, 2, 6, 5, 7, 4, 1, 3]),
])
def test_leaves_ready_together_come_out_in_heap_order(count, expected):
    leaves = [torch.ones(1, requires_grad=True) for _ in range(count)]
    order = []
    total = torch.stack(leaves).sum()
    record(order, {i: accumulator(x) for i, x in enumerate(leaves)})
    total.backward()
    assert order == expected


# F50
def test_gradients_from_several_consumers_are_summed_before_the_node_runs():
    a = leaf(1.0)
    b = a * 2
    seen = []
    b.grad_fn.register_prehook(lambda grads: seen.append(grads[0].item()))
    c, d = b * 3, b * 4
    (c + d).backward()
    assert seen == [7.0]
    assert a.grad.tolist() == [14.0]


def test_diamond_of_four_paths():
    a = leaf(1.0, 2.0)
    b = a.exp()
    c = b.sin() + b.cos() + b * 2 + b / 2
    c.sum().backward()
    e = a.detach().exp()
    expected = (e * (e.cos() - e.sin() + 2.5)).tolist()
    assert a.grad.tolist() == pytest.approx(expected, rel=1e-6)


# F51
def test_missing_gradients_are_none_for_hooks_and_zeros_for_the_formula():
    t = leaf(1.0, 2.0)
    x, y = t.unbind()
    seen = []
    node = x.grad_fn
    node.register_prehook(lambda grads: seen.append(("pre", grads)))
    node.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        ("post", grad_inputs, grad_outputs)))
    (x * 3).backward()
    (pre, pre_grads), (post, grad_inputs, grad_outputs) = seen
    assert len(pre_grads) == 2 and pre_grads[0].item() == 3.0 and pre_grads[1] is None
    assert len(grad_inputs) == 1 and grad_inputs[0].tolist() == [3.0, 0.0]
    assert grad_outputs[0].item() == 3.0 and grad_outputs[1] is None
    assert t.grad.tolist() == [3.0, 0.0]


def test_a_branch_that_gets_zeros_from_a_formula_still_runs():
    a, b = leaf(1.0), leaf(2.0)
    x = a * 2
    y = b * 3
    out = torch.stack([x, y]).unbind()[0]
    ran = []
    y.grad_fn.register_prehook(lambda grads: ran.append(grads))
    out.sum().backward()
    assert a.grad.tolist() == [2.0]
    assert [g[0].tolist() for g in ran] == [[0.0]]


# F13
def test_several_outputs_are_one_backward_pass():
    a = leaf(1.0, 2.0)
    ids = []
    acc = accumulator(a)
    acc.register_prehook(lambda grads: ids.append(C._current_graph_task_id()))
    torch.autograd.backward([(a * 2).sum(), (a * 3).sum()])
    assert a.grad.tolist() == [5.0, 5.0]
    assert len(ids) == 1
    torch.autograd.backward(a * 2, grad_tensors=torch.ones(2))
    assert a.grad.tolist() == [7.0, 7.0]
    torch.autograd.backward([a * 2], [torch.tensor([1.0, 2.0])])
    assert a.grad.tolist() == [9.0, 11.0]


def test_several_roots_take_one_sequence_number():
    a = leaf(1.0, 2.0)
    d, e = (a * 2).sum(), (a * 3).sum()
    before = (a * 1).grad_fn._sequence_nr()
    torch.autograd.backward([d, e], retain_graph=True)
    assert (a * 1).grad_fn._sequence_nr() == before + 2
    d.backward()
    assert (a * 1).grad_fn._sequence_nr() == before + 3
    torch.autograd.grad([e, e], a)
    assert (a * 1).grad_fn._sequence_nr() == before + 5


def test_the_same_root_twice_counts_twice():
    a = leaf(1.0, 2.0)
    d = (a * 2).sum()
    torch.autograd.backward([d, d])
    assert a.grad.tolist() == [4.0, 4.0]


# F71
def test_graph_task_id_and_current_node():
    assert C._current_graph_task_id() == -1
    assert C._current_autograd_node() is None
    a = leaf(1.0, 2.0)
    b = a * 2
    ids = []
    b.grad_fn.register_prehook(lambda grads: ids.append(
        (C._current_graph_task_id(), C._current_autograd_node())))
    b.sum().backward(retain_graph=True)
    b.sum().backward()
    (first, node1), (second, node2) = ids
    assert node1 is b.grad_fn and node2 is b.grad_fn
    assert second == first + 1
    assert C._current_graph_task_id() == -1
    assert C._current_autograd_node() is None


def test_all_hooks_of_one_call_see_one_id():
    a = leaf(1.0)
    b = a * 2
    c = b * 3
    ids = []
    for node in (c.grad_fn, b.grad_fn, accumulator(a)):
        node.register_prehook(lambda grads: ids.append(C._current_graph_task_id()))
    c.backward(retain_graph=True)
    torch.autograd.grad(c, a)
    assert ids[0] == ids[1] == ids[2] and ids[3] == ids[4] == ids[0] + 1
    assert len(ids) == 5  # grad() does not run the leaf's node


def test_the_current_node_is_the_node_running_its_hooks():
    a = leaf(1.0)
    b = a * 2
    c = b.exp()
    seen = []
    for node in (c.grad_fn, b.grad_fn, accumulator(a)):
        node.register_prehook(lambda grads: seen.append(C._current_autograd_node()))
    c.backward()
    assert seen == [c.grad_fn, b.grad_fn, accumulator(a)]


# F101
def will(nodes):
    out = []
    for n in nodes:
        try:
            out.append(C._will_engine_execute_node(n))
        except RuntimeError as error:
            out.append(str(error))
    return out


LEAF_IN_GRAD = (
    "A leaf node was passed to _will_engine_execute_node but we are currently running "
    "autograd.grad(). This is currently not supported."
)


@pytest.fixture
def graph():
    a, z = leaf(1.0, 2.0), leaf(1.0, 2.0)
    b = a * 2
    c = b * 3
    d = c.sum()
    zz = z * 2
    other = a * 5
    nodes = [d.grad_fn, c.grad_fn, b.grad_fn, accumulator(a), zz.grad_fn, accumulator(z),
             other.grad_fn]
    return a, b, c, d, nodes


def answers(run, nodes, hook_on):
    seen = []
    handle = hook_on.register_prehook(lambda grads: seen.append(will(nodes)))
    run()
    handle.remove()
    return seen


def test_will_engine_execute_node_during_backward(graph):
    a, b, c, d, nodes = graph
    expected = [False, True, True, True, False, False, False]
    assert answers(lambda: d.backward(retain_graph=True), nodes, d.grad_fn) == [expected]
    assert answers(lambda: d.backward(retain_graph=True), nodes, nodes[3]) == [expected]


def test_will_engine_execute_node_with_inputs(graph):
    a, b, c, d, nodes = graph

    def run(fn):
        return answers(fn, nodes, d.grad_fn)

    f, t = False, True
    assert run(lambda: d.backward(inputs=[b], retain_graph=True)) == [[f, t, t, f, f, f, f]]
    assert run(lambda: d.backward(inputs=[a], retain_graph=True)) == [[f, t, t, t, f, f, f]]
    assert run(lambda: torch.autograd.grad(d, b, retain_graph=True)) == [[f, t, t, f, f, f, f]]
    assert run(lambda: torch.autograd.grad(d, c, retain_graph=True)) == [[f, t, f, f, f, f, f]]
    assert run(lambda: torch.autograd.grad(d, a, retain_graph=True)) == [
        [f, t, t, LEAF_IN_GRAD, f, f, f]]


def test_will_engine_execute_node_with_several_roots():
    a = leaf(1.0, 2.0)
    b = a * 2
    d, e = b.sum(), (a * 3).sum()
    seen = []
    b.grad_fn.register_prehook(lambda grads: seen.append(will([d.grad_fn, e.grad_fn])))
    torch.autograd.backward([d, e])
    assert seen == [[True, True]]


def test_a_leaf_as_lone_root_is_not_part_of_its_graph():
    a = leaf(1.0, 2.0)
    acc = accumulator(a)
    seen = []
    acc.register_prehook(lambda grads: seen.append(will([acc])))
    a.backward(torch.ones(2))
    assert seen == [[False]]


def test_will_engine_execute_node_misuse():
    b = leaf(1.0) * 2
    with pytest.raises(RuntimeError, match=re.escape(
            "_get_should_execute_nodes should only be called during the backward pass")):
        C._will_engine_execute_node(b.grad_fn)
    for value, name in ((None, "NoneType"), (3, "int"), (b, "Tensor")):
        with pytest.raises(RuntimeError) as info:
            C._will_engine_execute_node(value)
        assert str(info.value) == f"_will_engine_execute_node expects an grad_fn, but got {name}"


def test_gradients_that_add_up_to_nan_give_no_warning():
    # The suite turns warnings into errors: an addition that warned would fail here.
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * float("inf"), x * float("-inf")
    (a + b).sum().backward(retain_graph=True)  # inf + -inf, meeting at x
    assert torch.isnan(x.grad).all()
    x.grad = torch.tensor([float("inf"), 1.0])
    b.sum().backward()  # -inf added into the .grad that is there
    assert torch.isnan(x.grad[0]) and x.grad[1].item() == float("-inf")
