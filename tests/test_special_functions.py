"""The special-function kernels against Python's math module and against identities."""

import math

import numpy as np
import pytest

import refgrad
from refgrad._ops import (
    bessel_functions,
    cephes_erfcx,
    cephes_gamma,
    error_function,
    gamma_functions,
)


@pytest.fixture(autouse=True)
def _quiet():
    # The kernels meet overflow and 0 * inf on purpose; the rows that call them silence
    # NumPy's warnings the same way.
    with np.errstate(all="ignore"):
        yield


def _ulps(got, want):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    scale = np.spacing(np.maximum(np.abs(want), np.finfo(np.float64).tiny))
    return np.abs(got - want) / scale


def _points(seed=0):
    rng = np.random.default_rng(seed)
    tiny = np.exp(rng.uniform(-745, 0, 2000)) * rng.choice([-1.0, 1.0], 2000)
    return np.concatenate([rng.standard_normal(20000) * 3, rng.uniform(-30, 30, 10000), tiny,
                           [0.0, -0.0, 5e-324, -5e-324, 1e-310, 0.46875, -0.46875, 1.0, -1.0,
                            4.0, -4.0, 26.5, 27.2, 27.3, -27.3, 1e300, -1e300]])


def test_erf_and_erfc_are_within_a_few_ulp_of_math_everywhere():
    x = _points()
    want_erf = [math.erf(v) for v in x]
    want_erfc = [math.erfc(v) for v in x]
    # math's own error is up to an ulp, and erfc's up to 2.4 on these points
    assert _ulps(error_function.erf(x), want_erf).max() <= 2.5
    assert _ulps(error_function.erfc(x), want_erfc).max() <= 8


def test_erf_family_special_values():
    x = np.array([math.inf, -math.inf, math.nan, -0.0, 0.0, 5e-324])
    erf, erfc = error_function.erf(x), error_function.erfc(x)
    assert erf[:2].tolist() == [1.0, -1.0] and math.isnan(erf[2])
    assert math.copysign(1, erf[3]) == -1 and erf[4] == 0 and erf[5] > 0
    assert erfc[:2].tolist() == [0.0, 2.0] and math.isnan(erfc[2]) and erfc[3] == 1.0
    y = error_function.erfinv(np.array([1.0, -1.0, 1.5, -2.0, math.nan, -0.0]))
    assert y[:2].tolist() == [math.inf, -math.inf] and np.isnan(y[2:5]).all()
    assert math.copysign(1, y[5]) == -1


def test_erfinv_and_ndtri_invert_erf_and_ndtr():
    rng = np.random.default_rng(1)
    y = np.concatenate([rng.uniform(-1, 1, 5000), 1 - np.exp(rng.uniform(-36, -1, 500)),
                        [1e-300, 5e-324, 0.5, -0.5]])
    x = error_function.erfinv(y)
    near_one = np.abs(y) > 0.5
    assert _ulps(error_function.erf(x[~near_one]), y[~near_one]).max() <= 4
    # near one, erf has no digits left: compare the complements
    back = error_function.erfc(np.abs(x[near_one]))
    assert np.max(np.abs(back - (1 - np.abs(y[near_one]))) / (1 - np.abs(y[near_one]))) < 3e-14
    p = np.exp(rng.uniform(-700, np.log(0.5), 2000))  # the far left tail too
    q = cephes_gamma.ndtri(p)
    # far out, an ulp of q moves p by about q^2 ulps: up to 36^2 * 2^-52 at the smallest p
    assert np.max(np.abs(0.5 * error_function.erfc(-q / math.sqrt(2)) - p) / p) < 1e-12


def test_log_ndtr_matches_the_log_of_ndtr_and_the_far_tail():
    x = np.linspace(-30, 8, 400)
    # on the right, log1p of the small upper tail keeps its digits
    want = [math.log(0.5 * math.erfc(-v / math.sqrt(2))) if v < 0 else
            math.log1p(-0.5 * math.erfc(v / math.sqrt(2))) for v in x]
    got = cephes_erfcx.log_ndtr(x)
    rel = np.abs(got - np.array(want)) / np.abs(want)
    # torch's steps: within a few ulps but on the far right, where log1p takes half of
    # C's erfc, whose own relative error there grows (to about 1e-14 at x = 8)
    assert rel[x < 3].max() < 4e-15 and rel.max() < 2e-14
    # far left: log ndtr(x) ~ -x^2/2 - log(-x sqrt(2 pi))
    far = cephes_erfcx.log_ndtr(np.array([-1e5]))[0]
    assert far == pytest.approx(-5e9 - math.log(1e5 * math.sqrt(2 * math.pi)), rel=1e-15)


