"""Oracle test: LKJCholesky and Wishart, seeded alike in refgrad and torch.

What is compared bit for bit: the generator's state after each draw (the same numbers drawn,
in the same order, the Wishart's redraws included), the warnings, the moments computed from
a given covariance, and the LKJ draws' structure. What is compared to a tolerance: the draws
themselves, which pass through torch's `sqrt` (not correctly rounded, chapter 14) and, for
the Wishart, through matrix products and Cholesky factors whose rounding is BLAS's and
LAPACK's; and the densities, entropies and gradients, which pass through `lgamma` and
`mvlgamma` as well.
"""

import warnings

import numpy as np
import pytest
import torch

import refgrad

SEEDS = [0, 1, 7, 2**32 + 3]
TOLERANCES = {np.float32: (1e-5, 1e-6), np.float64: (1e-12, 1e-13)}


def _run(case, seed):
    made = []
    for T in (torch, refgrad):
        T.manual_seed(seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = case(T)
        out = out if isinstance(out, tuple) else (out,)
        made.append(([t.detach().numpy() for t in out], T.get_rng_state().numpy(),
                     [(w.category, str(w.message)) for w in caught]))
    return made


def assert_like(case, seed, exact=()):
    """The states and warnings alike; outputs numbered in ``exact`` equal, the rest close."""
    (theirs, their_state, their_warnings), (ours, our_state, our_warnings) = _run(case, seed)
    assert np.array_equal(their_state, our_state) and their_warnings == our_warnings
    for k, (a, b) in enumerate(zip(theirs, ours, strict=True)):
        assert a.dtype == b.dtype and a.shape == b.shape
        if k in exact:
            assert np.array_equal(a, b, equal_nan=True), (k, a, b)
        else:
            rtol, atol = TOLERANCES[a.dtype.type]
            np.testing.assert_allclose(b, a, rtol=rtol, atol=atol * max(1.0, np.abs(a).max()))


def _lkj(dtype, dim, concentration, shape):
    def case(T):
        eta = T.tensor(concentration, dtype=getattr(T, dtype), requires_grad=True)
        lkj = T.distributions.LKJCholesky(dim, eta)
        drawn = lkj.sample(shape)
        log_prob = lkj.log_prob(drawn)
        (gradient,) = T.autograd.grad(log_prob.sum(), eta)
        unit = (drawn[..., 0, 0] == 1, drawn == drawn.tril())  # the structure, exactly
        return (*unit, drawn, log_prob, gradient)
    return case


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dim,concentration,shape", [
    (2, 0.5, (3,)), (3, 1.0, ()), (3, [0.3, 2.0], (4,)), (5, [[0.7], [4.0]], (2,))])
def test_lkj_draws_densities_and_gradients(seed, dim, concentration, shape):
    assert_like(_lkj("float64", dim, concentration, shape), seed, exact=(0, 1))


@pytest.mark.parametrize("seed", SEEDS)
def test_lkj_in_single_precision_with_few_normal_numbers(seed):
    # fewer than 16 normal numbers per draw: torch's one-at-a-time normal path
    assert_like(_lkj("float32", 3, 1.5, ()), seed, exact=(0, 1))
    assert_like(_lkj("float32", 2, [0.4, 3.0], (3,)), seed, exact=(0, 1))


def _covariance(T, dtype, batch, p):
    rng = np.random.default_rng(p + len(batch))
    a = rng.standard_normal(batch + (p, p))
    return T.tensor(a @ np.swapaxes(a, -1, -2) + np.eye(p), dtype=getattr(T, dtype))


def _wishart(dtype, p, df, name, batch=(), shape=()):
    def case(T):
        df_t = T.tensor(df, dtype=getattr(T, dtype), requires_grad=True)
        covariance = _covariance(T, dtype, batch, p)
        matrix = {"covariance_matrix": covariance, "scale_tril": T.linalg.cholesky(covariance),
                  "precision_matrix": T.linalg.inv(covariance)}[name].requires_grad_()
        wishart = T.distributions.Wishart(df_t, **{name: matrix})
        drawn = wishart.rsample(shape)
        log_prob, entropy = wishart.log_prob(drawn.detach()), wishart.entropy()
        gradients = T.autograd.grad(log_prob.sum() + entropy.sum(), (df_t, matrix))
        moments = (wishart.mean, wishart.variance, wishart.mode)
        return (*moments, drawn, log_prob, entropy, *gradients, wishart.precision_matrix)
    return case


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p,df,batch,shape", [
    (2, 3.0, (), ()), (3, [4.5, 9.0], (2,), (4,)), (4, 6.0, (), (7,))])
def test_wishart_from_a_covariance(seed, dtype, p, df, batch, shape):
    # the moments are elementwise in the given covariance: torch's bits
    assert_like(_wishart(dtype, p, df, "covariance_matrix", batch, shape), seed, exact=(0, 1, 2))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", ["scale_tril", "precision_matrix"])
def test_wishart_from_a_factor_or_a_precision(seed, name):
    assert_like(_wishart("float64", 3, [3.5, 5.0], name, (2,), (3,)), seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_single_wishart_draw_and_its_gradient(seed):
    def case(T):
        df = T.tensor(4.0, dtype=T.float64, requires_grad=True)
        scale_tril = T.linalg.cholesky(_covariance(T, "float64", (), 3)).requires_grad_()
        drawn = T.distributions.Wishart(df, scale_tril=scale_tril).rsample()
        return (drawn, *T.autograd.grad(drawn.sum(), (df, scale_tril)))
    assert_like(case, seed)


def test_the_divergence_between_wishart_batches():
    def case(T):
        p = T.distributions.Wishart(T.tensor([3.0, 5.0, 2.5], dtype=T.float64),
                                    covariance_matrix=_covariance(T, "float64", (), 2))
        q = T.distributions.Wishart(T.tensor(4.0, dtype=T.float64),
                                    covariance_matrix=_covariance(T, "float64", (3,), 2))
        return T.distributions.kl_divergence(p, q), T.distributions.kl_divergence(q, p)
    assert_like(case, 0)
