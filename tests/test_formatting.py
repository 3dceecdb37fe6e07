"""White-box tests of refgrad._formatting against strings recorded from torch.

Every expected string, in tests/_formatting_cases.py, is the ``repr`` that
torch 2.13.0 (CPU) printed for ``torch.from_numpy(<the same array>)`` with the
same attributes and print options; they were recorded from torch 2.13 and
pasted there as literals, so the test does not need torch. The tensors are
stand-ins: objects with exactly the five attributes the printer reads.
"""

import math

import numpy as np
import pytest

from conformance._support import StandIn
from refgrad import _formatting, _printoptions
from refgrad._formatting import tensor_repr
from refgrad._printoptions import get_printoptions, set_printoptions
from tests._formatting_cases import CASES


def make(array: np.ndarray, attrs: dict) -> StandIn:
    grad_fn = None
    if "grad_fn" in attrs:
        grad_fn = type(attrs["grad_fn"], (), {})()
    requires_grad = bool(attrs.get("requires_grad") or grad_fn)
    return StandIn(array, requires_grad=requires_grad, grad_fn=grad_fn)


@pytest.fixture(autouse=True)
def default_options():
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


@pytest.mark.parametrize(("array", "attrs", "options", "expected"), CASES)
def test_repr_matches_torch(array, attrs, options, expected):
    set_printoptions(**options)
    assert tensor_repr(make(array, attrs)) == expected


def test_device_suffix_comes_first():
    # torch prints device='cuda:0' before any other suffix (from torch's rule;
    # the CPU-only oracle cannot print a CUDA tensor).
    t = StandIn(np.arange(3, dtype=np.int32), device="cuda:0")
    assert tensor_repr(t) == "tensor([0, 1, 2], device='cuda:0', dtype=torch.int32)"


def test_cupy_like_data_is_fetched_with_get():
    class DeviceArray:
        def get(self):
            return np.array([1.5, 2.0], dtype=np.float32)

    t = StandIn(np.zeros(2, dtype=np.float32))
    t._data = DeviceArray()
    assert tensor_repr(t) == "tensor([1.5000, 2.0000])"


def test_tensor_contents_replaces_values_only():
    t = StandIn(np.zeros(2, dtype=np.float64), requires_grad=True)
    got = tensor_repr(t, tensor_contents="[...]")
    assert got == "tensor([...], dtype=torch.float64, requires_grad=True)"


def test_default_printoptions():
    assert get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }


def test_profiles_and_overrides():
    set_printoptions(profile="short")
    assert get_printoptions() == {
        "precision": 2,
        "threshold": 1000,
        "edgeitems": 2,
        "linewidth": 80,
        "sci_mode": None,
    }
    set_printoptions(profile="full", precision=6)
    options = get_printoptions()
    assert options["threshold"] == math.inf and options["precision"] == 6
    set_printoptions(profile="no such profile")
    assert get_printoptions()["precision"] == 6


def test_sci_mode_is_reset_by_every_call():
    set_printoptions(sci_mode=True)
    assert get_printoptions()["sci_mode"] is True
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None
    assert get_printoptions()["precision"] == 3


def test_round_trip_through_get_printoptions():
    set_printoptions(precision=7, linewidth=120, sci_mode=False)
    saved = get_printoptions()
    set_printoptions(profile="default")
    set_printoptions(**saved)
    assert get_printoptions() == saved


def test_public_names():
    assert _formatting.__all__ == ["tensor_repr"]
    assert sorted(_printoptions.__all__) == ["get_printoptions", "set_printoptions"]
