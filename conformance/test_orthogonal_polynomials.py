"""Black-box tests: torch.special's twelve orthogonal polynomial families (Chebyshev's four
kinds, plain and shifted, Hermite's two, Laguerre's and Legendre's): their values to the bit,
the degree's reading, dtypes, the number forms, out=, refusals, and what a dispatch mode and
the profiler see. The same assertions run on torch.

The values are checked against the steps of torch's kernels, written out below one number at
a time: each product that the compiler fuses into the following subtraction is rounded once,
from exact fractions, and the closed forms call the C library's acos, cos and sin (acosf, cosf
and sinf in single precision).
"""

import ctypes
import math
from fractions import Fraction

import numpy as np
import pytest
import torch

from conformance._support import raises, recording_mode

NAN, INF = math.nan, math.inf
_LIBM = ctypes.CDLL("libm.so.6")
_SINGLE = {}
for _name in ("acosf", "cosf", "sinf"):
    _SINGLE[_name[:-1]] = function = getattr(_LIBM, _name)
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]

NAMES = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
         "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
         "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
         "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
         "laguerre_polynomial_l", "legendre_polynomial_p")


class Scalar:
    """The kernel's arithmetic on one number of float32 or float64."""

    def __init__(self, single: bool):
        self.single = single

    def r(self, v: float) -> float:  # rounded to the dtype
        if not self.single:
            return float(v)
        with np.errstate(over="ignore"):  # past float32's range: an infinity, as C rounds it
            return float(np.float32(v))

    def fma(self, a: float, b: float, c: float) -> float:
        if not all(map(math.isfinite, (a, b, c))):
            return self.r(a * b + c)
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        if exact == 0:  # IEEE's signed zero, which the plain sum gives
            return self.r(a * b + c)
        if not self.single:
            try:
                return float(exact)
            except OverflowError:
                return INF if exact > 0 else -INF
        if abs(exact) >= Fraction(2) ** 128 - Fraction(2) ** 103:  # rounds past float32's max
            return INF if exact > 0 else -INF
        near = np.float32(self.r(float(exact)))  # within an ulp: then the nearest of three
        up, down = np.float32(INF), np.float32(-INF)
        candidates = [near, np.nextafter(near, up), np.nextafter(near, down)]
        best = min((c for c in candidates if math.isfinite(c)),
                   key=lambda c: (abs(Fraction(float(c)) - exact), int(c.view(np.int32)) & 1))
        return float(best)

    def c(self, name: str, v: float) -> float:
        return _SINGLE[name](v) if self.single else getattr(math, name)(v)


def _recurrence(s, first, n, step, nan_stops=True):
    p, q = 1.0, first
    for i in range(1, n):
        if nan_stops and math.isnan(q):
            break
        p, q = q, step(i, p, q)
    return q


def _chebyshev(s, kind, x, n, shifted):
    r = s.r
    y = r(r(x + x) - 1) if shifted else x
    n1, nn1 = r(n + 1), r(2 * n + 1)
    sign = -1 if n % 2 else 1
    at_one = {"t": 1.0, "u": n1, "v": 1.0, "w": nn1}[kind]
    at_minus = sign * {"t": 1.0, "u": n1, "v": nn1, "w": 1.0}[kind]
    if n < 0:
        return 0.0
    if x == 1:
        return at_one
    if x == (0 if shifted else -1):
        return at_minus
    past = ({"t": 6, "u": 6, "v": 6, "w": 4} if shifted else {"t": 6, "u": 8, "v": 8, "w": 8})[kind]
    if n > past and abs(y) < 1:
        theta = s.c("acos", y)
        if kind == "t":
            return s.c("cos", r(r(n) * theta))
        if kind == "u":
            below = s.c("sin", theta)
            if below != 0:
                return r(s.c("sin", r(n1 * theta)) / below)
            return r(r(n1 * s.c("cos", r(n1 * theta))) / y)
        half, angle = r(theta / 2), r(r(r(n) + 0.5) * theta)
        if kind == "v":
            if s.c("sin", half) != 1:
                return r(s.c("cos", angle) / s.c("cos", half))
            return at_minus
        if s.c("cos", half) != 1:
            return r(s.c("sin", angle) / s.c("sin", half))
        return at_minus if shifted or y <= 0 else at_one
    first = {"t": y, "u": r(y + y), "v": r(r(y + y) - 1), "w": r(r(y + y) + 1)}[kind]
    if n == 0:
        return 1.0
    if n == 1:
        return first
    return _recurrence(s, first, n, lambda i, p, q: s.fma(r(y + y), q, -p))


