"""F.gumbel_softmax draws its noise from the default generator as torch does, and returns
the soft result, or one-hot rows carrying its gradient; and the other names torch.nn.functional
holds besides its layers' functions. The same assertions run on torch."""

import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises


def _logits():
    return torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]], requires_grad=True)


def _noise(shape):
    return -torch.empty(shape).exponential_().log()


@pytest.mark.parametrize("tau", [1, 0.5])
def test_the_soft_result_uses_the_next_draws(tau):
    logits = _logits()
    torch.manual_seed(3)
    soft = F.gumbel_softmax(logits, tau=tau)
    torch.manual_seed(3)
    expected = ((logits + _noise((2, 3))) / tau).softmax(-1)
    torch.testing.assert_close(soft, expected)
    assert soft.grad_fn.name() == "SoftmaxBackward0"


def test_a_transposed_input_draws_in_its_own_order():
    logits = _logits().t()
    torch.manual_seed(1)
    soft = F.gumbel_softmax(logits, dim=0)
    torch.manual_seed(1)
    expected = (logits + _noise((3, 2))).softmax(0)
    torch.testing.assert_close(soft, expected)


def test_hard_is_one_hot_with_the_soft_gradient():
    logits = _logits()
    torch.manual_seed(0)
    hard = F.gumbel_softmax(logits, tau=0.5, hard=True)
    torch.manual_seed(0)
    soft = ((logits + _noise((2, 3))) / 0.5).softmax(-1)
    assert hard.grad_fn.name() == "AddBackward0"
    assert hard.detach().tolist() == F.one_hot(soft.argmax(-1), 3).float().tolist()
    weights = torch.tensor([[1.0, 2.0, 3.0], [3.0, 1.0, 2.0]])
    (hard * weights).sum().backward()
    expected, = torch.autograd.grad((soft * weights).sum(), logits)
    torch.testing.assert_close(logits.grad, expected)


def test_eps_warns_that_it_does_nothing():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.gumbel_softmax(_logits(), eps=1e-5)
        F.gumbel_softmax(_logits())
    assert [(str(w.message), w.category) for w in caught] == [
        ("`eps` parameter is deprecated and has no effect.", UserWarning)]
    assert caught[0].filename == __file__


def test_assert_int_or_pair():
    F.assert_int_or_pair(3, "kernel_size", "{} must be an int or a pair")
    F.assert_int_or_pair((3, 4), "kernel_size", "{} must be an int or a pair")
    with raises(AssertionError, "kernel_size must be an int or a pair"):
        F.assert_int_or_pair((1, 2, 3), "kernel_size", "{} must be an int or a pair")


def test_the_namespaces_own_names():
    assert F.GRID_SAMPLE_INTERPOLATION_MODES == {"bilinear": 0, "nearest": 1, "bicubic": 2}
    assert F.GRID_SAMPLE_PADDING_MODES == {"zeros": 0, "border": 1, "reflection": 2}
    assert F.Tensor is torch.Tensor
    assert F.native_channel_shuffle is torch.native_channel_shuffle
