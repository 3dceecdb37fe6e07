"""TransformedDistribution and the families torch builds on it or on the generator's draws:
seeded draws in torch's order, densities, distribution functions, moments, expand, reprs
and refusals. The same assertions run on torch."""

import math

import pytest
import torch
from torch import distributions as D
from torch.distributions import transforms as T


def f64(values):
    return torch.tensor(values, dtype=torch.float64)


LOC, SCALE = f64([0.2, -1.0]), f64([0.5, 1.5])


def test_transformed_distribution_shapes_draws_and_density():
    base = D.Normal(torch.zeros(2, 3, dtype=torch.float64), 1.0)
    chain = [T.StickBreakingTransform(), T.ReshapeTransform((4,), (2, 2))]
    d = D.TransformedDistribution(base, chain)
    assert (d.batch_shape, d.event_shape) == (torch.Size([2]), torch.Size([2, 2]))
    assert repr(d.base_dist) == ("Independent(Normal(loc: torch.Size([2, 3]), scale: "
                                 "torch.Size([2, 3])), 1)")
    assert repr(d.support) == "IndependentConstraint(Real(), 2)" and repr(d) == \
        "TransformedDistribution()"
    torch.manual_seed(0)
    draw = d.rsample((5,))
    torch.manual_seed(0)
    noise = torch.empty(5, 2, 3, dtype=torch.float64).normal_()
    assert torch.equal(draw, chain[1](chain[0](noise)))
    stick = chain[0]
    expected = base.log_prob(noise).sum(-1) - stick.log_abs_det_jacobian(noise, stick(noise))
    torch.testing.assert_close(d.log_prob(draw), expected)
    wide = d.expand((4, 2))
    assert wide.base_dist.batch_shape == (4, 2) and wide.sample().shape == (4, 2, 2, 2)
    with pytest.raises(ValueError, match="^transforms must be a Transform or list, but was 3$"):
        D.TransformedDistribution(base, 3)
    with pytest.raises(ValueError, match="^transforms must be a Transform or a list of "
                       "Transforms$"):
        D.TransformedDistribution(base, [3])
    with pytest.raises(ValueError, match=r"^base_distribution needs to have shape with size at "
                       r"least 1, but got torch.Size\(\[\]\).$"):
        D.TransformedDistribution(D.Normal(0.0, 1.0), T.StickBreakingTransform())


def test_decreasing_chain_turns_the_distribution_function_around():
    d = D.TransformedDistribution(D.Normal(LOC, SCALE), T.AffineTransform(0.0, -1.0))
    value = f64([0.3, -0.4])
    assert torch.equal(d.cdf(value), -1 * (D.Normal(LOC, SCALE).cdf(-value) - 0.5) + 0.5)
    torch.testing.assert_close(d.icdf(d.cdf(value)), value)


def test_log_normal():
    d = D.LogNormal(LOC, SCALE)
    torch.manual_seed(1)
    draw = d.sample((3,))
    torch.manual_seed(1)
    assert torch.equal(draw, D.Normal(LOC, SCALE).sample((3,)).exp())
    value = f64([0.5, 2.0])
    assert torch.equal(d.log_prob(value), D.Normal(LOC, SCALE).log_prob(value.log()) - value.log())
    assert torch.equal(d.mean, (LOC + SCALE.pow(2) / 2).exp())
    assert torch.equal(d.entropy(), D.Normal(LOC, SCALE).entropy() + LOC)
    assert repr(d) == "LogNormal()" and d.loc is d.base_dist.loc and d.has_rsample
    assert type(d.expand((3, 2))) is D.LogNormal
    with pytest.raises(ValueError, match=r"^Expected parameter scale \(Tensor of shape \(\)\) of "
                       r"distribution Normal\(loc: 0.0, scale: -1.0\) to satisfy the constraint "):
        D.LogNormal(0.0, -1.0)


