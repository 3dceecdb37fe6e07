"""Gamma and Chi2: shapes, draws through torch._standard_gamma, densities, validation,
expand, reprs and their divergences. The same assertions run on torch."""

import math

import pytest
import torch
from torch import distributions as D


def test_a_reparameterized_draw_is_a_standard_gamma_over_the_rate():
    concentration = torch.tensor([0.5, 2.0, 7.5], requires_grad=True)
    rate = torch.tensor([1.0, 0.5, 3.0], requires_grad=True)
    gamma = D.Gamma(concentration, rate)
    torch.manual_seed(0)
    drawn = gamma.rsample((2,))
    torch.manual_seed(0)
    expected = torch._standard_gamma(concentration.detach().expand(2, 3)) / rate.detach()
    assert torch.equal(drawn, expected) and drawn.grad_fn.name() == "DivBackward0"
    drawn.sum().backward()
    assert concentration.grad is not None and bool((rate.grad < 0).all())
    assert not gamma.sample().requires_grad and gamma.sample((4, 1)).shape == (4, 1, 3)


def test_a_draw_that_underflows_is_raised_to_the_smallest_normal_number():
    torch.manual_seed(3)
    drawn = D.Gamma(torch.tensor([0.01]), torch.tensor([1e30])).rsample((4,))
    assert bool((drawn >= torch.finfo(torch.float32).tiny).all())


def test_shapes_moments_and_expand():
    gamma = D.Gamma(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 0.5]))
    assert (gamma.batch_shape, gamma.event_shape) == (torch.Size([2]), torch.Size([]))
    assert gamma.mean.tolist() == [0.5, 6.0] and gamma.variance.tolist() == [0.25, 12.0]
    assert gamma.mode.tolist() == [0.0, 4.0] and gamma.has_rsample
    scalar = D.Gamma(2.0, 3.0)
    assert scalar.batch_shape == torch.Size([]) and scalar.sample((3,)).shape == (3,)
    wide = gamma.expand((4, 2))
    assert type(wide) is D.Gamma and wide.batch_shape == (4, 2)
    assert wide.concentration.stride() == (0, 1) and wide.sample().shape == (4, 2)
    assert repr(gamma) == "Gamma(concentration: torch.Size([2]), rate: torch.Size([2]))"
    assert repr(scalar) == "Gamma(concentration: 2.0, rate: 3.0)"
    assert repr(D.Gamma.support) == "GreaterThanEq(lower_bound=0.0)"
    assert list(D.Gamma.arg_constraints) == ["concentration", "rate"]


def test_densities():
    gamma = D.Gamma(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 0.5]))
    value = torch.tensor([0.0, 2.0])
    expected = (3.0 * math.log(0.5) + 2.0 * math.log(2.0) - 1.0 - math.lgamma(3.0))
    log_prob = gamma.log_prob(value)
    assert log_prob[0].item() == pytest.approx(math.log(2.0))  # 0 log 0 is 0
    assert log_prob[1].item() == pytest.approx(expected)
    assert gamma.log_prob(1.5).shape == (2,)  # numbers are taken as tensors
    entropy = gamma.entropy()
    torch.testing.assert_close(entropy, D.ExponentialFamily.entropy(gamma))
    assert gamma.cdf(torch.tensor([0.5, 2.0]))[0].item() == pytest.approx(1 - math.exp(-1))


def test_chi2_is_a_gamma_of_half_its_degrees_of_freedom():
    chi2 = D.Chi2(torch.tensor([1.0, 3.0]))
    assert chi2.df.tolist() == [1.0, 3.0] and chi2.concentration.tolist() == [0.5, 1.5]
    assert chi2.rate.tolist() == [0.5, 0.5] and repr(chi2) == "Chi2()"
    assert list(D.Chi2.arg_constraints) == ["df"] and isinstance(chi2, D.Gamma)
    torch.manual_seed(1)
    drawn = chi2.sample((2,))
    torch.manual_seed(1)
    assert torch.equal(drawn, D.Gamma(chi2.concentration, 0.5).sample((2,)))
    wide = chi2.expand((3, 2))
    assert type(wide) is D.Chi2 and wide.df.shape == (3, 2)


