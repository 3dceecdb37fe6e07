"""InverseGamma, constraints.multinomial, and the divergences between the gamma family and
the transformed families."""

import math

import pytest
import torch
from torch import distributions as D

F64 = torch.float64


def _params():
    return (torch.tensor([0.5, 1.5, 3.0], dtype=F64, requires_grad=True),
            torch.tensor([2.0, 1.0, 0.5], dtype=F64, requires_grad=True))


def test_an_inverse_gamma_draw_is_one_over_the_gamma_draw():
    concentration, rate = _params()
    torch.manual_seed(7)
    drawn = D.InverseGamma(concentration, rate).rsample((5,))
    torch.manual_seed(7)
    assert torch.equal(drawn, 1 / D.Gamma(concentration, rate).rsample((5,)))
    drawn.sum().backward()
    assert concentration.grad.shape == (3,) and torch.isfinite(rate.grad).all()


def test_inverse_gamma_density_and_moments():
    concentration, rate = (p.detach() for p in _params())
    d = D.InverseGamma(concentration, rate)
    x = torch.tensor([[0.3, 1.2, 2.5]], dtype=F64)
    by_change = D.Gamma(concentration, rate).log_prob(1 / x) - 2 * x.log()
    assert torch.allclose(d.log_prob(x), by_change, rtol=1e-12)
    assert repr(d) == "InverseGamma()" and d.has_rsample and d.support is D.constraints.positive
    assert d.mean[0] == math.inf and d.mean[2] == rate[2] / (concentration[2] - 1)
    assert d.variance[:2].tolist() == [math.inf, math.inf] and torch.isfinite(d.variance[2])
    assert torch.equal(d.mode, rate / (concentration + 1))
    assert d.expand((2, 3)).batch_shape == (2, 3) and type(d.expand((2, 3))) is D.InverseGamma
    a = concentration
    assert torch.allclose(d.entropy(), a + rate.log() + a.lgamma() - (1 + a) * a.digamma())


def test_the_multinomial_constraint_is_named_in_constraints():
    bound = D.constraints.multinomial(3)
    assert repr(bound) == "Multinomial()" and bound.is_discrete and bound.event_dim == 1
    assert bound.check(torch.tensor([[1.0, 2.0], [2.0, 2.0], [-1.0, 1.0]])).tolist() == [
        True, False, False]
    assert type(D.Multinomial(3, torch.tensor([0.5, 0.5])).support) is type(bound)


def _families():
    loc, scale = torch.tensor([0.5, -1.0, 2.0], dtype=F64), torch.tensor([1.0, 2.0, 0.5], dtype=F64)
    positive = torch.tensor([0.5, 1.5, 3.0], dtype=F64), torch.tensor([2.0, 1.0, 0.5], dtype=F64)
    return {"gamma": D.Gamma(*positive), "beta": D.Beta(*positive), "gumbel": D.Gumbel(loc, scale),
            "laplace": D.Laplace(loc, scale), "pareto": D.Pareto(scale, positive[0])}


@pytest.mark.parametrize(("p", "q"), [("beta", "pareto"), ("gamma", "pareto"), ("gumbel", "beta"),
                                      ("gumbel", "gamma"), ("laplace", "beta"),
                                      ("laplace", "gamma"), ("pareto", "beta")])
def test_divergences_across_supports_are_infinite(p, q):
    families = _families()
    kl = D.kl_divergence(families[p], families[q])
    assert kl.dtype == F64 and kl.tolist() == [math.inf] * 3


def test_closed_form_divergences_across_the_families():
    families = _families()
    gamma_gumbel = D.kl_divergence(families["gamma"], families["gumbel"])
    assert torch.isfinite(gamma_gumbel).all() and (gamma_gumbel >= 0).all()
    pareto_gamma = D.kl_divergence(families["pareto"], families["gamma"])
    assert pareto_gamma[0] == math.inf  # a Pareto shape of at most one has no finite mean
    assert torch.isfinite(pareto_gamma[1:]).all() and (pareto_gamma[1:] >= 0).all()


def test_gamma_gumbel_divergence_agrees_with_a_sampled_estimate():
    torch.manual_seed(0)
    p = D.Gamma(torch.tensor(2.0, dtype=F64), torch.tensor(1.5, dtype=F64))
    q = D.Gumbel(torch.tensor(0.5, dtype=F64), torch.tensor(1.2, dtype=F64))
    x = p.sample((200_000,))
    estimate = (p.log_prob(x) - q.log_prob(x)).mean()
    assert abs(estimate - D.kl_divergence(p, q)) < 0.01
