"""Public functions keep their identity when the __torch_function__ protocol comes into play:
a function bound before the first Tensor subclass is the namespace's own afterwards."""

import pickle

import pytest
import torch
import torch.nn.functional as F

from conformance._support import printed_in_a_fresh_process

# Bound when this module is imported, before the tests below define their subclasses.
HELD = {"add": torch.add, "relu": F.relu, "norm": torch.linalg.norm,
        "Tensor.add": torch.Tensor.add, "Tensor.shape": torch.Tensor.shape}


def _now():
    return {"add": torch.add, "relu": F.relu, "norm": torch.linalg.norm,
            "Tensor.add": torch.Tensor.add, "Tensor.shape": torch.Tensor.shape}


_BEFORE_AND_AFTER = """
import inspect
import pickle

import {module} as torch
import {module}.nn.functional as F


def held():
    return [torch.add, F.relu, torch.linalg.norm, torch.Tensor.add, torch.Tensor.__add__,
            torch.Tensor.shape, torch.Tensor.grad]


def described(f):
    try:
        return str(inspect.signature(f))
    except ValueError:
        return "no signature"


before = held()
signatures = [described(f) for f in before[:5]]
keys = {{torch.add: "add", F.relu: "relu"}}
layer = torch.nn.TransformerEncoderLayer(4, 2)


class Sub(torch.Tensor):
    pass


s = torch.ones(2).as_subclass(Sub)
print([a is b for a, b in zip(before, held())])
print(signatures == [described(f) for f in held()[:5]])
print(keys[torch.add], keys[F.relu], layer.activation is F.relu)
print(pickle.loads(pickle.dumps(torch.add)) is torch.add,
      pickle.loads(pickle.dumps(before[1])) is F.relu)
print(type(before[0](s, 1)).__name__, type(before[1](s)).__name__,
      type(before[3](s, 1)).__name__, type(s + 1).__name__)
"""


def test_functions_bound_before_the_first_subclass_stay_the_namespaces_own():
    printed = printed_in_a_fresh_process(_BEFORE_AND_AFTER).splitlines()
    assert printed == ["[True, True, True, True, True, True, True]", "True",
                       "add relu True", "True True", "Sub Sub Sub Sub"]


def test_a_subclass_made_in_a_test_leaves_every_function_as_it_was():
    class Made(torch.Tensor):
        pass

    s = torch.tensor([1.0, -2.0]).as_subclass(Made)
    assert type(HELD["relu"](s)) is Made and type(HELD["Tensor.add"](s, 1)) is Made
    assert all(HELD[name] is now for name, now in _now().items())
    x = torch.tensor([1.0, -2.0])
    assert type(torch.add(x, 1)) is torch.Tensor and F.relu(x).tolist() == [1.0, 0.0]


@pytest.mark.parametrize("name", sorted(HELD))
def test_a_parametrized_function_is_still_the_namespace_s(name):
    class Later(torch.Tensor):
        pass

    assert HELD[name] is _now()[name]


def test_a_pickled_function_comes_back_as_the_same_object():
    class Pickles(torch.Tensor):
        pass

    torch.ones(1).as_subclass(Pickles) * 2
    for function in (torch.add, F.relu, torch.mul, HELD["add"]):
        assert pickle.loads(pickle.dumps(function)) is function
    assert {HELD["add"]: 1, HELD["relu"]: 2}[torch.add] == 1
