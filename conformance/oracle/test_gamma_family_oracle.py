"""Oracle test: the gamma family's seeded draws, gradients and densities, refgrad against
torch, bit for bit.

Each case is written once against a module ``T`` (torch or refgrad) and run on both after
the same seed; the tensors must agree exactly in values and dtype, and the generators'
states afterwards (the normal number a generator holds included) must agree too.
"""

import warnings

import numpy as np
import pytest
import torch

import refgrad

SEEDS = [0, 1, 7, 2**32 + 3]
SMALL = [0.0, 1e-6, 0.01, 0.3, 0.5, 0.999]
LARGE = [1.0, 1.5, 2.0, 7.99, 8.5, 30.0, 1000.0]


def _run(case, seed):
    made = []
    for T in (torch, refgrad):
        T.manual_seed(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = case(T)
        out = out if isinstance(out, tuple) else (out,)
        made.append(([t.detach().numpy() for t in out], T.get_rng_state().numpy()))
    return made


def assert_same(case, seed):
    (theirs, their_state), (ours, our_state) = _run(case, seed)
    for a, b in zip(theirs, ours, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b, equal_nan=True), (np.nonzero(a != b), a, b)
    assert np.array_equal(their_state, our_state)


# Densities, entropies and divergences go through log, exp, lgamma and gammainc, whose
# float kernels differ from torch's (SLEEF's and Cephes's, vectorised) by a few ulp;
# cancellation in their sums makes that a few more. They are compared to these tolerances;
# draws and gradients, which go through the C library's functions as torch's do, exactly.
TOLERANCES = {np.float32: (2e-5, 1e-6), np.float64: (1e-12, 1e-14)}


def assert_close(case, seed):
    (theirs, _), (ours, _) = _run(case, seed)
    for a, b in zip(theirs, ours, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        rtol, atol = TOLERANCES[a.dtype.type]
        np.testing.assert_allclose(b, a, rtol=rtol, atol=atol)


def _alphas(T, dtype):
    return T.tensor(SMALL + LARGE, dtype=getattr(T, dtype))


def _gamma_and_gradient(T, dtype):
    alpha = _alphas(T, dtype).repeat(3).requires_grad_()
    drawn = T._standard_gamma(alpha)
    (gradient,) = T.autograd.grad(drawn.sum(), alpha)
    return drawn, gradient, T.randn(3, dtype=T.float64)  # the normal the generator held


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", SEEDS)
def test_standard_gamma_draws_and_gradients_are_torchs(dtype, seed):
    assert_same(lambda T: _gamma_and_gradient(T, dtype), seed)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_grad_over_every_regime(dtype):
    def case(T):
        rng = np.random.default_rng(0)  # the same points for both
        alpha = np.concatenate([rng.uniform(0, 2, 300), rng.uniform(2, 40, 300),
                                [0.0, 1.0, 8.0, 100.0, 1.0, 9.0]])
        x = np.concatenate([rng.uniform(0, 1.2, 300), rng.uniform(0, 60, 300),
                            [1e-30, 0.0, 8.0, 100.0, np.inf, np.nan]])
        as_tensor = lambda v: T.tensor(v.tolist(), dtype=getattr(T, dtype))  # noqa: E731
        return T._standard_gamma_grad(as_tensor(alpha), as_tensor(x))
    assert_same(case, 0)


def _gamma_distribution(T, dtype):
    kind = getattr(T, dtype)
    concentration = T.tensor([0.2, 1.0, 2.5, 9.0], dtype=kind, requires_grad=True)
    rate = T.tensor([1.0, 0.5, 3.0, 1e-3], dtype=kind, requires_grad=True)
    gamma = T.distributions.Gamma(concentration, rate)
    drawn = gamma.rsample((3,))
    grads = T.autograd.grad(drawn.sum(), (concentration, rate))
    chi2 = T.distributions.Chi2(concentration * 3)
    return (drawn, *grads, gamma.sample((2,)), gamma.mean, gamma.mode, gamma.variance,
            chi2.rsample(), T.distributions.Gamma(2.0, 3.0).sample((4,)))


def _gamma_densities(T, dtype):
    kind = getattr(T, dtype)
    gamma = T.distributions.Gamma(T.tensor([0.2, 1.0, 2.5, 9.0], dtype=kind),
                                  T.tensor([1.0, 0.5, 3.0, 1e-3], dtype=kind))
    value = gamma.sample((2,)) + 0.5
    chi2 = T.distributions.Chi2(gamma.concentration * 3)
    return (gamma.log_prob(value), gamma.entropy(), gamma.cdf(value), chi2.log_prob(value),
            chi2.entropy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", SEEDS)
def test_gamma_and_chi2_are_torchs(dtype, seed):
    assert_same(lambda T: _gamma_distribution(T, dtype), seed)
    assert_close(lambda T: _gamma_densities(T, dtype), seed)


def _gamma_divergences(T):
    D = T.distributions
    gamma = D.Gamma(T.tensor([0.5, 2.0, 4.0]), T.tensor([1.5, 0.5, 2.0]))
    other = D.Gamma(T.tensor([1.0, 3.0, 0.7]), T.tensor([0.2, 1.0, 5.0]))
    exponential = D.Exponential(T.tensor([0.5, 2.0, 1.0]))
    normal = D.Normal(T.tensor([0.5, -1.0, 2.0]), T.tensor([1.0, 2.0, 0.5]))
    uniform = D.Uniform(T.tensor([-1.0, 0.5, 1.0]), T.tensor([2.0, 3.0, 1.5]))
    pairs = [(gamma, other), (exponential, gamma), (gamma, exponential), (gamma, normal),
             (uniform, gamma), (gamma, uniform), (normal, gamma)]
    return tuple(D.kl_divergence(p, q) for p, q in pairs)


def test_gamma_divergences_are_torchs():
    assert_close(_gamma_divergences, 0)


def _dirichlet_draws(T, dtype):
    kind = getattr(T, dtype)
    concentration = T.tensor([[0.5, 2.0, 7.5], [0.3, 0.2, 0.9], [1e-3, 1e-3, 2.0],
                              [20.0, 30.0, 1.0]], dtype=kind, requires_grad=True)
    drawn = T.distributions.Dirichlet(concentration).rsample((2,))
    (gradient,) = T.autograd.grad((drawn * T.arange(3.0, dtype=kind)).sum(), concentration)
    beta_1 = T.tensor([0.5, 2.0, 9.0, 40.0], dtype=kind, requires_grad=True)
    beta_0 = T.tensor([1.5, 0.5, 8.0, 35.0], dtype=kind)
    beta = T.distributions.Beta(beta_1, beta_0).rsample((3,))
    (beta_gradient,) = T.autograd.grad(beta.sum(), beta_1)
    return (drawn, gradient, beta, beta_gradient, T._sample_dirichlet(concentration.detach()),
            T.distributions.Beta(2.0, 3.0).sample((4,)), T.randn(3, dtype=T.float64))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", SEEDS)
def test_dirichlet_and_beta_draws_and_gradients_are_torchs(dtype, seed):
    assert_same(lambda T: _dirichlet_draws(T, dtype), seed)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dirichlet_grad_over_every_regime(dtype):
    def case(T):
        rng = np.random.default_rng(0)  # the same points for both
        alpha = np.concatenate([rng.uniform(0.01, 3, 400), rng.uniform(3, 40, 400)])
        beta = np.concatenate([rng.uniform(0.01, 3, 400), rng.uniform(3, 40, 400)])
        x = np.where(rng.uniform(size=800) < 0.3, rng.uniform(size=800), rng.beta(alpha, beta))
        as_tensor = lambda v: T.tensor(v.tolist(), dtype=getattr(T, dtype))  # noqa: E731
        return T._dirichlet_grad(as_tensor(x), as_tensor(alpha), as_tensor(alpha + beta))
    assert_same(case, 0)


def _beta_densities(T, dtype):
    D, kind = T.distributions, getattr(T, dtype)
    beta = D.Beta(T.tensor([0.5, 2.0, 9.0], dtype=kind), T.tensor([1.5, 0.5, 8.0], dtype=kind))
    other = D.Beta(T.tensor([1.0, 4.0, 2.0], dtype=kind), T.tensor([2.5, 0.3, 2.0], dtype=kind))
    dirichlet = D.Dirichlet(T.tensor([[0.5, 2.0, 1.0], [3.0, 1.0, 0.2]], dtype=kind))
    against = D.Dirichlet(T.tensor([[1.5, 1.0, 1.0], [0.3, 2.0, 5.2]], dtype=kind))
    three = lambda *v: T.tensor(v, dtype=kind)  # noqa: E731
    value = beta.sample()
    return (beta.log_prob(value), beta.entropy(), dirichlet.log_prob(dirichlet.sample()),
            dirichlet.entropy(), D.kl_divergence(beta, other),
            D.kl_divergence(dirichlet, against),
            D.kl_divergence(beta, D.Exponential(three(0.5, 2.0, 1.0))),
            D.kl_divergence(beta, D.Gamma(three(0.5, 2.0, 1.0), three(1.5, 0.5, 2.0))),
            D.kl_divergence(beta, D.Normal(three(0.5, -1.0, 0.0), three(1.0, 2.0, 0.5))),
            D.kl_divergence(beta, D.Uniform(three(-1.0, 0.0, 0.1), three(2.0, 1.0, 1.0))),
            D.kl_divergence(D.Uniform(three(0.1, 0.0, -0.1), three(0.9, 1.0, 0.5)), beta))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_beta_and_dirichlet_densities_are_torchs(dtype):
    assert_close(lambda T: _beta_densities(T, dtype), 0)


def _more_draws(T, dtype):
    D, kind = T.distributions, getattr(T, dtype)
    df = T.tensor([0.5, 1.5, 3.0, 30.0], dtype=kind, requires_grad=True)
    student = D.StudentT(df, T.tensor([0.0, 1.0, -1.0, 2.0], dtype=kind), 2.0).rsample((2,))
    (student_gradient,) = T.autograd.grad(student.sum(), df)
    df1 = T.tensor([1.0, 3.0, 5.0, 10.0], dtype=kind, requires_grad=True)
    fisher = D.FisherSnedecor(df1, T.tensor([1.0, 3.0, 5.0, 7.0], dtype=kind)).rsample((2,))
    (fisher_gradient,) = T.autograd.grad(fisher.sum(), df1)
    counts = D.Poisson(T.tensor([0.0, 0.5, 4.0, 30.0], dtype=kind)).sample((3,))
    return student, student_gradient, fisher, fisher_gradient, counts


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", SEEDS)
def test_student_fisher_and_poisson_draws_are_torchs(dtype, seed):
    assert_same(lambda T: _more_draws(T, dtype), seed)


def _more_densities(T, dtype):
    D, kind = T.distributions, getattr(T, dtype)
    four = lambda *v: T.tensor(v, dtype=kind)  # noqa: E731
    value = four(0.5, -1.0, 2.5, 0.1)
    student = D.StudentT(four(0.5, 1.5, 3.0, 30.0), four(0.0, 1.0, -1.0, 2.0), 2.0)
    fisher = D.FisherSnedecor(four(1.0, 3.0, 5.0, 10.0), four(1.0, 3.0, 5.0, 7.0))
    poisson, counts = D.Poisson(four(0.0, 0.5, 4.0, 30.0)), four(0.0, 1.0, 3.0, 28.0)
    return (student.log_prob(value), student.entropy(), fisher.log_prob(value.abs()),
            poisson.log_prob(counts), D.kl_divergence(poisson, D.Poisson(four(1, 2, 3, 4))),
            D.kl_divergence(D.Bernoulli(four(0.3, 0.9, 0.5, 0.1)), poisson))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_student_fisher_and_poisson_densities_are_torchs(dtype):
    assert_close(lambda T: _more_densities(T, dtype), 0)


def _binomial_draws(T, dtype):
    D, kind = T.distributions, getattr(T, dtype)
    rng = np.random.default_rng(5)  # counts and probabilities reaching both samplers
    counts = np.floor(np.concatenate([rng.uniform(0, 30, 30), rng.uniform(30, 3000, 30)]))
    probs = rng.uniform(0, 1, 60)
    drawn = T.binomial(T.tensor(counts.tolist(), dtype=kind), T.tensor(probs.tolist(),
                                                                      dtype=kind))
    binomial = D.Binomial(T.tensor([10.0, 20.0, 100.0], dtype=kind),
                          T.tensor([0.3, 0.9, 0.5], dtype=kind)).sample((2,))
    negative = D.NegativeBinomial(T.tensor([3.0, 0.5, 10.0], dtype=kind),
                                  T.tensor([0.2, 0.7, 0.5], dtype=kind)).sample((2,))
    return drawn, binomial, negative, T.rand(2, dtype=T.float64)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", SEEDS)
def test_binomial_draws_are_torchs(dtype, seed):
    assert_same(lambda T: _binomial_draws(T, dtype), seed)


def _binomial_densities(T, dtype):
    D, kind = T.distributions, getattr(T, dtype)
    three = lambda *v: T.tensor(v, dtype=kind)  # noqa: E731
    binomial = D.Binomial(three(10.0, 20.0, 100.0), three(0.3, 0.9, 0.5))
    same_count = D.Binomial(10, logits=three(0.3, -2.0, 0.0))
    negative = D.NegativeBinomial(three(3.0, 0.5, 10.0), three(0.2, 0.7, 0.5))
    value = three(3.0, 18.0, 50.0)
    return (binomial.log_prob(value), same_count.entropy(), negative.log_prob(value),
            D.kl_divergence(binomial, D.Binomial(three(10.0, 15.0, 100.0),
                                                 three(0.5, 0.2, 0.1))))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_binomial_densities_are_torchs(dtype):
    assert_close(lambda T: _binomial_densities(T, dtype), 0)


def _multinomial(T, dtype):
    kind = getattr(T, dtype)
    multinomial = T.distributions.Multinomial(10, T.tensor([[0.2, 0.3, 0.5], [0.0, 0.5, 0.5]],
                                                           dtype=kind))
    return multinomial.sample((3,)), multinomial.sample()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", SEEDS)
def test_multinomial_draws_are_torchs(dtype, seed):
    assert_same(lambda T: _multinomial(T, dtype), seed)


def test_multinomial_densities_are_torchs():
    def case(T):
        multinomial = T.distributions.Multinomial(6, logits=T.tensor([0.3, -1.0, 2.0]))
        return multinomial.log_prob(T.tensor([1.0, 2.0, 3.0])), multinomial.entropy()
    assert_close(case, 0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_concentrations_outside_the_domain_draw_as_torchs_do(dtype):
    def case(T):
        kind, nan, inf = getattr(T, dtype), float("nan"), float("inf")
        odd = T.tensor([nan, -0.5, -3.0, inf, -0.0, 1e-45], dtype=kind)
        rows = T.tensor([[nan, 1.0, 2.0], [-3.0, 1.0, 1.0], [inf, 1.0, 1.0]], dtype=kind)
        return T._standard_gamma(odd), T._sample_dirichlet(rows), T.randn(2, dtype=T.float64)
    assert_same(case, 0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gradients_outside_the_domain_are_torchs(dtype):
    def case(T):
        rng = np.random.default_rng(1)  # negative concentrations reach digamma's reflection
        alpha, x = rng.uniform(-5, 5, 500), rng.uniform(-1, 3, 500)
        total = alpha + rng.uniform(-5, 10, 500)
        as_tensor = lambda v: T.tensor(v.tolist(), dtype=getattr(T, dtype))  # noqa: E731
        return (T._standard_gamma_grad(as_tensor(alpha), as_tensor(x)),
                T._dirichlet_grad(as_tensor(x.clip(0, 1)), as_tensor(alpha), as_tensor(total)))
    assert_same(case, 0)
