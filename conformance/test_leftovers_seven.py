"""Black-box tests: torch.lu, torch.unique and torch.unique_consecutive made as torch's
boolean_dispatch makes a function (names, signature, pickle, and a call that does not bind
refused in the name of the function picked, before any handler); inspect.signature of the
flag-picking pools; resolve_name of what torch ignores; an inference index refused before
index_put's checks. The same assertions run on torch.
"""

import inspect
import operator
import pickle

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises
from conformance.test_leftovers_five import INFERENCE, _frozen

PICKED = {"lu": ("A", "_lu_no_infos", "_lu_with_infos"),
          "unique": ("input", "_return_output", "_return_inverse_and_counts"),
          "unique_consecutive": ("input", "_consecutive_return_output",
                                 "_consecutive_return_inverse_and_counts")}
POOLS = ["max_pool1d", "max_pool2d", "max_pool3d", "adaptive_max_pool1d",
         "adaptive_max_pool2d", "adaptive_max_pool3d", "fractional_max_pool2d",
         "fractional_max_pool3d"]


class Seen(torch.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(func.__name__)
        return super().__torch_function__(func, types, args, kwargs)


@pytest.mark.parametrize("name", sorted(PICKED))
def test_lu_and_unique_are_named_as_boolean_dispatch_names_them(name):
    function = getattr(torch, name)
    assert function is getattr(torch.functional, name)
    assert (function.__name__, function.__qualname__) == (name, "boolean_dispatch.<locals>.fn")
    assert function.__module__ == torch.functional.__name__
    assert torch.overrides.resolve_name(function) == f"torch.functional.{name}"
    assert str(inspect.signature(function)) == "(*args, **kwargs)"
    with raises(AttributeError, "Can't pickle local object 'boolean_dispatch.<locals>.fn'"):
        pickle.dumps(function)


@pytest.mark.parametrize("name", sorted(PICKED))
@pytest.mark.parametrize("subclass", [False, True])
def test_a_call_of_lu_or_unique_that_does_not_bind_names_the_function_picked(name, subclass):
    first, plain, flagged = PICKED[name]
    given = torch.rand(3, 3)
    if subclass:
        given = given.as_subclass(Seen)
    Seen.seen.clear()
    function = getattr(torch, name)
    with raises(TypeError, f"{plain}() got an unexpected keyword argument 'foo'"):
        function(given, foo=1)
    most = {"lu": 4, "unique": 5, "unique_consecutive": 4}[name]
    with raises(TypeError, f"{flagged}() takes from 1 to {most} positional arguments but 9 "
                           "were given"):
        function(given, 1, 1, 1, 1, 1, 1, 1, 1)
    with raises(TypeError, f"{plain}() missing 1 required positional argument: '{first}'"):
        function()
    assert Seen.seen == []  # refused before any handler is asked


def test_unique_still_hands_a_handler_its_call():
    Seen.seen.clear()
    torch.unique(torch.tensor([2, 1, 2]).as_subclass(Seen), return_counts=True)
    assert Seen.seen[0] == "unique"


@pytest.mark.parametrize("name", POOLS)
def test_the_signature_of_a_flag_picking_pool_is_its_factorys(name):
    assert str(inspect.signature(getattr(F, name))) == "(*args, **kwargs)"


def test_a_flag_picking_pool_still_reads_its_flag_and_refuses_in_the_picked_name():
    x = torch.arange(16.0).reshape(1, 1, 4, 4)
    values, indices = F.max_pool2d(x, 2, return_indices=True)
    assert indices.tolist() == [[[[5, 7], [13, 15]]]]
    assert F.max_pool2d(x, 2, 2, 0, 1, False, True)[1].tolist() == indices.tolist()
    with raises(TypeError, "_max_pool2d() got an unexpected keyword argument 'foo'"):
        F.max_pool2d(x.as_subclass(Seen), 2, foo=1)


IGNORED = {
    "is_grad_enabled": "torch.is_grad_enabled",
    "broadcast_shapes": "torch.functional.broadcast_shapes",
    "typename": "torch.typename", "is_tensor": "torch.is_tensor",
    "get_default_dtype": "torch.get_default_dtype", "manual_seed": "torch.manual_seed",
    "promote_types": "torch.promote_types", "can_cast": "torch.can_cast",
    "save": "torch.save", "load": "torch.load", "vmap": "torch.vmap",
    "no_grad": "torch.no_grad", "enable_grad": "torch.enable_grad",
    "inference_mode": "torch.inference_mode", "device": "torch.device",
    "dtype": "torch.dtype", "finfo": "torch.finfo", "iinfo": "torch.iinfo",
    "layout": "torch.layout", "memory_format": "torch.memory_format",
    "nn.functional.assert_int_or_pair": "torch.nn.functional.assert_int_or_pair",
    "nn.functional._canonical_mask": "torch.nn.functional._canonical_mask",
    "nn.functional._none_or_dtype": "torch.nn.functional._none_or_dtype",
}


def _held_forms(path):
    """The function at ``torch.<path>`` now, and the one it wraps if it wraps one.

    Importing torch's compiler rebinds ``torch.manual_seed`` to a wrapper,
    and torch's cached lists hold whichever was bound when they were first
    built, so the lookup happens when the test runs, not when it is collected.
    """
    function = operator.attrgetter(path)(torch)
    return [function, *([function.__wrapped__] if hasattr(function, "__wrapped__") else [])]


@pytest.mark.parametrize("path", list(IGNORED), ids=list(IGNORED.values()))
def test_resolve_name_names_what_torch_ignores(path):
    forms = _held_forms(path)
    assert any(function in torch.overrides.get_ignored_functions() for function in forms)
    assert IGNORED[path] in {torch.overrides.resolve_name(function) for function in forms}
    offered = torch.overrides.get_overridable_functions()
    assert all(function not in funcs for function in forms for funcs in offered.values())


def test_what_torchs_lists_leave_out_stays_unnamed():
    assert torch.overrides.resolve_name(torch.set_grad_enabled) is None
    assert torch.overrides.resolve_name(torch.set_default_dtype) is None


D = torch.float64
PUTS = {
    "dtype": lambda a, i: a.clone().index_put_((i,), torch.rand(3, 4, dtype=D)),
    "dtype, out of place": lambda a, i: a.clone().index_put((i,), torch.rand(3, 4, dtype=D)),
    "dtype, function": lambda a, i: torch.index_put(a, (i,), torch.rand(3, 4, dtype=D)),
    "dtype, accumulating": lambda a, i: a.clone().index_put_((i,), torch.rand(3, 4, dtype=D),
                                                             accumulate=True),
    "dtype, assigned": lambda a, i: a.clone().__setitem__(i, torch.rand(3, 4, dtype=D)),
    "values' shape": lambda a, i: a.clone().index_put_((i,), torch.rand(2, 4)),
    "too many": lambda a, i: a.clone().index_put_((i, i, i), torch.rand(3)),
    "index dtype": lambda a, i: a.clone().index_put_((_frozen(i.double()),), torch.rand(3, 4)),
    "mask shape": lambda a, i: a.clone().index_put_((_frozen(i[:2] > 0),),
                                                    torch.tensor(1.0, dtype=D)),
    "values requiring grad": lambda a, i: a.detach().index_put_(
        (i,), torch.rand(3, 4, dtype=D, requires_grad=True)),
}


@pytest.mark.parametrize("call", list(PUTS.values()), ids=list(PUTS))
def test_an_inference_index_is_refused_before_index_puts_checks(call):
    a = torch.rand(3, 4, requires_grad=True)
    with torch.inference_mode():
        i = torch.tensor([0, 1, 2])
    written = a.detach().clone()
    with raises(RuntimeError, INFERENCE):
        call(a, i)
    assert torch.equal(a.detach(), written)


def test_nothing_recorded_leaves_index_puts_own_checks():
    i = _frozen(torch.tensor([0, 1, 2]))
    b = torch.rand(3, 4)
    version = b._version
    with raises(RuntimeError, "Index put requires the source and destination dtypes match, "
                              "got Float for the destination and Double for the source."):
        b.index_put_((i,), torch.rand(3, 4, dtype=D))
    assert b._version == version
    with torch.no_grad(), raises(RuntimeError, "Index put requires the source and destination "
                                               "dtypes match, got Float for the destination "
                                               "and Double for the source."):
        torch.rand(3, 4, requires_grad=True).clone().index_put_((i,), torch.rand(3, 4, dtype=D))


class Handled:
    """A tensor-like whose handler answers every call it is asked."""

    asked = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.asked.append(func.__name__)
        return "handled"


UNBOUND = {
    "gelu() got an unexpected keyword argument 'zzz'": lambda h: F.gelu(h, zzz=1),
    "gelu() takes 1 positional argument but 3 were given": lambda h: F.gelu(h, "none", 3),
    "softplus() takes from 1 to 3 positional arguments but 4 were given":
        lambda h: F.softplus(h, 1, 2, 3),
    'linear() missing 1 required positional arguments: "weight"': lambda h: F.linear(h, zz=1),
    "hardshrink() got an unexpected keyword argument 'zz'": lambda h: F.hardshrink(h, zz=2),
    "avg_pool2d() got an unexpected keyword argument 'zz'": lambda h: F.avg_pool2d(h, 2, zz=1),
    "celu_() got an unexpected keyword argument 'zz'": lambda h: F.celu_(h, zz=1),
    "log_sigmoid() got multiple values for argument 'input'": lambda h: F.logsigmoid(h, input=h),
    "one_hot() takes from 1 to 2 positional arguments but 3 were given":
        lambda h: F.one_hot(h, 1, 2),
    'bilinear() missing 2 required positional argument: "input2", "weight"':
        lambda h: F.bilinear(h),
}


@pytest.mark.parametrize("message", list(UNBOUND))
def test_a_function_bound_in_c_refuses_a_call_that_does_not_bind_before_a_handler(message):
    for given in (Handled(), torch.rand(2, 2).as_subclass(Seen)):
        Handled.asked.clear()
        Seen.seen.clear()
        with raises(TypeError, message):
            UNBOUND[message](given)
        assert Handled.asked == Seen.seen == []


def test_a_call_that_binds_is_still_handed_on():
    assert F.gelu(Handled(), approximate="tanh") == "handled"
    assert F.avg_pool2d(Handled(), 2) == "handled"
    assert Handled.asked[-2:] == ["gelu", "avg_pool2d"]


WHOLE = "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of " \
        "shape [3, 4]"


@pytest.mark.parametrize("call, shape", [
    (lambda a: a.index_put_([], torch.rand(3, dtype=D)), [3]),
    (lambda a: a.index_put_([], torch.rand(3)), [3]),
    (lambda a: a.index_put_([], torch.rand(5, 3, 4, dtype=D)), [5, 3, 4]),
    (lambda a: a.index_put_([], torch.rand(3), accumulate=True), [3]),
    (lambda a: torch.index_put(a, (), torch.rand(3, dtype=D)), [3]),
])
def test_values_put_with_no_index_must_fit_the_whole_tensor_before_their_dtype(call, shape):
    with raises(RuntimeError, WHOLE.format(shape)):
        call(torch.rand(3, 4))


def test_values_that_fit_the_whole_tensor_are_refused_for_their_dtype():
    with raises(RuntimeError, "Index put requires the source and destination dtypes match, "
                              "got Float for the destination and Double for the source."):
        torch.rand(3, 4).index_put_([], torch.rand(4, dtype=D))