def reference(name: str, x: float, n: int, single: bool) -> float:
    s = Scalar(single)
    r = s.r
    if "chebyshev" in name:
        return _chebyshev(s, name[-1], x, n, name.startswith("shifted"))
    if n < 0:
        return 0.0
    if name.startswith("hermite"):
        physicists = name.endswith("_h")
        first = r(x + x) if physicists else x
        if n == 0 or n == 1:
            return 1.0 if n == 0 else first
        if n > (128 if single else 512):
            return NAN
        if physicists:
            step = lambda i, p, q: s.fma(r(x + x), q, -r(2 * i * p))  # noqa: E731
            return _recurrence(s, first, n, step, False)
        return _recurrence(s, first, n, lambda i, p, q: s.fma(x, q, -r(i * p)), False)
    if name.startswith("laguerre"):
        if x == 0 or n == 0:
            return 1.0
        first = r(1 - x)
        if n == 1:
            return first
        step = lambda i, p, q: r(s.fma(r(2 * i + r(1 - x)), q, -r(i * p)) / (i + 1))  # noqa: E731
        return _recurrence(s, first, n, step)
    if abs(x) == 1:
        return 1.0 if x > 0 or n % 2 == 0 else -1.0
    if n == 0 or n == 1:
        return 1.0 if n == 0 else x
    step = lambda i, p, q: r(s.fma(r((2 * i + 1) * x), q, -r(i * p)) / (i + 1))  # noqa: E731
    return _recurrence(s, x, n, step)


def _points(single: bool) -> list:
    """x: the ends and just inside them, zero, both signs, big and tiny, inf; random values."""
    kind = np.float32 if single else np.float64
    one = kind(1)
    edges = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.5, 1e-30, -1e-30, 1e30, -1e30, INF, -INF]
    for v in (1.0, -1.0, 0.0):
        for toward in (2.0, -2.0):
            edges.append(float(np.nextafter(kind(v), kind(toward))))
    edges += [float(one - kind(2) ** -k) for k in (3, 12, 20, 23, 24, 40, 52)]
    rng = np.random.default_rng(7)
    edges += [float(kind(v)) for v in rng.uniform(-1.3, 1.3, 24)]
    edges += [float(kind(v)) for v in rng.standard_normal(8) * 6]
    return edges


_DEGREES = [-3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 25, 130, 600]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", NAMES)
def test_values_are_the_kernels_to_the_bit(name, dtype):
    single = dtype == torch.float32
    xs = _points(single)
    x = torch.tensor([v for v in xs for _ in _DEGREES], dtype=dtype)
    n = torch.tensor([d for _ in xs for d in _DEGREES], dtype=dtype)
    got = getattr(torch.special, name)(x, n).tolist()
    expected = [reference(name, float(v), int(d), single) for v, d in zip(x.tolist(), n.tolist())]
    bits = np.float32 if single else np.float64
    wrong = [(v, d, g, e) for v, d, g, e in zip(x.tolist(), n.tolist(), got, expected)
             if np.array(g, bits).tobytes() != np.array(e, bits).tobytes()
             and not (math.isnan(g) and math.isnan(e))]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("name", NAMES)
def test_degrees_truncate_and_out_of_range_give_zero(name):
    f = getattr(torch.special, name)
    x = torch.tensor([0.3, 0.3, 0.3, 0.3, 0.3, 0.3], dtype=torch.float64)
    n = torch.tensor([3.9, -0.5, NAN, INF, -INF, 1e30], dtype=torch.float64)
    got = f(x, n).tolist()
    assert got[0] == f(x[:1], torch.tensor([3.0], dtype=torch.float64)).item()
    assert got[1] == f(x[:1], torch.tensor([0.0], dtype=torch.float64)).item() == 1.0
    assert got[2:] == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", NAMES)
def test_no_gradient_is_recorded(name):
    x = torch.tensor([0.25, 0.75], requires_grad=True)
    y = getattr(torch.special, name)(x, 3)
    assert y.grad_fn is None and not y.requires_grad
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have a "
                              "grad_fn"):
        y.sum().backward()


