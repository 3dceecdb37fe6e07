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


def _hooked_linear(calls):
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 1)
    m.register_full_backward_hook(lambda mod, gi, go: calls.append("hook"))
    return m


# torch writes these as Functions whose forward takes ctx, so its transforms refuse them too.
TORCHS_OWN = {
    "dirichlet": lambda a: torch.distributions.Dirichlet(a.exp()).rsample()[0],
    "reentrant_checkpoint": lambda a: torch.utils.checkpoint.checkpoint(
        torch.sin, a, use_reentrant=True).sum(),
    "full_backward_hook": lambda a: _hooked_linear([])(a).sum(),
    "cross_map_lrn2d": lambda a: torch.nn.CrossMapLRN2d(3)(a.reshape(1, 3, 1, 1)).sum(),
}


@pytest.mark.parametrize("name", list(TORCHS_OWN))
def test_torchs_own_python_functions_are_refused_under_grad(name):
    with raises(RuntimeError, NEEDS):
        grad(TORCHS_OWN[name])(torch.tensor([1.0, 2.0, 3.0]))


@pytest.mark.parametrize("name", ["dirichlet", "cross_map_lrn2d"])
def test_and_under_vmap(name):
    with raises(RuntimeError, NEEDS):
        torch.vmap(TORCHS_OWN[name], randomness="different")(torch.rand(2, 3))


def test_vmap_alone_applies_no_backward_hook_function():
    calls = []
    m = _hooked_linear(calls)
    c = torch.tensor([[1.0, 2.0, 3.0], [-2.0, -2.0, -2.0]], requires_grad=True)
    out = torch.vmap(m)(c)
    assert out.shape == (2, 1)
    out.sum().backward()
    assert calls == [] and c.grad.tolist() == [m.weight[0].tolist()] * 2
    m(c).sum().backward()
    assert calls == ["hook"]
