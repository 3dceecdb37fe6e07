"""Black-box tests: add, sub and rsub with an alpha, as torch checks and rounds it.

torch's CPU kernels compute ``a + alpha * b`` as a fused multiply-add, rounded once
from the exact value. The references here are exact fractions rounded once, so the
same assertions hold on torch, where the oracle run checks them.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from conformance._support import raises

INTEGRAL = "For integral input tensors, argument alpha must not be a floating point number."
FLOATS = {"float32": np.float32, "float64": np.float64, "float16": np.float16}


def rounded(value: Fraction, kind) -> float:
    """``value`` rounded once to the nearest ``kind`` float, ties to even; overflow to inf."""
    if value == 0:
        return 0.0
    info = np.finfo(kind)
    size = abs(value)
    exponent = size.numerator.bit_length() - size.denominator.bit_length()
    if Fraction(2) ** exponent > size:
        exponent -= 1  # now 2**exponent <= size < 2**(exponent + 1)
    quantum = Fraction(2) ** (max(exponent, info.minexp) - info.nmant)  # one unit in the last place
    result = round(size / quantum) * quantum  # round() on a Fraction ties to even
    if result >= Fraction(2) ** info.maxexp:
        result = math.inf
    return float(result) if value > 0 else -float(result)


def fused(a: float, b: float, alpha, kind) -> float:
    """torch's a + alpha * b for float32 and float64: alpha in ``kind``, one rounding."""
    alpha = float(np.asarray(alpha).astype(kind))
    return rounded(Fraction(a) + Fraction(alpha) * Fraction(b), kind)


def finite(kind):
    width = np.finfo(kind).bits
    return st.floats(allow_nan=False, allow_infinity=False, width=width)


def pairs(kind, size=5):
    return st.tuples(st.lists(finite(kind), min_size=size, max_size=size),
                     st.lists(finite(kind), min_size=size, max_size=size))


ALPHAS = st.floats(-1e30, 1e30, allow_nan=False) | st.sampled_from([0.1, 1 / 3, -2.7, 1e-5])


@pytest.mark.parametrize("name", ["float32", "float64"])
@given(data=st.data())
def test_add_sub_and_rsub_round_once(name, data):
    kind, dtype = FLOATS[name], getattr(torch, name)
    (a, b), alpha = data.draw(pairs(kind)), data.draw(ALPHAS)
    x, y = torch.tensor(a, dtype=dtype), torch.tensor(b, dtype=dtype)
    cases = [(torch.add(x, y, alpha=alpha), a, b, alpha),
             (torch.sub(x, y, alpha=alpha), a, b, -alpha),
             (torch.rsub(x, y, alpha=alpha), b, a, -alpha)]
    for result, first, second, scale in cases:
        expected = [fused(p, q, scale, kind) for p, q in zip(first, second)]
        assert result.tolist() == expected


@given(pairs(np.float64), st.floats(-1e300, 1e300, allow_nan=False))
def test_float64_extremes_round_once_too(ab, alpha):
    a, b = ab  # Hypothesis reaches the largest and smallest float64 values here
    result = torch.tensor(a, dtype=torch.float64).add_(torch.tensor(b, dtype=torch.float64),
                                                       alpha=alpha)
    assert result.tolist() == [fused(p, q, alpha, np.float64) for p, q in zip(a, b)]


def test_a_product_past_the_largest_float_still_adds():
    # Rounded first, 2 * 1e308 would be inf; rounded once, the sum is finite.
    a = torch.tensor([-1e308, 0.0], dtype=torch.float64)
    b = torch.tensor([1e308, 1e308], dtype=torch.float64)
    assert torch.add(a, b, alpha=2).tolist() == [1e308, math.inf]


def test_infinities_nan_and_signed_zeros():
    inf, nan = math.inf, math.nan
    for dtype in (torch.float32, torch.float64):
        a = torch.tensor([inf, 1.0, inf, -0.0, -0.0, nan], dtype=dtype)
        b = torch.tensor([1.0, -inf, -inf, -0.0, 0.0, 1.0], dtype=dtype)
        out = torch.add(a, b, alpha=0.5).tolist()
        assert out[:2] == [inf, -inf] and math.isnan(out[2]) and math.isnan(out[5])
        assert [math.copysign(1, z) for z in out[3:5]] == [-1.0, 1.0]