def test_cauchy_and_laplace_draw_as_torch_does():
    torch.manual_seed(2)
    draw = D.Cauchy(LOC, SCALE).rsample((3,))
    torch.manual_seed(2)
    assert torch.equal(draw, LOC + torch.empty(3, 2, dtype=torch.float64).cauchy_() * SCALE)
    cauchy = D.Cauchy(LOC, SCALE)
    assert torch.isnan(cauchy.mean).all() and torch.isinf(cauchy.variance).all()
    value = f64([0.3, 1.0])
    torch.testing.assert_close(cauchy.icdf(cauchy.cdf(value)), value)
    assert torch.equal(cauchy.entropy(), math.log(4 * math.pi) + SCALE.log())
    torch.manual_seed(3)
    draw = D.Laplace(LOC, SCALE).rsample((3,))
    torch.manual_seed(3)
    u = torch.empty(3, 2, dtype=torch.float64).uniform_(torch.finfo(torch.float64).eps - 1, 1)
    assert torch.equal(draw, LOC - SCALE * u.sign() * torch.log1p(-u.abs()))
    laplace = D.Laplace(LOC, SCALE)
    assert torch.equal(laplace.log_prob(value),
                       -torch.log(2 * SCALE) - (value - LOC).abs() / SCALE)
    torch.testing.assert_close(laplace.icdf(laplace.cdf(value)), value)
    assert repr(laplace) == ("Laplace(loc: torch.Size([2]), scale: torch.Size([2]))")
    assert repr(D.Cauchy(0.0, 1.0)) == "Cauchy(loc: 0.0, scale: 1.0)"
    assert laplace.expand((4, 2)).loc.shape == (4, 2)


def test_folded_distributions():
    for cls, base in [(D.HalfNormal, D.Normal), (D.HalfCauchy, D.Cauchy)]:
        d = cls(SCALE)
        torch.manual_seed(4)
        draw = d.rsample((3,))
        torch.manual_seed(4)
        assert torch.equal(draw, base(0, SCALE).rsample((3,)).abs())
        value = f64([0.5, 2.0])
        assert torch.equal(d.log_prob(value), base(0, SCALE).log_prob(value) + math.log(2))
        assert torch.equal(d.cdf(value), 2 * base(0, SCALE).cdf(value) - 1)
        assert repr(d) == f"{cls.__name__}()" and repr(d.support) == \
            "GreaterThanEq(lower_bound=0.0)"
        with pytest.raises(ValueError, match="^Expected value argument"):
            d.log_prob(f64([-1.0, 1.0]))
    assert torch.equal(D.HalfNormal(SCALE, validate_args=False).log_prob(f64([-1.0, 1.0]))[0],
                       torch.tensor(-math.inf, dtype=torch.float64))
    assert torch.isinf(D.HalfCauchy(SCALE).mean).all()


def test_gumbel_pareto_weibull():
    torch.manual_seed(5)
    draw = D.Gumbel(LOC, SCALE).sample((3,))
    finfo = torch.finfo(torch.float64)
    torch.manual_seed(5)
    u = D.Uniform(torch.full_like(LOC, finfo.tiny), torch.full_like(LOC, 1 - finfo.eps))
    assert torch.equal(draw, LOC + -SCALE * (-(u.sample((3,)).log())).log())
    gumbel = D.Gumbel(LOC, SCALE)
    y = (LOC - f64([0.5, 2.0])) / SCALE
    assert torch.equal(gumbel.log_prob(f64([0.5, 2.0])), (y - y.exp()) - SCALE.log())
    assert repr(gumbel) == "Gumbel(loc: torch.Size([2]), scale: torch.Size([2]))"
    pareto = D.Pareto(f64([1.0, 2.0]), f64([3.0, 0.5]))
    torch.manual_seed(6)
    draw = pareto.rsample((3,))
    torch.manual_seed(6)
    assert torch.equal(draw, 0 + f64([1.0, 2.0]) * D.Exponential(f64([3.0, 0.5])).rsample(
        (3,)).exp())
    assert repr(pareto.support) == "GreaterThanEq(lower_bound=tensor([1., 2.], " \
        "dtype=torch.float64))"
    assert pareto.mean[1].item() == math.inf or pareto.mean[1].isinf()
    weibull = D.Weibull(f64([1.0, 2.0]), f64([3.0, 0.5]))
    value = f64([0.5, 3.0])
    torch.testing.assert_close(weibull.cdf(value), 1 - (-(value / weibull.scale).pow(
        weibull.concentration)).exp())
    assert repr(weibull) == ("Weibull(scale: torch.Size([2]), concentration: torch.Size([2]))")
    assert weibull.expand((4, 2)).concentration_reciprocal.shape == (4, 2)


