"""cauchy_, log_normal_, geometric_ and poisson: torch's numbers, nodes and refusals.

The numbers are rebuilt from a plain-Python Mersenne Twister (test_random_streams)
with the transformation written out here, independently of the target.
"""

import math

import numpy as np
import pytest
import torch

from conformance._support import raises
from conformance.test_random_streams import doubles, mt19937_words


def test_cauchy_is_the_tangent_of_a_uniform_double():
    u = doubles(mt19937_words(4, 400))
    expected = [2.0 + 0.5 * math.tan(math.pi * (x - 0.5)) for x in u]
    torch.manual_seed(4)
    assert torch.empty(200, dtype=torch.float64).cauchy_(2.0, 0.5).tolist() == expected
    torch.manual_seed(4)
    singles = torch.empty(200).cauchy_(2.0, 0.5).numpy()
    assert np.array_equal(singles, np.array(expected, dtype=np.float32))


def test_geometric_counts_trials_and_fills_integers():
    u = doubles(mt19937_words(8, 300))
    expected = [math.ceil(math.log(x) / math.log1p(-0.2)) for x in u]
    for dtype in (torch.int64, torch.float32, torch.int16):
        torch.manual_seed(8)
        assert torch.empty(150, dtype=dtype).geometric_(0.2).tolist() == expected, dtype


def test_log_normal_draws_its_normals_one_pair_at_a_time():
    u = doubles(mt19937_words(9, 4 * 40))
    expected = []
    for u1, u2 in zip(u[0::2], u[1::2]):
        radius, angle = math.sqrt(-2.0 * math.log1p(-u2)), 2.0 * math.pi * u1
        expected += [math.exp(radius * math.cos(angle)), math.exp(radius * math.sin(angle))]
    torch.manual_seed(9)
    drawn = torch.empty(40, dtype=torch.float64).log_normal_(0.0, 1.0).tolist()
    assert drawn == expected[:40]  # 40 numbers, even past 16, take no vectorised path
    torch.manual_seed(9)
    first = torch.empty(3, dtype=torch.float64).log_normal_(0.0, 1.0).tolist()
    second = torch.empty(1, dtype=torch.float64).log_normal_(0.0, 1.0).tolist()
    assert first + second == expected[:4]  # the fourth is the sine the third left behind


def test_poisson_of_zero_rates_draws_nothing_and_infinite_rates_overflow():
    torch.manual_seed(3)
    state = torch.get_rng_state()
    assert torch.poisson(torch.zeros(5)).tolist() == [0.0] * 5
    assert torch.equal(torch.get_rng_state(), state)
    assert torch.poisson(torch.tensor([math.inf])).tolist() == [-2.0**63]


def test_poisson_refuses_a_negative_rate_when_it_reaches_it():
    torch.manual_seed(6)
    torch.poisson(torch.tensor([3.0, 20.0]))
    after_two = torch.get_rng_state()
    torch.manual_seed(6)
    with raises(RuntimeError, "invalid Poisson rate, expected rate to be non-negative"):
        torch.poisson(torch.tensor([3.0, 20.0, -1.0, 5.0]))
    assert torch.equal(torch.get_rng_state(), after_two)


def test_poisson_follows_its_rates():
    torch.manual_seed(0)
    counts = torch.poisson(torch.tensor([0.5, 4.0, 30.0, 1e4]).repeat(4000, 1))
    assert counts.dtype == torch.float32 and (counts == counts.round()).all()
    means = counts.mean(0).tolist()
    for mean, rate in zip(means, [0.5, 4.0, 30.0, 1e4]):
        assert abs(mean - rate) < 5 * math.sqrt(rate / 4000), (mean, rate)


def test_a_generator_repeats_its_draws_and_leaves_the_default_alone():
    torch.manual_seed(1)
    state = torch.get_rng_state()
    made = []
    for _ in range(2):
        g = torch.Generator().manual_seed(12)
        made.append((torch.empty(5).cauchy_(generator=g), torch.empty(5).log_normal_(
            generator=g), torch.empty(5).geometric_(0.5, generator=g),
            torch.poisson(torch.full((5,), 12.0), generator=g)))
    assert all(torch.equal(a, b) for a, b in zip(*made))
    assert torch.equal(torch.get_rng_state(), state)


