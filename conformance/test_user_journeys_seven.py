"""Journeys through tensor subclasses: what a logging subclass's __torch_function__ is
asked when a tensor is printed, iterated and differentiated, torch.overrides' helpers, the
repr of a Parameter subclass, and Tensor._make_subclass."""

import collections

import pytest
import torch
from torch.overrides import TorchFunctionMode, get_overridable_functions, handle_torch_function


class Logged(torch.Tensor):
    log = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.log.append((func.__name__, kwargs))
        return super().__torch_function__(func, types, args, kwargs)


def logged(*values, requires_grad=False):
    t = torch.tensor(values).as_subclass(Logged)
    if requires_grad:
        t.requires_grad_()
    Logged.log.clear()
    return t


def names():
    return [name for name, _ in Logged.log]


def test_repr_and_str_ask_repr_once_with_its_keyword():
    t = logged(1.0, 2.0)
    assert repr(t) == "Logged([1., 2.])"
    assert Logged.log == [("__repr__", {"tensor_contents": None})]
    Logged.log.clear()
    assert str(t) == "Logged([1., 2.])"
    assert Logged.log == [("__repr__", {"tensor_contents": None})]


def test_repr_hands_over_tensor_contents():
    t = logged(1.0, 2.0)
    assert t.__repr__(tensor_contents="x") == "Logged(x)"
    assert Logged.log == [("__repr__", {"tensor_contents": "x"})]


def test_iteration_asks_dim_unbind_then_len():
    t = logged(1.0, 2.0)
    rows = list(t)
    assert names() == ["dim", "unbind", "__len__"]
    assert [type(r) for r in rows] == [Logged, Logged]


def test_iterating_a_0d_subclass_asks_dim_then_refuses():
    t = logged(1.0)[0]
    Logged.log.clear()
    with pytest.raises(TypeError, match="^iteration over a 0-d tensor$"):
        iter(t)
    assert names() == ["dim"]


def test_autograd_grad_is_offered_with_its_keywords():
    a = logged(1.0, 2.0, requires_grad=True)
    loss = (a * a).sum()
    Logged.log.clear()
    (g,) = torch.autograd.grad(loss, [a])
    assert Logged.log == [("grad", {
        "grad_outputs": None, "retain_graph": None, "create_graph": False,
        "only_inputs": True, "allow_unused": False, "is_grads_batched": False,
        "materialize_grads": False})]
    assert type(g) is Logged
    assert g.tolist() == [2.0, 4.0]


def test_autograd_grad_of_a_dict_is_offered_once():
    a = logged(1.0, 2.0, requires_grad=True)
    loss = (a ** 2).sum()
    Logged.log.clear()
    g = torch.autograd.grad(loss, {"a": a})
    assert names() == ["grad"]
    assert type(g) is dict and list(g) == ["a"] and type(g["a"]) is Logged


def test_autograd_backward_is_offered_with_its_keywords():
    a = logged(1.0, 2.0, requires_grad=True)
    loss = (a * 3).sum()
    Logged.log.clear()
    torch.autograd.backward([loss])
    assert Logged.log == [("backward", {"grad_tensors": None, "retain_graph": None,
                                        "create_graph": False, "inputs": None})]


