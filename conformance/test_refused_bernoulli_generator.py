"""Black-box tests: a refused bernoulli has drawn for the probabilities before the bad one.

torch checks each probability as its kernel reaches it, so the generator is left where
drawing that many numbers leaves it: one word for a float or half probability, two for a
double, in the order the result is written.
"""

import math

import pytest
import torch

from conformance._support import raises

_P_RANGE = ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)")


def _state_after_refusal(call):
    torch.manual_seed(0)
    with raises(RuntimeError, _P_RANGE):
        call()
    return torch.get_rng_state()


def _state_after_drawing(count, dtype=torch.float32):
    torch.manual_seed(0)
    torch.rand(count, dtype=dtype)
    return torch.get_rng_state()


@pytest.mark.parametrize(("p", "before", "dtype"), [
    (torch.tensor([0.5, 0.5, 1.5]), 2, torch.float32),
    (torch.tensor([0.5, 0.5, 1.5], dtype=torch.float64), 2, torch.float64),
    (torch.tensor([0.5, 0.5, 0.2, math.nan], dtype=torch.float16), 3, torch.float32),
    (torch.tensor([-1.0, 0.5]), 0, torch.float32),
    (torch.tensor([[0.5, 0.5], [7.0, 0.2]]).t(), 1, torch.float32),  # in p's logical order
])
def test_bernoulli_of_a_bad_probability_draws_for_the_ones_before(p, before, dtype):
    assert torch.equal(_state_after_refusal(lambda: torch.bernoulli(p)),
                       _state_after_drawing(before, dtype))


def test_bernoulli_into_a_tensor_goes_through_its_memory():
    p = torch.tensor([0.5, 0.5, 1.5])
    assert torch.equal(_state_after_refusal(lambda: torch.empty(2, 3).bernoulli_(p)),
                       _state_after_drawing(2))
    assert torch.equal(_state_after_refusal(lambda: torch.empty(3, 2).t().bernoulli_(p)),
                       _state_after_drawing(4))
    double = torch.tensor([0.5, 1.5, 0.5], dtype=torch.float64)
    assert torch.equal(_state_after_refusal(
        lambda: torch.empty(2, 3, dtype=torch.int64).bernoulli_(double)),
        _state_after_drawing(1, torch.float64))


def test_bernoulli_out_goes_through_outs_memory():
    p = torch.tensor([[0.5, 0.5], [7.0, 0.2]])
    assert torch.equal(_state_after_refusal(
        lambda: torch.bernoulli(p, out=torch.empty(2, 2).t())), _state_after_drawing(1))
