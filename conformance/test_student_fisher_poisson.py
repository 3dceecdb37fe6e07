"""StudentT, FisherSnedecor and Poisson: draws built from torch's samplers, moments where
they are undefined, validation, expand, reprs and divergences. The same assertions run on
torch; the oracle compares the numbers themselves."""

import math

import pytest
import torch
from torch import distributions as D


def test_student_t_is_a_normal_over_the_root_of_a_chi2():
    df = torch.tensor([0.5, 1.5, 3.0, 30.0], requires_grad=True)
    student = D.StudentT(df, torch.tensor([0.0, 1.0, -1.0, 2.0]), 2.0)
    torch.manual_seed(0)
    drawn = student.rsample((2,))
    torch.manual_seed(0)
    normal = torch.empty(2, 4).normal_()
    chi2 = D.Chi2(df.detach()).rsample((2,))
    expected = student.loc + 2.0 * (normal * torch.rsqrt(chi2 / df.detach()))
    assert torch.equal(drawn.detach(), expected) and drawn.grad_fn.name() == "AddBackward0"
    drawn.sum().backward()
    assert df.grad is not None
    mean, variance = student.mean, student.variance
    assert math.isnan(mean[0].item()) and mean[1:].tolist() == [1.0, -1.0, 2.0]
    assert math.isnan(variance[0].item()) and variance[1].item() == math.inf
    assert variance[2].item() == pytest.approx(12.0) and student.mode.tolist() == [0, 1, -1, 2]
    assert repr(D.StudentT(3.0)) == "StudentT(df: 3.0, loc: 0.0, scale: 1.0)"
    assert D.StudentT(3.0).batch_shape == () and student.expand((3, 4)).sample().shape == (3, 4)
    assert student.entropy().shape == (4,) and student.log_prob(torch.zeros(4)).shape == (4,)


def test_fisher_snedecor_is_a_ratio_of_two_gamma_draws():
    df1 = torch.tensor([1.0, 3.0, 5.0, 10.0], requires_grad=True)
    fisher = D.FisherSnedecor(df1, torch.tensor([1.0, 3.0, 5.0, 7.0]))
    torch.manual_seed(1)
    drawn = fisher.rsample((2,))
    torch.manual_seed(1)
    first = D.Gamma(df1.detach() * 0.5, df1.detach()).rsample((2,))
    second = D.Gamma(fisher.df2 * 0.5, fisher.df2).rsample((2,))
    assert torch.equal(drawn.detach(), first / second) and drawn.grad_fn.name() == "ClampBackward1"
    assert math.isnan(fisher.mean[0].item()) and fisher.mean[2].item() == pytest.approx(5 / 3)
    assert math.isnan(fisher.mode[0].item()) and math.isnan(fisher.variance[1].item())
    assert repr(D.FisherSnedecor(2.0, 3.0)) == "FisherSnedecor(df1: 2.0, df2: 3.0)"
    assert fisher.expand((2, 4)).sample().shape == (2, 4)
    assert bool(fisher.log_prob(torch.ones(4)).isfinite().all())


def test_poisson_draws_are_torch_poisson():
    poisson = D.Poisson(torch.tensor([0.0, 0.5, 4.0, 30.0], requires_grad=True))
    torch.manual_seed(2)
    drawn = poisson.sample((3,))
    torch.manual_seed(2)
    assert torch.equal(drawn, torch.poisson(poisson.rate.detach().expand(3, 4)))
    assert not drawn.requires_grad and not poisson.has_rsample
    with pytest.raises(NotImplementedError):
        poisson.rsample()
    assert poisson.mode.tolist() == [0.0, 0.0, 4.0, 30.0] and poisson.variance is poisson.rate
    log_prob = poisson.log_prob(torch.tensor([0.0, 1.0, 3.0, 28.0]))
    assert log_prob[0].item() == 0.0  # no events at rate zero: certain
    assert log_prob[2].item() == pytest.approx(3 * math.log(4) - 4 - math.log(6))
    assert repr(D.Poisson(3.0)) == "Poisson(rate: 3.0)"
    assert poisson.expand((2, 4)).sample().shape == (2, 4)


@pytest.mark.parametrize("make, message", [
    (lambda: D.StudentT(-1.0), r"^Expected parameter df \(Tensor of shape \(\)\) of "
     r"distribution Chi2\(\) to satisfy the constraint GreaterThan\(lower_bound=0.0\)"),
    (lambda: D.FisherSnedecor(1.0, 0.0), r"^Expected parameter concentration \(Tensor of shape "
     r"\(\)\) of distribution Gamma\(concentration: 0.0, rate: 0.0\)"),
    (lambda: D.Poisson(-1.0), r"^Expected parameter rate \(Tensor of shape \(\)\) of "
     r"distribution Poisson\(rate: -1.0\) to satisfy the constraint "
     r"GreaterThanEq\(lower_bound=0.0\)"),
    (lambda: D.Poisson(torch.tensor([1.0])).log_prob(torch.tensor([0.5])),
     r"^Expected value argument \(Tensor of shape \(1,\)\) to be within the support "
     r"\(IntegerGreaterThan\(lower_bound=0\)\) of the distribution Poisson"),
])
def test_validation(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_poisson_divergences():
    p, q = D.Poisson(torch.tensor([1.0, 2.0])), D.Poisson(torch.tensor([3.0, 0.5]))
    kl = D.kl_divergence(p, q)
    assert kl.grad_fn is None and kl[0].item() == pytest.approx(math.log(1 / 3) + 2)
    bernoulli = D.Bernoulli(torch.tensor([0.3, 0.9]))
    assert bool(D.kl_divergence(bernoulli, q).isfinite().all())
    assert D.kl_divergence(p, bernoulli).tolist() == [math.inf] * 2
