"""Black-box tests: the sign of a zero that a matrix or vector product gives, as torch's
kernels give it. The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F


def _signs(t):
    return torch.signbit(t).int().flatten().tolist()


def _factors(dtype, inner=1):
    a = -torch.ones(2, inner, dtype=dtype)
    a[1] = 1  # the first row's products are -0., the second's +0.
    return a, torch.zeros(inner, 3, dtype=dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_an_inner_size_of_one_keeps_the_products_signs(dtype):
    a, b = _factors(dtype)
    kept = [1, 1, 1, 0, 0, 0]
    assert _signs(torch.mm(a, b)) == kept and _signs(a @ b) == kept
    assert _signs(torch.tensordot(a, b, dims=1)) == kept
    assert _signs(torch.einsum("ik,kj->ij", a, b)) == kept
    assert _signs(F.linear(a, b.t())) == kept
    assert _signs(torch.addmm(torch.zeros(2, 3, dtype=dtype), a, b, beta=0)) == kept
    assert _signs(torch.addbmm(torch.zeros(2, 3, dtype=dtype), a[None], b[None], beta=0)) == kept
    assert _signs(torch.linalg.multi_dot([a, b, torch.ones(3, 2, dtype=dtype)])) == [1, 1, 0, 0]
    assert _signs(torch.outer(a[:, 0], b[0])) == kept


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_other_products_give_positive_zeros(dtype):
    a, b = _factors(dtype)
    assert _signs(torch.bmm(a[None], b[None])) == [0] * 6
    assert _signs(torch.baddbmm(torch.zeros(1, 2, 3, dtype=dtype), a[None], b[None],
                                beta=0)) == [0] * 6
    assert _signs(torch.mv(a, torch.zeros(1, dtype=dtype))) == [0, 0]
    assert _signs(torch.matmul(-torch.ones(1, dtype=dtype), b)) == [0, 0, 0]
    assert _signs(torch.mm(-torch.ones(1, 1, dtype=dtype), b)) == [0, 0, 0]  # one row
    assert _signs(torch.mm(a, torch.zeros(1, 1, dtype=dtype))) == [0, 0]  # one column
    assert _signs(torch.addmm(torch.zeros(2, 3, dtype=dtype), a, b)) == [0] * 6  # +0. + -0.
    for inner in (2, 3):
        wide, tall = _factors(dtype, inner)
        assert _signs(torch.mm(wide, tall)) == [0] * 6
        assert _signs(F.linear(wide, tall.t())) == [0] * 6


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_dot_sums_from_a_positive_zero(dtype):
    minus, zero = -torch.ones(1, dtype=dtype), torch.zeros(1, dtype=dtype)
    for product in (torch.dot, torch.vdot, torch.inner, torch.matmul):
        assert _signs(product(minus, zero)) == [0]
    assert torch.dot(torch.tensor([2.0, -3.0], dtype=dtype),
                     torch.tensor([4.0, 1.0], dtype=dtype)).item() == 5.0


def test_the_gradient_of_a_product_of_inner_size_one():
    w = torch.ones(3, 1, requires_grad=True)
    x = torch.tensor([[0.0], [1.0]])
    grad = torch.tensor([[0.5, -0.5, 1.0], [0.0, 0.0, 0.0]])
    F.linear(x, w).backward(grad)
    assert _signs(w.grad) == [0, 0, 0]
    x2 = torch.zeros(2, 1, requires_grad=True)
    (x2 @ torch.ones(1, 3)).backward(torch.tensor([[-1.0, -1.0, -1.0], [1.0, 1.0, 1.0]]))
    assert _signs(x2.grad) == [1, 0]
    g = torch.tensor([[0.5], [-0.5]])
    row = torch.tensor([[0.0, 1.0, 0.0]])
    assert _signs(torch.mm(g, row)) == [0, 0, 0, 1, 1, 1]
