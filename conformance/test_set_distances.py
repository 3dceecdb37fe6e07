"""Black-box tests: cdist and pdist, their nodes, their gradients at zero distance and at
ties, and their refusals. The same assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import first_edges, raises

INF = math.inf


def _pair():
    x1 = torch.tensor([[0.0, 0.0], [1.0, 2.0], [1.0, 2.0]], dtype=torch.float64,
                      requires_grad=True)
    x2 = torch.tensor([[1.0, 2.0], [3.0, -1.0]], dtype=torch.float64, requires_grad=True)
    return x1, x2


@pytest.mark.parametrize(("p", "distances", "grad_x1", "grad_x2"), [
    (0.0, [[2.0, 2.0], [0.0, 2.0], [0.0, 2.0]], [[0.0, 0.0]] * 3, [[0.0, 0.0]] * 2),
    (1.0, [[3.0, 4.0], [0.0, 5.0], [0.0, 5.0]], [[-2.0, 0.0], [-1.0, 1.0], [-1.0, 1.0]],
     [[1.0, 1.0], [3.0, -3.0]]),
    (INF, [[2.0, 3.0], [0.0, 3.0], [0.0, 3.0]], [[-1.0, -1.0], [0.0, 1.0], [0.0, 1.0]],
     [[0.0, 1.0], [1.0, -2.0]]),
])
def test_cdist_values_and_gradients_with_a_zero_distance(p, distances, grad_x1, grad_x2):
    x1, x2 = _pair()
    d = torch.cdist(x1, x2, p=p)
    assert d.tolist() == distances
    node = d.grad_fn
    assert type(node).__name__ == "CdistBackward0" and node._saved_p == p
    assert node._saved_x1 is x1 and node._saved_x2 is x2
    assert node._saved_result.tolist() == distances
    d.sum().backward()
    assert x1.grad.tolist() == grad_x1 and x2.grad.tolist() == grad_x2


def test_cdist_two_norm_is_zero_at_zero_distance():
    x1, x2 = _pair()
    d = torch.cdist(x1, x2)
    d.sum().backward()
    # the coinciding points take their gradient from the other point alone: (x - b) / |x - b|
    assert x1.grad[1].tolist() == pytest.approx([-2 / math.sqrt(13), 3 / math.sqrt(13)])
    assert x1.grad[0].tolist() == pytest.approx(
        [-1 / math.sqrt(5) - 3 / math.sqrt(10), -2 / math.sqrt(5) + 1 / math.sqrt(10)])


def test_cdist_below_one_gives_a_zero_coordinate_no_gradient():
    x1 = torch.tensor([[0.0, 0.0]], dtype=torch.float64, requires_grad=True)
    x2 = torch.tensor([[0.0, 2.0]], dtype=torch.float64)
    d = torch.cdist(x1, x2, p=0.5)
    d.backward()
    assert d.item() == pytest.approx(2.0) and x1.grad.tolist() == [[0.0, pytest.approx(-1.0)]]


def test_cdist_infinity_norm_passes_every_tied_coordinate():
    a = torch.tensor([[0.0, 0.0]], requires_grad=True)
    torch.cdist(a, torch.tensor([[1.0, 1.0]]), p=INF).backward()
    assert a.grad.tolist() == [[-1.0, -1.0]]


def test_cdist_broadcasts_batches_and_sums_gradients_back():
    a = torch.ones(2, 3, 4, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(1, 5, 4, dtype=torch.float64, requires_grad=True)
    d = torch.cdist(a, b, p=1.0)
    assert d.shape == (2, 3, 5) and d.grad_fn.next_functions[1][0].variable is b
    d.sum().backward()
    assert b.grad.shape == (1, 5, 4) and b.grad.tolist() == [[[-6.0] * 4] * 5]


def test_cdist_of_large_sets_goes_through_a_matrix_product():
    x1 = torch.arange(60.0, dtype=torch.float64).reshape(30, 2).requires_grad_()
    x2 = torch.tensor([[0.0, 1.0], [3.0, 3.0]], dtype=torch.float64)
    d = torch.cdist(x1, x2)
    assert first_edges(d) == ["ViewBackward0", "EuclideanDistBackward0"]
    node = d.grad_fn.next_functions[0][0]
    assert node._saved_x1 is x1 and node._saved_x2 is x2
    assert d[:2].tolist() == [[0.0, pytest.approx(math.sqrt(13))],
                              [pytest.approx(math.sqrt(8)), pytest.approx(1.0)]]
    small = torch.cdist(x1[:3], x2, compute_mode="use_mm_for_euclid_dist")
    assert first_edges(small)[:2] == ["ViewBackward0", "EuclideanDistBackward0"]
    exact = torch.cdist(x1, x2, compute_mode="donot_use_mm_for_euclid_dist")
    assert first_edges(exact) == ["CdistBackward0"]
    (g,) = torch.autograd.grad(d.sum(), x1, create_graph=True)
    (gg,) = torch.autograd.grad(g[1:].sum(), x1)  # the product form differentiates again
    assert gg.shape == (30, 2)


def test_cdist_gradient_cannot_be_differentiated():
    x1, x2 = _pair()
    (g,) = torch.autograd.grad(torch.cdist(x1, x2, p=3.0).sum(), x1, create_graph=True)
    assert type(g.grad_fn).__name__ == "CdistBackwardBackward0"
    with raises(NotImplementedError, "the derivative for '_cdist_backward' is not implemented."):
        g.sum().backward()


def test_pdist_values_order_node_and_gradients():
    x = torch.tensor([[0.0, 0.0], [1.0, 2.0], [1.0, 2.0], [3.0, -1.0]], dtype=torch.float64,
                     requires_grad=True)
    d = torch.pdist(x, p=1.0)
    assert d.tolist() == [3.0, 3.0, 4.0, 0.0, 5.0, 5.0]  # pairs (0,1) (0,2) (0,3) (1,2) ...
    node = d.grad_fn
    assert type(node).__name__ == "PdistBackward0" and node._saved_p == 1.0
    assert node._saved_self is x and node._saved_result.tolist() == d.tolist()
    d.sum().backward()
    assert x.grad.tolist() == [[-3.0, -1.0], [0.0, 2.0], [0.0, 2.0], [3.0, -3.0]]
    x.grad = None
    (g,) = torch.autograd.grad(torch.pdist(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "PdistBackwardBackward0"
    with raises(NotImplementedError, "the derivative for '_pdist_backward' is not implemented."):
        g.sum().backward()
    assert torch.pdist(torch.ones(1, 3)).shape == (0,)


def test_refusals():
    f32, f64 = torch.ones(3, 2), torch.ones(3, 2, dtype=torch.float64)
    with raises(RuntimeError, "cdist only supports at least 2D tensors, X1 got: 1D"):
        torch.cdist(torch.ones(3), f32)
    with raises(RuntimeError, "X1 and X2 must have the same number of columns. X1: 2 X2: 4"):
        torch.cdist(f32, torch.ones(3, 4))
    with raises(RuntimeError, "cdist only supports non-negative p values"):
        torch.cdist(f32, f32, p=-1)
    with raises(RuntimeError, "cdist only supports floating-point dtypes, X2 got: Long"):
        torch.cdist(f32, torch.tensor([[1, 2]]))
    with raises(RuntimeError, "expected scalar type Float but found Double"):
        torch.cdist(f32, f64)
    with raises(ValueError, "x is not a valid value for compute_mode"):
        torch.cdist(f32, f32, compute_mode="x")
    with raises(RuntimeError, "pdist only supports 2D tensors, got: 3D"):
        torch.pdist(torch.ones(3, 2, 2))
    with raises(RuntimeError, "pdist only supports non-negative p values"):
        torch.pdist(f32, p=-1)
    with raises(RuntimeError, "pdist only supports floating-point dtypes"):
        torch.pdist(torch.tensor([[1, 2]]))
    with raises(NotImplementedError, "\"pdist\" not implemented for 'Half'"):
        torch.pdist(torch.ones(3, 2, dtype=torch.float16))
    with raises(NotImplementedError, "\"cdist\" not implemented for 'Half'"):
        torch.cdist(torch.ones(3, 2, dtype=torch.float16), torch.ones(3, 2, dtype=torch.float16))
