"""MixtureSameFamily: a categorical mixture over the rightmost batch dimension of one
distribution; draws gathered from the components' draws in torch's order, densities as a
log-sum-exp, moments, expand, repr and refusals. The same assertions run on torch."""

import pytest
import torch
from torch import distributions as D


def f64(values):
    return torch.tensor(values, dtype=torch.float64)


WEIGHTS = f64([[0.3, 0.7], [0.5, 0.5], [0.1, 0.9]])
LOC = f64([[0.0, 2.0], [1.0, -1.0], [0.5, 0.5]])
SCALE = f64([[1.0, 0.5], [0.3, 2.0], [1.0, 1.0]])


def _mixture():
    return D.MixtureSameFamily(D.Categorical(WEIGHTS), D.Normal(LOC, SCALE))


def test_draws_pick_a_component_then_gather_its_draw():
    m = _mixture()
    assert (m.batch_shape, m.event_shape) == (torch.Size([3]), torch.Size([]))
    torch.manual_seed(0)
    draw = m.sample((4,))
    torch.manual_seed(0)
    index = D.Categorical(WEIGHTS).sample((4,))
    components = D.Normal(LOC, SCALE).sample((4,))
    assert torch.equal(draw, components.gather(2, index.unsqueeze(-1)).squeeze(-1))
    assert not m.has_rsample


def test_density_moments_and_expand():
    m = _mixture()
    value = f64([0.1, 0.2, 0.3])
    expected = torch.logsumexp(D.Normal(LOC, SCALE).log_prob(value.unsqueeze(-1))
                               + WEIGHTS.log(), -1)
    torch.testing.assert_close(m.log_prob(value), expected)
    torch.testing.assert_close(m.cdf(value), (D.Normal(LOC, SCALE).cdf(value.unsqueeze(-1))
                                              * WEIGHTS).sum(-1))
    assert torch.equal(m.mean, (WEIGHTS * LOC).sum(-1))
    second = (WEIGHTS * (SCALE**2 + LOC**2)).sum(-1)
    torch.testing.assert_close(m.variance, second - m.mean**2)
    wide = m.expand((2, 3))
    assert wide.batch_shape == (2, 3) and wide.log_prob(f64(0.3)).shape == (2, 3)
    assert repr(m.support) == "MixtureSameFamilyConstraint(Real())"
    assert repr(m) == ("MixtureSameFamily(\n  Categorical(probs: torch.Size([3, 2]), logits: "
                       "torch.Size([3, 2])),\n  Normal(loc: torch.Size([3, 2]), scale: "
                       "torch.Size([3, 2])))")


def test_vector_components():
    m = D.MixtureSameFamily(D.Categorical(f64([0.3, 0.7])), D.Independent(
        D.Normal(f64([[0.0, 1.0], [2.0, 3.0]]), f64([[1.0, 1.0], [0.5, 0.5]])), 1))
    assert (m.batch_shape, m.event_shape) == (torch.Size([]), torch.Size([2]))
    torch.manual_seed(1)
    assert m.sample((3,)).shape == (3, 2)
    torch.testing.assert_close(m.mean, f64([1.4, 2.4]))
    assert repr(m.support) == "MixtureSameFamilyConstraint(IndependentConstraint(Real(), 1))"


def test_refusals():
    components = D.Normal(LOC, SCALE)
    with pytest.raises(ValueError, match="^ The Mixture distribution needs to be an  instance of "
                       "torch.distributions.Categorical$"):
        D.MixtureSameFamily(components, components)
    with pytest.raises(ValueError, match="^The Component distribution needs to be an instance "
                       "of torch.distributions.Distribution$"):
        D.MixtureSameFamily(D.Categorical(WEIGHTS), 3)
    with pytest.raises(ValueError, match=r"^`mixture_distribution component` \(3\) does not "
                       r"equal `component_distribution.batch_shape\[-1\]` \(2\)$"):
        D.MixtureSameFamily(D.Categorical(f64([0.2, 0.3, 0.5])), components)
    with pytest.raises(ValueError, match=r"^`mixture_distribution.batch_shape` "
                       r"\(torch.Size\(\[2\]\)\) is not compatible with "
                       r"`component_distribution.batch_shape`\(torch.Size\(\[3\]\)\)$"):
        D.MixtureSameFamily(D.Categorical(f64([[0.3, 0.7]] * 2)), components)
