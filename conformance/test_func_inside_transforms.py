"""What code run by torch.func's transforms sees: a tensor grad or vjp follows is a leaf that
requires grad, whatever it was made from; a program's requires_grad_() (and so
torch.autograd.functional) and backward() are refused there, autograd.grad is not."""

import pytest
import torch
from torch.func import grad, vmap

from conformance._support import raises


def _said(t):
    return (t.requires_grad, t.grad_fn is None, t.is_leaf)


REQUIRES_GRAD_ = (
    "You are attempting to call Tensor.requires_grad_() (or perhaps using "
    "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
    "transform. This is unsupported, please attempt to use the functorch transforms (e.g. grad, "
    "vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function being "
    "transformed instead.")
BACKWARD = ("backward() called inside a functorch transform. This is not supported, please use "
            "functorch.grad or functorch.vjp instead or call backward() outside of functorch "
            "transforms.")


def _in_each_transform(body):
    """``body(t)`` run inside vmap, grad, vjp and jvp, each in turn."""
    from torch.func import jvp, vjp

    vmap(body)(torch.ones(2, 3))
    grad(body)(torch.ones(3))
    vjp(body, torch.ones(3))
    jvp(body, (torch.ones(3),), (torch.ones(3),))


@pytest.mark.parametrize("make", ["fresh", "captured", "input"])
@pytest.mark.parametrize("flag", [True, False])
def test_requires_grad_is_refused_inside_every_transform(make, flag):
    captured = torch.ones(3)

    def body(t):
        target = {"fresh": torch.ones(3), "captured": captured, "input": t}[make]
        with raises(RuntimeError, REQUIRES_GRAD_):
            target.requires_grad_(flag)
        return t.sum()

    _in_each_transform(body)
    assert torch.ones(3).requires_grad_().requires_grad  # and allowed again after


def test_requires_grad_checks_its_argument_before_refusing():
    def body(t):
        with raises(TypeError, "requires_grad_(): argument 'requires_grad' (position 1) must "
                    "be bool, not int"):
            torch.ones(3).requires_grad_(1)
        with raises(RuntimeError, REQUIRES_GRAD_):
            torch.ones(3, dtype=torch.long).requires_grad_()
        return t.sum()

    _in_each_transform(body)


def test_autograd_functional_is_refused_inside_a_transform():
    def body(t):
        with raises(RuntimeError, REQUIRES_GRAD_):
            torch.autograd.functional.jacobian(lambda z: z * 2, torch.ones(2))
        return t.sum()

    _in_each_transform(body)


def test_backward_is_refused_inside_every_transform_and_autograd_grad_is_not():
    def body(t):
        a = torch.ones(3, requires_grad=True)
        with raises(RuntimeError, BACKWARD):
            (a * 2).sum().backward()
        with raises(RuntimeError, BACKWARD):
            torch.autograd.backward((a * t).sum())
        assert torch.autograd.grad((a * 2).sum(), [a])[0].tolist() == [2.0, 2.0, 2.0]
        return t.sum()

    _in_each_transform(body)
    a = torch.ones(3, requires_grad=True)
    (a * 2).sum().backward()
    assert a.grad.tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("make", ["leaf", "requires_grad", "computed"])
def test_a_tensor_grad_follows_is_a_leaf_that_requires_grad(make):
    from torch.func import vjp

    said = []

    def f(t):
        u = t * 2
        said.append((_said(t), _said(u), type(u.grad_fn).__name__))
        return u.sum()

    base = torch.ones(3, requires_grad=make != "leaf")
    x = base * 2 if make == "computed" else base
    assert grad(f)(x).tolist() == [2.0, 2.0, 2.0]
    vjp(f, x)
    vmap(grad(f))(torch.ones(2, 3, requires_grad=make != "leaf"))
    assert len(said) >= 3
    assert all(s == ((True, True, True), (True, False, False), "MulBackward0") for s in said)


def test_a_tensor_an_outer_grad_follows_stays_a_leaf_inside_an_inner_grad():
    said = []

    def outer(a):
        def inner(b):
            said.append((_said(a), _said(b)))
            return (a * b).sum()
        return grad(inner)(a * 3).sum()

    grad(outer)(torch.ones(3, requires_grad=True))
    assert said == [((True, True, True), (True, True, True))]
