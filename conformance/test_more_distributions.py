"""torch.distributions' ContinuousBernoulli, GeneralizedPareto and VonMises: constructors and
their validation, constraints, moments, densities, distribution functions, draws and their
shapes, expand, repr, gradients, and the divergences registered for the continuous Bernoulli.
Expected values are closed forms or quadratures in Python's floats. The same assertions run
on torch."""

import math

import pytest
import torch
from torch import distributions as D
from torch.distributions import constraints as C

from conformance._continuous_bernoulli_support import cb_density, f64, integrate

LAMBDAS = [0.05, 0.3, 0.4995, 0.5, 0.7, 0.95]


def test_continuous_bernoulli_arguments():
    with pytest.raises(ValueError, match="^Either `probs` or `logits` must be specified, but "
                                         "not both.$"):
        D.ContinuousBernoulli()
    with pytest.raises(ValueError, match="^Either `probs` or `logits`"):
        D.ContinuousBernoulli(0.3, 0.1)
    for validate in (True, False):
        with pytest.raises(ValueError, match="^The parameter probs has invalid values$"):
            D.ContinuousBernoulli(torch.tensor([0.3, 1.5]), validate_args=validate)
    clamped = D.ContinuousBernoulli(1.5)  # validation by default sees the clamped value
    assert clamped.probs.item() == 1 - torch.finfo(torch.float32).eps
    assert repr(clamped) == "ContinuousBernoulli(probs: 0.9999998807907104)"
    assert clamped.batch_shape == torch.Size([])
    assert D.ContinuousBernoulli(torch.tensor(0.3)).batch_shape == torch.Size([])
    assert D.ContinuousBernoulli.arg_constraints == {"probs": C.unit_interval, "logits": C.real}
    assert D.ContinuousBernoulli.support is C.unit_interval
    assert D.ContinuousBernoulli.has_rsample and not D.ContinuousBernoulli.has_enumerate_support
    logits = D.ContinuousBernoulli(logits=torch.tensor([[0.0, 2.0]]))
    assert repr(logits) == "ContinuousBernoulli(logits: torch.Size([1, 2]))"
    assert logits.param_shape == torch.Size([1, 2])
    torch.testing.assert_close(logits.probs, torch.sigmoid(torch.tensor([[0.0, 2.0]])))
    with pytest.raises(NotImplementedError, match="ContinuousBernoulli'> does not implement mode"):
        logits.mode


@pytest.mark.parametrize("lam", LAMBDAS)
def test_continuous_bernoulli_moments_and_density(lam):
    cb = D.ContinuousBernoulli(f64([lam]))
    mean = integrate(lambda x: x * cb_density(lam, x), 0.0, 1.0)
    second = integrate(lambda x: x * x * cb_density(lam, x), 0.0, 1.0)
    entropy = -integrate(lambda x: cb_density(lam, x) * math.log(cb_density(lam, x)), 0, 1)
    assert integrate(lambda x: cb_density(lam, x), 0.0, 1.0) == pytest.approx(1, abs=1e-6)
    assert cb.mean.item() == pytest.approx(mean, abs=1e-6)
    assert cb.variance.item() == pytest.approx(second - mean**2, abs=1e-6)
    assert cb.stddev.item() == pytest.approx(math.sqrt(second - mean**2), abs=1e-6)
    assert cb.entropy().item() == pytest.approx(entropy, abs=1e-6)
    values = [0.0, 0.25, 0.6, 1.0]
    expected = [math.log(cb_density(lam, x)) for x in values]
    torch.testing.assert_close(cb.log_prob(f64(values)), f64(expected), atol=1e-6, rtol=1e-6)
    for x in values:
        cdf = cb.cdf(f64([x])).item()
        if 0.499 < lam <= 0.501:  # within the limits, the density is taken as flat
            assert cdf == x
        else:
            area = integrate(lambda t: cb_density(lam, t), 0, x)
            assert cdf == pytest.approx(area, abs=1e-6)
        assert cb.icdf(f64([cdf])).item() == pytest.approx(x, abs=1e-6)
    outside = D.ContinuousBernoulli(f64([lam]), validate_args=False).cdf(f64([-0.5, 1.5]))
    assert outside.tolist() == [0.0, 1.0]


