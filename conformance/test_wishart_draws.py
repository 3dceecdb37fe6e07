"""Wishart draws by Bartlett's decomposition and torch's repair loop, rebuilt from their
parts; their gradients; expand; the value checks; the divergence the exponential-family
formula gives; and where the package names both families. The same assertions run on
torch."""

import math
import warnings

import pytest
import torch
from torch import distributions as D

F64 = torch.float64
COV = torch.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=F64)
VERSION_ERROR = ("one of the variables needed for gradient computation has been modified by "
                 "an inplace operation: [CPUBoolType [3]] is at version 1; expected version 0 "
                 "instead.")


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return function(*args, **kwargs)


def _log_multigamma_2(a):
    return 0.5 * math.log(math.pi) + math.lgamma(a) + math.lgamma(a - 0.5)


def _bartlett(df, scale_tril, shape, batch=()):
    """One Bartlett draw from the distribution's parts, consuming the generator alike."""
    p = scale_tril.shape[-1]
    steps = torch.arange(p, dtype=scale_tril.dtype).expand(torch.Size(batch) + (-1,))
    roots = D.Chi2(df.unsqueeze(-1) - steps).rsample(shape).sqrt()
    factor = roots.clamp(min=torch.finfo(roots.dtype).eps).diag_embed()
    i, j = torch.tril_indices(p, p, -1)
    factor[..., i, j] = torch.randn(torch.Size(shape) + batch + (p * (p - 1) // 2,),
                                    dtype=scale_tril.dtype)
    product = scale_tril @ factor
    return product @ product.mT


def test_wishart_warns_and_draws_every_good_sample_again():
    df = torch.tensor([4.5, 7.0], dtype=F64)
    scale_tril = torch.tensor([[1.0, 0.0, 0.0], [0.5, 2.0, 0.0], [-0.3, 0.1, 0.7]], dtype=F64)
    wishart = D.Wishart(df, scale_tril=scale_tril)
    torch.manual_seed(6)
    with pytest.warns(UserWarning) as caught:
        drawn = wishart.rsample((3,))
    assert [str(w.message) for w in caught] == ["Singular sample detected."]
    torch.manual_seed(6)
    first = _bartlett(df, scale_tril, (3,), (2,))
    second = _bartlett(df, scale_tril, (3,), (2,))  # every sample passed, so all are redrawn
    assert drawn.shape == (3, 2, 3, 3) and torch.equal(drawn, second)
    assert bool(D.constraints.positive_definite.check(drawn).all())
    torch.manual_seed(6)
    with pytest.warns(UserWarning, match="Singular sample detected."):
        assert torch.equal(wishart.rsample((3,), max_try_correction=0), first)
    torch.manual_seed(6)
    with pytest.warns(UserWarning, match="Singular sample detected."):
        single = wishart.sample()
    torch.manual_seed(6)
    _bartlett(df, scale_tril, (), (2,))
    assert torch.equal(single, _bartlett(df, scale_tril, (1,), (2,))[0])


def test_a_wishart_draw_without_a_sample_shape_is_differentiable():
    df = torch.tensor(5.0, dtype=F64, requires_grad=True)
    scale_tril = torch.tensor([[1.0, 0.0], [0.5, 2.0]], dtype=F64, requires_grad=True)
    wishart = D.Wishart(df, scale_tril=scale_tril)
    torch.manual_seed(2)
    drawn = quietly(wishart.rsample)
    assert drawn.grad_fn.name() == "torch::autograd::CopySlices"
    got = torch.autograd.grad(drawn.sum(), (df, scale_tril))
    torch.manual_seed(2)
    _bartlett(df, scale_tril, ())
    expected = torch.autograd.grad(_bartlett(df, scale_tril, (1,)).sum(), (df, scale_tril))
    assert bool((got[0] != 0).all())
    torch.testing.assert_close(got, expected, rtol=0, atol=0)
    assert not quietly(wishart.sample).requires_grad


def test_backward_through_a_wishart_draw_with_a_sample_shape_fails_as_in_torch():
    df = torch.tensor(5.0, dtype=F64, requires_grad=True)
    drawn = quietly(D.Wishart(df, covariance_matrix=COV).rsample, (3,))
    assert drawn.grad_fn.name() == "IndexPutBackward0"
    with pytest.raises(RuntimeError) as error:
        drawn.sum().backward()
    assert str(error.value).startswith(VERSION_ERROR)


def test_wishart_expand_keeps_the_matrices_it_has():
    wishart = D.Wishart(torch.tensor([3.0, 4.0], dtype=F64), scale_tril=torch.eye(2, dtype=F64),
                        validate_args=False)
    wishart.covariance_matrix
    wide = wishart.expand((3, 2))
    assert type(wide) is D.Wishart and wide.batch_shape == (3, 2) and not wide._validate_args
    assert repr(wide) == ("Wishart(covariance_matrix: torch.Size([3, 2, 2, 2]), scale_tril: "
                          "torch.Size([3, 2, 2, 2]), df: torch.Size([3, 2]))")
    assert wide.df.stride() == (0, 1) and "precision_matrix" not in vars(wide)
    assert quietly(wide.sample, (4,)).shape == (4, 3, 2, 2, 2)
    value = 3 * torch.eye(2, dtype=F64)
    assert torch.equal(wide.log_prob(value), wishart.log_prob(value).expand(3, 2))
    assert torch.equal(wide.entropy(), wishart.entropy().expand(3, 2))


def test_wishart_checks_the_value_and_the_multivariate_digamma_domain():
    wishart = D.Wishart(3.0, covariance_matrix=COV)
    with pytest.raises(ValueError) as error:
        wishart.log_prob(torch.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=F64))
    assert str(error.value).startswith(
        "Expected value argument (Tensor of shape (2, 2)) to be within the support "
        "(PositiveDefinite()) of the distribution Wishart(covariance_matrix: "
        "torch.Size([2, 2]), df: 3.0), but found invalid values:\n")
    D.Distribution.set_default_validate_args(False)
    try:
        unchecked = D.Wishart(torch.tensor(float("nan")), covariance_matrix=COV)
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(AssertionError) as error:
        unchecked.entropy()
    assert str(error.value) == "Wrong domain for multivariate digamma function."


