"""fused_multiply_add rounds a·b + c once, for float32 and float64: checked against exact
fractions, over random values and the ranges where its error-free pieces need help."""

from fractions import Fraction

import numpy as np
import pytest

from refgrad._ops.fused_multiply_add import fused_multiply_add


def _exact(a: float, b: float, c: float, kind) -> float:
    if not all(np.isfinite((a, b, c))):
        with np.errstate(invalid="ignore"):
            return kind(a * b + c)
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return kind(a * b + c)  # IEEE's signed zero
    biggest = Fraction(float(np.finfo(kind).max))
    half_ulp = Fraction(2) ** (int(np.finfo(kind).maxexp) - int(np.finfo(kind).nmant) - 2)
    if abs(exact) >= biggest + half_ulp:
        return kind(np.inf if exact > 0 else -np.inf)
    with np.errstate(over="ignore"):
        near = kind(float(exact))
    candidates = [near, np.nextafter(near, kind(np.inf)), np.nextafter(near, kind(-np.inf))]
    bits = np.int32 if kind is np.float32 else np.int64
    return min((c for c in candidates if np.isfinite(c)),
               key=lambda c: (abs(Fraction(float(c)) - exact), int(c.view(bits)) & 1))


def _operands(kind, rng, scale):
    a, b, c = (rng.standard_normal(400) * scale for _ in range(3))
    a = np.concatenate([a, [0.0, -0.0, 1 / 3, 3.0, np.inf, np.nan, -2.0, 1.0]])
    b = np.concatenate([b, [-1.0, 0.0, 3.0, 1 / 3, 0.0, 1.0, 0.5, -0.0]])
    c = np.concatenate([c, [-0.0, -0.0, -1.0, -1.0, 1.0, 2.0, 1.0, 0.0]])
    return a.astype(kind), b.astype(kind), c.astype(kind)


@pytest.mark.parametrize("kind", [np.float32, np.float64])
@pytest.mark.parametrize("scale", [1.0, 1e-3, 1e30, 2.0**500, 2.0**-500, 2.0**1000,
                                   2.0**-530, 2.0**-1040])
def test_rounded_once_as_exact_fractions_round(kind, scale):
    rng = np.random.default_rng(int(np.log2(scale) + 2000))
    with np.errstate(all="ignore"):
        a, b, c = _operands(kind, rng, kind(scale))
        got = fused_multiply_add(a, b, c)
    assert got.dtype == kind
    expected = np.array([_exact(float(x), float(y), float(z), kind) for x, y, z in zip(a, b, c)],
                        kind)
    wrong = [(x, y, z) for x, y, z, g, e in zip(a, b, c, got, expected)
             if not (np.isnan(g) and np.isnan(e)) and g.tobytes() != e.tobytes()]
    assert not wrong, wrong[:3]


def test_one_rounding_where_two_differ():
    third = np.array([1 / 3])
    assert fused_multiply_add(np.array([3.0]), third, np.array([-1.0]))[0] == -(2.0**-54)
    assert (np.array([3.0]) * third - 1.0)[0] == 0.0  # rounded twice: the error is lost


def test_a_zero_keeps_its_sign():
    zero = np.array([0.0])
    for kind in (np.float32, np.float64):
        z = zero.astype(kind)
        assert np.signbit(fused_multiply_add(z, -z - 1, -z)[0])  # -0 + -0
        assert not np.signbit(fused_multiply_add(z + 2, z + 1, z - 2)[0])  # 2 - 2