@pytest.mark.parametrize("make, message", [
    (lambda: D.Gamma(torch.tensor([-1.0]), torch.tensor([1.0])),
     r"^Expected parameter concentration \(Tensor of shape \(1,\)\) of distribution "
     r"Gamma\(concentration: tensor\(\[-1.\]\), rate: tensor\(\[1.\]\)\) to satisfy the "
     r"constraint GreaterThan\(lower_bound=0.0\), but found invalid values:\ntensor\(\[-1.\]\)$"),
    (lambda: D.Gamma(1.0, 0.0), r"^Expected parameter rate \(Tensor of shape \(\)\) of "
     r"distribution Gamma\(concentration: 1.0, rate: 0.0\)"),
    (lambda: D.Chi2(torch.tensor([0.0])), r"^Expected parameter df \(Tensor of shape \(1,\)\) "
     r"of distribution Chi2\(\) to satisfy the constraint GreaterThan\(lower_bound=0.0\)"),
    (lambda: D.Gamma(torch.ones(2), 1.0).log_prob(torch.tensor([-1.0, 1.0])),
     r"^Expected value argument \(Tensor of shape \(2,\)\) to be within the support "
     r"\(GreaterThanEq\(lower_bound=0.0\)\) of the distribution Gamma\("),
])
def test_validation(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_divergences():
    gamma = D.Gamma(torch.tensor([0.5, 2.0]), torch.tensor([1.5, 0.5]))
    assert D.kl_divergence(gamma, gamma).abs().max().item() < 1e-6
    exponential = D.Exponential(torch.tensor([1.5, 0.5]))
    as_gamma = D.Gamma(torch.ones(2), torch.tensor([1.5, 0.5]))
    torch.testing.assert_close(D.kl_divergence(exponential, gamma),
                               D.kl_divergence(as_gamma, gamma))
    torch.testing.assert_close(D.kl_divergence(gamma, exponential),
                               D.kl_divergence(gamma, as_gamma))
    assert D.kl_divergence(gamma, D.Uniform(0.0, 1.0)).tolist() == [math.inf] * 2
    assert D.kl_divergence(D.Normal(torch.zeros(2), 1.0), gamma).tolist() == [math.inf] * 2
    uniform = D.Uniform(torch.tensor([-1.0, 0.5]), torch.tensor([2.0, 3.0]))
    kl = D.kl_divergence(uniform, gamma)
    assert kl[0].item() == math.inf and math.isfinite(kl[1].item())
    assert D.kl_divergence(gamma, D.Normal(torch.zeros(2), 1.0)).shape == (2,)
    chi2 = D.Chi2(torch.tensor([3.0]))
    torch.testing.assert_close(D.kl_divergence(chi2, D.Chi2(torch.tensor([2.0]))),
                               D.kl_divergence(D.Gamma(1.5, 0.5), D.Gamma(1.0, 0.5)).reshape(1))


def test_a_gamma_of_concentration_one_is_an_exponential():
    rate = torch.tensor([0.5, 2.0, 3.0])
    gamma, exponential = D.Gamma(torch.ones(3), rate), D.Exponential(rate)
    value = torch.tensor([0.0, 0.7, 4.0])
    torch.testing.assert_close(gamma.log_prob(value), exponential.log_prob(value))
    torch.testing.assert_close(gamma.entropy(), exponential.entropy())
    torch.testing.assert_close(gamma.cdf(value), exponential.cdf(value))
    assert torch.equal(gamma.mean, exponential.mean)
    assert D.kl_divergence(exponential, gamma).abs().max().item() < 1e-6