def test_dtypes_and_number_forms():
    f = torch.special.chebyshev_polynomial_t
    ints, floats = torch.tensor([1, 2, 3]), torch.tensor([0.5, 0.25, 2.0])
    assert f(ints, torch.tensor([2, 3, 4])).dtype == torch.float32
    assert f(ints, 3).dtype == torch.float32
    assert f(floats, torch.tensor([2.0], dtype=torch.float64)).dtype == torch.float64
    assert f(floats, torch.tensor(3.0, dtype=torch.float64)).dtype == torch.float32  # 0-d
    assert f(2.5, torch.tensor([1.0, 2.0], dtype=torch.float64)).dtype == torch.float64
    assert f(2, torch.tensor([1, 2])).tolist() == [2.0, 7.0]
    assert f(floats, 3.5).tolist() == f(floats, 3).tolist()
    assert f(x=floats, n=3).tolist() == f(floats, torch.tensor(3)).tolist()
    assert f(ints.to(torch.int8), torch.tensor([2, 3, 4], dtype=torch.uint8)).dtype == torch.float32
    wide = f(torch.ones(2, 3).t(), torch.tensor([1.0, 2.0, 3.0]).unsqueeze(1))
    assert wide.shape == (3, 2) and wide.tolist() == [[1.0, 1.0]] * 3
    assert f(torch.empty(0), 3).shape == (0,)


_FORMS = (" * (Tensor x, Tensor n, *, Tensor out = None)\n"
          " * (Number x, Tensor n, *, Tensor out = None)\n"
          " * (Tensor x, Number n, *, Tensor out = None)\n")


@pytest.mark.parametrize("call, got", [
    ("f(2, 3)", "int, int"), ("f('a', n)", "str, Tensor"), ("f(x, 'b')", "Tensor, str"),
    ("f(x, 3, 4)", "Tensor, int, int"), ("f(x)", "Tensor"),
])
def test_calls_that_fit_no_form(call, got):
    x, n = torch.ones(2), torch.ones(2)
    f = torch.special.legendre_polynomial_p
    with raises(TypeError, f"special_legendre_polynomial_p() received an invalid combination "
                           f"of arguments - got ({got}), but expected one of:\n{_FORMS}"):
        eval(call, {"f": f, "x": x, "n": n})


@pytest.mark.parametrize("name", NAMES)
def test_half_precision_is_refused_in_the_kernels_name(name):
    f = getattr(torch.special, name)
    message = f"\"{name}_cpu\" not implemented for 'Half'"
    with raises(NotImplementedError, message):
        f(torch.ones(2, dtype=torch.float16), 3)
    with raises(NotImplementedError, message):
        f(2, torch.ones(2, dtype=torch.float16))


def test_out_takes_the_result_and_refuses_an_integer_out():
    f = torch.special.hermite_polynomial_he
    x, out = torch.tensor([0.5, 1.5]), torch.empty(2)
    assert f(x, 4, out=out) is out and out.tolist() == f(x, 4).tolist()
    wide = torch.empty(2, dtype=torch.float64)
    assert f(x, 4, out=wide).dtype == torch.float64
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        f(x, 4, out=torch.empty(2, dtype=torch.int64))


def test_what_a_dispatch_mode_is_handed():
    f = torch.special.laguerre_polynomial_l
    x, n, out = torch.tensor([0.5, 2.0]), torch.tensor([2, 3]), torch.empty(2)
    describe = lambda func, args, kwargs: (str(func), [type(a).__name__ for a in args],  # noqa: E731
                                           sorted(kwargs))
    with recording_mode(describe, with_arguments=True)() as mode:
        f(x, 3), f(2, n), f(x, n), f(x=x, n=2.5), f(x, n, out=out), f(x, 3, out=out)
        f(2.0, n, out=out)
    stem = "aten.special_laguerre_polynomial_l."
    assert mode.seen == [
        (stem + "n_scalar", ["Tensor", "int"], []), (stem + "x_scalar", ["int", "Tensor"], []),
        (stem + "default", ["Tensor", "Tensor"], []), (stem + "n_scalar", ["Tensor", "float"], []),
        (stem + "out", ["Tensor", "Tensor"], ["out"]),
        (stem + "n_scalar_out", ["Tensor", "int"], ["out"]),
        (stem + "x_scalar_out", ["float", "Tensor"], ["out"]),
    ]


def test_the_profiler_shows_each_conversion():
    from torch.profiler import profile

    f = torch.special.shifted_chebyshev_polynomial_v
    x, n, whole = torch.tensor([0.5, 2.0]), torch.tensor([2, 3]), torch.tensor([1, 2])
    with profile() as p:
        f(x, 3)
    with profile() as q:
        f(whole, n)
    copy = ["aten::to", "aten::_to_copy", "aten::empty_strided", "aten::copy_"]
    assert [e.name for e in p.events()] == ["aten::special_shifted_chebyshev_polynomial_v", *copy]
    assert [e.name for e in q.events()] == [
        "aten::special_shifted_chebyshev_polynomial_v", *copy, *copy]
