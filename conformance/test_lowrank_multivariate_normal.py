"""LowRankMultivariateNormal: a covariance W Wᵀ + D never formed, yet agreeing with the dense
MultivariateNormal of that covariance in density, entropy, parameterizations and divergences;
seeded draws in torch's order; refusals. Values through matrix products and solves are
compared with tolerances (a different BLAS may round differently). The same assertions run
on torch."""

import pytest
import torch
from torch import distributions as D


def f64(values):
    return torch.tensor(values, dtype=torch.float64)


W = f64([[[1.0], [0.5]], [[0.2], [-0.3]], [[0.0], [1.0]]])
DIAG = f64([0.5, 2.0])
LOC = f64([0.2, -1.0])


def _pair():
    low = D.LowRankMultivariateNormal(LOC, W, DIAG)
    dense = D.MultivariateNormal(LOC, W @ W.mT + torch.diag_embed(DIAG))
    return low, dense


def test_agrees_with_the_dense_distribution():
    low, dense = _pair()
    assert (low.batch_shape, low.event_shape) == (torch.Size([3]), torch.Size([2]))
    assert repr(low) == ("LowRankMultivariateNormal(loc: torch.Size([3, 2]), cov_factor: "
                         "torch.Size([3, 2, 1]), cov_diag: torch.Size([3, 2]))")
    value = f64([0.5, 0.1])
    torch.testing.assert_close(low.log_prob(value), dense.log_prob(value))
    torch.testing.assert_close(low.entropy(), dense.entropy())
    for name in ("covariance_matrix", "precision_matrix", "scale_tril", "variance"):
        torch.testing.assert_close(getattr(low, name), getattr(dense, name))
    wide = low.expand((4, 3))
    assert wide.batch_shape == (4, 3) and wide.cov_factor.shape == (4, 3, 2, 1)
    assert wide.log_prob(value).shape == (4, 3)


def test_draws_take_the_factor_noise_first():
    low, _ = _pair()
    torch.manual_seed(0)
    draw = low.rsample((2,))
    torch.manual_seed(0)
    eps_w = torch.empty(2, 3, 1, dtype=torch.float64).normal_()
    eps_d = torch.empty(2, 3, 2, dtype=torch.float64).normal_()
    torch.testing.assert_close(draw, LOC + (W @ eps_w.unsqueeze(-1)).squeeze(-1)
                               + DIAG.sqrt() * eps_d)


def test_divergences_match_the_dense_ones():
    low, dense = _pair()
    other_w, other_d = f64([[0.3, 0.1], [0.2, 0.4]]), f64([1.0, 1.5])
    other = D.LowRankMultivariateNormal(f64([0.1, 0.1]), other_w, other_d)
    other_dense = D.MultivariateNormal(f64([0.1, 0.1]), other_w @ other_w.mT + other_d.diag())
    expected = D.kl_divergence(dense, other_dense)
    torch.testing.assert_close(D.kl_divergence(low, other), expected)
    torch.testing.assert_close(D.kl_divergence(dense, other), expected)
    torch.testing.assert_close(D.kl_divergence(low, other_dense), expected)
    torch.testing.assert_close(D.kl_divergence(low, low), torch.zeros(3, dtype=torch.float64))
    three = D.MultivariateNormal(torch.zeros(3, dtype=torch.float64),
                                 torch.eye(3, dtype=torch.float64))
    with pytest.raises(ValueError, match=r"^KL-divergence between two \(Low Rank\) Multivariate "
                       "Normals with +different event shapes cannot be computed$"):
        D.kl_divergence(low, three)


def test_refusals():
    with pytest.raises(ValueError, match="^loc must be at least one-dimensional.$"):
        D.LowRankMultivariateNormal(f64(0.0), W, DIAG)
    with pytest.raises(ValueError, match="^cov_factor must be at least two-dimensional, with "
                       "optional leading batch dimensions$"):
        D.LowRankMultivariateNormal(LOC, f64([1.0, 2.0]), DIAG)
    with pytest.raises(ValueError, match="^cov_factor must be a batch of matrices with shape "
                       "2 x m$"):
        D.LowRankMultivariateNormal(LOC, f64([[1.0, 2.0, 3.0]]), DIAG)
    with pytest.raises(ValueError, match=r"^cov_diag must be a batch of vectors with shape "
                       r"torch.Size\(\[2\]\)$"):
        D.LowRankMultivariateNormal(LOC, W, f64([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match=r"^Incompatible batch shapes: loc torch.Size\(\[2, "
                       r"2\]\), cov_factor torch.Size\(\[3, 2, 1\]\), cov_diag "
                       r"torch.Size\(\[2\]\)$"):
        D.LowRankMultivariateNormal(f64([[0.0, 0.0], [1.0, 1.0]]), W, DIAG)
    with pytest.raises(ValueError, match=r"^Expected parameter cov_diag \(Tensor of shape "
                       r"\(3, 2\)\)"):
        D.LowRankMultivariateNormal(LOC, W, f64([-1.0, 2.0]))