def test_continuous_bernoulli_near_one_half_is_smooth():
    lams = f64([0.498, 0.49899, 0.499, 0.4995, 0.5, 0.5005, 0.501, 0.50101, 0.502])
    cb = D.ContinuousBernoulli(lams)
    for moment in (cb.mean, cb.variance, cb.entropy(), cb._cont_bern_log_norm()):
        steps = (moment[1:] - moment[:-1]).abs()
        assert bool((steps < 1e-3).all()) and not bool(moment.isnan().any())
    assert cb.mean[4].item() == 0.5 and cb.variance[4].item() == pytest.approx(1 / 12)
    eta = f64([-0.3, -0.0005, 0.0, 0.0004, 0.8])
    expected = [0.0 if e == 0 else math.log(math.expm1(e) / e) for e in eta.tolist()]
    torch.testing.assert_close(cb._log_normalizer(eta), f64(expected), atol=1e-9, rtol=1e-9)


def test_continuous_bernoulli_draws_and_gradients():
    probs = f64([0.2, 0.5, 0.9]).requires_grad_()
    cb = D.ContinuousBernoulli(probs)
    torch.manual_seed(0)
    drawn = cb.rsample((4, 2))
    torch.manual_seed(0)
    uniforms = torch.rand((4, 2, 3), dtype=torch.float64)
    assert drawn.shape == (4, 2, 3) and drawn.requires_grad
    torch.testing.assert_close(drawn, cb.icdf(uniforms))
    assert bool(((drawn >= 0) & (drawn <= 1)).all())
    plain = cb.sample((5,))
    assert plain.shape == (5, 3) and not plain.requires_grad and plain.dtype == torch.float64
    value = f64([0.3, 0.6, 0.1])
    (grad,) = torch.autograd.grad((cb.log_prob(value) + cb.mean + cb.entropy()).sum(), probs)
    h = 1e-6
    for i in (0, 2):
        up, down = probs.detach().clone(), probs.detach().clone()
        up[i] += h
        down[i] -= h
        hi, lo = D.ContinuousBernoulli(up), D.ContinuousBernoulli(down)
        diff = ((hi.log_prob(value) + hi.mean + hi.entropy())
                - (lo.log_prob(value) + lo.mean + lo.entropy()))[i] / (2 * h)
        assert grad[i].item() == pytest.approx(diff.item(), rel=1e-5)


def test_continuous_bernoulli_expand_and_validation():
    cb = D.ContinuousBernoulli(torch.tensor([0.2, 0.7]), lims=(0.4, 0.6))
    wide = cb.expand((3, 2))
    assert wide.batch_shape == (3, 2) and wide._lims == (0.4, 0.6)
    assert repr(wide) == "ContinuousBernoulli(probs: torch.Size([3, 2]))"
    torch.testing.assert_close(wide.mean, cb.mean.expand(3, 2))
    with pytest.raises(ValueError, match="^Expected value argument"):
        cb.log_prob(torch.tensor([0.5, 1.5]))
    logits = D.ContinuousBernoulli(logits=torch.tensor([0.5, -1.0])).expand((2, 2))
    assert "probs" not in logits.__dict__ and logits.logits.shape == (2, 2)


