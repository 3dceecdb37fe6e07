"""kl_divergence between the transformed families and the core ones: each closed form
against a Monte Carlo estimate of E_p[log p - log q], zero between equal distributions,
infinite where q misses part of p's support. The same assertions run on torch."""

import math

import pytest
import torch
from torch import distributions as D


def f64(values):
    return torch.tensor(values, dtype=torch.float64)


def families():
    return {
        "Normal": D.Normal(f64([0.2, -1.0]), f64([0.5, 1.5])),
        "Exponential": D.Exponential(f64([0.5, 2.0])),
        "Uniform": D.Uniform(f64([0.5, 1.0]), f64([2.0, 3.0])),
        "Gumbel": D.Gumbel(f64([0.2, -1.0]), f64([0.5, 1.5])),
        "Laplace": D.Laplace(f64([0.2, -1.0]), f64([0.5, 1.5])),
        "Cauchy": D.Cauchy(f64([0.2, -1.0]), f64([0.5, 1.5])),
        "HalfNormal": D.HalfNormal(f64([0.5, 1.5])),
        "Geometric": D.Geometric(f64([0.3, 0.9])),
        "Pareto": D.Pareto(f64([0.4, 0.5]), f64([5.0, 4.5])),
        "LogNormal": D.LogNormal(f64([0.2, -1.0]), f64([0.5, 1.5])),
        "OneHotCategorical": D.OneHotCategorical(f64([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])),
    }


PAIRS = [("Gumbel", "Gumbel"), ("Laplace", "Laplace"), ("Cauchy", "Cauchy"),
         ("HalfNormal", "HalfNormal"), ("Geometric", "Geometric"), ("Pareto", "Pareto"),
         ("LogNormal", "LogNormal"), ("OneHotCategorical", "OneHotCategorical"),
         ("Exponential", "Gumbel"), ("Gumbel", "Normal"), ("Laplace", "Normal"),
         ("Normal", "Gumbel"), ("Normal", "Laplace"), ("Pareto", "Exponential"),
         ("Pareto", "Normal"), ("Uniform", "Gumbel"), ("Uniform", "Pareto")]


def _other(name):
    d = families()[name]
    if name == "Uniform":
        return D.Uniform(f64([0.6, 0.9]), f64([2.5, 3.5]))
    if name == "Pareto":
        return D.Pareto(f64([0.3, 0.2]), f64([4.0, 3.0]))
    if name == "OneHotCategorical":
        return D.OneHotCategorical(f64([[0.4, 0.4, 0.2], [0.1, 0.3, 0.6]]))
    if name == "Geometric":
        return D.Geometric(f64([0.5, 0.6]))
    if name == "Exponential":
        return D.Exponential(f64([1.0, 0.7]))
    if name == "HalfNormal":
        return D.HalfNormal(f64([1.0, 0.7]))
    return type(d)(f64([0.5, -0.3]), f64([1.0, 0.7]))


@pytest.mark.parametrize("p_name, q_name", PAIRS)
def test_closed_forms_agree_with_monte_carlo(p_name, q_name):
    p, q = families()[p_name], _other(q_name)
    kl = D.kl_divergence(p, q)
    assert kl.shape == (2,) and kl.dtype == torch.float64
    torch.manual_seed(0)
    x = p.sample((200000,))
    estimate = (p.log_prob(x) - q.log_prob(x)).mean(0)
    torch.testing.assert_close(kl, estimate, atol=0.05, rtol=0.05)
    if p_name == q_name:
        torch.testing.assert_close(D.kl_divergence(p, p), torch.zeros(2, dtype=torch.float64))


def test_infinite_where_q_misses_support_and_refusals():
    fam = families()
    for p_name, q_name in [("Exponential", "Pareto"), ("Gumbel", "Exponential"),
                           ("Gumbel", "Uniform"), ("Laplace", "Pareto"), ("Normal", "Pareto"),
                           ("Pareto", "Uniform"), ("Laplace", "Exponential")]:
        kl = D.kl_divergence(fam[p_name], fam[q_name])
        assert torch.equal(kl, torch.full((2,), math.inf, dtype=torch.float64))
    far = D.Pareto(f64([2.0, 2.0]), f64([5.0, 5.0]))
    assert D.kl_divergence(fam["Pareto"], far).isinf().all()
    with pytest.raises(NotImplementedError, match="^No KL\\(p \\|\\| q\\) is implemented for p "
                       "type Cauchy and q type Normal$"):
        D.kl_divergence(fam["Cauchy"], fam["Normal"])
    base = D.Normal(f64([0.0]), f64([1.0]))
    with pytest.raises(NotImplementedError):
        D.kl_divergence(D.TransformedDistribution(base, D.transforms.ExpTransform()),
                        D.TransformedDistribution(base, D.transforms.SigmoidTransform()))


def test_transformed_pairs_reduce_to_their_bases():
    p, q = families()["LogNormal"], _other("LogNormal")
    assert torch.equal(D.kl_divergence(p, q), D.kl_divergence(p.base_dist, q.base_dist))
    h, k = families()["HalfNormal"], _other("HalfNormal")
    assert torch.equal(D.kl_divergence(h, k), D.kl_divergence(h.base_dist, k.base_dist))
