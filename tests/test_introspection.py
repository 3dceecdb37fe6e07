"""refgrad.autograd._introspection: what a hook can ask the running engine."""

import pytest

import refgrad
from refgrad import _C
from refgrad.autograd import _introspection as intro
from refgrad.autograd._node import FunctionNode


def leaf(*values):
    return refgrad.tensor(list(values), requires_grad=True)


def test_reexported_from_C():
    assert _C._current_graph_task_id is intro._current_graph_task_id
    assert _C._current_autograd_node is intro._current_autograd_node
    assert _C._will_engine_execute_node is intro._will_engine_execute_node


def test_outside_backward():
    assert intro._current_graph_task_id() == -1
    assert intro._current_autograd_node() is None
    with pytest.raises(RuntimeError, match="should only be called during the backward pass"):
        intro._will_engine_execute_node(FunctionNode())


def test_non_nodes_are_refused_first():
    with pytest.raises(RuntimeError, match="expects an grad_fn, but got str"):
        intro._will_engine_execute_node("node")


def test_inside_backward():
    a, z = leaf(1.0), leaf(1.0)
    b = a * 2
    c = b.exp()
    unrelated = z * 3
    seen = []

    def hook(grads):
        seen.append((intro._current_graph_task_id(), intro._current_autograd_node(),
                     [intro._will_engine_execute_node(n)
                      for n in (c.grad_fn, b.grad_fn, unrelated.grad_fn)]))

    b.grad_fn.register_prehook(hook)
    c.backward()
    ((task_id, node, answers),) = seen
    assert task_id >= 0 and node is b.grad_fn
    assert answers == [False, True, False]  # a lone root is not "in the graph"


def test_captured_leaf_in_grad_is_refused():
    a = leaf(1.0)
    b = a * 2
    seen = []

    def hook(grads):
        try:
            intro._will_engine_execute_node(b.grad_fn.next_functions[0][0])
        except RuntimeError as error:
            seen.append(str(error))

    b.grad_fn.register_prehook(hook)
    refgrad.autograd.grad(b.sum(), a)
    assert seen == [intro.LEAF_IN_GRAD]
