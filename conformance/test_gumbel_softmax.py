"""F.gumbel_softmax: seeded samples, the hard one-hot form whose gradient is the soft one's,
and the warning for the eps that does nothing. The same assertions run on torch."""

import pytest
import torch
import torch.nn.functional as F


def _logits():
    torch.manual_seed(0)
    return torch.randn(3, 5, requires_grad=True)


@pytest.mark.parametrize("kwargs", [{}, {"tau": 0.5}, {"dim": 0}, {"tau": 2.0, "dim": -2}])
def test_a_soft_sample_is_the_softmax_of_the_noisy_logits(kwargs):
    logits = _logits()
    torch.manual_seed(1)
    sample = F.gumbel_softmax(logits, **kwargs)
    torch.manual_seed(1)
    noise = -torch.empty(3, 5).exponential_().log()
    expected = ((logits + noise) / kwargs.get("tau", 1)).softmax(kwargs.get("dim", -1))
    assert torch.equal(sample, expected)
    assert type(sample.grad_fn).__name__ == "SoftmaxBackward0"
    torch.testing.assert_close(sample.sum(kwargs.get("dim", -1)), torch.ones(5 if kwargs.get(
        "dim") in (0, -2) else 3))


def test_a_hard_sample_is_one_hot_with_the_soft_gradient():
    logits = _logits()
    torch.manual_seed(1)
    hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
    assert type(hard.grad_fn).__name__ == "AddBackward0"
    assert hard.sum(-1).tolist() == [1.0, 1.0, 1.0]
    assert set(hard.flatten().tolist()) == {0.0, 1.0}
    weights = torch.arange(5.0)
    (hard * weights).sum().backward()
    hard_grad, logits.grad = logits.grad, None
    torch.manual_seed(1)
    soft = F.gumbel_softmax(logits, tau=0.5)
    assert torch.equal(hard.argmax(-1), soft.argmax(-1))
    (soft * weights).sum().backward()
    torch.testing.assert_close(hard_grad, logits.grad)


def test_eps_only_warns():
    logits = _logits()
    with pytest.warns(UserWarning, match="^`eps` parameter is deprecated and has no effect.$"):
        torch.manual_seed(2)
        warned = F.gumbel_softmax(logits, eps=1e-5)
    torch.manual_seed(2)
    assert torch.equal(warned, F.gumbel_softmax(logits))

