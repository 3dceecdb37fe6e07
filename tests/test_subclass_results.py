"""Unit tests of the names the __torch_function__ protocol offers and leaves alone."""

import pytest

import refgrad
from refgrad import _torch_function


class Sub(refgrad.Tensor):
    def double(self):  # the user's own: left alone, its calls offered as any other
        return refgrad.Tensor.mul(self, 2)


class SubSub(Sub):
    pass


def test_a_failing_method_leaves_the_protocol_on():
    s = refgrad.ones(2, 3).as_subclass(Sub)
    with pytest.raises(RuntimeError):
        s.view(5)
    assert _torch_function.local.subclasses_on and _torch_function.local.off == 0
    assert type(s.view(6)) is Sub


def test_the_user_s_methods_stay_and_a_subclass_below_converts_to_itself():
    s = refgrad.ones(2).as_subclass(Sub)
    assert type(s.double()) is Sub
    assert "expand" not in vars(Sub) and "expand" not in vars(SubSub)
    assert "double" in vars(Sub) and Sub.double.__qualname__ == "Sub.double"
    assert type(refgrad.ones(2).as_subclass(SubSub).expand(3, 2)) is SubSub


def test_machinery_and_grad_are_not_converted():
    for name in ("__init__", "__getattribute__", "__reduce_ex__", "__deepcopy__", "T"):
        assert name not in vars(Sub)
    s = refgrad.ones(2, 2).as_subclass(Sub)
    assert type(s.T) is Sub and type(s.new_empty(2)) is Sub
    s.requires_grad_()
    s.sum().backward()
    assert type(s.grad) is refgrad.Tensor
