"""A custom Function's node: what its hooks see of what backward returned, and what
comes back of an input returned as it is. The same assertions run on torch."""

import math
import warnings

import pytest
import torch


def _values(grads):
    return [None if g is None else g.tolist() for g in grads]


class _Scaled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, k):
        return x * y * k

    @staticmethod
    def backward(ctx, g):
        return g * 2, g * 3, None


def test_node_hooks_see_a_gradient_returned_for_an_input_without_grad():
    a = torch.tensor([1.0], requires_grad=True)
    out = _Scaled.apply(a, torch.tensor([2.0]), 3.0)
    seen = []
    out.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(_values(grad_inputs)))
    out.backward()
    assert seen == [[[2.0], [3.0]]] and a.grad.tolist() == [2.0]


def test_node_hooks_see_every_gradient_under_autograd_grad():
    a, b = (torch.tensor([v], requires_grad=True) for v in (1.0, 2.0))
    out = _Scaled.apply(a, b, 3.0)
    seen = []
    out.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(_values(grad_inputs)))
    assert torch.autograd.grad(out, a)[0].tolist() == [2.0]
    assert seen == [[[2.0], [3.0]]] and b.grad is None


class _NanForPlain(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, g):
        return g, torch.tensor([math.nan])


def test_anomaly_mode_checks_a_gradient_along_an_edge_to_nowhere():
    a = torch.tensor([1.0], requires_grad=True)
    out = _NanForPlain.apply(a, torch.tensor([2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly(), pytest.raises(RuntimeError) as caught:
            out.backward()
    message = "Function '_NanForPlainBackward' returned nan values in its 1th output."
    assert str(caught.value) == message
    assert a.grad is None


class _Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.mark_non_differentiable(x)
        return x, y

    @staticmethod
    def backward(ctx, gx, gy):
        return gx, gy


def test_an_input_returned_without_grad_comes_back_detached_or_as_a_view():
    a, c = torch.tensor([1.0], requires_grad=True), torch.tensor([2.0])
    p, q = _Both.apply(a, c)
    assert not p.requires_grad and p.grad_fn is None and p._base is None and not p._is_view()
    assert p.data_ptr() == a.data_ptr() and p is not a
    assert q.requires_grad and type(q.grad_fn).__name__ == "_BothBackward" and q._base is c
    with torch.no_grad():
        p, q = _Both.apply(a, c)
    assert not p.requires_grad and p._base is None and p is not a
    assert not q.requires_grad and q._is_view() and q._base is c


class _TwoOutputs(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, y):
        ctx.save_for_backward(y)
        ctx.k = k
        return x * y * k, x + y

    @staticmethod
    def backward(ctx, ga, gb):
        (y,) = ctx.saved_tensors
        return None if ga is None else ga * y * ctx.k, None, None if gb is None else gb * 2


def test_a_custom_node_called_directly_returns_what_backward_returns():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    a, b = _TwoOutputs.apply(x, 2.0, y)
    node = a.grad_fn
    ga, gk, gy = node.apply(torch.ones(2), torch.ones(2))  # unchecked: the None comes back
    assert (ga.tolist(), gk, gy.tolist()) == ([6.0, 8.0], None, [2.0, 2.0])
    assert node.apply(None, torch.ones(2))[0] is None  # no zeros made for a direct call
    assert node.apply(1.0, 2.0)[2] == 4.0  # anything at all goes to backward as it is
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'gb'"):
        node.apply(torch.ones(2))
    (a.sum() + b.sum()).backward()  # the engine's call, after the direct ones
    assert x.grad.tolist() == [6.0, 8.0] and y.grad.tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        node.apply(torch.ones(2), torch.ones(2))


def test_a_ctx_may_carry_attributes_of_any_everyday_name():
    class Scaled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx._run, ctx.step, ctx._call, ctx.run = "run", 2.0, None, print
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * ctx.step

    x = torch.ones(2, requires_grad=True)
    Scaled.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
