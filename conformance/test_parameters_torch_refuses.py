"""Parameters as torch declares them: the adaptive average pools take no return_indices and
AvgPool1d no divisor_override (Python refuses them in torch's class names); is_tensor,
typename, is_storage and set_default_dtype take their argument by position only; the
methods torch writes in Python name their tensor self; and compiled_with_cxx11_abi answers as
torch's CPU build does. The same assertions run on
torch."""

import inspect

import pytest
import torch
import torch.nn as nn

from conformance._support import raises


@pytest.mark.parametrize(("build", "message"), [
    (lambda: nn.AdaptiveAvgPool2d(2, return_indices=True),
     "_AdaptiveAvgPoolNd.__init__() got an unexpected keyword argument 'return_indices'"),
    (lambda: nn.AdaptiveAvgPool1d(2, True),
     "_AdaptiveAvgPoolNd.__init__() takes 2 positional arguments but 3 were given"),
    (lambda: nn.AdaptiveMaxPool3d(2, True, 1),
     "_AdaptiveMaxPoolNd.__init__() takes from 2 to 3 positional arguments but 4 were given"),
    (lambda: nn.AvgPool1d(2, divisor_override=3),
     "AvgPool1d.__init__() got an unexpected keyword argument 'divisor_override'"),
    (lambda: nn.AvgPool2d(2, foo=1), "AvgPool2d.__init__() got an unexpected keyword argument "
     "'foo'"),
    (lambda: nn.AvgPool3d(2, 2, 0, False, True, None, 1),
     "AvgPool3d.__init__() takes from 2 to 7 positional arguments but 8 were given"),
])
def test_the_pools_refuse_what_torch_does_not_take(build, message):
    with raises(TypeError, message):
        build()


def test_the_pools_still_take_their_own():
    x = torch.arange(16.0).reshape(1, 1, 4, 4)
    pool = nn.AvgPool2d(2, divisor_override=3)
    assert pool.divisor_override == 3 and pool(x).flatten().tolist() == pytest.approx(
        [10 / 3, 6.0, 14.0, 50 / 3])
    values, indices = nn.AdaptiveMaxPool1d(2, return_indices=True)(x.reshape(1, 1, 16))
    assert values.flatten().tolist() == [7.0, 15.0] and indices.flatten().tolist() == [7, 15]
    assert nn.AdaptiveAvgPool1d(2)(x.reshape(1, 1, 16)).flatten().tolist() == [3.5, 11.5]
    assert not isinstance(nn.AvgPool3d(2), nn.AvgPool2d)
    assert not isinstance(nn.AdaptiveMaxPool2d(2), type(nn.AdaptiveAvgPool2d(2)).__mro__[1])
    assert not hasattr(nn.AvgPool1d(2), "divisor_override")
    assert not hasattr(nn.AdaptiveAvgPool2d(2), "return_indices")


@pytest.mark.parametrize(("name", "call"), [
    ("is_tensor", lambda: torch.is_tensor(obj=1)),
    ("typename", lambda: torch.typename(obj=1)),
    ("is_storage", lambda: torch.is_storage(obj=1)),
    ("set_default_dtype", lambda: torch.set_default_dtype(d=torch.float32)),
])
def test_the_argument_goes_by_position_only(name, call):
    kinds = [p.kind for p in inspect.signature(getattr(torch, name)).parameters.values()]
    assert kinds == [inspect.Parameter.POSITIONAL_ONLY]
    with pytest.raises(TypeError, match=rf"\A{name}\(\) got some positional-only arguments "
                       "passed as keyword arguments: '(obj|d)'\\Z"):
        call()


def test_compiled_with_cxx11_abi():
    assert torch.compiled_with_cxx11_abi() is True
    with raises(TypeError, "compiled_with_cxx11_abi() takes 0 positional arguments but 1 was "
                "given"):
        torch.compiled_with_cxx11_abi(1)


@pytest.mark.parametrize("name", ["norm", "unique", "unique_consecutive"])
def test_the_python_methods_name_their_tensor_self(name):
    method = getattr(torch.Tensor, name)
    assert next(iter(inspect.signature(method).parameters)) == "self"
    with raises(TypeError, f"Tensor.{name}() got an unexpected keyword argument 'input'"):
        method(torch.ones(2), input=1)
    with raises(TypeError, f"Tensor.{name}() got multiple values for argument 'self'"):
        method(torch.ones(2), self=1)
