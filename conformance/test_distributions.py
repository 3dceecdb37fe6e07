"""torch.distributions' core: constraints, the Distribution protocol (shapes, validation,
expand, repr), Normal, Uniform, Exponential, Bernoulli, Categorical, Independent and
kl_divergence. Seeded draws are torch's. The same assertions run on torch."""

import math
import warnings

import pytest
import torch
from torch import distributions as D
from torch.distributions import constraints as C


def test_constraints_check_and_print():
    assert repr(C.positive) == "GreaterThan(lower_bound=0.0)"
    assert repr(C.real_vector) == "IndependentConstraint(Real(), 1)"
    assert repr(C.integer_interval(0, 3)) == "IntegerInterval(lower_bound=0, upper_bound=3)"
    assert repr(C.unit_interval) == "Interval(lower_bound=0.0, upper_bound=1.0)"
    assert C.positive.check(torch.tensor([-1.0, 0.0, 2.0])).tolist() == [False, False, True]
    assert C.simplex.check(torch.tensor([[0.5, 0.5], [0.9, 0.2]])).tolist() == [True, False]
    assert C.real.check(torch.tensor([math.nan, 1.0])).tolist() == [False, True]
    assert C.independent(C.positive, 2).event_dim == 2 and C.boolean.is_discrete
    with pytest.raises(ValueError, match="^Expected value.dim\\(\\) >= 2 but got 1$"):
        C.independent(C.real, 2).check(torch.ones(3))
    with pytest.raises(ValueError, match="^Cannot determine validity of dependent constraint$"):
        C.dependent.check(1)


@pytest.mark.parametrize("loc, scale", [(0.0, 1.0), ([0.0, 1.0], [1.0, 2.0])])
def test_normal_shapes_draws_and_densities(loc, scale):
    as_tensor = (lambda v: torch.tensor(v)) if isinstance(loc, list) else (lambda v: v)
    normal = D.Normal(as_tensor(loc), as_tensor(scale))
    shape = torch.Size([2]) if isinstance(loc, list) else torch.Size([])
    assert (normal.batch_shape, normal.event_shape) == (shape, torch.Size([]))
    torch.manual_seed(0)
    drawn = normal.sample((3,))
    torch.manual_seed(0)
    plain = torch.normal(normal.loc.expand((3,) + shape), normal.scale.expand((3,) + shape))
    assert torch.equal(drawn, plain)
    torch.manual_seed(0)
    eps = torch.empty((3,) + shape).normal_()
    torch.manual_seed(0)
    assert torch.equal(normal.rsample((3,)), normal.loc + eps * normal.scale)
    value = torch.tensor(0.3)
    expected = (-((value - normal.loc) ** 2) / (2 * normal.scale**2) - normal.scale.log()
                - math.log(math.sqrt(2 * math.pi)))
    assert torch.equal(normal.log_prob(value), expected)
    torch.testing.assert_close(normal.entropy(), D.ExponentialFamily.entropy(normal))


def test_reparameterized_draws_carry_gradients():
    loc = torch.tensor([0.5, -1.0], requires_grad=True)
    torch.manual_seed(3)
    draw = D.Normal(loc, 1.0).rsample((2,))
    draw.sum().backward()
    assert loc.grad.tolist() == [2.0, 2.0] and type(draw.grad_fn).__name__ == "AddBackward0"
    assert not D.Normal(loc, 1.0).sample().requires_grad


def test_validation_refuses_parameters_and_values():
    with pytest.raises(ValueError, match=r"^Expected parameter scale \(Tensor of shape \(\)\) of "
                       r"distribution Normal\(loc: 0.0, scale: -1.0\) to satisfy the constraint "
                       r"GreaterThan\(lower_bound=0.0\), but found invalid values:\n-1.0$"):
        D.Normal(0.0, -1.0)
    D.Normal(0.0, -1.0, validate_args=False)
    with pytest.raises(ValueError, match=r"^Value is not broadcastable with batch_shape\+"
                       r"event_shape: torch.Size\(\[3\]\) vs torch.Size\(\[2\]\).$"):
        D.Normal(torch.zeros(2), 1.0).log_prob(torch.ones(3))
    with pytest.raises(ValueError, match="^The value argument to log_prob must be a Tensor$"):
        D.Normal(0.0, 1.0).log_prob(3.0)
    with pytest.raises(ValueError, match=r"to be within the support \(Interval\(lower_bound="):
        D.Uniform(torch.tensor([0.0]), torch.tensor([2.0])).log_prob(torch.tensor([3.0]))
    with pytest.raises(ValueError, match="^Either `probs` or `logits` must be specified, but "
                       "not both.$"):
        D.Bernoulli(probs=0.3, logits=0.1)
    with pytest.raises(ValueError, match="^`probs` parameter must be at least one-dimensional.$"):
        D.Categorical(probs=torch.tensor(0.5))


def test_uniform_and_exponential():
    uniform = D.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 4.0]))
    torch.manual_seed(1)
    drawn = uniform.rsample((2,))
    torch.manual_seed(1)
    assert torch.equal(drawn, uniform.low + torch.rand(2, 2) * (uniform.high - uniform.low))
    assert torch.equal(uniform.log_prob(torch.tensor([1.0, 2.0])), -torch.tensor([2.0, 3.0]).log())
    assert repr(uniform.support).startswith("Interval(lower_bound=tensor([0., 1.])")
    rate = torch.tensor([0.5, 2.0])
    exponential = D.Exponential(rate)
    torch.manual_seed(2)
    drawn = exponential.rsample((3,))
    torch.manual_seed(2)
    assert torch.equal(drawn, torch.empty(3, 2).exponential_() / rate)
    torch.testing.assert_close(exponential.entropy(), D.ExponentialFamily.entropy(exponential))