def test_geometric():
    probs = f64([0.3, 0.9])
    d = D.Geometric(probs)
    torch.manual_seed(7)
    draw = d.sample((4,))
    torch.manual_seed(7)
    u = torch.empty(4, 2, dtype=torch.float64).uniform_(torch.finfo(torch.float64).tiny, 1)
    assert torch.equal(draw, (u.log() / (-probs).log1p()).floor())
    value = f64([0.0, 3.0])
    assert torch.equal(d.log_prob(value), value * (-probs).log1p() + probs.log())
    assert torch.equal(D.Geometric(f64([1.0])).log_prob(f64([0.0])), f64([0.0]))
    assert torch.equal(d.mean, 1.0 / probs - 1.0) and not d.has_rsample
    assert repr(D.Geometric(logits=f64([0.3, -2.0]))) == "Geometric(logits: torch.Size([2]))"
    with pytest.raises(ValueError, match=r"^Expected parameter probs \(Tensor of shape \(2,\)\) "
                       r"of distribution Geometric\(probs: torch.Size\(\[2\]\)\) to be positive "
                       r"but found invalid values:\ntensor\(\[0.\]\)$"):
        D.Geometric(torch.tensor([0.0, 0.5]))
    with pytest.raises(ValueError, match="^Either `probs` or `logits` must be specified"):
        D.Geometric(0.3, 0.1)


