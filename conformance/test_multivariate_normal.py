"""MultivariateNormal: its three parameterizations, seeded draws through normal_, density,
entropy, expand, reprs, refusals and the divergence between two of them. Values through
matrix products and triangular solves are compared with tolerances (a different BLAS may
round differently); shapes, reprs and messages exactly. The same assertions run on torch."""

import math

import pytest
import torch
from torch import distributions as D


def f64(values):
    return torch.tensor(values, dtype=torch.float64)


COV = f64([[2.0, 0.5], [0.5, 1.0]])
LOC = f64([[0.2, -1.0], [1.0, 0.0], [0.0, 0.3]])


@pytest.mark.parametrize("keyword", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_parameterizations_agree(keyword):
    given = {"covariance_matrix": COV, "precision_matrix": torch.linalg.inv(COV),
             "scale_tril": torch.linalg.cholesky(COV)}[keyword]
    d = D.MultivariateNormal(LOC, **{keyword: given})
    assert (d.batch_shape, d.event_shape) == (torch.Size([3]), torch.Size([2]))
    assert repr(d) == ("MultivariateNormal(loc: torch.Size([3, 2]), "
                       f"{keyword}: torch.Size([3, 2, 2]))")
    torch.testing.assert_close(d.covariance_matrix, COV.expand(3, 2, 2))
    torch.testing.assert_close(d.precision_matrix, torch.linalg.inv(COV).expand(3, 2, 2))
    torch.testing.assert_close(d.scale_tril, torch.linalg.cholesky(COV).expand(3, 2, 2))
    torch.testing.assert_close(d.variance, torch.diagonal(COV).expand(3, 2))
    value = f64([0.5, 0.1])
    diff = value - LOC
    expected = (-0.5 * (2 * math.log(2 * math.pi) + (diff @ torch.linalg.inv(COV) * diff).sum(-1))
                - 0.5 * torch.logdet(COV))
    torch.testing.assert_close(d.log_prob(value), expected)
    torch.testing.assert_close(d.entropy(), (1 + math.log(2 * math.pi) + 0.5 * torch.logdet(
        COV)).expand(3))


def test_draws_follow_the_factor():
    d = D.MultivariateNormal(LOC, COV)
    torch.manual_seed(0)
    draw = d.rsample((4,))
    torch.manual_seed(0)
    eps = torch.empty(4, 3, 2, dtype=torch.float64).normal_()
    torch.testing.assert_close(draw, LOC + eps @ torch.linalg.cholesky(COV).mT)
    assert draw.shape == (4, 3, 2)
    torch.manual_seed(0)
    assert torch.equal(d.sample((4,)), draw)
    loc = LOC.clone().requires_grad_()
    D.MultivariateNormal(loc, COV).rsample().sum().backward()
    assert torch.equal(loc.grad, torch.ones(3, 2, dtype=torch.float64))


def test_expand_broadcast_and_refusals():
    d = D.MultivariateNormal(torch.zeros(2), torch.eye(2))
    assert repr(d) == ("MultivariateNormal(loc: torch.Size([2]), covariance_matrix: "
                       "torch.Size([2, 2]))")
    wide = d.expand((4, 3))
    assert wide.batch_shape == (4, 3) and wide.covariance_matrix.shape == (4, 3, 2, 2)
    assert wide.log_prob(torch.ones(2)).shape == (4, 3)
    batched = D.MultivariateNormal(torch.zeros(3, 2), scale_tril=torch.eye(2).expand(3, 2, 2))
    assert batched.log_prob(torch.ones(5, 3, 2)).shape == (5, 3)
    with pytest.raises(ValueError, match="^loc must be at least one-dimensional.$"):
        D.MultivariateNormal(torch.tensor(0.0), torch.eye(2))
    with pytest.raises(ValueError, match="^Exactly one of covariance_matrix or precision_matrix "
                       "or scale_tril may be specified.$"):
        D.MultivariateNormal(torch.zeros(2))
    with pytest.raises(ValueError, match="^scale_tril matrix must be at least two-dimensional, "
                       "with optional leading batch dimensions$"):
        D.MultivariateNormal(torch.zeros(2), scale_tril=torch.ones(2))
    with pytest.raises(ValueError, match=r"^Expected parameter covariance_matrix \(Tensor of "
                       r"shape \(2, 2\)\) of distribution MultivariateNormal\(loc: torch.Size"
                       r"\(\[2\]\), covariance_matrix: torch.Size\(\[2, 2\]\)\) to satisfy the "
                       r"constraint PositiveDefinite\(\), but found invalid values:"):
        D.MultivariateNormal(torch.zeros(2), torch.ones(2, 2))


def test_kl_between_multivariate_normals():
    p = D.MultivariateNormal(LOC, COV)
    q = D.MultivariateNormal(f64([0.0, 0.5]), f64([[1.0, 0.2], [0.2, 3.0]]))
    kl = D.kl_divergence(p, q)
    q_inv = torch.linalg.inv(q.covariance_matrix)
    diff = q.loc - p.loc
    expected = 0.5 * (torch.diagonal(q_inv @ COV, dim1=-2, dim2=-1).sum(-1)
                      + (diff.unsqueeze(-2) @ q_inv @ diff.unsqueeze(-1)).reshape(3) - 2
                      + torch.logdet(q.covariance_matrix) - torch.logdet(COV))
    torch.testing.assert_close(kl, expected)
    torch.testing.assert_close(D.kl_divergence(p, p), torch.zeros(3, dtype=torch.float64))
    with pytest.raises(ValueError, match="^KL-divergence between two Multivariate Normals with "
                       " +different event shapes cannot be computed$"):
        D.kl_divergence(p, D.MultivariateNormal(torch.zeros(3), torch.eye(3)))
