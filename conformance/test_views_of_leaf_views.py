"""A view made under no_grad requires grad when the base of them all does: a view of a
leaf that requires grad does, a view of a leaf view (a view that requires grad on its
own flag) does not. The same assertions run on torch."""

import pytest
import torch

MAKERS = {
    "slice": lambda t: t[1:],
    "split": lambda t: t.split(1)[-1],
    "view": lambda t: t.view(-1),
    "t": lambda t: t.t(),
}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_a_view_of_a_leaf_view_under_no_grad(name):
    a = torch.linspace(0, 1, 12).reshape(3, 4).requires_grad_()
    assert a._base is not None and a.is_leaf and a.requires_grad
    with torch.no_grad():
        v = MAKERS[name](a)
    assert not v.requires_grad and v.is_leaf and v._base is a._base


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_a_view_of_a_leaf_under_no_grad(name):
    b = torch.linspace(0, 1, 12).reshape(3, 4).clone().requires_grad_()
    with torch.no_grad():
        v = MAKERS[name](b)
    assert v.requires_grad and v.is_leaf and v._base is b


def test_a_view_of_a_view_of_a_leaf_under_no_grad():
    b = torch.ones(4, requires_grad=True)
    with torch.no_grad():
        v = b[1:][1:]
    assert v.requires_grad and v._base is b
