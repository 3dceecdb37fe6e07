"""Unit tests of refgrad._subclass_results: which names are wrapped, and the count of
wrapped calls in progress."""

import pytest

import refgrad
from refgrad import _subclass_results


class Sub(refgrad.Tensor):
    def double(self):  # the user's own: left alone
        return refgrad.Tensor.mul(self, 2)


class SubSub(Sub):
    pass


def test_a_failing_method_leaves_no_call_counted():
    s = refgrad.ones(2, 3).as_subclass(Sub)
    with pytest.raises(RuntimeError):
        s.view(5)
    assert _subclass_results._inside.calls == 0
    assert type(s.view(6)) is Sub


def test_the_user_s_methods_stay_and_a_subclass_below_inherits_the_wrappers():
    s = refgrad.ones(2).as_subclass(Sub)
    assert type(s.double()) is refgrad.Tensor
    assert "expand" in vars(Sub) and "expand" not in vars(SubSub)
    assert "double" in vars(Sub) and Sub.double.__qualname__ == "Sub.double"
    assert type(refgrad.ones(2).as_subclass(SubSub).expand(3, 2)) is SubSub


def test_machinery_and_grad_are_not_wrapped():
    for name in ("__init__", "__getattribute__", "__reduce_ex__", "__deepcopy__", "grad",
                 "_make_subclass"):
        assert name not in vars(Sub)
    assert "T" in vars(Sub) and isinstance(vars(Sub)["T"], property)