def test_lgamma_against_math():
    rng = np.random.default_rng(2)
    x = np.concatenate([rng.uniform(0, 3, 5000), rng.uniform(3, 200, 3000),
                        np.exp(rng.uniform(-30, 690, 1000))])
    x = x[(np.abs(x - 1) > 0.3) & (np.abs(x - 2) > 0.3)]  # where math's own is less exact
    want = np.array([math.lgamma(v) for v in x])
    err = np.abs(gamma_functions.lgamma(x) - want) / np.maximum(np.abs(want), 1e-300)
    # math.lgamma (CPython's own Lanczos sum) is itself off by up to ~1e-14 below 3
    assert np.percentile(err, 99) < 2e-14 and err.max() < 1e-13
    assert np.percentile(err[x > 3], 99) < 5e-16
    # near its zeros, against the first terms of its Taylor series, which suffice there
    e = (1 + rng.uniform(-1e-3, 1e-3, 1000)) - 1  # so that 1 + e and 2 + e are exact
    zeta2, zeta3, zeta4 = math.pi ** 2 / 6, 1.2020569031595942, math.pi ** 4 / 90
    at_one = -0.5772156649015329 * e + zeta2 / 2 * e**2 - zeta3 / 3 * e**3 + zeta4 / 4 * e**4
    at_two = (1 - 0.5772156649015329) * e + (zeta2 - 1) / 2 * e**2 - (zeta3 - 1) / 3 * e**3
    assert np.max(np.abs(gamma_functions.lgamma(1 + e) - at_one) / np.abs(at_one)) < 1e-12
    assert np.max(np.abs(gamma_functions.lgamma(2 + e) - at_two) / np.abs(at_two)) < 1e-9
    negative = -rng.uniform(0, 20, 2000)
    want = np.array([math.lgamma(v) for v in negative])
    assert np.allclose(gamma_functions.lgamma(negative), want, rtol=1e-12, atol=1e-13)
    special = gamma_functions.lgamma(np.array([0.0, -0.0, -1.0, -2.0, math.inf, -math.inf, 1.0]))
    assert special[:6].tolist() == [math.inf] * 6 and special[6] == 0.0


def test_digamma_and_polygamma_by_their_identities():
    x = np.linspace(0.3, 40, 500)
    psi = cephes_gamma.digamma(x)
    # psi(x + 1) = psi(x) + 1/x; psi(1) = -gamma; psi(1/2) = -gamma - 2 log 2
    assert np.allclose(cephes_gamma.digamma(x + 1), psi + 1 / x, rtol=1e-14, atol=1e-14)
    assert cephes_gamma.digamma(np.array([1.0, 0.5])) == pytest.approx(
        [-0.5772156649015329, -0.5772156649015329 - 2 * math.log(2)], rel=1e-15)
    # trigamma(1) = pi^2/6, to torch's kernel's accuracy (about 5e-10 relative);
    # polygamma(2, 1) = -2 zeta(3), polygamma(3, 1/2) = pi^4
    assert cephes_gamma.trigamma(np.array([1.0]))[0] == pytest.approx(math.pi ** 2 / 6, 1e-9)
    assert gamma_functions.polygamma(np.array(1.0), 2) == pytest.approx(-2.404113806319188, 1e-15)
    assert gamma_functions.polygamma(np.array(0.5), 3) == pytest.approx(math.pi ** 4, 1e-14)
    # the derivative of psi is trigamma: central differences agree
    h = 1e-5
    slope = (cephes_gamma.digamma(x + h) - cephes_gamma.digamma(x - h)) / (2 * h)
    assert np.allclose(slope, cephes_gamma.trigamma(x), rtol=1e-7)
    poles = cephes_gamma.digamma(np.array([0.0, -0.0, -3.0, -math.inf]))
    assert poles[0] == -math.inf and poles[1] == math.inf and np.isnan(poles[2:]).all()


def test_bessel_functions_by_their_series_and_identities():
    x = np.linspace(-40, 40, 801)
    # the power series, summed in exact-enough float64 for |x| <= 3
    small = x[np.abs(x) <= 3]
    series0 = sum((small * small / 4) ** k / math.factorial(k) ** 2 for k in range(30))
    assert np.allclose(bessel_functions.i0(small), series0, rtol=2e-16 * 4, atol=0)
    # the Wronskian-like identity I0(x) I1'(x) ... simpler: I0' = I1, by central differences
    h = 1e-6
    slope = (bessel_functions.i0(x + h) - bessel_functions.i0(x - h)) / (2 * h)
    assert np.allclose(slope, bessel_functions.i1(x), rtol=1e-8, atol=1e-8)
    # the scaled forms across the switch from series to asymptotic expansion, at 20
    for f, g in ((bessel_functions.i0e, bessel_functions.i0),
                 (bessel_functions.i1e, bessel_functions.i1)):
        assert np.allclose(f(x), g(x) * np.exp(-np.abs(x)), rtol=1e-14, atol=0)
    edge = bessel_functions.i0(np.array([np.nextafter(20, 0), 20.0, np.nextafter(20, 30)]))
    assert np.all(np.diff(edge) > 0)
    big = bessel_functions.i0e(np.array([1e6, np.inf, -np.inf]))
    assert big[0] == pytest.approx(1 / math.sqrt(2 * math.pi * 1e6), rel=1e-6)
    assert big[1:].tolist() == [0.0, 0.0]


def test_rows_round_once_and_keep_dtypes():
    x = refgrad.tensor([0.1, 1.7, 3.0], dtype=refgrad.float32)
    for name in ("erf", "erfc", "lgamma", "digamma", "i0", "sinc"):
        assert getattr(refgrad, name)(x).dtype is refgrad.float32
    want = np.float32([math.lgamma(v) for v in np.float64(x.numpy())])
    assert refgrad.lgamma(x).numpy().tolist() == want.tolist()
    assert refgrad.lgamma(refgrad.tensor([1, 2, 3])).dtype is refgrad.get_default_dtype()


def test_the_namespace_shows_only_its_functions():
    import refgrad.special

    public = {name for name in dir(refgrad.special) if not name.startswith("_")}
    assert public == set(refgrad.special.__all__)
    assert all(callable(getattr(refgrad.special, name)) for name in public)