def test_generalized_pareto_arguments_and_support():
    gp = D.GeneralizedPareto(0.0, 1.0, -0.5)
    assert gp.batch_shape == torch.Size([])
    assert repr(gp) == "GeneralizedPareto(loc: 0.0, scale: 1.0, concentration: -0.5)"
    assert repr(gp.support) == "Interval(lower_bound=0.0, upper_bound=2.0)"
    assert D.GeneralizedPareto.arg_constraints == {
        "loc": C.real, "scale": C.positive, "concentration": C.real}
    assert D.GeneralizedPareto.has_rsample
    with pytest.raises(ValueError, match="^Expected parameter scale"):
        D.GeneralizedPareto(torch.tensor([0.0]), torch.tensor([-1.0]), torch.tensor([0.1]))
    wide = D.GeneralizedPareto(torch.zeros(2), torch.ones(2), torch.tensor([0.1, -1.0]))
    assert wide.support.upper_bound.tolist() == [math.inf, 1.0]
    with pytest.raises(ValueError, match="^Expected value argument"):
        wide.log_prob(torch.tensor([0.5, 1.5]))
    grown = wide.expand((3, 2))
    assert grown.batch_shape == (3, 2) and grown.concentration.shape == (3, 2)
    assert repr(grown) == ("GeneralizedPareto(loc: torch.Size([3, 2]), scale: "
                           "torch.Size([3, 2]), concentration: torch.Size([3, 2]))")
    doubles = D.GeneralizedPareto(f64([0.0]), f64([1.0]), f64([0.2]))
    with pytest.raises(RuntimeError, match="^Double did not match Float$"):
        doubles.log_prob(f64([1.0]))


def _gp_log_density(mu, sigma, xi, x):
    z = (x - mu) / sigma
    if xi == 0:
        return -math.log(sigma) - z
    return -math.log(sigma) - (1 / xi + 1) * math.log1p(xi * z)


def test_generalized_pareto_values():
    mu, sigma, xi = [0.0, 0.5, -1.0, 0.2], [1.0, 2.0, 0.5, 1.5], [0.0, 0.3, -0.5, -1.0]
    gp = D.GeneralizedPareto(torch.tensor(mu), torch.tensor(sigma), torch.tensor(xi))
    x = [0.5, 1.0, -0.9, 0.9]
    expected = [_gp_log_density(*args) for args in zip(mu, sigma, xi, x)]
    torch.testing.assert_close(gp.log_prob(torch.tensor(x)), torch.tensor(expected))
    survival = [math.exp(-(v - m) / s) if k == 0 else (1 + k * (v - m) / s) ** (-1 / k)
                for m, s, k, v in zip(mu, sigma, xi, x)]
    torch.testing.assert_close(gp.cdf(torch.tensor(x)), 1 - torch.tensor(survival))
    torch.testing.assert_close(gp.log_survival_function(torch.tensor(x)),
                               torch.tensor(survival).log())
    torch.testing.assert_close(gp.icdf(gp.cdf(torch.tensor(x))), torch.tensor(x))
    means = [m + s / (1 - k) for m, s, k in zip(mu, sigma, xi)]
    torch.testing.assert_close(gp.mean, torch.tensor(means))
    variances = [s * s / ((1 - k) ** 2 * (1 - 2 * k)) for s, k in zip(sigma, xi)]
    torch.testing.assert_close(gp.variance, torch.tensor(variances))
    torch.testing.assert_close(gp.stddev, torch.tensor(variances).sqrt())
    entropies = [math.log(s) + k + 1 for s, k in zip(sigma, xi)]
    torch.testing.assert_close(gp.entropy(), torch.tensor(entropies))
    assert gp.mode is gp.loc
    heavy = D.GeneralizedPareto(torch.zeros(3), torch.ones(3), torch.tensor([0.4, 0.5, 1.0]))
    assert heavy.mean[2].isnan() and not heavy.mean[:2].isnan().any()
    assert heavy.variance[1:].isnan().all() and not heavy.variance[0].isnan()
    flat = D.GeneralizedPareto(0.0, 2.0, 0.0)
    assert flat.entropy().shape == () and flat.entropy().item() == pytest.approx(1 + math.log(2))


def test_generalized_pareto_draws_and_gradients():
    loc, scale, xi = f64([0.0, 1.0]), f64([1.0, 2.0]), f64([0.0, 0.25])
    for t in (loc, scale, xi):
        t.requires_grad_()
    gp = D.GeneralizedPareto(loc, scale, xi)
    torch.manual_seed(3)
    drawn = gp.rsample((5,))
    torch.manual_seed(3)
    u = torch.rand((5, 2), dtype=torch.float64)
    assert drawn.shape == (5, 2) and drawn.requires_grad
    log_u = torch.log1p(-u)
    expected = torch.stack([-log_u[:, 0], 1 + 2 / 0.25 * torch.expm1(-0.25 * log_u[:, 1])], 1)
    torch.testing.assert_close(drawn, expected)
    g_loc, g_scale = torch.autograd.grad(drawn.sum(), (loc, scale))
    assert g_loc.tolist() == [5.0, 5.0]
    torch.testing.assert_close(g_scale, ((expected - f64([0.0, 1.0])) / f64([1.0, 2.0])).sum(0))
    assert gp.sample((2, 3)).shape == (2, 3, 2) and not gp.sample().requires_grad