def test_float16_small_tensors_round_each_step():
    # Fewer elements than one block of torch's vector loop: two float16 roundings.
    a = [0.1, -2.5, 3.7, 1000.0, -0.004, 7.3, 0.33]
    b = [2.1, 0.7, -1.3, 3.3, 5.5, -0.01, 9.9]
    result = torch.add(torch.tensor(a, dtype=torch.float16), torch.tensor(b, dtype=torch.float16),
                       alpha=0.3)
    half = np.float16

    def exact(x):
        return Fraction(float(half(x)))

    product = [Fraction(rounded(exact(0.3) * exact(q), half)) for q in b]
    expected = [rounded(exact(p) + r, half) for p, r in zip(a, product)]
    assert result.tolist() == expected


def test_integers_wrap_and_booleans_or():
    a = torch.tensor([1, 200], dtype=torch.uint8)
    assert torch.add(a, a, alpha=-1).tolist() == [0, 0]
    assert torch.add(a, a, alpha=-255).tolist() == [2, 144]
    t, f = torch.tensor([True, False]), torch.tensor([False, False])
    assert torch.add(f, t, alpha=2).tolist() == [True, False]
    assert torch.add(t, t, alpha=False).tolist() == [True, False]
    assert torch.add(t, t, alpha=2).dtype == torch.bool


def test_numpy_scalars_serve_as_alpha():
    a, i = torch.ones(2), torch.ones(2, dtype=torch.int32)
    assert a.sub(a, alpha=np.int64(-5)).tolist() == [6.0, 6.0]
    assert torch.rsub(i, 3, alpha=np.int32(2)).tolist() == [1, 1]
    assert i.sub(i, alpha=np.uint8(3)).tolist() == [-2, -2]
    assert a.add(a, alpha=np.float32(0.3)).tolist() == [fused(1.0, 1.0, 0.3, np.float32)] * 2


def test_a_numpy_alpha_is_kept_and_differentiated_as_a_python_number():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.add(x, x, alpha=np.float32(0.1))
    assert type(y.grad_fn._saved_alpha) is float and y.grad_fn._saved_alpha == float(
        np.float32(0.1))
    y.sum().backward()
    assert x.grad.tolist() == [float(np.float32(1.0) + np.float32(0.1))] * 2
    assert type(torch.sub(x, x, alpha=np.int64(-7)).grad_fn._saved_alpha) is int


def test_a_numpy_bool_alpha_is_a_float_to_torch():
    a = torch.ones(2)
    assert a.add(a, alpha=np.True_).tolist() == [2.0, 2.0]
    assert a.sub(a, alpha=np.True_).tolist() == [0.0, 0.0]
    for dtype in (torch.int32, torch.bool):
        with raises(RuntimeError, INTEGRAL):
            torch.ones(2, dtype=dtype).add(torch.ones(2, dtype=dtype), alpha=np.True_)


def test_a_zero_alpha_keeps_torch_signs():
    # Exact path (1e308 is outside the fast path's range): -0.0 + (-0.0) * 1e308 is -0.0.
    zero = torch.tensor([-0.0], dtype=torch.float64)
    out = torch.add(zero, torch.tensor([1e308], dtype=torch.float64), alpha=-0.0)
    assert math.copysign(1, out.item()) == -1.0
    # torch's gradient for sub is -grad * alpha: with alpha 0, a zero of the other sign.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([1.0, -1.0], requires_grad=True)
    torch.sub(a, b, alpha=0).backward(torch.tensor([1.0, -1.0]))
    assert [math.copysign(1, g) for g in b.grad.tolist()] == [-1.0, 1.0]


def test_sub_negates_an_unsigned_64_bit_alpha_as_torch_does():
    # torch holds 2**64 - 1 as unsigned; negated in 64 bits it is 1, so this adds.
    one = torch.tensor([1.0], dtype=torch.float64)
    assert one.sub(one, alpha=2**64 - 1).tolist() == [2.0]
    assert torch.rsub(one, one, alpha=2**64 - 1).tolist() == [2.0]
    big = torch.tensor([1], dtype=torch.int64)
    assert big.sub(big, alpha=-(2**63)).tolist() == [1 - 2**63]


def _overflow(name):
    return f"value cannot be converted to type {name} without overflow"


BOOL_PAIR = ("Subtraction, the `-` operator, with two bool tensors is not supported. "
             "Use the `^` or `logical_xor()` operator instead.")
BOOL_ONE = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