def test_bernoulli_and_categorical():
    bernoulli = D.Bernoulli(probs=torch.tensor([0.2, 0.5, 0.9]))
    torch.manual_seed(0)
    drawn = bernoulli.sample((2,))
    torch.manual_seed(0)
    assert torch.equal(drawn, torch.bernoulli(torch.tensor([0.2, 0.5, 0.9]).expand(2, 3)))
    assert bernoulli.mode[:1].tolist() == [0.0] and math.isnan(bernoulli.mode[1].item())
    assert bernoulli.enumerate_support().shape == (2, 3)
    categorical = D.Categorical(probs=torch.tensor([[1.0, 3.0], [2.0, 2.0]]))
    assert categorical.probs.tolist() == [[0.25, 0.75], [0.5, 0.5]]
    torch.manual_seed(0)
    drawn = categorical.sample((2, 3))
    torch.manual_seed(0)
    rows = torch.multinomial(categorical.probs.reshape(-1, 2), 6, True).T
    assert torch.equal(drawn, rows.reshape(2, 3, 2))
    assert torch.equal(categorical.log_prob(torch.tensor([1, 0])), torch.tensor([0.75, 0.5]).log())
    assert repr(categorical.support) == "IntegerInterval(lower_bound=0, upper_bound=1)"
    assert torch.isnan(categorical.mean).all() and categorical.mean.shape == (2,)


def test_score_function_gradients():
    logits = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    policy = D.Categorical(logits=logits)
    (-policy.log_prob(torch.tensor([2, 0]))).sum().backward()
    probs = logits.detach().softmax(-1)
    torch.testing.assert_close(logits.grad, 2 * probs - torch.tensor([1.0, 0.0, 1.0]))


def test_independent():
    normal = D.Normal(torch.zeros(2, 3), torch.ones(2, 3))
    diagonal = D.Independent(normal, 1)
    assert (diagonal.batch_shape, diagonal.event_shape) == (torch.Size([2]), torch.Size([3]))
    assert torch.equal(diagonal.log_prob(torch.zeros(2, 3)), normal.log_prob(torch.zeros(2, 3))
                       .sum(-1))
    assert repr(diagonal) == ("Independent(Normal(loc: torch.Size([2, 3]), scale: "
                              "torch.Size([2, 3])), 1)")
    assert D.Independent(normal, 2).expand((5,)).batch_shape == (5,)
    with pytest.raises(ValueError, match=r"^Expected reinterpreted_batch_ndims <= "
                       r"len\(base_distribution.batch_shape\), actual 3 vs 2$"):
        D.Independent(normal, 3)


def test_kl_divergence_pairs_and_lookup():
    p = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
    q = D.Normal(0.5, 1.5)
    var_ratio = (p.scale / q.scale) ** 2
    expected = 0.5 * (var_ratio + ((p.loc - q.loc) / q.scale) ** 2 - 1 - var_ratio.log())
    assert torch.equal(D.kl_divergence(p, q), expected)
    assert D.kl_divergence(p, D.Exponential(1.0)).tolist() == [math.inf, math.inf]
    assert D.kl_divergence(D.Uniform(0.0, 1.0), D.Uniform(0.5, 2.0)).item() == math.inf
    bernoullis = D.Bernoulli(torch.tensor([0.0, 0.3, 1.0])), D.Bernoulli(torch.tensor([0.5, 0.0,
                                                                                        1.0]))
    assert D.kl_divergence(*bernoullis)[1].item() == math.inf
    torch.testing.assert_close(D.kl_divergence(D.Exponential(2.0), D.Exponential(3.0)),
                               torch.tensor(3 / 2 - 1 - math.log(3 / 2)))

    class Subclassed(D.Normal):
        pass

    assert torch.equal(D.kl_divergence(Subclassed(0.0, 1.0), q), D.kl_divergence(D.Normal(
        0.0, 1.0), q))
    with pytest.raises(NotImplementedError, match="^No KL\\(p \\|\\| q\\) is implemented for p "
                       "type Normal and q type Categorical$"):
        D.kl_divergence(p, D.Categorical(torch.tensor([0.5, 0.5])))
    with pytest.raises(NotImplementedError, match="^The cross KL-divergence between different "
                       "exponential families cannot"):
        D.kl_divergence(p, bernoullis[0])


def test_expand_and_its_refusal():
    expanded = D.Normal(0.0, 1.0).expand((2, 3))
    assert expanded.sample().shape == (2, 3) and expanded.loc.stride() == (0, 0)

    class Custom(D.Normal):
        def __init__(self, a):
            super().__init__(a, 1.0)

    with pytest.raises(NotImplementedError, match="^Subclass Custom of Normal that defines a "
                       "custom __init__ method must also define a custom .expand\\(\\) method.$"):
        Custom(0.0).expand((2,))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert D.Normal(0.0, 1.0).sample_n(2).shape == (2,)
    assert [w.category for w in caught] == [FutureWarning]


def test_methods_are_named_for_their_class():
    for cls, name in [(D.Bernoulli, "log_prob"), (D.Uniform, "rsample"), (D.Independent, "expand"),
                      (D.Categorical, "sample"), (D.Exponential, "entropy")]:
        method = getattr(cls, name)
        assert (method.__name__, method.__qualname__) == (name, f"{cls.__name__}.{name}")
