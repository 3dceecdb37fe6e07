"""Multinomial: counts of categorical draws, its support, densities, expand and refusals.
The same assertions run on torch; the oracle compares the numbers themselves."""

import math

import pytest
import torch
from torch import distributions as D


def test_draws_are_counts_of_categorical_draws():
    probs = torch.tensor([[0.2, 0.3, 0.5], [0.0, 0.5, 0.5]])
    multinomial = D.Multinomial(10, probs)
    assert (multinomial.batch_shape, multinomial.event_shape) == ((2,), (3,))
    torch.manual_seed(0)
    drawn = multinomial.sample((4,))
    torch.manual_seed(0)
    draws = D.Categorical(probs).sample((10, 4))
    expected = torch.zeros(4, 2, 3).scatter_add_(-1, draws.permute(1, 2, 0),
                                                  torch.ones(4, 2, 10))
    assert torch.equal(drawn, expected) and drawn.dtype == torch.float32
    assert drawn.sum(-1).tolist() == [[10.0, 10.0]] * 4 and bool((drawn[:, 1, 0] == 0).all())
    assert multinomial.mean.tolist() == [[2.0, 3.0, 5.0], [0.0, 5.0, 5.0]]
    assert multinomial.expand((5, 2)).sample().shape == (5, 2, 3)


def test_densities_and_support():
    multinomial = D.Multinomial(4, torch.tensor([0.0, 0.5, 0.5]))
    log_prob = multinomial.log_prob(torch.tensor([0.0, 2.0, 2.0]))
    assert log_prob.item() == pytest.approx(math.log(6 / 16))  # a never-drawn zero is fine
    # a zero probability is a logit of log(eps) (clamped), not minus infinity
    assert multinomial.log_prob(torch.tensor([1.0, 1.0, 2.0])).item() < -15
    support = multinomial.support
    assert repr(support) == "Multinomial()" and support.is_discrete and support.event_dim == 1
    assert support.check(torch.tensor([[1.0, 2.0, 1.0], [1.0, 2.0, 3.0]])).tolist() == [
        True, False]
    entropy = D.Multinomial(2, torch.tensor([0.5, 0.5])).entropy()
    assert entropy.item() == pytest.approx(-(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25)))
    assert repr(multinomial) == "Multinomial()"


@pytest.mark.parametrize("make, error, message", [
    (lambda: D.Multinomial(torch.tensor(3), torch.tensor([0.5, 0.5])), NotImplementedError,
     "^inhomogeneous total_count is not supported$"),
    (lambda: D.Multinomial(3, torch.tensor([0.5, 0.5])).log_prob(torch.tensor([3.0, 1.0])),
     ValueError, r"^Expected value argument \(Tensor of shape \(2,\)\) to be within the "
     r"support \(Multinomial\(\)\) of the distribution Multinomial\(\)"),
    (lambda: D.Multinomial(3, torch.tensor([0.5, -0.5])), ValueError,
     r"^Expected parameter probs \(Tensor of shape \(2,\)\) of distribution "
     r"Categorical\(probs: torch.Size\(\[2\]\)\) to satisfy the constraint Simplex\(\)"),
])
def test_refusals(make, error, message):
    with pytest.raises(error, match=message):
        make()
