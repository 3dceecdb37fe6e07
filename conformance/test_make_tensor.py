"""torch.testing.make_tensor: the draws it makes, its layouts, and its refusals."""

import warnings

import pytest
import torch

from conformance._support import raises

mt = torch.testing.make_tensor


def _same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape and a.tolist() == b.tolist()


@pytest.mark.parametrize("dtype, low, high, drawn", [
    (torch.float32, None, None, lambda s: torch.empty(s).uniform_(-9, 9)),
    (torch.float64, -1, 1, lambda s: torch.empty(s, dtype=torch.float64).uniform_(-1, 1)),
    (torch.float16, None, None, lambda s: torch.empty(s, dtype=torch.float16).uniform_(-9, 9)),
    (torch.float32, -1e50, 1e50, lambda s: torch.empty(s).uniform_(
        -torch.finfo(torch.float32).max / 2, torch.finfo(torch.float32).max / 2).mul_(2)),
    (torch.int64, None, None, lambda s: torch.randint(-9, 10, s)),
    (torch.int32, 2.5, 5.5, lambda s: torch.randint(3, 6, s, dtype=torch.int32)),
    (torch.uint8, None, None, lambda s: torch.randint(0, 10, s, dtype=torch.uint8)),
    (torch.uint8, -5, 1000, lambda s: torch.randint(0, 256, s, dtype=torch.uint8)),
    (torch.bool, None, None, lambda s: torch.randint(0, 2, s, dtype=torch.bool)),
])
def test_values_are_the_draws_torch_makes(dtype, low, high, drawn):
    torch.manual_seed(3)
    made = mt(2, 3, dtype=dtype, device="cpu", low=low, high=high)
    torch.manual_seed(3)
    _same(made, drawn((2, 3)))
    assert made.is_contiguous() and not made.requires_grad


def test_layouts_and_flags():
    torch.manual_seed(5)
    loose = mt((2, 3), dtype=torch.float32, device="cpu", noncontiguous=True)
    torch.manual_seed(5)
    _same(loose, torch.empty(2, 6).uniform_(-9, 9)[..., 1::2])
    assert loose.stride() == (6, 2)
    assert mt(1, dtype=torch.float32, device="cpu", noncontiguous=True).stride() == (1,)
    last = mt(1, 2, 2, 2, dtype=torch.float32, device="cpu", memory_format=torch.channels_last)
    assert last.stride() == (8, 1, 4, 2)
    grad = mt(2, dtype=torch.float16, device=torch.device("cpu"), requires_grad=True)
    assert grad.requires_grad and grad.is_leaf
    ones = mt(50, dtype=torch.int8, device="cpu", low=-1, high=1, exclude_zero=True)
    assert set(ones.tolist()) <= {-1, 1}
    tiny = mt(50, dtype=torch.float32, device="cpu", low=0, high=1e-45, exclude_zero=True)
    assert set(tiny.tolist()) == {torch.finfo(torch.float32).tiny}
    assert mt((), dtype=torch.float64, device="cpu").shape == ()


def test_equal_bounds_warn_for_floats_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = mt(2, dtype=torch.float32, device="cpu", low=1, high=1)
    assert made.tolist() == [1.0, 1.0]
    assert [w.category for w in caught] == [FutureWarning]
    assert str(caught[0].message) == (
        "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types is "
        "deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.")
    assert caught[0].filename == __file__


@pytest.mark.parametrize("options, kind, message", [
    ({"dtype": torch.int64, "requires_grad": True}, ValueError, "`requires_grad=True` is not "
     "supported for boolean and integral dtypes, but got dtype=torch.int64"),
    ({"dtype": torch.int64, "low": 1, "high": 1}, ValueError,
     "`low` must be less than `high`, but got 1 >= 1"),
    ({"dtype": torch.float32, "low": 2, "high": 1}, ValueError,
     "`low` must be less than `high`, but got 2 >= 1"),
    ({"dtype": torch.float32, "low": float("nan")}, ValueError,
     "`low` and `high` cannot be NaN, but got low=nan and high=9"),
    ({"dtype": torch.uint8, "low": 300, "high": 400}, ValueError, "The value interval specified "
     "by `low` and `high` is [300, 400), but torch.uint8 only supports [0, 256)"),
    ({"dtype": torch.int64, "low": 2**63}, ValueError, "`low` must be less than `high`, but got "
     "9223372036854775808 >= 10"),
    ({"dtype": torch.float32, "noncontiguous": True, "memory_format": torch.contiguous_format},
     ValueError, "The parameters `noncontiguous` and `memory_format` are mutually exclusive, but "
     "got noncontiguous=True and memory_format=torch.contiguous_format"),
])
def test_refusals(options, kind, message):
    state = torch.get_rng_state()
    with raises(kind, message):
        mt(2, device="cpu", **options)
    assert torch.equal(torch.get_rng_state(), state)  # a refused call draws nothing


def test_device_and_dtype_are_required():
    with raises(TypeError, "make_tensor() missing 1 required keyword-only argument: 'device'"):
        mt(2, dtype=torch.float32)
