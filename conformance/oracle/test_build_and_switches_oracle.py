"""Oracle test: refgrad's version comparisons, CPU capability and compiled modules beside torch's.

Version strings of every PEP 440 shape, and some that are not versions, are compared both
ways with all five of TorchVersion's comparisons, and with tuples and lists; refgrad's
answers (or refusals) are torch's. The CPU capability refgrad reads from NumPy is the one
torch reports on this machine, and a compiled module's state_dict has torch's keys.
"""

import itertools
import operator

import numpy as np
import pytest
import torch
from torch.torch_version import TorchVersion as TorchsVersion

import refgrad
from conformance._support import compile_side_effects_put_back
from refgrad.torch_version import TorchVersion

VERSIONS = ["1.0", "1.0.0", "1", "1.0.post1", "1.0-1", "1.0.dev0", "1.0a1", "1.0a1.dev2",
            "1.0b1", "1.0rc1", "1.0c1", "1.0.0rc1", "1.0.0-rc.2", "1.0alpha2", "1.0pre3",
            "1.0+local", "1.0+local.7", "1.0+7", "1.0+abc.1", "1.0.post1.dev3", "1!0.5",
            "v1.0", "2.13.0+cpu", "2.13", "2.1.0.dev20230601", "1.10", "1.9", "0.1.0",
            "1.0.1", " 1.0 ", "abc", "1.0.x", "", "2.0-", "1.0.POST2", "1.0RC1"]
OPERATORS = ["__lt__", "__le__", "__eq__", "__ge__", "__gt__", "__ne__"]


@pytest.fixture(autouse=True)
def _compile_side_effects_put_back():
    with compile_side_effects_put_back(torch, refgrad):
        yield


def outcome(call, *args):
    try:
        return call(*args)
    except TypeError as error:
        return ("TypeError", str(error).replace("refgrad", "torch"))


@pytest.mark.parametrize("left", VERSIONS)
def test_comparisons_agree_with_torchs_for_every_pair(left):
    for right, op in itertools.product(VERSIONS, OPERATORS):
        ours = outcome(getattr(TorchVersion(left), op), right)
        theirs = outcome(getattr(TorchsVersion(left), op), right)
        assert ours == theirs, (left, op, right)


@pytest.mark.parametrize("other", [(1, 0), (1, 0, 0), [2, 13], (2, 13, 0), ("1", "0rc1"),
                                   (3,), 2, 2.5, None, b"1.0"])
def test_comparisons_with_other_types_agree(other):
    for text, op in itertools.product(["1.0", "2.13.0+cpu", "abc"], OPERATORS):
        ours = outcome(getattr(TorchVersion(text), op), other)
        theirs = outcome(getattr(TorchsVersion(text), op), other)
        assert ours == theirs, (text, op, other)
        as_operator = getattr(operator, op.strip("_"))  # Python's own dispatch, reflections too
        ours = outcome(as_operator, TorchVersion(text), other)
        theirs = outcome(as_operator, TorchsVersion(text), other)
        assert ours == theirs, (text, op, other)


def test_the_cpu_capability_is_torchs_on_this_machine():
    assert refgrad.backends.cpu.get_cpu_capability() == torch.backends.cpu.get_cpu_capability()


def test_a_compiled_modules_state_and_repr_are_torchs():
    weights = np.random.default_rng(0).standard_normal((2, 3))
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
    ours = refgrad.nn.Sequential(refgrad.nn.Linear(3, 2), refgrad.nn.ReLU())
    ours[0].weight.data = refgrad.tensor(weights, dtype=refgrad.float32)
    theirs[0].weight.data = torch.tensor(weights, dtype=torch.float32)
    compiled_ours = refgrad.compile(ours, backend="eager")
    compiled_theirs = torch.compile(theirs, backend="eager")
    assert list(compiled_ours.state_dict()) == list(compiled_theirs.state_dict())
    assert repr(compiled_ours) == repr(compiled_theirs)
    assert len(compiled_ours) == len(compiled_theirs) == 2
