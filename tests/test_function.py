"""refgrad.autograd.function: custom Functions."""

import pytest

import refgrad
from refgrad.autograd.function import BackwardCFunction, Function, once_differentiable


class Square(Function):
    @staticmethod
    def forward(ctx, x, scale):
        assert not refgrad.is_grad_enabled()
        ctx.save_for_backward(x)
        ctx.scale = scale
        return x * x * scale

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 * x * ctx.scale, None


def test_node_is_the_ctx_and_a_node():
    x = refgrad.tensor([1.0, 2.0], requires_grad=True)
    y = Square.apply(x, 3)
    node = y.grad_fn
    assert type(node).__name__ == "SquareBackward" and isinstance(node, BackwardCFunction)
    assert isinstance(node, refgrad.autograd.graph.Node) and node.scale == 3
    assert node.needs_input_grad == (True, False)
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        node.saved_tensors


def test_mark_dirty_bumps_the_version():
    class Dirty(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = refgrad.ones(2, requires_grad=True) * 1
    y = Dirty.apply(x)
    assert y is x and x._version == 1 and type(x.grad_fn).__name__ == "DirtyBackward"


def test_wrong_number_of_gradients():
    class Same(Function):
        @staticmethod
        def forward(ctx, x, n):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = refgrad.ones(2, requires_grad=True)
    y = Same.apply(x, 3)
    assert y is not x and y._base is x
    expected = r"returned an incorrect number of gradients \(expected 2, got 1\)"
    with pytest.raises(RuntimeError, match=expected):
        y.sum().backward()


def test_error_node_fails_when_run_and_is_registered():
    from refgrad._C import _functions
    from refgrad.autograd._once_differentiable import ONCE_DIFFERENTIABLE, Error

    assert _functions.Error is Error
    x = refgrad.tensor([1.0, 2.0], requires_grad=True)
    y = Square.apply(x, 3)
    (g,) = refgrad.autograd.grad((y * y).sum(), x, create_graph=True)
    node = g.grad_fn
    assert isinstance(node, Error) and node._message == ONCE_DIFFERENTIABLE
    # the gradient shares the stand-in leaf's memory, but not its version counter
    leaf = node.next_functions[0][0].variable
    assert g._data is leaf._data and g._version_counter is not leaf._version_counter
    with pytest.raises(RuntimeError, match="^trying to differentiate twice"):
        node(refgrad.ones(2), None)


def test_rewriting_history_clears_the_grad_and_moves_the_retain_request():
    from refgrad.autograd._function_checks import _rewrite_history

    class Node:  # only what _rewrite_history reads of a node
        _retains_grad = None

    x = refgrad.ones(2, requires_grad=True) * 1
    x.retain_grad()
    old = x.grad_fn
    x._grad = refgrad.ones(2)
    node = Node()
    _rewrite_history(node, x, 0)
    assert x._grad is None and x.grad_fn is node and 0 in node._retains_grad
    assert not old._retains_grad
