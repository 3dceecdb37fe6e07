"""LKJCholesky and Wishart: arguments and their refusals, shapes, reprs, moments and
densities checked against closed forms, LKJ draws rebuilt from their parts, and the
gradients of densities. The Wishart's draws are in test_wishart_draws.py. The same
assertions run on torch."""

import math

import pytest
import torch
from torch import distributions as D

F64 = torch.float64
COV = torch.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=F64)


# --- LKJCholesky ---------------------------------------------------------------------------

def test_lkj_arguments_shapes_and_repr():
    with pytest.raises(ValueError) as error:
        D.LKJCholesky(1)
    assert str(error.value) == ("Expected dim to be an integer greater than or equal to 2. "
                                "Found dim=1.")
    lkj = D.LKJCholesky(3)
    assert lkj.concentration.dtype == torch.float32 and lkj.concentration.shape == ()
    assert (lkj.batch_shape, lkj.event_shape) == (torch.Size([]), torch.Size([3, 3]))
    assert repr(lkj) == "LKJCholesky(concentration: 1.0)" and lkj.dim == 3
    batched = D.LKJCholesky(4, torch.tensor([0.5, 2.0], dtype=F64))
    assert batched.batch_shape == (2,) and batched.event_shape == (4, 4)
    assert repr(batched) == "LKJCholesky(concentration: torch.Size([2]))"
    assert list(D.LKJCholesky.arg_constraints) == ["concentration"]
    assert repr(D.LKJCholesky.arg_constraints["concentration"]) == "GreaterThan(lower_bound=0.0)"
    assert repr(D.LKJCholesky.support) == "CorrCholesky()" and not D.LKJCholesky.has_rsample


def test_lkj_refuses_a_concentration_through_its_beta_first():
    with pytest.raises(ValueError) as error:
        D.LKJCholesky(2, 0.0, validate_args=False)  # the beta checks, whatever it is given
    assert str(error.value).startswith(
        "Expected parameter concentration (Tensor of shape (2, 2)) of distribution "
        "Dirichlet(concentration: torch.Size([2, 2])) to satisfy the constraint "
        "IndependentConstraint(GreaterThan(lower_bound=0.0), 1), but found invalid values:\n")
    D.Distribution.set_default_validate_args(False)
    try:
        with pytest.raises(ValueError) as error:
            D.LKJCholesky(3, 0.0, validate_args=True)
    finally:
        D.Distribution.set_default_validate_args(True)
    assert str(error.value) == (
        "Expected parameter concentration (Tensor of shape ()) of distribution "
        "LKJCholesky(concentration: 0.0) to satisfy the constraint GreaterThan(lower_bound=0.0), "
        "but found invalid values:\n0.0")


def test_lkj_draws_are_cholesky_factors_of_correlation_matrices():
    concentration = torch.tensor([0.3, 1.0, 6.0], dtype=F64, requires_grad=True)
    lkj = D.LKJCholesky(4, concentration)
    draws = lkj.sample((5,))
    assert draws.shape == (5, 3, 4, 4) and draws.dtype == F64 and draws.grad_fn is None
    assert bool(D.constraints.corr_cholesky.check(draws).all())
    assert torch.equal(draws, draws.tril()) and bool((draws.diagonal(0, -2, -1) > 0).all())
    torch.testing.assert_close((draws @ draws.mT).diagonal(0, -2, -1),
                               torch.ones(5, 3, 4, dtype=F64))
    assert bool((draws[..., 0, 0] == 1).all()) and bool((draws[..., 0, 1:] == 0).all())
    assert D.LKJCholesky(2).sample().shape == (2, 2)
    with pytest.raises(NotImplementedError):
        lkj.rsample()


def test_lkj_draw_is_the_onion_method_of_its_betas_and_normals():
    lkj = D.LKJCholesky(3, torch.tensor(2.0, dtype=F64))
    torch.manual_seed(4)
    drawn = lkj.sample((2,))
    torch.manual_seed(4)
    c = 2.0 + 0.5
    lengths = D.Beta(torch.tensor([0.5, 0.5, 1.5], dtype=F64),
                     torch.tensor([c, c, c - 0.5], dtype=F64)).sample((2,)).unsqueeze(-1)
    normal = torch.randn(2, 3, 3, dtype=F64).tril(-1)
    rows = lengths.sqrt() * (normal / normal.norm(dim=-1, keepdim=True).clamp(min=1e-300))
    diagonal = (1 - (rows**2).sum(-1)).clamp(min=torch.finfo(F64).tiny).sqrt()
    assert torch.equal(drawn, rows + torch.diag_embed(diagonal))


