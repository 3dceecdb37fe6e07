"""Products with zeros: gradients written without dividing, right to every order.

With a zero in the input, torch's prod gradient multiplies running products from both
ends, and cumprod's gradient, when it is to be differentiated again, is built place by
place and written into zeros (a CopySlices node per place).
"""

import pytest
import torch


def _leaf(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def _first(out, x, incoming):
    (g,) = torch.autograd.grad(out, x, incoming, create_graph=True)
    return g


@pytest.mark.parametrize("call", [lambda x: x.prod(), lambda x: x.prod(0)])
def test_the_second_derivative_of_a_product_at_a_zero(call):
    x = _leaf([2.0, 0.0, 3.0])
    g = _first(call(x), x, torch.tensor(1.0, dtype=torch.float64))
    assert g.tolist() == [0.0, 6.0, 0.0]
    (second,) = torch.autograd.grad(g.sum(), x)
    # the Hessian of x0 x1 x2 summed by rows: x1 + x2, x0 + x2, x0 + x1
    assert second.tolist() == [3.0, 5.0, 2.0]


def test_a_lone_factor_passes_its_gradient_on():
    x = _leaf([[0.0, 1.5]])
    incoming = _leaf([[2.0, 3.0]])
    assert _first(x.prod(0, keepdim=True), x, incoming) is incoming


def test_cumprod_writes_each_place_into_zeros():
    x = _leaf([[0.5, 0.0, 2.0], [1.5, 0.75, -0.5]])
    incoming = _leaf([[1.0, 2.0, 3.0], [0.5, -1.0, 0.25]])
    g = _first(x.cumprod(1), x, incoming)
    writes, node = 0, g.grad_fn
    while node is not None and node.name() == "torch::autograd::CopySlices":
        writes, node = writes + 1, node.next_functions[0][0]
    assert writes == 3 and node is None  # one write per place, into zeros
    # place 0: g0 + x1 (g1 + x2 g2); place 1, the zero: x0 (g1 + x2 g2); place 2: x0 x1 g2
    assert g[0].tolist() == [1.0, 0.5 * (2.0 + 2.0 * 3.0), 0.0]


# Finite differences step off each zero, onto the dividing formula, which divides by the
# step twice at the second order: a step of 1e-6 loses about 1e-4 there, one of 1e-4 keeps
# the error near 1e-8. The functions are polynomials, so the larger step costs little.
STEP = {"eps": 1e-4}


@pytest.mark.parametrize(("values", "dim"), [
    ([[0.5, 0.0, 2.0], [1.5, 0.75, -0.5]], 1),
    ([[0.0, 1.0], [2.0, 0.0], [1.5, -2.0]], 0),
    ([0.0, 2.0, 0.0, -1.5], -1),
])
def test_cumprod_with_zeros_to_the_third_order(values, dim):
    x = _leaf(values)
    incoming = _leaf([[v * 0.5 - 0.25 for v in row] for row in values] if
                     isinstance(values[0], list) else [0.5, -1.0, 2.0, 0.25])
    first = lambda x, g: _first(x.cumprod(dim), x, g)  # noqa: E731
    assert torch.autograd.gradcheck(first, (x, incoming), **STEP)
    assert torch.autograd.gradgradcheck(first, (x, incoming), **STEP)


@pytest.mark.parametrize("values", [[2.0, 0.0, 3.0, 0.0], [0.0, 0.0], [1.5, -2.0, 0.0]])
def test_prod_with_zeros_to_the_third_order(values):
    x = _leaf(values)
    first = lambda x, g: _first(x.prod(), x, g)  # noqa: E731
    incoming = _leaf(0.75)
    assert torch.autograd.gradcheck(first, (x, incoming), **STEP)
    assert torch.autograd.gradgradcheck(first, (x, incoming), **STEP)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_the_gradients_keep_the_dtype(dtype):
    dtype = getattr(torch, dtype)
    x = _leaf([[0.5, 0.0, 2.0]], dtype)
    incoming = _leaf([[1.0, 2.0, 3.0]], dtype)
    g = _first(x.cumprod(1), x, incoming)
    p = _first(x.prod(1), x, torch.ones(1, dtype=dtype, requires_grad=True))
    assert g.dtype == p.dtype == dtype
    assert g.tolist() == [[1.0, 4.0, 0.0]] and p.tolist() == [[0.0, 1.0, 0.0]]
