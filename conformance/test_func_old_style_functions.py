"""An autograd.Function whose forward takes ctx (no setup_context) under torch.func's
grad, vjp, jvp and the jacobians built on them: refused in torch's words, while plain
autograd and a Function with setup_context still run."""

import pytest
import torch
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp

from conformance._support import raises

NEEDS = ("In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
         "jacrev, ...), it must override the setup_context staticmethod. For more details, "
         "please see https://pytorch.org/docs/main/notes/extending.func.html")


class Doubled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Tripled(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g * 3

    @staticmethod
    def jvp(ctx, t):
        return t * 3


X = [1.0, 2.0, 3.0]

CALLS = {
    "grad": lambda f, x: grad(lambda t: f(t).sum())(x),
    "vjp": lambda f, x: vjp(f, x)[1](torch.ones(3))[0],
    "jvp": lambda f, x: jvp(f, (x,), (torch.ones(3),))[1],
    "jacrev": lambda f, x: jacrev(f)(x).sum(0),
    "jacfwd": lambda f, x: jacfwd(f)(x).sum(0),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_function_without_setup_context_is_refused(name):
    with raises(RuntimeError, NEEDS):
        CALLS[name](Doubled.apply, torch.tensor(X))


def test_hessian_refuses_it_too():
    with raises(RuntimeError, NEEDS):
        hessian(lambda t: Doubled.apply(t).sum())(torch.tensor(X))


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_function_with_setup_context_runs(name):
    assert CALLS[name](Tripled.apply, torch.tensor(X)).tolist() == [3.0, 3.0, 3.0]


def test_outside_a_transform_it_still_runs():
    x = torch.tensor(X, requires_grad=True)
    Doubled.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_after_a_refusal_it_runs_again():
    with raises(RuntimeError, NEEDS):
        grad(lambda t: Doubled.apply(t).sum())(torch.tensor(X))
    assert Doubled.apply(torch.tensor(X)).tolist() == [2.0, 4.0, 6.0]