@pytest.mark.parametrize("call, node", [
    (lambda t: t.cauchy_(), "CauchyBackward0"), (lambda t: t.log_normal_(), "LogNormalBackward0"),
    (lambda t: t.geometric_(0.5), "GeometricBackward0"),
    (lambda t: torch.poisson(t), "PoissonBackward0")])
def test_the_nodes_and_their_zero_gradient(call, node):
    x = torch.ones(3, requires_grad=True)
    y = call(x * 2.0)
    assert type(y.grad_fn).__name__ == node
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("call", [lambda t: t.cauchy_(), lambda t: t.log_normal_(),
                                  lambda t: t.geometric_(0.5)])
def test_a_leaf_that_requires_grad_is_refused(call):
    x = torch.ones(3, requires_grad=True)
    with raises(RuntimeError,
                "a leaf Variable that requires grad is being used in an in-place operation."):
        call(x)
    assert x.tolist() == [1.0, 1.0, 1.0] and x._version == 0


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.empty(3).cauchy_(0.0, 0.0), RuntimeError,
     "cauchy_ expects sigma > 0.0, but found sigma=0"),
    (lambda: torch.empty(3).cauchy_(0.0, math.nan), RuntimeError,
     "cauchy_ expects sigma > 0.0, but found sigma=nan"),
    (lambda: torch.empty(3, dtype=torch.int64).cauchy_(), RuntimeError,
     "Cauchy distribution is a continuous probability distribution. dtype must be a floating "
     "point but you specified long int"),
    (lambda: torch.empty(3, dtype=torch.uint8).cauchy_(), RuntimeError,
     "Cauchy distribution is a continuous probability distribution. dtype must be a floating "
     "point but you specified unsigned char"),
    (lambda: torch.empty(3).cauchy_("a"), TypeError,
     "cauchy_(): argument 'median' (position 1) must be float, not str"),
    (lambda: torch.empty(3).log_normal_(1.0, -1.0), RuntimeError,
     "log_normal_ expects std > 0.0, but found std=-1"),
    (lambda: torch.empty(3, dtype=torch.int32).log_normal_(), NotImplementedError,
     "\"log_normal_cpu\" not implemented for 'Int'"),
    (lambda: torch.empty(3).geometric_(1.0), RuntimeError,
     "geometric_ expects p to be in (0, 1), but got p=1"),
    (lambda: torch.empty(3).geometric_(-0.5), RuntimeError,
     "geometric_ expects p to be in (0, 1), but got p=-0.5"),
    (lambda: torch.empty(3, dtype=torch.bool).geometric_(0.5), NotImplementedError,
     "\"geometric_cpu\" not implemented for 'Bool'"),
    (lambda: torch.empty(3).geometric_(), TypeError,
     "geometric_() missing 1 required positional arguments: \"p\""),
    (lambda: torch.poisson(torch.tensor([-1.0, 1.0])), RuntimeError,
     "invalid Poisson rate, expected rate to be non-negative"),
    (lambda: torch.poisson(torch.tensor([math.nan])), RuntimeError,
     "invalid Poisson rate, expected rate to be non-negative"),
    (lambda: torch.poisson(torch.ones(2, dtype=torch.int64)), NotImplementedError,
     "\"poisson_cpu\" not implemented for 'Long'"),
    (lambda: torch.poisson(torch.ones(2), 3), TypeError,
     "poisson(): argument 'generator' (position 2) must be torch.Generator, not int")])
def test_refusals_leave_the_generator_alone(call, kind, message):
    state = torch.get_rng_state()
    with raises(kind, message):
        call()
    assert torch.equal(torch.get_rng_state(), state)


def test_poisson_of_a_0_d_rate_is_0_d():
    torch.manual_seed(0)
    rate = torch.tensor(3.0, requires_grad=True)
    count = torch.poisson(rate)
    assert count.shape == () and count.grad_fn.name() == "PoissonBackward0"
    count.backward()
    assert rate.grad.shape == () and rate.grad.item() == 0.0
