"""White-box tests of refgrad.autograd._backward_logging."""

import logging

import refgrad
from refgrad.autograd import _backward_logging
from refgrad.autograd._backward_logging import _iter_graph, fmt


def test_logger_name_is_the_graph_module():
    assert _backward_logging.log.name == "refgrad.autograd.graph" == refgrad.autograd.graph.__name__


def test_fmt():
    assert fmt(None) == "None"
    assert fmt(refgrad.ones(())) == "f32[]"
    assert fmt(refgrad.ones(2, 3, dtype=refgrad.int64)) == "i64[2, 3]"


def test_iter_graph_is_breadth_first_and_visits_each_node_once():
    a = refgrad.tensor([1.0], requires_grad=True)
    b = a * 2
    c = b + b
    nodes = list(_iter_graph([c.grad_fn, None]))
    assert [n.name() for n in nodes] == [
        "AddBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"]


def test_no_hooks_are_registered_when_logging_is_off():
    log = logging.getLogger("refgrad.autograd.graph")
    assert log.getEffectiveLevel() > logging.DEBUG
    a = refgrad.tensor([1.0], requires_grad=True)
    b = a * 2
    seen = []
    b.grad_fn.register_prehook(lambda go: seen.append(len(b.grad_fn._pre_hooks)))
    b.backward()
    assert seen == [1]


def test_hooks_exist_only_during_the_call_when_logging_is_on():
    log = logging.getLogger("refgrad.autograd.graph")
    a = refgrad.tensor([1.0], requires_grad=True)
    b = a * 2
    seen = []
    b.grad_fn.register_prehook(lambda go: seen.append(len(b.grad_fn._pre_hooks)))
    log.setLevel(logging.DEBUG)
    try:
        b.backward()
    finally:
        log.setLevel(logging.NOTSET)
    assert seen == [2] and len(b.grad_fn._pre_hooks) == 1
