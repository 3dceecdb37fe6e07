"""Black-box tests: a method that takes nothing, refused with an argument in a direct call,
names TensorBase."""

import pytest
import torch

from conformance._support import raises

NAMES = ("abs", "sin", "exp", "t", "numel", "detach", "msort", "dim", "trace", "sigmoid")


@pytest.mark.parametrize("name", NAMES)
def test_a_direct_call_names_tensorbase(name):
    x = torch.ones(2, 2)
    with raises(TypeError, f"TensorBase.{name}() takes no arguments (1 given)"):
        eval(f"x.{name}(1)", {"x": x})
    with raises(TypeError, f"TensorBase.{name}() takes no keyword arguments"):
        eval(f"x.{name}(foo=1)", {"x": x})
    with raises(TypeError, f"TensorBase.{name}() takes no arguments (2 given)"):
        getattr(torch.Tensor, name)(x, 1, 2)


@pytest.mark.parametrize("name", ("_is_all_true", "_is_any_true", "_is_view", "_is_zerotensor"))
def test_private_methods_that_take_nothing(name):
    x = torch.ones(2, dtype=torch.bool)
    with raises(TypeError, f"TensorBase.{name}() takes no keyword arguments"):
        eval(f"x.{name}(foo=1)", {"x": x})
    with raises(TypeError, f"TensorBase.{name}() takes no arguments (1 given)"):
        eval(f"x.{name}(1)", {"x": x})


def test_calls_that_fit_are_unchanged():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    method = x.t
    assert method().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert x.numel() == 4 and x.sin().shape == (2, 2)
