"""cumprod's gradient at zeros: in three parts to the first order, from the square beyond."""

import numpy as np

import refgrad as torch


def _by_definition(x, g):
    """sum over j >= i of g_j times the product up to j with x_i left out."""
    n = len(x)
    return np.array([sum(g[j] * np.prod([x[m] for m in range(j + 1) if m != i])
                         for j in range(i, n)) for i in range(n)])


def test_first_order_gradient_at_zeros_matches_the_definition():
    rng = np.random.default_rng(3)
    for x in ([2.0, 0.0, 3.0, 0.0, 5.0], [0.0, 1.5, -2.0], [1.0, 2.0, 0.0], [0.0, 0.0]):
        g = rng.standard_normal(len(x))
        t = torch.tensor(x, dtype=torch.float64, requires_grad=True)
        (grad,) = torch.autograd.grad(t.cumprod(0), t, torch.tensor(g))
        np.testing.assert_allclose(grad.numpy(), _by_definition(np.array(x), g), rtol=1e-12)


def test_a_long_dimension_with_a_zero_costs_linear_memory():
    n = 200_000  # a square of products would hold 4e10 of them
    x = np.ones(n)
    x[n // 2] = 0.0
    t = torch.tensor(x, requires_grad=True)
    t.cumprod(0).sum().backward()
    expected = np.zeros(n)
    expected[: n // 2] = n // 2 - np.arange(n // 2)  # one per product before the zero
    expected[n // 2] = n - n // 2  # the zero: every product from it on, taken as one
    np.testing.assert_array_equal(t.grad.numpy(), expected)


def test_second_derivative_at_zeros_comes_from_the_square():
    x = torch.tensor([2.0, 0.0, 3.0], dtype=torch.float64, requires_grad=True)
    (grad,) = torch.autograd.grad(x.cumprod(0).sum(), x, create_graph=True)
    (second,) = torch.autograd.grad(grad[2], x)
    # grad_2 = x0 * x1: its slopes are x1, x0 and 0, though grad_2 is zero here
    np.testing.assert_allclose(second.numpy(), [0.0, 2.0, 0.0])
