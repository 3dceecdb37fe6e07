"""kl_divergence between the continuous Bernoulli and the other families: each closed form
against a quadrature of E_p[log p - log q] in Python's floats, infinite where torch's
conditions say so, and no closed form where torch has none. The same assertions run on
torch."""

import math

import pytest
import torch
from torch import distributions as D

from conformance._continuous_bernoulli_support import cb_density, f64, integrate


def _kl_by_quadrature(p_density, q_log_density, low, high):
    def integrand(x):
        px = p_density(x)
        return px * (math.log(px) - q_log_density(x)) if px > 0 else 0.0
    return integrate(integrand, low, high)


@pytest.mark.parametrize("lam", [0.2, 0.4995, 0.8])
def test_kl_divergences_of_the_continuous_bernoulli(lam):
    p = D.ContinuousBernoulli(f64([lam]))
    density = lambda x: cb_density(lam, x)  # noqa: E731
    q = D.ContinuousBernoulli(f64([0.65]))
    pairs = [(q, lambda x: math.log(cb_density(0.65, x))),
             (D.Exponential(f64([1.5])), lambda x: math.log(1.5) - 1.5 * x),
             (D.Normal(f64([0.3]), f64([0.7])),
              lambda x: -0.5 * ((x - 0.3) / 0.7) ** 2 - math.log(0.7 * math.sqrt(2 * math.pi))),
             (D.Uniform(f64([-0.5]), f64([1.5])), lambda x: -math.log(2.0))]
    for other, log_density in pairs:
        expected = _kl_by_quadrature(density, log_density, 0.0, 1.0)
        assert D.kl_divergence(p, other).item() == pytest.approx(expected, abs=1e-6)
    beta = D.Beta(f64([2.0]), f64([3.0]))
    beta_density = lambda x: 12 * x * (1 - x) ** 2  # noqa: E731
    expected = _kl_by_quadrature(beta_density, lambda x: math.log(density(x)), 0.0, 1.0)
    assert D.kl_divergence(beta, p).item() == pytest.approx(expected, abs=1e-6)
    inside = D.Uniform(f64([0.2]), f64([0.7]))
    expected = _kl_by_quadrature(lambda x: 2.0 if 0.2 <= x <= 0.7 else 0.0,
                                 lambda x: math.log(density(x)), 0.2, 0.7)
    assert D.kl_divergence(inside, p).item() == pytest.approx(expected, abs=1e-6)
    assert D.kl_divergence(p, D.ContinuousBernoulli(f64([lam]))).item() == pytest.approx(0)


def test_kl_divergences_of_the_continuous_bernoulli_at_the_edges():
    p = D.ContinuousBernoulli(torch.tensor([0.3, 0.6]))
    # torch's comparisons include the ends of [0, 1]: the unit uniform counts as infinite.
    for low, high in [(0.0, 1.0), (0.2, 2.0), (-1.0, 0.9)]:
        uniform = D.Uniform(torch.tensor([low, low]), torch.tensor([high, high]))
        assert D.kl_divergence(p, uniform).tolist() == [math.inf, math.inf]
        assert D.kl_divergence(uniform, p).tolist() == [math.inf, math.inf]
    others = [D.Exponential(torch.ones(2)), D.Gamma(torch.ones(2), torch.ones(2)),
              D.Gumbel(torch.zeros(2), torch.ones(2)), D.Laplace(torch.zeros(2), torch.ones(2)),
              D.Normal(torch.zeros(2), torch.ones(2)), D.Pareto(torch.ones(2), torch.ones(2))]
    for other in others:
        assert D.kl_divergence(other, p).tolist() == [math.inf, math.inf]
    assert D.kl_divergence(p, others[-1]).tolist() == [math.inf, math.inf]
    with pytest.raises(NotImplementedError, match="^The cross KL-divergence between different"):
        D.kl_divergence(p, others[1])  # two exponential families, no closed form
    for other in others[2:4]:
        with pytest.raises(NotImplementedError, match="^No KL\\(p \\|\\| q\\) is implemented"):
            D.kl_divergence(p, other)
    probs = torch.tensor([0.3, 0.6], dtype=torch.float64, requires_grad=True)
    kl = D.kl_divergence(D.ContinuousBernoulli(probs), D.Normal(f64([0.5]), f64([1.0])))
    (grad,) = torch.autograd.grad(kl.sum(), probs)
    assert bool(grad.isfinite().all()) and grad.shape == (2,)
