"""logcumsumexp's gradient: stable, linear in the dimension's length, nan on a leading -inf."""

import numpy as np

import refgrad as torch


def _weights_by_hand(x, g):
    """sum over j >= i of g_j * exp(x_i - r_j), term by term, in float64."""
    r = np.logaddexp.accumulate(x)
    return np.array([sum(g[j] * np.exp(x[i] - r[j]) for j in range(i, len(x)))
                     for i in range(len(x))])


def test_the_gradient_is_the_sum_of_softmax_weights():
    rng = np.random.default_rng(0)
    x, g = rng.standard_normal(9) * 6, rng.standard_normal(9)
    t = torch.tensor(x, requires_grad=True)
    (grad,) = torch.autograd.grad(t.logcumsumexp(0), t, torch.tensor(g))
    np.testing.assert_allclose(grad.numpy(), _weights_by_hand(x, g), rtol=1e-12, atol=1e-15)


def test_a_long_dimension_costs_linear_memory_and_stays_finite():
    n = 200_000  # a square of weights would hold 4e10 of them
    x = np.random.default_rng(1).standard_normal(n) * 50
    t = torch.tensor(x, requires_grad=True)
    seed = np.zeros(n)
    seed[-1] = 1.0  # the last log-sum alone: its gradient is the softmax of x
    (grad,) = torch.autograd.grad(t.logcumsumexp(0), t, torch.tensor(seed))
    softmax = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
    np.testing.assert_allclose(grad.numpy(), softmax, rtol=1e-9, atol=1e-300)


def test_leading_minus_infinities_get_nan_and_later_ones_zero():
    x = torch.tensor([-np.inf, -np.inf, 1.0, -np.inf, 2.0], requires_grad=True)
    (grad,) = torch.autograd.grad(x.logcumsumexp(0), x, torch.tensor([0.0, 1.0, 1.0, 1.0, 1.0]))
    assert np.isnan(grad[:2].numpy()).all() and grad[3].item() == 0.0
    by_hand = _weights_by_hand(np.array([1.0, -np.inf, 2.0]), np.ones(3))
    np.testing.assert_allclose(grad[[2, 4]].numpy(), by_hand[[0, 2]], rtol=1e-6)


def test_plus_infinity_gives_nan_at_its_place():
    x = torch.tensor([1.0, np.inf, -np.inf], dtype=torch.float64, requires_grad=True)
    (grad,) = torch.autograd.grad(x.logcumsumexp(0), x, torch.ones(3, dtype=torch.float64))
    assert grad[0].item() == 1.0 and np.isnan(grad[1].item()) and grad[2].item() == 0.0


def test_differentiated_with_respect_to_the_gradient_it_is_nan_at_zeros():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    g = torch.tensor([0.0, 1.0, -3.0], dtype=torch.float64, requires_grad=True)
    (grad,) = torch.autograd.grad(x.logcumsumexp(0), x, g, create_graph=True)
    (by_g,) = torch.autograd.grad(grad.sum(), g)
    # d/dg_j of sum_i grad_i is the sum of the weights exp(x_i - r_j), i <= j: 1 for every j,
    # but the log of |g| has no finite slope at a zero
    assert np.isnan(by_g[0].item())
    np.testing.assert_allclose(by_g[1:].numpy(), [1.0, 1.0], rtol=1e-12)


def test_forward_mode_tangent_is_the_weighted_sum_of_tangents():
    import refgrad.autograd.forward_ad as fwAD

    x = np.array([0.3, 1.2, -0.7])
    v = np.array([-0.46, 0.0, 2.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor(x), torch.tensor(v))
        tangent = fwAD.unpack_dual(dual.logcumsumexp(0)).tangent.numpy()
    r = np.logaddexp.accumulate(x)
    expected = [sum(v[i] * np.exp(x[i] - r[j]) for i in range(j + 1)) for j in range(3)]
    np.testing.assert_allclose(tangent, expected, rtol=1e-12)


def test_forward_mode_shifts_by_the_whole_maximum_and_adds_a_small_constant():
    import refgrad.autograd.forward_ad as fwAD

    x, v = np.array([-200.0, -300.0, 0.0]), np.array([-0.46, 0.0, 2.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor(x), torch.tensor(v))
        tangent = fwAD.unpack_dual(dual.logcumsumexp(0)).tangent.numpy()
    # exp(-200) is far below 1e-13: the first tangent is crushed towards zero, not -0.46
    scaled = np.exp(x)
    np.testing.assert_allclose(tangent, np.cumsum(scaled * v) / (np.cumsum(scaled) + 1e-13),
                               rtol=1e-15)
    assert abs(tangent[0]) < 1e-70