@pytest.mark.parametrize(("dtype", "call", "kind", "message"), [
    ("float32", lambda a: a.add(a, alpha=3.5e38), RuntimeError, _overflow("float")),
    ("float32", lambda a: a.sub(a, alpha=-3.4028235e38), RuntimeError, _overflow("float")),
    ("float16", lambda a: a.add(a, alpha=65505.0), RuntimeError, _overflow("c10::Half")),
    ("int8", lambda a: a.add(a, alpha=200), RuntimeError, _overflow("int8_t")),
    ("int8", lambda a: a.sub(a, alpha=-128), RuntimeError, _overflow("int8_t")),
    ("uint8", lambda a: a.add(a, alpha=-256), RuntimeError, _overflow("uint8_t")),
    ("int16", lambda a: torch.rsub(a, 1, alpha=-32768), RuntimeError, _overflow("int16_t")),
    ("int64", lambda a: a.add(a, alpha=2**63), RuntimeError, _overflow("int64_t")),
    ("float64", lambda a: a.add(a, alpha=2**64), OverflowError, "int too big to convert"),
    ("float64", lambda a: a.sub(a, alpha=-(2**63) - 1), OverflowError,
     "can't convert negative int to unsigned"),
    ("int32", lambda a: a.add(a, alpha=1.0), RuntimeError, INTEGRAL),
    ("bool", lambda a: a.add(a, alpha=2.5), RuntimeError, INTEGRAL),
    ("int32", lambda a: a.add(a, alpha=True), RuntimeError,
     "Boolean alpha only supported for Boolean results."),
    ("float32", lambda a: a.add(a, alpha=False), RuntimeError,
     "Boolean alpha only supported for Boolean results."),
    ("bool", lambda a: a - a, RuntimeError, BOOL_PAIR),
    ("bool", lambda a: a.sub(a, alpha=2.5), RuntimeError, BOOL_PAIR),
    ("bool", lambda a: a - 1, RuntimeError, BOOL_ONE),
    ("bool", lambda a: 1 - a, RuntimeError, BOOL_ONE),
    ("bool", lambda a: torch.ones(2) - a, RuntimeError, BOOL_ONE),
    ("float32", lambda a: a - True, RuntimeError, BOOL_ONE),
    ("bool", lambda a: torch.rsub(a, True), RuntimeError, BOOL_PAIR),
])
def test_alpha_and_subtraction_checks(dtype, call, kind, message):
    a = torch.ones(2, dtype=getattr(torch, dtype))
    with raises(kind, message):
        call(a)


def test_a_refused_in_place_add_changes_nothing():
    a = torch.tensor([1, 2], dtype=torch.int8)
    version = a._version
    with raises(RuntimeError, _overflow("int8_t")):
        a.add_(a, alpha=300)
    with raises(RuntimeError, BOOL_PAIR):
        torch.tensor([True]).sub_(torch.tensor([True]))
    assert a.tolist() == [1, 2] and a._version == version


def test_rsub_of_two_tensors_records_both():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([5.0, 7.0], requires_grad=True)
    out = torch.rsub(a, b, alpha=2)
    assert out.tolist() == [3.0, 3.0] and type(out.grad_fn).__name__ == "RsubBackward0"
    assert out.grad_fn._saved_alpha == 2 and len(out.grad_fn.next_functions) == 2
    out.sum().backward()
    assert a.grad.tolist() == [-2.0, -2.0] and b.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(("alpha", "shown"), [
    (None, "NoneType"), ("x", "str"), ([2], "list"), (Fraction(1, 3), "Fraction"),
    (torch.ones(1), "Tensor"),
])
def test_an_alpha_that_is_not_a_number(alpha, shown):
    a = torch.ones(2)
    for name, call in (("add", lambda: torch.add(a, a, alpha=alpha)),
                       ("add", lambda: a.add(a, alpha=alpha)),
                       ("sub", lambda: torch.sub(a, a, alpha=alpha))):
        with raises(TypeError, f"{name}(): argument 'alpha' must be Number, not {shown}"):
            call()
    for other, got in ((2, "int"), (a, "Tensor")):
        with raises(TypeError, (
                f"rsub() received an invalid combination of arguments - got (Tensor, {got}, "
                f"alpha={shown}), but expected one of:\n * (Tensor input, Tensor other, *, "
                "Number alpha = 1)\n * (Tensor input, Number other, Number alpha = 1)\n      "
                "didn't match because some of the keywords were incorrect: alpha\n")):
            torch.rsub(a, other, alpha=alpha)


def test_a_0d_tensor_serves_as_alpha():
    a = torch.ones(2)
    assert torch.add(a, a, alpha=torch.tensor(2)).tolist() == [3.0, 3.0]
    with raises(RuntimeError, "Boolean alpha only supported for Boolean results."):
        torch.add(a, a, alpha=torch.tensor(True))