def test_both_are_named_in_the_package_in_order():
    names = D.__all__
    assert names.index("Kumaraswamy") < names.index("LKJCholesky") < names.index("Laplace")
    assert names.index("Weibull") < names.index("Wishart") < names.index(
        "TransformedDistribution")
    assert D.LKJCholesky.__module__ == "torch.distributions.lkj_cholesky".replace(
        "torch", torch.__name__)
    assert D.Wishart.__module__ == "torch.distributions.wishart".replace("torch", torch.__name__)


def test_gradients_of_the_moments_in_df():
    df = torch.tensor([3.5, 6.0], dtype=F64, requires_grad=True)
    wishart = D.Wishart(df, covariance_matrix=COV)
    outer = COV.diagonal().unsqueeze(-1) * COV.diagonal()
    for moment, per_df in [(wishart.mean, COV), (wishart.variance, COV**2 + outer),
                           (wishart.mode, COV)]:
        assert moment.grad_fn.name() == "MulBackward0"
        (gradient,) = torch.autograd.grad(moment.sum(), df)
        torch.testing.assert_close(gradient, per_df.sum().expand(2))


def test_divergence_between_wisharts_is_the_exponential_family_one():
    other = torch.tensor([[1.0, 0.2], [0.2, 0.5]], dtype=F64)
    q = D.Wishart(torch.tensor(4.0, dtype=F64), covariance_matrix=other)
    trace = torch.linalg.solve(other, COV).trace().item()
    single = []
    for nu in (3.0, 5.0):
        p = D.Wishart(torch.tensor(nu, dtype=F64), covariance_matrix=COV)
        divergence = D.kl_divergence(p, q)
        assert divergence.shape == () and divergence.grad_fn.name() == "SubBackward0"
        psi = torch.tensor([nu / 2, nu / 2 - 0.5], dtype=F64).digamma().sum().item()
        expected = (nu / 2 * (trace - 2) + 2.0 * (math.log(0.46) - math.log(1.75))
                    + _log_multigamma_2(2.0) - _log_multigamma_2(nu / 2) + (nu - 4) / 2 * psi)
        assert divergence.item() == pytest.approx(expected, abs=1e-12)
        assert D.kl_divergence(p, p).item() == pytest.approx(0.0, abs=1e-12)
        single.append(divergence)
    # Batched, the formula sums the term of the second natural parameter, (df - p - 1)/2,
    # over the whole batch, so each entry also carries the other entries' terms.
    batch = D.Wishart(torch.tensor([3.0, 5.0], dtype=F64), covariance_matrix=COV)
    both = D.kl_divergence(batch, q)
    # that term: (q's parameter - p's) times dA/d(parameter) = log|V| + p log 2 + ψ_p(df/2)
    terms = [(4.0 - nu) / 2 * (math.log(1.75) + 2 * math.log(2) + torch.tensor(
        [nu / 2, nu / 2 - 0.5], dtype=F64).digamma().sum()) for nu in (3.0, 5.0)]
    torch.testing.assert_close(both, torch.stack([single[0] - terms[1], single[1] - terms[0]]))
    with pytest.raises(NotImplementedError):
        D.kl_divergence(D.LKJCholesky(2), D.LKJCholesky(2))