def _factor_of(r):
    """The Cholesky factor of the 2 x 2 correlation matrix of correlation ``r``."""
    return torch.tensor([[1.0, 0.0], [r, math.sqrt(1 - r * r)]], dtype=F64)


def test_lkj_density_in_two_dimensions_is_the_density_of_the_correlation():
    # p(r) = (1 - r²)^(η-1) / (2^(2η-1) B(η, η)) on (-1, 1)
    for eta in (0.5, 1.0, 2.0, 3.5):
        lkj = D.LKJCholesky(2, torch.tensor(eta, dtype=F64))
        for r in (-0.9, 0.0, 0.3):
            log_beta = 2 * math.lgamma(eta) - math.lgamma(2 * eta)
            expected = (eta - 1) * math.log(1 - r * r) - (2 * eta - 1) * math.log(2) - log_beta
            assert lkj.log_prob(_factor_of(r)).item() == pytest.approx(expected, abs=1e-12)


def test_lkj_density_when_uniform_in_three_dimensions():
    # 3 x 3 correlation matrices fill a volume of π²/2; the factor's density carries L_11
    lkj = D.LKJCholesky(3, torch.tensor(1.0, dtype=F64))
    draws = lkj.sample((4,))
    torch.testing.assert_close(lkj.log_prob(draws) - draws[:, 1, 1].log(),
                               torch.full((4,), math.log(2 / math.pi**2), dtype=F64))


def test_lkj_density_gradient_in_the_concentration():
    eta = torch.tensor([2.0, 0.7], dtype=F64, requires_grad=True)
    value = torch.stack([_factor_of(0.4), _factor_of(-0.6)])
    log_prob = D.LKJCholesky(2, eta).log_prob(value)
    assert log_prob.grad_fn.name() == "SubBackward0" and log_prob.shape == (2,)
    log_prob.sum().backward()
    r = torch.tensor([0.4, -0.6], dtype=F64)
    e = eta.detach()
    expected = (1 - r * r).log() - 2 * math.log(2) - 2 * e.digamma() + 2 * (2 * e).digamma()
    torch.testing.assert_close(eta.grad, expected)


def test_lkj_density_gradient_in_the_value():
    eta = torch.tensor(1.7, dtype=F64)
    value = torch.tensor([[1.0, 0, 0], [0.6, 0.8, 0], [0.0, 0.6, 0.8]], dtype=F64,
                         requires_grad=True)
    (gradient,) = torch.autograd.grad(D.LKJCholesky(3, eta).log_prob(value), value)
    orders = [2 * 0.7 + 3 - 2, 2 * 0.7 + 3 - 3]  # 2(η - 1) + dim - i for the rows after the first
    expected = torch.diag(torch.tensor([0.0, orders[0] / 0.8, orders[1] / 0.8], dtype=F64))
    torch.testing.assert_close(gradient, expected)


def test_lkj_checks_the_value_and_has_no_moments():
    lkj = D.LKJCholesky(2)
    with pytest.raises(ValueError) as error:
        lkj.log_prob(torch.eye(2) * 2)
    assert str(error.value) == (
        "Expected value argument (Tensor of shape (2, 2)) to be within the support "
        "(CorrCholesky()) of the distribution LKJCholesky(concentration: 1.0), but found "
        "invalid values:\ntensor([[2., 0.],\n        [0., 2.]])")
    with pytest.raises(ValueError, match="The right-most size of value must match event_shape"):
        lkj.log_prob(torch.eye(3))
    for name in ("mean", "variance"):
        with pytest.raises(NotImplementedError):
            getattr(lkj, name)
    with pytest.raises(NotImplementedError) as error:
        lkj.mode
    assert str(error.value) == f"{D.LKJCholesky} does not implement mode"
    with pytest.raises(NotImplementedError):
        lkj.entropy()


