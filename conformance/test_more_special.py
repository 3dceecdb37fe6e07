"""Black-box tests: torch.special.xlog1py, erfcx, gammainc and gammaincc (igamma, igammac),
and the top-level in-place functions selu_, celu_, threshold_ and xlogy_. The same
assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import first_edges, raises

NAN, INF = math.nan, math.inf
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def _same(t, expected):
    """Values equal to the bit, nan where nan is expected."""
    got = t.tolist()
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert (math.isnan(g) and math.isnan(e)) or g == e, (got, expected)


def test_xlog1py_values_nodes_and_gradients():
    x = torch.tensor([0.0, 1.0, -1.0, 2.0, NAN, 0.0, 0.0], dtype=torch.float64,
                     requires_grad=True)
    y = torch.tensor([-1.0, -1.0, 0.5, NAN, 3.0, -3.0, NAN], dtype=torch.float64,
                     requires_grad=True)
    z = torch.special.xlog1py(x, y)
    _same(z, [0.0, -INF, -math.log1p(0.5), NAN, NAN, 0.0, NAN])
    node = z.grad_fn
    assert type(node).__name__ == "SpecialXlog1PyBackward0"
    assert node._saved_self is x and node._saved_other is y
    z.sum().backward()
    _same(x.grad, [0.0, -INF, math.log1p(0.5), NAN, math.log1p(3.0), 0.0, NAN])
    _same(y.grad, [NAN, INF, -1 / 1.5, NAN, NAN, -0.0, NAN])


def test_xlog1py_with_a_number_on_either_side():
    y = torch.tensor([-1.0, 1e-20, 3.0], dtype=torch.float64, requires_grad=True)
    first = torch.special.xlog1py(2, y)
    assert type(first.grad_fn).__name__ == "SpecialXlog1PyBackward1"
    assert first.grad_fn._saved_self == 2 and first.grad_fn._saved_other is y
    _same(first, [-INF, 2e-20, 2 * math.log1p(3.0)])
    first.sum().backward()
    _same(y.grad, [INF, 2.0, 0.5])
    x = torch.tensor([0.0, 1.5], requires_grad=True)
    second = torch.special.xlog1py(x, -1)
    assert type(second.grad_fn).__name__ == "SpecialXlog1PyBackward2"
    assert second.grad_fn._saved_other == -1 and second.grad_fn._saved_self is x
    _same(second, [0.0, -INF])
    second.sum().backward()
    _same(x.grad, [0.0, -INF])


def test_xlog1py_dtypes_and_refusals():
    assert torch.special.xlog1py(torch.tensor([1, 2]), torch.tensor([3, 4])).dtype is \
        torch.float32
    assert torch.special.xlog1py(torch.tensor([1, 2]), 2.5).dtype is torch.float32
    assert torch.special.xlog1py(2, torch.tensor([1, 2])).dtype is torch.float32
    half = torch.tensor([1.0], dtype=torch.float16)
    assert torch.special.xlog1py(half, torch.tensor([3])).dtype is torch.float16
    assert torch.special.xlog1py(torch.ones(2, 1), torch.ones(3)).shape == (2, 3)
    with raises(TypeError, "special_xlog1py() received an invalid combination of arguments - "
                "got (int, int), but expected one of:\n"
                " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                " * (Number self, Tensor other, *, Tensor out = None)\n"
                " * (Tensor input, Number other, *, Tensor out = None)\n"):
        torch.special.xlog1py(1, 2)


def test_erfcx_values_and_gradient():
    x = torch.tensor([-27.0, -26.0, -1.0, -0.0, 0.0, 0.3, 5.0, 30.0, 1e200, INF, -INF, NAN],
                     dtype=torch.float64, requires_grad=True)
    y = torch.special.erfcx(x)
    # float64 references, from the definition computed to 200 bits
    expected = [INF, 7.657724931490568e293, 5.008980080762283, 1.0, 1.0, 0.7345993345676551,
                0.11070463773306863, 0.01879588886141675, 5.641895835477563e-201, 0.0, INF, NAN]
    got = y.tolist()
    for g, e in zip(got, expected):
        assert (math.isnan(g) and math.isnan(e)) or g == pytest.approx(e, rel=1e-14, abs=0)
    node = y.grad_fn
    assert type(node).__name__ == "SpecialErfcxBackward0"
    assert node._saved_self is x and node._saved_result.tolist()[2] == got[2]
    y.sum().backward()
    slope = [2 * v * r - 2 / math.sqrt(math.pi) for v, r in zip(x.tolist()[1:9], got[1:9])]
    assert x.grad.tolist()[1:9] == pytest.approx(slope, rel=1e-12, abs=1e-15)
    assert x.grad[0].item() == -INF and math.isnan(x.grad[9].item())


def test_erfcx_dtypes():
    assert torch.special.erfcx(torch.tensor([1, 2])).dtype is torch.float32
    assert torch.special.erfcx(torch.tensor([True])).tolist() == pytest.approx([0.42758357])
    with raises(NotImplementedError, "\"erfcx_cpu\" not implemented for 'Half'"):
        torch.special.erfcx(torch.tensor([1.0], dtype=torch.float16))
    assert not hasattr(torch, "erfcx") and not hasattr(torch.Tensor, "erfcx")


def test_gammainc_and_gammaincc_values_and_edges():
    a = torch.tensor([0.5, 3.0, 100.0, 1000.0, 0.0, 0.0, 2.0, -1.0, 2.0, INF, INF, 2.0, NAN],
                     dtype=torch.float64)
    x = torch.tensor([0.5, 1.0, 110.0, 1100.0, 1.0, 0.0, 0.0, 1.0, -1.0, 1.0, INF, INF, 1.0],
                     dtype=torch.float64)
    p, q = torch.special.gammainc(a, x), torch.special.gammaincc(a, x)
    # float64 references, computed to 150 bits; torch's asymptotic series for a of 100 and
    # more is good to about 1e-9 (tests/test_incomplete_gamma.py holds refgrad to more)
    assert p.tolist()[:4] == pytest.approx(
        [0.6826894921370859, 0.08030139707139419, 0.8417213299399129, 0.9989406767460700],
        rel=2e-9)
    assert q.tolist()[2:4] == pytest.approx([0.15827867006008708, 0.0010593232539299773],
                                            rel=2e-9)
    _same(p[4:], [1.0, NAN, 0.0, NAN, NAN, 0.0, NAN, 1.0, NAN])
    _same(q[4:], [0.0, NAN, 1.0, NAN, NAN, 1.0, NAN, 0.0, NAN])
    assert torch.igamma(a, x).tolist()[:4] == p.tolist()[:4]
    assert a.igammac(x).tolist()[:4] == q.tolist()[:4]


def test_gammainc_differentiates_in_x_only():
    a = torch.tensor([2.5, 1.0, 0.0], dtype=torch.float64, requires_grad=True)
    x = torch.tensor([1.0, 3.0, 1.0], dtype=torch.float64, requires_grad=True)
    p, q = torch.special.gammainc(a, x), torch.special.gammaincc(a, x)
    assert type(p.grad_fn).__name__ == "IgammaBackward0"
    assert type(q.grad_fn).__name__ == "IgammacBackward0"
    assert p.grad_fn._saved_self is a and p.grad_fn._saved_other is x
    (dp,) = torch.autograd.grad(p.sum(), x, retain_graph=True)
    (dq,) = torch.autograd.grad(q.sum(), x, retain_graph=True)
    density = [math.exp(1.5 * math.log(1.0) - 1.0 - math.lgamma(2.5)), math.exp(-3.0), 0.0]
    assert dp.tolist() == pytest.approx(density, rel=1e-14)
    _same(dq, [-d for d in dp.tolist()])
    with raises(NotImplementedError, "the derivative for 'igamma: input' is not implemented."):
        p.sum().backward()
    with raises(NotImplementedError, "the derivative for 'igammac: input' is not implemented."):
        torch.autograd.grad(q.sum(), a)


def test_gammainc_with_only_a_requiring_grad_saves_nothing_and_refuses_at_backward():
    a = torch.tensor([2.5], requires_grad=True)
    p = torch.special.gammainc(a, torch.tensor([1.0]))
    assert p.grad_fn._saved_self is None and p.grad_fn._saved_other is None
    with raises(NotImplementedError, "the derivative for 'igamma: input' is not implemented."):
        p.backward()


def test_gammainc_dtypes_and_refusals():
    f32, f64 = torch.tensor([1.0, 2.0]), torch.tensor([[1.0], [2.0]], dtype=torch.float64)
    assert torch.special.gammainc(f32, f64).shape == (2, 2)
    assert torch.special.gammainc(f32, f64).dtype is torch.float64
    assert torch.special.gammainc(f32, torch.tensor([1, 2])).dtype is torch.float32
    half = torch.tensor([1.0, 2.0], dtype=torch.float16)
    assert torch.special.gammaincc(half, half).dtype is torch.float16
    with raises(NotImplementedError, "\"igamma_cpu\" not implemented for 'Long'"):
        torch.special.gammainc(torch.tensor([1, 2]), torch.tensor([1, 2]))
    with raises(NotImplementedError, "\"igammac_cpu\" not implemented for 'Bool'"):
        torch.special.gammaincc(torch.tensor([True]), torch.tensor([True]))
    with raises(TypeError, "special_gammainc(): argument 'other' (position 2) must be Tensor, "
                "not float"):
        torch.special.gammainc(f32, 2.0)
    with raises(TypeError, "igammac(): argument 'input' (position 1) must be Tensor, not float"):
        torch.igammac(2.0, f32)
    with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at "
                "non-singleton dimension 0"):
        torch.igamma(f32, torch.tensor([1.0, 2.0, 3.0]))


def test_igamma_in_place_records_the_same_node():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    t = a.clone()
    assert t.igamma_(torch.tensor([1.0, 3.0])) is t
    assert type(t.grad_fn).__name__ == "IgammaBackward0" and t._version == 1


def test_selu_and_celu_in_place_save_the_result():
    x = torch.tensor([-1.0, 0.7], dtype=torch.float64, requires_grad=True)
    t = x.clone()
    assert torch.selu_(t) is t and t._version == 1
    node = t.grad_fn
    assert first_edges(t) == ["EluBackward1", "CloneBackward0"]
    assert (node._saved_alpha, node._saved_scale, node._saved_input_scale) == (
        SELU_ALPHA, SELU_SCALE, 1)
    assert node._saved_result.tolist() == t.tolist()
    t.sum().backward()
    r = SELU_SCALE * SELU_ALPHA * math.expm1(-1.0)
    _same(x.grad, [(r + SELU_ALPHA * SELU_SCALE), SELU_SCALE])
    x.grad = None
    c = torch.celu_(x.clone(), 0.3)
    assert type(c.grad_fn).__name__ == "CeluBackward1" and c.grad_fn._saved_alpha == 0.3
    c.sum().backward()
    # celu_'s input scale is 1 / alpha with alpha rounded to float32 first
    assert x.grad[0].item() == (1.0 / 0.30000001192092896) * (c[0].item() + 0.3)


def test_celu_in_place_with_a_negative_alpha_runs_but_refuses_its_backward():
    x = torch.tensor([-1.0, 0.5], requires_grad=True)
    t = torch.celu_(x.clone(), -1.0)
    assert t.tolist() == pytest.approx([-(math.e - 1), 0.5])
    with raises(RuntimeError, "In-place elu backward calculation is triggered with a negative "
                "slope which is not supported. This is caused by calling in-place forward "
                "function with a negative slope, please call out-of-place version instead."):
        t.sum().backward()


def test_threshold_in_place_saves_the_input_before_the_write():
    x = torch.tensor([-1.0, 0.7], requires_grad=True)
    t = torch.threshold_(x.clone(), 0.5, 9.0)
    assert t.tolist() == [9.0, pytest.approx(0.7)]
    node = t.grad_fn
    assert type(node).__name__ == "ThresholdBackward1" and node._saved_threshold == 0.5
    assert node._saved_self.tolist() == [-1.0, pytest.approx(0.7)]
    t.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0]
    assert torch.threshold_(torch.tensor([1, 2]), 1.5, 7.9).tolist() == [7, 2]


def test_top_level_in_place_functions_follow_the_in_place_rules():
    x = torch.tensor([-1.0, 0.7], requires_grad=True)
    leaf = "a leaf Variable that requires grad is being used in an in-place operation."
    for function, args in ((torch.selu_, ()), (torch.celu_, (2.0,)),
                           (torch.threshold_, (0.5, 9.0)), (torch.xlogy_, (2.0,))):
        with raises(RuntimeError, leaf):
            function(x, *args)
    base = x.clone()
    view = base[1:]
    torch.selu_(view)
    assert type(base.grad_fn).__name__ == "CopySlices"
    assert base.grad_fn.name() == "torch::autograd::CopySlices"
    with raises(NotImplementedError, "\"elu_cpu\" not implemented for 'Long'"):
        torch.celu_(torch.tensor([1, 2]))
    with raises(RuntimeError, "ZeroDivisionError: alpha cannot be 0 for CELU"):
        torch.celu_(torch.tensor([1.0]), 0.0)
    assert not any(hasattr(torch.Tensor, n) for n in ("selu_", "celu_", "threshold_"))


def test_xlogy_in_place_as_a_function():
    x = torch.tensor([-1.0, 0.7], requires_grad=True)
    t = x.clone()
    assert torch.xlogy_(t, torch.tensor([2.0, 3.0])) is t
    assert type(t.grad_fn).__name__ == "XlogyBackward0" and t._version == 1
    u = torch.xlogy_(x.clone(), 2.0)
    assert type(u.grad_fn).__name__ == "XlogyBackward2" and u.grad_fn._saved_other == 2.0
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        torch.xlogy_(torch.tensor([1, 2]), 2.0)
    with raises(TypeError, "xlogy_() received an invalid combination of arguments - got "
                "(float, Tensor), but expected one of:\n"
                " * (Tensor input, Tensor other)\n"
                "      didn't match because some of the arguments have invalid types: "
                "(!float!, Tensor)\n"
                " * (Tensor input, Number other)\n"
                "      didn't match because some of the arguments have invalid types: "
                "(!float!, !Tensor!)\n"):
        torch.xlogy_(3.0, torch.tensor([1.0]))
