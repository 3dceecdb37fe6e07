"""Conformance: which of Tensor's attributes are one object under several names (-x, abs(x)
and +x call the very methods neg, abs and positive), how those pickle and are named, what a
__torch_function__ handler is handed for them, and the Python 2 names __nonzero__ and
__long__ as methods of their own. The same assertions run on torch."""

import pickle

import pytest
import torch

from conformance._support import raises

# torch 2.13: every group of names under which Tensor holds one object.
SHARED = [["__abs__", "abs"], ["__idiv__", "__itruediv__"], ["__neg__", "neg"],
          ["__pos__", "positive"], ["__rdiv__", "__rtruediv__"]]
OPERATORS = [("__neg__", "neg"), ("__abs__", "abs"), ("__pos__", "positive")]


def test_the_names_that_share_one_object_are_torchs():
    held = {}  # id -> (the value, kept alive so that no id is reused, and its names)
    for name in dir(torch.Tensor):
        value = getattr(torch.Tensor, name, None)
        if not isinstance(value, (int, float, str, bool, type(None))):
            held.setdefault(id(value), (value, []))[1].append(name)
    assert sorted(sorted(names) for _, names in held.values() if len(names) > 1) == SHARED


@pytest.mark.parametrize(("operator", "method"), OPERATORS)
def test_an_operator_is_its_method_and_pickles_as_it(operator, method):
    function = getattr(torch.Tensor, operator)
    assert function is getattr(torch.Tensor, method)
    assert (function.__name__, function.__qualname__) == (method, f"TensorBase.{method}")
    assert pickle.loads(pickle.dumps(function)) is function


@pytest.mark.parametrize(("operator", "method"), OPERATORS)
def test_an_operator_refuses_arguments_as_its_method(operator, method):
    x = torch.tensor([1.0, -2.0])
    with raises(TypeError, f"TensorBase.{method}() takes no arguments (1 given)"):
        getattr(torch.Tensor, operator)(x, 1)


class _Seen(torch.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(func)
        return super().__torch_function__(func, types, args, kwargs or {})


class _Declining(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


@pytest.mark.parametrize(("call", "method", "values"), [
    (lambda s: -s, "neg", [-1.0, 2.0]),
    (abs, "abs", [1.0, 2.0]),
    (lambda s: +s, "positive", [1.0, -2.0]),
])
def test_a_handler_is_handed_the_method_for_the_operator(call, method, values):
    s = torch.tensor([1.0, -2.0]).as_subclass(_Seen)
    _Seen.seen.clear()
    result = call(s)
    assert _Seen.seen == [getattr(torch.Tensor, method)]
    assert type(result) is _Seen and result.tolist() == values
    declining = torch.tensor([1.0]).as_subclass(_Declining)
    with pytest.raises(TypeError) as caught:
        call(declining)
    assert str(caught.value).startswith(
        f"Multiple dispatch failed for 'torch.Tensor.{method}'; all __torch_function__ "
        "handlers returned NotImplemented:")


@pytest.mark.parametrize(("old", "new", "answer"), [
    ("__nonzero__", "__bool__", True), ("__long__", "__int__", 2)])
def test_the_python_2_names_are_methods_of_their_own(old, new, answer):
    function = getattr(torch.Tensor, old)
    assert function is not getattr(torch.Tensor, new)
    assert (function.__name__, function.__qualname__) == (old, f"TensorBase.{old}")
    assert pickle.loads(pickle.dumps(function)) is function
    x = torch.tensor([2.0])
    assert getattr(x, old)() == answer and type(getattr(x, old)()) is type(answer)
    with raises(TypeError, f"TensorBase.{old}() takes no arguments (1 given)"):
        function(x, 1)
    with raises(TypeError, f"TensorBase.{old}() takes no keyword arguments"):
        function(x, zz=1)
    s = x.as_subclass(_Seen)
    _Seen.seen.clear()
    assert getattr(s, old)() == answer
    assert _Seen.seen == [getattr(torch.Tensor, new)]
    _Seen.seen.clear()
    with raises(TypeError, f"TensorBase.{old}() takes no arguments (1 given)"):
        function(s, 1)
    assert _Seen.seen == []