def _bessel(order, x, terms=80):
    return sum((x / 2) ** (2 * k + order) / (math.factorial(k) * math.factorial(k + order))
               for k in range(terms))


def test_von_mises_arguments_and_values():
    assert D.VonMises.arg_constraints == {"loc": C.real, "concentration": C.positive}
    assert D.VonMises.support is C.real and not D.VonMises.has_rsample
    with pytest.raises(ValueError, match="^Expected parameter concentration"):
        D.VonMises(torch.tensor([0.0]), torch.tensor([-1.0]))
    loc, kappa = f64([0.5, -2.0, 3.0]), f64([0.01, 2.0, 10.0])
    vm = D.VonMises(loc, kappa)
    assert repr(vm) == "VonMises(loc: torch.Size([3]), concentration: torch.Size([3]))"
    assert vm.mean is vm.loc and vm.mode is vm.loc
    values = f64([[1.0, -7.0, 2.5], [0.0, 9.0, -3.0]])
    expected = [[k * math.cos(v - m) - math.log(2 * math.pi * _bessel(0, k))
                 for v, m, k in zip(row, [0.5, -2.0, 3.0], [0.01, 2.0, 10.0])]
                for row in values.tolist()]
    torch.testing.assert_close(vm.log_prob(values), f64(expected), rtol=1e-6, atol=1e-6)
    variance = [1 - _bessel(1, k) / _bessel(0, k) for k in [0.01, 2.0, 10.0]]
    torch.testing.assert_close(vm.variance, f64(variance), rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(vm.stddev, f64(variance).sqrt(), rtol=1e-6, atol=1e-6)
    for method, args in (("entropy", ()), ("cdf", (values,)), ("icdf", (values,)),
                         ("rsample", ())):
        with pytest.raises(NotImplementedError):
            getattr(vm, method)(*args)


def test_von_mises_draws_expand_and_gradients():
    loc = torch.tensor([1.0, -2.0], requires_grad=True)
    kappa = torch.tensor([0.5, 20.0], requires_grad=True)
    vm = D.VonMises(loc, kappa)
    torch.manual_seed(0)
    drawn = vm.sample((4000,))
    assert drawn.shape == (4000, 2) and drawn.dtype == torch.float32 and not drawn.requires_grad
    assert bool(((drawn >= -math.pi) & (drawn < math.pi)).all())
    direction = torch.atan2(drawn.sin().mean(0), drawn.cos().mean(0))
    torch.testing.assert_close(direction, loc.detach(), atol=0.1, rtol=0)
    spread = 1 - torch.hypot(drawn.sin().mean(0), drawn.cos().mean(0))
    torch.testing.assert_close(spread, vm.variance.detach(), atol=0.03, rtol=0)
    value = torch.tensor([0.3, -1.5])
    g_loc, g_kappa = torch.autograd.grad(vm.log_prob(value).sum() + vm.variance.sum(),
                                         (loc, kappa))
    torch.testing.assert_close(g_loc, kappa.detach() * torch.sin(value - loc.detach()))
    assert g_kappa.shape == (2,) and bool(g_kappa.isfinite().all())
    tiny = D.VonMises(torch.tensor(0.0), torch.tensor(1e-7)).sample((3,))
    assert tiny.shape == (3,)
    wide = D.VonMises(loc, kappa, validate_args=False).expand((3, 2))
    assert wide.batch_shape == (3, 2) and wide._validate_args is False
    assert "_validate_args" not in D.VonMises(loc, kappa).expand((3, 2)).__dict__

