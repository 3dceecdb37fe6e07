"""Black-box tests: the error, gamma and Bessel families, sinc, entr, the normal
distribution's functions and the torch.special namespace. The same assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import raises

INF, NAN = math.inf, math.nan


def _same(got, want):
    """Elementwise equal, nan matching nan and the sign of zero matching."""
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if math.isnan(w):
            assert math.isnan(g)
        else:
            assert g == pytest.approx(w, rel=1e-6, abs=0)
            assert math.copysign(1, g) == math.copysign(1, w)


def test_special_values_of_the_gamma_family():
    x = torch.tensor([0.0, -0.0, -1.0, -2.5, INF, -INF, NAN], dtype=torch.float64)
    _same(torch.lgamma(x).tolist(), [INF, INF, INF, -0.05624371649767405, INF, INF, NAN])
    _same(torch.digamma(x).tolist(), [-INF, INF, NAN, 1.1031566406452433, INF, NAN, NAN])
    _same(torch.polygamma(2, x).tolist(),
          [-INF, -INF, -INF, -0.1082040516417282, NAN, -INF, NAN])
    _same(torch.polygamma(3, x).tolist(), [INF, INF, INF, 194.74787621918756, NAN, INF, NAN])
    trigamma = torch.polygamma(1, x).tolist()
    _same([trigamma[i] for i in (0, 1, 3, 4, 5, 6)], [INF, INF, 9.53924664493752, 0.0, NAN, NAN])
    assert torch.lgamma(torch.tensor([1.0, 2.0])).tolist() == [0.0, 0.0]
    half_log_pi = 0.5 * math.log(math.pi)
    assert torch.mvlgamma(torch.tensor([1.0, 2.5]), 2).tolist() == pytest.approx(
        [math.lgamma(0.5) + half_log_pi, math.lgamma(2.5) + math.lgamma(2.0) + half_log_pi])


def test_special_values_of_the_bessel_functions_sinc_and_entr():
    x = torch.tensor([0.0, -0.0, INF, -INF, NAN, 800.0, -800.0], dtype=torch.float64)
    _same(torch.i0(x).tolist(), [1.0, 1.0, NAN, NAN, NAN, INF, INF])
    _same(torch.special.i0e(x).tolist(), [1.0, 1.0, 0.0, 0.0, NAN, 0.014106945005869183,
                                          0.014106945005869183])
    _same(torch.special.i1(x).tolist(), [0.0, 0.0, NAN, NAN, NAN, INF, -INF])
    _same(torch.special.i1e(x).tolist(), [0.0, 0.0, 0.0, -0.0, NAN, 0.014098125406526996,
                                          -0.014098125406526996])
    s = torch.sinc(torch.tensor([0.0, 1.0, 0.5]))
    assert s.tolist()[0] == 1.0 and s.tolist()[1] == pytest.approx(-2.7827534e-08)
    _same(torch.special.entr(torch.tensor([0.0, -1.0, 0.5, INF, NAN])).tolist(),
          [0.0, -INF, 0.34657359027997264, -INF, NAN])


def test_the_normal_distributions_functions():
    p = torch.tensor([0.0, 1.0, 0.5, -1.0, 2.0, NAN, 1e-300], dtype=torch.float64)
    _same(torch.special.ndtri(p).tolist(), [-INF, INF, 0.0, NAN, NAN, NAN, -37.0471181240585])
    x = torch.tensor([-40.0, 0.0, 40.0, -INF], dtype=torch.float64)
    _same(torch.special.log_ndtr(x).tolist(),
          [-804.6084420137538, -0.6931471805599453, -0.0, -INF])
    assert torch.special.ndtr(torch.tensor([0.0, 1.0])).tolist() == pytest.approx(
        [0.5, 0.8413447460685429])
    assert torch.special.ndtr(torch.tensor([1, 2])).dtype == torch.float32
    with raises(NotImplementedError, "\"ndtri_cpu\" not implemented for 'Half'"):
        torch.special.ndtri(torch.tensor([0.5], dtype=torch.float16))
    with raises(NotImplementedError, "\"log_ndtr_cpu\" not implemented for 'Half'"):
        torch.special.log_ndtr(torch.tensor([0.5], dtype=torch.float16))


def test_dtypes_integers_and_empty_tensors():
    for f in (torch.erf, torch.lgamma, torch.digamma, torch.i0, torch.sinc, torch.special.i1e,
              torch.special.entr, torch.special.ndtri):
        assert f(torch.tensor([1, 2])).dtype == torch.float32
        assert f(torch.tensor([True])).dtype == torch.float32
        assert f(torch.zeros(2, 0, dtype=torch.float64)).shape == (2, 0)
        assert f(torch.tensor(0.25, dtype=torch.float64)).shape == ()
    assert torch.lgamma(torch.tensor([0.5], dtype=torch.float16)).dtype == torch.float16
    assert torch.polygamma(1, torch.tensor([1, 2])).tolist() == pytest.approx(
        [1.6449340668, 0.6449340668])


def test_nodes_saved_values_and_gradients():
    x = torch.tensor([0.5, 1.5, 3.0], dtype=torch.float64, requires_grad=True)
    cases = [
        (torch.lgamma(x), "LgammaBackward0", ["_saved_self"]),
        (torch.digamma(x), "DigammaBackward0", ["_saved_self"]),
        (torch.polygamma(2, x), "PolygammaBackward0", ["_saved_n", "_saved_self"]),
        (torch.mvlgamma(x + 1, 2), "MvlgammaBackward0", ["_saved_p", "_saved_self"]),
        (torch.i0(x), "I0Backward0", ["_saved_self"]),
        (torch.sinc(x), "SincBackward0", ["_saved_self"]),
        (torch.special.i0e(x), "SpecialI0EBackward0", ["_saved_result", "_saved_self"]),
        (torch.special.i1(x), "SpecialI1Backward0", ["_saved_result", "_saved_self"]),
        (torch.special.i1e(x), "SpecialI1EBackward0", ["_saved_result", "_saved_self"]),
        (torch.special.entr(x), "SpecialEntrBackward0", ["_saved_self"]),
        (torch.special.ndtri(x / 4), "SpecialNdtriBackward0", ["_saved_result"]),
        (torch.special.log_ndtr(x), "SpecialLogNdtrBackward0", ["_saved_result", "_saved_self"]),
        (torch.special.gammaln(x), "LgammaBackward0", ["_saved_self"]),
        (torch.special.psi(x), "DigammaBackward0", ["_saved_self"]),
        (torch.special.multigammaln(x + 1, 3), "MvlgammaBackward0", ["_saved_p", "_saved_self"]),
        (torch.special.erf(x), "ErfBackward0", ["_saved_self"]),
        (torch.special.expit(x), "SigmoidBackward0", ["_saved_result"]),
    ]
    for y, name, saved in cases:
        assert y.grad_fn.name() == name
        assert sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")) == saved
    assert torch.polygamma(2, x).grad_fn._saved_n == 2
    assert torch.mvlgamma(x + 1, 3).grad_fn._saved_p == 3
    (g,) = torch.autograd.grad(torch.lgamma(x).sum(), x, create_graph=True)
    assert g.tolist() == pytest.approx(torch.digamma(x).tolist())
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == pytest.approx([4.934802200544679, 0.9348022005446793,
                                         0.3949340668482264])
    zero = torch.tensor([0.0, 2.0], requires_grad=True)
    (s,) = torch.autograd.grad(torch.sinc(zero).sum(), zero)
    (i,) = torch.autograd.grad(torch.special.i1(zero).sum(), zero)
    assert s.tolist()[0] == 0.0 and i.tolist()[0] == 0.5


def test_bad_arguments():
    x = torch.ones(2)
    with raises(TypeError, "lgamma(): argument 'input' (position 1) must be Tensor, not int"):
        torch.lgamma(3)
    with raises(TypeError, "polygamma(): argument 'n' (position 1) must be int, not float"):
        torch.polygamma(1.0, x)
    with raises(TypeError, "polygamma(): argument 'n' (position 1) must be int, not bool"):
        torch.polygamma(True, x)
    with raises(RuntimeError, "polygamma(n, x) does not support negative n."):
        torch.special.polygamma(-1, x)
    with raises(RuntimeError, "p has to be greater than or equal to 1"):
        torch.mvlgamma(x, 0)
    with raises(TypeError, "mvlgamma(): argument 'p' (position 2) must be int, not float"):
        torch.mvlgamma(x, 1.5)
    with raises(RuntimeError, "The input tensor may not be a boolean tensor."):
        torch.special.multigammaln(torch.tensor([True]), 1)
    message = "special_{}(): argument 'input' (position 1) must be Tensor, not {}"
    with raises(TypeError, message.format("i0e", "list")):
        torch.special.i0e([1.0])
    with raises(TypeError, message.format("ndtr", "float")):
        torch.special.ndtr(2.0)


def test_methods_in_place_forms_and_the_namespace():
    x = torch.tensor([0.5, 2.0])
    assert x.polygamma(1).tolist() == torch.polygamma(1, x).tolist()
    assert x.lgamma().tolist() == torch.special.gammaln(x).tolist()
    assert x.mvlgamma(1).tolist() == x.lgamma().tolist()
    for name in ("lgamma", "digamma", "i0", "sinc", "erf"):
        y = x.clone()
        assert getattr(y, name + "_")() is y and y.tolist() == getattr(x, name)().tolist()
    y = x.clone()
    assert y.mvlgamma_(1).tolist() == x.lgamma().tolist()
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        torch.tensor([1, 2]).lgamma_()
    s = torch.special
    assert s.logit(torch.tensor([0.5])).tolist() == [0.0]
    assert s.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 1.0])).tolist() == [0.0, 0.0]
    assert s.round(torch.tensor([1.25]), decimals=1).tolist() == pytest.approx([1.2])
    assert s.exp2(torch.tensor([3.0])).tolist() == [8.0]
    assert s.log_softmax(torch.zeros(2), 0).tolist() == pytest.approx([-math.log(2)] * 2)
    assert s.softmax(torch.zeros(2), 0).tolist() == [0.5, 0.5]
    assert s.logsumexp(torch.zeros(2), 0).tolist() == pytest.approx(math.log(2))
    zero = torch.tensor([0.0])
    assert s.expm1(zero).tolist() == [0.0] and s.log1p(zero).tolist() == [0.0]
    assert s.erfc(zero).tolist() == [1.0] and s.erfinv(zero).tolist() == [0.0]
    # torch's float32 i0 gives 1 - 2^-24 at zero
    assert s.i0(zero).tolist() == pytest.approx([1.0]) and s.sinc(zero).tolist() == [1.0]
