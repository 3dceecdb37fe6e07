"""Oracle test: refgrad's public classes and functions say they live where torch's do,
wherever refgrad's module of that name holds them, and pickle finds them there."""

import importlib
import importlib.util
import inspect
import pickle
import sys
import types

import pytest
import torch

import refgrad
import refgrad.nn.functional  # noqa: F401 - loaded on first use; its functions settle then


def _public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def _mirrored_modules() -> list:
    """refgrad's public modules that torch has too, as (refgrad's, torch's)."""
    pairs = []
    for name in sorted(n for n in list(sys.modules) if n.startswith("refgrad") and _public(n)):
        try:
            pairs.append((sys.modules[name], importlib.import_module("torch" + name[7:])))
        except ImportError:
            continue
    return pairs


def _held(module_name: str, name: str, value) -> bool:
    """Whether refgrad has ``module_name`` and it holds ``value`` as ``name``."""
    try:
        if module_name not in sys.modules and importlib.util.find_spec(module_name) is None:
            return False
    except ModuleNotFoundError:  # a part of the path is a plain module, not a package
        return False
    return getattr(importlib.import_module(module_name), name, None) is value


def _names():
    """(where, name, refgrad's object, the module torch names) for every public
    class or function refgrad shares with torch under its own name."""
    found = []
    for ours, theirs in _mirrored_modules():
        for name in dir(theirs):
            if name.startswith("_") or not hasattr(ours, name):
                continue
            value, home = getattr(ours, name), getattr(getattr(theirs, name), "__module__", None)
            if not (inspect.isclass(value) or isinstance(value, types.FunctionType)):
                continue
            if value.__name__ == name and isinstance(home, str) and home.startswith("torch"):
                found.append((ours.__name__, name, value, "refgrad" + home[5:]))
    return found


NAMES = _names()


def test_the_oracle_sees_hundreds_of_names():
    assert len(NAMES) > 1500
    assert sum(_held(home, name, value) for _, name, value, home in NAMES) > 1500


@pytest.mark.parametrize("where, name, value, home", NAMES,
                         ids=[f"{w}.{n}" for w, n, _, _ in NAMES])
def test_says_it_lives_where_torch_says(where, name, value, home):
    if not _held(home, name, value):
        return  # refgrad has no such module, or it holds another object: nothing to name
    assert value.__module__ == home


@pytest.mark.parametrize("value", [
    refgrad.add, refgrad.nn.Sigmoid, refgrad.nn.LayerNorm, refgrad.nn.functional.interpolate,
    refgrad.autograd.grad, refgrad.manual_seed, refgrad.optim.AdamW,
    refgrad.distributions.Weibull, refgrad.distributions.transforms.ExpTransform,
], ids=lambda v: v.__name__)
def test_pickle_finds_it_by_reference(value):
    data = pickle.dumps(value)
    assert pickle.loads(data) is value
    assert value.__module__.encode() in data


def test_reprs_of_classes_are_torchs():
    for ours, theirs in [(refgrad.nn.Sigmoid, torch.nn.Sigmoid),
                         (refgrad.nn.ModuleList, torch.nn.ModuleList),
                         (refgrad.nn.ConvTranspose2d, torch.nn.ConvTranspose2d),
                         (refgrad.distributions.HalfCauchy, torch.distributions.HalfCauchy)]:
        assert repr(ours).replace("refgrad", "torch") == repr(theirs)


def test_torchs_module_paths_import():
    from refgrad.distributions.half_cauchy import HalfCauchy
    from refgrad.distributions.weibull import Weibull
    from refgrad.optim.adamw import AdamW

    assert (HalfCauchy, Weibull, AdamW) == (refgrad.distributions.HalfCauchy,
                                           refgrad.distributions.Weibull, refgrad.optim.AdamW)
    assert refgrad.distributions.half_cauchy.__all__ == torch.distributions.half_cauchy.__all__
    assert refgrad.distributions.weibull.__all__ == torch.distributions.weibull.__all__