def test_lkj_expand():
    lkj = D.LKJCholesky(3, torch.tensor([0.5, 2.0]), validate_args=False)
    wide = lkj.expand((4, 2))
    assert type(wide) is D.LKJCholesky and wide.batch_shape == (4, 2) and wide.dim == 3
    assert wide.concentration.stride() == (0, 1) and not wide._validate_args
    assert wide.sample().shape == (4, 2, 3, 3) and wide.sample((5,)).shape == (5, 4, 2, 3, 3)
    value = lkj.sample()
    assert torch.equal(wide.log_prob(value), lkj.log_prob(value).expand(4, 2))
    assert repr(wide) == "LKJCholesky(concentration: torch.Size([4, 2]))"


# --- Wishart -------------------------------------------------------------------------------

def test_wishart_refuses_its_arguments():
    exactly_one = ("Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                   "specified.")
    for given in ({}, {"covariance_matrix": COV, "scale_tril": COV}):
        with pytest.raises(AssertionError) as error:
            D.Wishart(3.0, **given)
        assert str(error.value) == exactly_one
    with pytest.raises(ValueError) as error:
        D.Wishart(3.0, precision_matrix=torch.ones(2))
    assert str(error.value) == ("scale_tril must be at least two-dimensional, with optional "
                                "leading batch dimensions")
    with pytest.raises(ValueError) as error:
        D.Wishart(1.0, covariance_matrix=COV)
    assert str(error.value) == "Value of df=1.0 expected to be greater than ndim - 1 = 1."
    with pytest.raises(ValueError) as error:
        D.Wishart(torch.tensor([1.0, 3.0]), covariance_matrix=COV)
    assert str(error.value) == ("Value of df=tensor([1., 3.]) expected to be greater than "
                                "ndim - 1 = 1.")
    with pytest.warns(UserWarning) as caught:
        D.Wishart(1.5, covariance_matrix=COV)
    assert [str(w.message) for w in caught] == [
        "Low df values detected. Singular samples are highly likely to occur for ndim - 1 < "
        "df < ndim."]


def test_wishart_validation_names_the_matrix_and_df():
    with pytest.raises(ValueError) as error:
        D.Wishart(3, covariance_matrix=-torch.eye(2))
    assert str(error.value) == (
        "Expected parameter covariance_matrix (Tensor of shape (2, 2)) of distribution "
        "Wishart(covariance_matrix: torch.Size([2, 2]), df: 3.0) to satisfy the constraint "
        "PositiveDefinite(), but found invalid values:\ntensor([[-1., -0.],\n        [-0., -1.]])")
    with pytest.raises(ValueError) as error:
        D.Wishart(3, scale_tril=torch.ones(2, 2))
    assert "to satisfy the constraint LowerCholesky()" in str(error.value)
    with pytest.raises(ValueError) as error:
        D.Wishart(float("nan"), covariance_matrix=torch.eye(2))
    assert str(error.value) == (
        "Expected parameter df (Tensor of shape ()) of distribution Wishart(covariance_matrix: "
        "torch.Size([2, 2]), df: nan) to satisfy the constraint GreaterThan(lower_bound=1), "
        "but found invalid values:\nnan")


def test_wishart_shapes_reprs_and_lazy_matrices():
    wishart = D.Wishart(torch.tensor([3.0, 4.0]), scale_tril=torch.eye(2))
    assert (wishart.batch_shape, wishart.event_shape) == ((2,), (2, 2))
    assert repr(wishart) == "Wishart(scale_tril: torch.Size([2, 2, 2]), df: torch.Size([2]))"
    assert "covariance_matrix" not in vars(wishart) and "precision_matrix" not in vars(wishart)
    assert torch.equal(wishart.covariance_matrix, torch.eye(2).expand(2, 2, 2))
    assert wishart.covariance_matrix.stride() == (0, 2, 1) and "covariance_matrix" in vars(wishart)
    assert list(wishart.arg_constraints) == ["covariance_matrix", "precision_matrix",
                                             "scale_tril", "df"]
    assert repr(wishart.arg_constraints["df"]) == "GreaterThan(lower_bound=1)"
    assert repr(D.Wishart.support) == "PositiveDefinite()" and D.Wishart.has_rsample
    number = D.Wishart(2, covariance_matrix=COV)
    assert number.df.dtype == F64 and number.df.shape == () and number.batch_shape == ()
    assert repr(number) == "Wishart(covariance_matrix: torch.Size([2, 2]), df: 2.0)"
    kept = D.Wishart(torch.tensor([3, 4]), precision_matrix=COV.expand(3, 1, 2, 2))
    assert kept.df.dtype == torch.int64 and kept.batch_shape == (3, 2)
    assert repr(D.Wishart(3.0, precision_matrix=COV)) == (
        "Wishart(precision_matrix: torch.Size([2, 2]), df: 3.0)")


def test_wishart_parameterizations_agree():
    scale_tril = torch.linalg.cholesky(COV)
    made = [D.Wishart(5.0, covariance_matrix=COV), D.Wishart(5.0, scale_tril=scale_tril),
            D.Wishart(5.0, precision_matrix=torch.linalg.inv(COV))]
    value = torch.tensor([[6.0, 1.0], [1.0, 3.0]], dtype=F64)
    for wishart in made:
        torch.testing.assert_close(wishart.covariance_matrix, COV)
        torch.testing.assert_close(wishart.precision_matrix, torch.linalg.inv(COV))
        torch.testing.assert_close(wishart.scale_tril, scale_tril)
        torch.testing.assert_close(wishart.log_prob(value), made[0].log_prob(value))


def test_wishart_moments():
    wishart = D.Wishart(torch.tensor([4.0, 2.5], dtype=F64), covariance_matrix=COV)
    torch.testing.assert_close(wishart.mean, torch.stack([4.0 * COV, 2.5 * COV]))
    outer = COV.diagonal().unsqueeze(-1) * COV.diagonal()
    torch.testing.assert_close(wishart.variance, torch.stack([4.0 * (COV**2 + outer),
                                                              2.5 * (COV**2 + outer)]))
    mode = wishart.mode  # (df - p - 1) V where positive, else NaN
    torch.testing.assert_close(mode[0], COV) and bool(mode[1].isnan().all())
    assert mode.grad_fn is None and wishart.mean.shape == (2, 2, 2)


def _log_multigamma_2(a):
    return 0.5 * math.log(math.pi) + math.lgamma(a) + math.lgamma(a - 0.5)


def test_wishart_density_and_entropy_in_two_dimensions():
    nu, value = 4.5, torch.tensor([[6.0, 1.0], [1.0, 3.0]], dtype=F64)
    wishart = D.Wishart(nu, covariance_matrix=COV)
    log_det_v, log_det_x = math.log(1.75), math.log(17.0)
    trace = torch.linalg.solve(COV, value).trace().item()
    expected = ((nu - 3) / 2 * log_det_x - trace / 2 - nu * math.log(2) - nu / 2 * log_det_v
                - _log_multigamma_2(nu / 2))
    assert wishart.log_prob(value).item() == pytest.approx(expected, abs=1e-12)
    digammas = torch.tensor([nu / 2, nu / 2 - 0.5], dtype=F64).digamma().sum().item()
    entropy = (1.5 * log_det_v + 3 * math.log(2) + _log_multigamma_2(nu / 2)
               - (nu - 3) / 2 * digammas + nu)
    assert wishart.entropy().item() == pytest.approx(entropy, abs=1e-12)
    torch.testing.assert_close(D.ExponentialFamily.entropy(wishart), wishart.entropy())


def test_a_one_by_one_wishart_is_a_gamma_gradients_included():
    df = torch.tensor([3.0, 1.5], dtype=F64, requires_grad=True)
    scale = torch.tensor([[[2.0]], [[0.5]]], dtype=F64, requires_grad=True)
    wishart = D.Wishart(df, covariance_matrix=scale)
    gamma = D.Gamma(df / 2, 1 / (2 * scale[:, 0, 0]))
    value = torch.tensor([1.5, 0.2], dtype=F64)
    mine = wishart.log_prob(value.view(2, 1, 1)) + wishart.entropy()
    theirs = gamma.log_prob(value) + gamma.entropy()
    torch.testing.assert_close(mine, theirs)
    (mine_df, mine_scale) = torch.autograd.grad(mine.sum(), (df, scale))
    (their_df, their_scale) = torch.autograd.grad(theirs.sum(), (df, scale))
    torch.testing.assert_close(mine_df, their_df)
    torch.testing.assert_close(mine_scale, their_scale)
    torch.testing.assert_close(wishart.variance[:, 0, 0], gamma.variance)
