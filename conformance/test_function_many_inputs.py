"""Custom Functions with many inputs and outputs: gradients land in their places, and a
gradient for an input that is no tensor is refused at its position. The same assertions
run on torch."""

import pytest
import torch


class Passing(torch.autograd.Function):
    @staticmethod
    def forward(ctx, *xs):
        return tuple(x if i % 3 == 0 else x * 2.0 for i, x in enumerate(xs))

    @staticmethod
    def backward(ctx, *gs):
        return tuple(g * (i + 1) for i, g in enumerate(gs))


def test_many_inputs_and_outputs_some_returned_as_they_are():
    xs = [torch.ones(2, requires_grad=True) for _ in range(20)]
    outs = Passing.apply(*xs)
    assert all(o.grad_fn is not None and o is not x for o, x in zip(outs, xs))
    sum(o.sum() for o in outs).backward()
    assert [x.grad.tolist() for x in xs] == [[i + 1.0, i + 1.0] for i in range(20)]


class Mixed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, *args):
        return args[0] * 1.0

    @staticmethod
    def backward(ctx, g):
        return (g,) * 12


def test_a_gradient_for_a_number_among_many_inputs_is_refused():
    args = [torch.ones(2, requires_grad=True) for _ in range(12)]
    args[10] = 3.0
    with pytest.raises(RuntimeError) as info:
        Mixed.apply(*args).sum().backward()
    assert str(info.value) == ("function MixedBackward returned a gradient different than None "
                               "at position 11, but the corresponding forward input was not a "
                               "Variable")
