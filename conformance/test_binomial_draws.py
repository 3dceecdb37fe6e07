"""torch.binomial, and the Binomial and NegativeBinomial distributions drawn with it and with
the gamma and Poisson samplers: nodes, refusals, shapes, validation, expand, reprs and
divergences. The same assertions run on torch; the oracle compares the numbers."""

import math

import pytest
import torch
from torch import distributions as D
from torch.autograd import forward_ad as fwAD


def test_binomial_counts_the_successes():
    torch.manual_seed(0)
    drawn = torch.binomial(torch.tensor([0.0, 10.0, 10.0, 10.0, 1e6]),
                           torch.tensor([0.5, 0.0, 1.0, 0.5, 0.5]))
    assert drawn[:3].tolist() == [0.0, 0.0, 10.0] and 0 <= drawn[3].item() <= 10
    assert abs(drawn[4].item() - 5e5) < 5e3  # many trials: close to the mean
    assert math.isnan(torch.binomial(torch.tensor([10.0]), torch.tensor([math.nan])).item())
    broadcast = torch.binomial(torch.tensor([10.0, 20.0]), torch.tensor([0.5]))
    assert broadcast.shape == (2,)
    seeded = torch.binomial(torch.full((3,), 50.0), torch.full((3,), 0.4),
                            torch.Generator().manual_seed(2))
    torch.manual_seed(2)
    assert torch.equal(seeded, torch.binomial(torch.full((3,), 50.0), torch.full((3,), 0.4)))


def test_binomial_records_a_node_without_a_derivative():
    count = torch.tensor([10.0, 20.0], requires_grad=True)
    drawn = torch.binomial(count, torch.tensor([0.5, 0.2], requires_grad=True))
    assert drawn.grad_fn.name() == "torch::autograd::NotImplemented"
    assert len(drawn.grad_fn.next_functions) == 2
    one_edge = torch.binomial(count.detach(), torch.tensor([0.5, 0.2], requires_grad=True))
    assert len(one_edge.grad_fn.next_functions) == 1
    with pytest.raises(RuntimeError, match="^derivative for aten::binomial is not implemented$"):
        drawn.sum().backward()
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([5.0, 5.0]), torch.ones(2))
        with pytest.raises(NotImplementedError, match="^Trying to use forward AD with "
                                                      "aten::binomial that does not support"):
            torch.binomial(dual, torch.tensor([0.5, 0.5]))


@pytest.mark.parametrize("call, error, message", [
    (lambda: torch.binomial(torch.tensor([10, 20]), torch.tensor([0.5, 0.1])), ValueError,
     "binomial only supports floating-point dtypes for count, got: Long"),
    (lambda: torch.binomial(torch.ones(2), torch.ones(2, dtype=torch.float64)), RuntimeError,
     "Found dtype Double but expected Float"),
    (lambda: torch.binomial(torch.ones(2, dtype=torch.half), torch.ones(2, dtype=torch.half)),
     NotImplementedError, "\"binomial_cpu\" not implemented for 'Half'"),
    (lambda: torch.binomial(torch.ones(2), 0.5), TypeError,
     "binomial(): argument 'prob' (position 2) must be Tensor, not float"),
])
def test_refusals(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message
    assert not hasattr(torch.ones(1), "binomial")


def test_binomial_distribution():
    probs = torch.tensor([0.3, 0.9, 0.5], requires_grad=True)
    binomial = D.Binomial(torch.tensor([10.0, 20.0, 100.0]), probs)
    torch.manual_seed(0)
    drawn = binomial.sample((2,))
    torch.manual_seed(0)
    assert torch.equal(drawn, torch.binomial(binomial.total_count.expand(2, 3),
                                             probs.detach().expand(2, 3)))
    assert repr(binomial) == ("Binomial(total_count: torch.Size([3]), probs: "
                              "torch.Size([3]))")
    assert repr(binomial.support) == ("IntegerInterval(lower_bound=0, upper_bound="
                                      "tensor([ 10.,  20., 100.]))")
    assert binomial.mode.tolist() == [3.0, 18.0, 50.0] and not binomial.has_rsample
    assert binomial.log_prob(drawn).grad_fn is not None
    with pytest.raises(NotImplementedError, match="^Inhomogeneous total count not supported "
                                                  "by `entropy`.$"):
        binomial.entropy()
    same = D.Binomial(10, logits=torch.tensor([0.3, -2.0]))
    assert same.total_count.tolist() == [10.0, 10.0] and same.enumerate_support().shape == (11, 2)
    torch.testing.assert_close(same.log_prob(same.enumerate_support()).exp().sum(0),
                               torch.ones(2))
    wide = binomial.expand((2, 3))
    assert wide.sample().shape == (2, 3) and "probs" in wide.__dict__


def test_negative_binomial_is_a_poisson_at_a_gamma_rate():
    negative = D.NegativeBinomial(torch.tensor([3.0, 0.5, 10.0]), torch.tensor([0.2, 0.7, 0.5]))
    assert repr(negative) == ("NegativeBinomial(total_count: torch.Size([3]), probs: "
                              "torch.Size([3]))")
    torch.manual_seed(1)
    drawn = negative.sample((2,))
    torch.manual_seed(1)
    rate = D.Gamma(negative.total_count, torch.exp(-negative.logits)).sample((2,))
    assert torch.equal(drawn, torch.poisson(rate))
    assert negative.mean.tolist() == pytest.approx([0.75, 7 / 6, 10.0])
    assert negative.mode.tolist() == pytest.approx([0.0, 0.0, 9.0])
    zero = D.NegativeBinomial(torch.tensor([0.0]), logits=torch.tensor([0.3]))
    assert zero.log_prob(torch.tensor([0.0])).item() == 0.0  # no failures to wait for
    assert repr(negative).endswith("logits: torch.Size([3]))")  # computed when drawing
    assert negative.expand((4, 3)).sample().shape == (4, 3)


@pytest.mark.parametrize("make, message", [
    (lambda: D.Binomial(torch.tensor([1.5]), torch.tensor([0.3])),
     r"^Expected parameter total_count .* to satisfy the constraint "
     r"IntegerGreaterThan\(lower_bound=0\)"),
    (lambda: D.Binomial(torch.tensor([1.0]), torch.tensor([1.3])),
     r"^Expected parameter probs .* Interval\(lower_bound=0.0, upper_bound=1.0\)"),
    (lambda: D.NegativeBinomial(1.0, torch.tensor([1.0])),
     r"^Expected parameter probs .* HalfOpenInterval\(lower_bound=0.0, upper_bound=1.0\)"),
    (lambda: D.Binomial(10), "^Either `probs` or `logits` must be specified, but not both.$"),
])
def test_validation(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_binomial_divergences():
    p = D.Binomial(torch.tensor([10.0, 20.0]), torch.tensor([0.3, 0.9]))
    kl = D.kl_divergence(p, D.Binomial(torch.tensor([10.0, 15.0]), torch.tensor([0.5, 0.2])))
    assert math.isfinite(kl[0].item()) and kl[1].item() == math.inf
    with pytest.raises(NotImplementedError, match="^KL between Binomials where q.total_count > "
                                                  "p.total_count is not implemented$"):
        D.kl_divergence(D.Binomial(torch.tensor([10.0]), torch.tensor([0.3])),
                        D.Binomial(torch.tensor([15.0]), torch.tensor([0.3])))
    assert D.kl_divergence(D.Poisson(torch.ones(2)), p).tolist() == [math.inf] * 2
