"""The __torch_function__ protocol of Tensor subclasses and tensor-likes, as torch has it."""

import torch
import torch.nn.functional as F

from conformance._support import raises


class Plain(torch.Tensor):
    pass


class Declines(torch.Tensor):
    calls = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.calls.append((cls.__name__, tuple(t.__name__ for t in types)))
        return NotImplemented


class DeclinesBelow(Declines):
    pass


class Other(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        Declines.calls.append(("Other", tuple(t.__name__ for t in types)))
        return NotImplemented


class Answers(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return ("answered", func, len(args), kwargs)


def test_namespace_functions_convert_a_subclass_with_an_alias_node():
    leaf = torch.tensor([1.0, -2.0], requires_grad=True)
    s = leaf.as_subclass(Plain)
    for out in (torch.add(s, 1), F.relu(s), torch.cat([leaf, s]), s * 2, s.sum()):
        assert type(out) is Plain
        assert out.grad_fn.name() == "AliasBackward0"
    assert type(torch.add(s, 1)).__name__ == "Plain" and type(s.shape) is torch.Size


def test_a_handler_receives_the_public_function():
    s = torch.ones(2).as_subclass(Answers)
    assert torch.add(s, 1, alpha=2) == ("answered", torch.add, 2, {"alpha": 2})
    assert s.sin() == ("answered", torch.Tensor.sin, 1, None)
    assert (s + 1)[1] is torch.Tensor.add and (1 + s)[1] is torch.Tensor.add
    assert F.relu(s)[1] is F.relu
    assert s.shape[1] == torch.Tensor.shape.__get__
    assert s[0][1] is torch.Tensor.__getitem__


def test_subclasses_first_then_left_to_right_all_declining():
    a = torch.ones(1).as_subclass(Declines)
    b = torch.ones(1).as_subclass(DeclinesBelow)
    c = torch.ones(1).as_subclass(Other)
    Declines.calls.clear()
    message = ("Multiple dispatch failed for 'torch.cat'; all __torch_function__ handlers "
               "returned NotImplemented:\n\n"
               f"  - tensor subclass {Other!r}\n  - tensor subclass {DeclinesBelow!r}\n"
               f"  - tensor subclass {Declines!r}\n\n"
               "For more information, try re-running with TORCH_LOGS=not_implemented")
    with raises(TypeError, message):
        torch.cat([c, a, b])
    kinds = ("Other", "DeclinesBelow", "Declines")
    assert Declines.calls == [("Other", kinds), ("DeclinesBelow", kinds), ("Declines", kinds)]


def test_an_operator_declined_by_all_is_python_s_type_error():
    a = torch.ones(1).as_subclass(Declines)
    with raises(TypeError, "unsupported operand type(s) for +: 'Declines' and 'int'"):
        a + 1
    with raises(TypeError, "no implementation found for 'torch.nn.functional.relu' on types "
                f"that implement __torch_function__: [{Declines!r}]"):
        F.relu(a)


class Like:
    def __init__(self):
        self.seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return (func, tuple(t.__name__ for t in types))


def test_an_object_that_is_no_tensor_takes_the_call_over():
    with torch.overrides.BaseTorchFunctionMode():
        pass  # entering a mode switches refgrad's protocol on, as a subclass does
    like = Like()
    assert torch.add(like, torch.ones(1)) == (torch.add, ("Like",))
    assert torch.overrides.is_tensor_like(like) and torch.overrides.is_tensor_like(Like)
    assert not torch.overrides.is_tensor_like(1.0)


def test_parameter_and_a_class_that_disables_the_protocol_stay_plain():
    class Off(torch.Tensor):
        __torch_function__ = torch._C._disabled_torch_function_impl

    p = torch.nn.Parameter(torch.ones(2))
    assert torch.nn.Parameter.__torch_function__ is torch._C._disabled_torch_function_impl
    assert type(torch.add(p, 1)) is torch.Tensor and type(p * 2) is torch.Tensor
    assert type(torch.ones(2).as_subclass(Off) + 1) is torch.Tensor


def test_disable_subclass_and_the_answers_of_has_torch_function():
    s = torch.ones(2).as_subclass(Plain)
    x = torch.ones(2)
    assert torch.overrides.has_torch_function((s,)) and torch.overrides.has_torch_function_unary(s)
    assert torch.overrides.has_torch_function_variadic(x, s)
    assert not torch.overrides.has_torch_function((x, 1.0))
    with torch._C.DisableTorchFunctionSubclass():
        assert type(torch.add(s, 1)) is torch.Tensor and not torch._C._is_torch_function_enabled()
        assert not torch.overrides.has_torch_function((s,))
    with torch._C.DisableTorchFunction():
        assert type(s * 2) is torch.Tensor
    assert type(s * 2) is Plain and torch._C._is_torch_function_enabled()


def test_the_default_declines_a_type_it_is_not_a_subclass_of():
    x = torch.ones(2)
    assert torch.Tensor.__torch_function__(torch.add, (Plain,), (x, 1)) is NotImplemented
    out = Plain.__torch_function__(torch.add, (Plain,), (x, 1))
    assert type(out) is Plain and out.tolist() == [2.0, 2.0]


def test_names_and_tensor_methods():
    resolve = torch.overrides.resolve_name
    assert resolve(torch.add) == "torch.add" and resolve(F.relu) == "torch.nn.functional.relu"
    assert resolve(torch.Tensor.add) == "torch.Tensor.add"
    assert resolve(torch.Tensor.shape.__get__) == "torch.Tensor.shape.__get__"
    assert torch.overrides.is_tensor_method_or_property(torch.Tensor.add)
    assert not torch.overrides.is_tensor_method_or_property(torch.add)
    assert torch.add in torch.overrides.get_overridable_functions()[torch]
    assert torch.Tensor.add in torch.overrides.get_overridable_functions()[torch.Tensor]


def test_wrap_torch_function_offers_a_user_function():
    @torch.overrides.wrap_torch_function(lambda a, b: (a, b))
    def combine(a, b):
        return "plain"

    assert combine(torch.ones(1), 2) == "plain"
    like = Like()
    assert combine(like, 2) == (combine, ("Like",))