def test_one_hot_categorical_and_straight_through():
    probs = f64([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    d = D.OneHotCategorical(probs)
    torch.manual_seed(8)
    draw = d.sample((4,))
    torch.manual_seed(8)
    indices = D.Categorical(probs).sample((4,))
    assert torch.equal(draw, torch.nn.functional.one_hot(indices, 3).to(probs))
    assert torch.equal(d.log_prob(draw), D.Categorical(probs).log_prob(indices))
    assert (d.batch_shape, d.event_shape) == (torch.Size([2]), torch.Size([3]))
    assert d.enumerate_support().shape == (3, 2, 3) and torch.equal(d.mode[0], f64([0, 0, 1]))
    assert repr(d) == "OneHotCategorical()"
    logits = f64([0.2, 0.3, 0.5]).requires_grad_()
    straight = D.OneHotCategoricalStraightThrough(logits=logits)
    torch.manual_seed(9)
    sample = straight.rsample()
    (sample * f64([1.0, 2.0, 3.0])).sum().backward()
    probs = logits.detach().softmax(-1)
    torch.testing.assert_close(logits.grad, probs * (f64([1.0, 2.0, 3.0]) - (probs * f64(
        [1.0, 2.0, 3.0])).sum()))
    assert sample.detach().sum().item() == 1.0


def test_relaxed_distributions():
    temperature, probs = f64(0.7), f64([0.3, 0.9])
    d = D.RelaxedBernoulli(temperature, probs)
    torch.manual_seed(10)
    draw = d.rsample((3,))
    torch.manual_seed(10)
    u = D.utils.clamp_probs(torch.rand(3, 2, dtype=torch.float64))
    p = D.utils.clamp_probs(probs)
    logistic = (u.log() - (-u).log1p() + p.log() - (-p).log1p()) / temperature
    assert torch.equal(draw, T.SigmoidTransform()(logistic))
    assert repr(d) == "RelaxedBernoulli()" and d.temperature is temperature
    logits = f64([0.2, 0.3, 0.5])
    cat = D.RelaxedOneHotCategorical(temperature, logits=logits)
    torch.manual_seed(11)
    draw = cat.rsample((2,))
    torch.manual_seed(11)
    u = D.utils.clamp_probs(torch.rand(2, 3, dtype=torch.float64))
    scores = (cat.logits + -((-(u.log())).log())) / temperature
    assert torch.equal(draw, (scores - scores.logsumexp(-1, keepdim=True)).exp())
    assert cat.log_prob(draw).shape == (2,) and cat.event_shape == (3,)
    with pytest.raises(ValueError, match=r"^Expected parameter probs"):
        D.RelaxedBernoulli(temperature, f64([1.5]))


def test_logistic_normal():
    d = D.LogisticNormal(LOC, SCALE)
    assert (d.batch_shape, d.event_shape) == (torch.Size([]), torch.Size([3]))
    torch.manual_seed(12)
    draw = d.rsample((2,))
    torch.manual_seed(12)
    assert torch.equal(draw, T.StickBreakingTransform()(D.Normal(LOC, SCALE).rsample((2,))))
    assert torch.allclose(draw.sum(-1), torch.ones(2, dtype=torch.float64))
    assert d.log_prob(draw).shape == (2,) and d.loc is d.base_dist.base_dist.loc
    assert D.LogisticNormal(0.2, 0.5).event_shape == (2,)
    assert type(d.expand((4,))) is D.LogisticNormal and d.expand((4,)).batch_shape == (4,)


def test_expand_refuses_a_subclass_with_its_own_constructor():
    class Fixed(D.LogNormal):
        def __init__(self):
            super().__init__(0.0, 1.0)

    with pytest.raises(NotImplementedError, match="^Subclass Fixed of LogNormal that defines a "
                       "custom __init__ method must also define a custom .expand\\(\\) method.$"):
        Fixed().expand((2,))


@pytest.mark.parametrize("make, draw_node, density_node", [
    (lambda a, b: D.LogNormal(a, b), "ExpBackward0", "AddBackward0"),
    (lambda a, b: D.HalfNormal(b), "AbsBackward0", "WhereBackward0"),
    (lambda a, b: D.Cauchy(a, b), "AddBackward0", "SubBackward0"),
    (lambda a, b: D.Laplace(a, b), "SubBackward0", "SubBackward0"),
    (lambda a, b: D.LogisticNormal(a, b), "MulBackward0", "AddBackward0"),
    (lambda a, b: D.RelaxedBernoulli(f64(0.5), logits=a), "ClampBackward1", "AddBackward0"),
])
def test_reparameterized_draws_and_densities_carry_the_graph(make, draw_node, density_node):
    a, b = LOC.clone().requires_grad_(), SCALE.clone().requires_grad_()
    d = make(a, b)
    torch.manual_seed(0)
    draw = d.rsample((3,))
    assert type(draw.grad_fn).__name__ == draw_node
    density = d.log_prob(draw.detach())
    assert type(density.grad_fn).__name__ == density_node
    draw.sum().backward()
    assert (a.grad is not None) or (b.grad is not None)
    plain = make(LOC, SCALE)
    torch.manual_seed(0)
    assert torch.equal(plain.sample((3,)), draw.detach())


def test_kumaraswamy():
    a, b = f64([0.5, 2.0]), f64([3.0, 0.7])
    d = D.Kumaraswamy(a, b)
    torch.manual_seed(13)
    draw = d.rsample((3,))
    torch.manual_seed(13)
    u = torch.rand(3, 2, dtype=torch.float64)
    assert torch.equal(draw, (1.0 + -1.0 * u.pow(b.reciprocal())).pow(a.reciprocal()))
    value = f64([0.3, 0.6])
    torch.testing.assert_close(d.cdf(value), 1 - (1 - value.pow(a)).pow(b))
    expected = a.log() + b.log() + (a - 1) * value.log() + (b - 1) * (1 - value.pow(a)).log()
    torch.testing.assert_close(d.log_prob(value), expected)
    assert torch.equal(d.mean, b * torch.exp(torch.lgamma(1 + 1 / a) + torch.lgamma(b)
                                             - torch.lgamma(1 + 1 / a + b)))
    assert repr(d) == ("Kumaraswamy(concentration1: torch.Size([2]), concentration0: "
                       "torch.Size([2]))")
    assert d.expand((4, 2)).concentration0.shape == (4, 2) and d.mode.isnan().all()
