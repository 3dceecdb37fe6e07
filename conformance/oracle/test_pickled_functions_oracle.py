"""Oracle test: refgrad pickles, to the same object, every public function of its
namespaces and every method of Tensor that torch pickles, but the few the conformance
file names; and torch refuses only the names the conformance file lists."""

import importlib
import inspect
import pickle

import pytest
import torch

import refgrad
import refgrad.linalg  # noqa: F401
import refgrad.nn.functional  # noqa: F401
import refgrad.special  # noqa: F401
from conformance.test_pickled_functions import REFGRAD_REFUSES, torch_refuses

OWNERS = {"torch": "", "torch.nn.functional": ".nn.functional", "torch.linalg": ".linalg",
          "torch.special": ".special", "Tensor": ".Tensor"}


def _owner(library: str, key: str):
    if key == "Tensor":
        return library.Tensor
    return importlib.import_module(library.__name__ + OWNERS[key])


def _routines(owner, tensor: bool) -> dict:
    found = {}
    for name in dir(owner):
        value = getattr(owner, name, None)
        if (tensor or not name.startswith("_")) and inspect.isroutine(value) \
                and not inspect.isclass(value):
            found[name] = value
    return found


def _pickles(value) -> bool:
    try:
        restored = pickle.loads(pickle.dumps(value))
    except (pickle.PicklingError, AttributeError, TypeError, RuntimeError):
        return False
    return restored is value or hasattr(value, "__self__") and restored == value


@pytest.mark.parametrize("key", list(OWNERS))
def test_refgrad_pickles_what_torch_pickles(key):
    theirs = _routines(_owner(torch, key), key == "Tensor")
    ours = _routines(_owner(refgrad, key), key == "Tensor")
    pickled = {name for name, value in theirs.items() if _pickles(value)}
    assert set(theirs) - pickled == torch_refuses(key)
    shared = pickled & set(ours)
    assert len(shared) > 0.8 * len(ours)  # most of refgrad's names are torch's too
    refused = sorted(name for name in shared if not _pickles(ours[name]))
    assert refused == sorted(REFGRAD_REFUSES.get(key, set()) & shared)


MORE = ("autograd", "autograd.functional", "autograd.forward_ad", "autograd.graph", "func",
        "nn.init", "random", "utils.checkpoint", "nn.utils", "nn.utils.rnn", "testing",
        "library", "overrides", "optim", "distributions",
        "signal.windows", "nn.utils.parametrize", "serialization", "profiler", "utils.data")


@pytest.mark.parametrize("module", MORE)
def test_refgrad_pickles_what_torch_pickles_in_its_other_modules(module):
    theirs = _routines(importlib.import_module("torch." + module), False)
    ours = _routines(importlib.import_module("refgrad." + module), False)
    shared = {name for name, value in theirs.items() if _pickles(value)} & set(ours)
    assert shared
    assert sorted(name for name in shared if not _pickles(ours[name])) == []
