"""Custom torch.autograd.Function: the node, ctx and saved tensors."""

import pytest
import torch


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        assert not torch.is_grad_enabled()
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        assert not torch.is_grad_enabled()
        (y,) = ctx.saved_tensors
        return grad * y


def test_node_name_hooks_and_gradient():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t.detach(),
                                                  lambda t: t):
        y = Exp.apply(x)
    assert packed[0] is y and type(y.grad_fn).__name__ == "ExpBackward"
    assert y.grad_fn.name() == "ExpBackward"
    assert isinstance(y.grad_fn, torch.autograd.graph.Node)
    assert isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction)
    y.sum().backward()
    assert (x.grad - x.exp()).abs().max().item() < 1e-6


def test_save_for_backward_refuses_numbers():
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

    with pytest.raises(TypeError, match="^save_for_backward can only save variables, but "
                       "argument 1 is of type int$"):
        Bad.apply(torch.ones(2, requires_grad=True))
