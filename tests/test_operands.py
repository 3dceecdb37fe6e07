"""White-box tests of how call() settles a row's operands: the short way, or by the rules."""

import collections
import importlib

import numpy as np
import pytest

import refgrad
from refgrad._ops import operands
from refgrad._tensor import make_tensor

NO_PARAMS: dict = {}


def test_a_tensor_and_a_weak_number_are_settled_without_the_rules():
    t = refgrad.tensor([1.0, 2.0])
    i = refgrad.tensor([1, 2])
    assert operands._shared_operands((i, 3), NO_PARAMS) == [i._data, 3]
    u = refgrad.tensor([3.0, 4.0])
    arrays = operands._shared_operands((t, u), NO_PARAMS)
    assert arrays[0] is t._data and arrays[1] is u._data


# NOTE [Numbers as constants]
def test_a_float_beside_a_float_tensor_becomes_a_shared_read_only_constant():
    t = refgrad.tensor([1.0, 2.0])
    first = operands._shared_operands((t, 0.5), NO_PARAMS)[1]
    again = operands._shared_operands((t, 0.5), operands.DEFAULT_ALPHA)[1]
    assert first is again and first.shape == () and first.dtype == np.float32
    assert first == np.float32(0.5) and not first.flags.writeable
    # A float16 tensor and a number take the general path, which keeps the number as given.
    assert operands._shared_operands((t.half(), 0.5), NO_PARAMS) is None
    assert operands._shared_operands((t.half(), 2), NO_PARAMS) is None


@pytest.mark.parametrize("value", [0.0, -0.0, float("nan")])
def test_zero_and_nan_stay_python_floats(value):
    t = refgrad.tensor([1.0, 2.0])
    kept = operands._shared_operands((t, value), NO_PARAMS)[1]
    assert type(kept) is float and (kept == value or value != value)
    assert str(kept) == str(value)  # -0.0 keeps its sign


def test_a_float_that_alpha_scales_stays_a_python_float():
    t = refgrad.tensor([1.0, 2.0])
    assert operands._shared_operands((t, 0.5), {"alpha": 3}) == [t._data, 0.5]


def test_the_constants_stay_few(monkeypatch):
    monkeypatch.setattr(operands, "_CONSTANTS", collections.defaultdict(dict))
    t = refgrad.tensor([1.0])
    for k in range(1, 1000):
        operands._shared_operands((t, k / 7), NO_PARAMS)
    assert len(operands._CONSTANTS[np.dtype(np.float32)]) <= 256


def test_constants_give_the_bits_weak_floats_give():
    rng = np.random.default_rng(0)
    values = [*map(float, rng.uniform(-10, 10, 20)), 1e-40, 1e30, 1e300, -1e300, float("inf"),
              65504.0, 7e4]
    with np.errstate(all="ignore"):
        for dtype in (np.float16, np.float32, np.float64):
            a = rng.uniform(-5, 5, 16).astype(dtype)
            for value in values:
                c = operands.constant(value, np.dtype(dtype))
                for ufunc in (np.add, np.subtract, np.multiply, np.divide, np.power,
                              np.maximum, np.less, np.equal):
                    weak, const = ufunc(a, value), ufunc(a, c)
                    assert weak.dtype == const.dtype
                    assert weak.tobytes() == const.tobytes(), (ufunc, dtype, value)


@pytest.mark.parametrize("make_args", [
    lambda t: (t, refgrad.tensor([1.0, 2.0], dtype=refgrad.float64)),  # two dtypes
    lambda t: (refgrad.tensor([1, 2]), 0.5),  # a float number meets integers
    lambda t: (t, 1j),  # a complex number meets floats
    lambda t: (2.0, t),  # the number comes first
    lambda t: (t, None),  # an optional tensor that was not given
    lambda t: (t, t, t),  # three operands take the general loop, and pass
])
def test_what_the_short_way_declines(make_args):
    t = refgrad.tensor([1.0, 2.0])
    args = make_args(t)
    expected = len(args) == 3
    assert (operands._shared_operands(args, NO_PARAMS) is not None) == expected


def test_equal_dtypes_that_are_not_one_object_take_the_rules_and_agree():
    twin = np.dtype(np.float32, metadata={"twin": True})  # equal to float32, another object
    assert twin == np.float32 and twin is not np.dtype(np.float32)
    a = make_tensor(np.array([1.0, 2.0], dtype=twin), requires_grad=True)
    b = refgrad.tensor([3.0, 5.0], requires_grad=True)
    assert operands._shared_operands((a, b), NO_PARAMS) is None
    out = a * b
    assert out.dtype == refgrad.float32 and out.tolist() == [3.0, 10.0]
    out.sum().backward()
    assert a.grad.tolist() == [3.0, 5.0] and b.grad.tolist() == [1.0, 2.0]


# NOTE [Names looked up once]: CPython 3.11 never specializes a read of `np.<name>`,
# so the functions every op runs name NumPy's objects directly.
HOT_FUNCTIONS = [
    "refgrad._ops.dispatch:call", "refgrad._ops.dispatch:_record",
    "refgrad._ops.operands:_shared_operands", "refgrad._ops.operands:as_array",
    "refgrad.autograd._input_metadata:lone_metadata", "refgrad.autograd._sole_holder:sole_holder",
    "refgrad._ops.reductions:_sum_forward", "refgrad.autograd._engine:_deliver",
]


@pytest.mark.parametrize("where", HOT_FUNCTIONS)
def test_hot_functions_read_nothing_through_numpys_module(where):
    module, name = where.split(":")
    code = getattr(importlib.import_module(module), name).__code__
    assert "np" not in code.co_names


def test_call_sets_numpys_error_settings_through_bound_methods():
    from refgrad._ops import dispatch

    names = dispatch.call.__code__.co_names
    assert "quiet_fp" in names and "restore_fp" in names and "_fp_settings" not in names
