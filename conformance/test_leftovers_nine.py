"""Black-box tests: the functions torch.nn.functional shares with torch are torch's own
objects, seen as one by handlers and refused in one set of words. The same assertions run
on torch.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

SHARED = ["bilinear", "celu_", "hardshrink", "pdist", "selu_"]


def test_every_name_f_shares_with_torch_is_the_same_object():
    shared = sorted(name for name in dir(F) if not name.startswith("__") and hasattr(torch, name)
                    and callable(getattr(F, name)) and getattr(F, name) is getattr(torch, name))
    assert set(SHARED) <= set(shared)
    assert "relu_" in shared and "conv2d" in shared and "relu" not in shared


@pytest.mark.parametrize("name", SHARED)
def test_f_holds_torchs_function(name):
    assert getattr(F, name) is getattr(torch, name)
    assert {getattr(torch, name): 1}[getattr(F, name)] == 1


class Seen:
    """A tensor-like whose handler says which function it was handed."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func


@pytest.mark.parametrize("name", ["celu_", "hardshrink", "pdist", "selu_"])
def test_a_handler_is_handed_torchs_function_through_f(name):
    torch.overrides.get_ignored_functions()  # a plain tensor-like needs the protocol on
    assert getattr(F, name)(Seen()) is getattr(torch, name)


def test_bilinear_through_f_hands_torchs_function():
    torch.overrides.get_ignored_functions()
    seen = Seen()
    assert F.bilinear(seen, seen, seen) is torch.bilinear


def test_an_unknown_keyword_reads_as_the_missing_input_through_f():
    with raises(TypeError, "hardshrink(): argument 'input' must be Tensor, not int"):
        F.hardshrink(x=1)