def test_a_mode_sees_autograd_grad_and_backward():
    seen = []

    class Names(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with Names():
        loss = x.sin().sum()
        torch.autograd.grad(loss, x, retain_graph=True)
        torch.autograd.backward(loss)
    assert seen == ["sin", "sum", "grad", "backward"]


def test_handle_torch_function_names_a_users_function():
    class Declines:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    def my_func(a):
        return handle_torch_function(my_func, (a,), a)

    with pytest.raises(TypeError) as caught:
        my_func(Declines())
    assert str(caught.value).startswith(
        f"no implementation found for '{__name__}.my_func' on types that implement "
        "__torch_function__: [")


def test_get_overridable_functions_is_a_defaultdict_of_lists():
    found = get_overridable_functions()
    assert type(found) is collections.defaultdict
    assert found.default_factory is list
    assert torch.add in found[torch]


def test_a_parameter_subclass_prints_inside_parameter():
    class MyParameter(torch.nn.Parameter):
        pass

    assert repr(MyParameter(torch.ones(2))) == (
        "Parameter containing:\nParameter(MyParameter([1., 1.], requires_grad=True))")
    assert repr(torch.nn.Parameter(torch.ones(2))) == (
        "Parameter containing:\ntensor([1., 1.], requires_grad=True)")


class Tagged(torch.Tensor):
    pass


def test_make_subclass_is_a_detached_leaf_sharing_storage_and_versions():
    base = torch.ones(3, requires_grad=True) * 2
    made = torch.Tensor._make_subclass(Tagged, base)
    assert type(made) is Tagged
    assert made.is_leaf and not made.requires_grad and made.grad_fn is None
    assert made._base is None and not made._is_view()
    assert made.data_ptr() == base.data_ptr()
    base.add_(1)
    assert made._version == 1 and made.tolist() == [3.0, 3.0, 3.0]


def test_make_subclass_of_a_view_keeps_its_offset():
    view = torch.arange(4.0)[1:]
    made = torch.Tensor._make_subclass(Tagged, view, require_grad=True)
    assert made.requires_grad and made.is_leaf and made._base is None
    assert made.storage_offset() == 1 and made.tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize(("args", "error", "message"), [
    ((Tagged, torch.ones(2, dtype=torch.long), True), RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    ((int, torch.ones(2)), TypeError,
     "Creating a Tensor subclass from a class that does not inherit from Tensor is not "
     "possible. Make sure your class inherits from Tensor."),
    ((3, torch.ones(2)), TypeError, "cls must be a type (got int)"),
    ((Tagged, 3), TypeError,
     "_make_subclass(): argument 'data' (position 2) must be Tensor, not int"),
    ((Tagged, torch.ones(2), 1), TypeError,
     "_make_subclass(): argument 'require_grad' (position 3) must be bool, not int"),
    ((Tagged,), TypeError, '_make_subclass() missing 1 required positional arguments: "data"'),
    ((Tagged, torch.ones(2), False, 1), TypeError,
     "_make_subclass() takes from 2 to 3 positional arguments but 4 were given"),
])
def test_make_subclass_refusals(args, error, message):
    with pytest.raises(error) as caught:
        torch.Tensor._make_subclass(*args)
    assert str(caught.value) == message


def test_make_subclass_asks_no_handler():
    base = logged(1.0, 2.0)
    made = torch.Tensor._make_subclass(Tagged, base)
    assert Logged.log == [] and type(made) is Tagged


@pytest.mark.parametrize(("call", "expected"), [
    (lambda t: t.split(1), [("split", {"dim": 0})]),
    (lambda t: t.split(1, 0), [("split", {"dim": 0})]),
    (lambda t: t.split(split_size=1, dim=0), [("split", {"dim": 0})]),
    (lambda t: t.norm(), [("norm", {"p": "fro", "dim": None, "keepdim": False, "dtype": None})]),
    (lambda t: t.norm(1, 0), [("norm", {"p": 1, "dim": 0, "keepdim": False, "dtype": None})]),
    (lambda t: t.unique(), [("unique", {"sorted": True, "return_inverse": False,
                                        "return_counts": False, "dim": None})]),
    (lambda t: t.unique_consecutive(return_counts=True),
     [("unique_consecutive", {"return_inverse": False, "return_counts": True, "dim": None})]),
    (lambda t: t.__array__(), [("__array__", {"dtype": None})]),
    (lambda t: len(t), [("__len__", {})]),
    (lambda t: reversed(t), [("__reversed__", {})]),
    (lambda t: 2.0 in t, [("__contains__", {})]),
    (lambda t: t.is_shared(), [("is_shared", {})]),
    (lambda t: 1 - t, [("__rsub__", {})]),
    (lambda t: 1 / t, [("__rdiv__", {})]),
    (lambda t: 2 ** t, [("__rpow__", {})]),
    (lambda t: t ** 2, [("pow", {})]),
    (lambda t: t // 2, [("__floordiv__", {})]),
    (lambda t: t.sin(), [("sin", None)]),
    (lambda t: t + 1, [("add", None)]),
])
def test_methods_written_in_python_hand_over_their_keywords(call, expected):
    t = logged(1.0, 2.0)
    call(t)
    assert Logged.log == expected


def test_split_and_format_hand_positions_as_torch_does():
    seen = []

    class Positions(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append((func.__name__, len(args), kwargs))
            return super().__torch_function__(func, types, args, kwargs)

    t = torch.tensor([1.0, 2.0]).as_subclass(Positions)
    t.split(1, dim=0)
    format(t, "")
    t.register_hook(lambda g: g) if t.requires_grad_() is t else None
    assert seen == [("split", 2, {"dim": 0}), ("__format__", 2, {}),
                    ("requires_grad_", 1, None), ("register_hook", 2, {})]


def test_make_subclass_pickles_to_itself():
    import pickle

    assert pickle.loads(pickle.dumps(torch.Tensor._make_subclass)) is torch.Tensor._make_subclass


def test_a_profiled_backward_with_a_subclass_defined():
    x = torch.ones(2, requires_grad=True)
    with torch.profiler.profile() as prof:
        (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    assert any(e.name == "aten::mul" for e in prof.events())
