"""With create_graph=True: det of a 1x1 matrix gives the incoming gradient expanded (no
dependence on the matrix), and triangular_solve's gradients are built of
TriangularSolveBackward0 nodes, with the copy's gradient added only when one reached it.
Second-order gradients are compared with solve_triangular's. The same assertions run on
torch."""

import warnings

import pytest
import torch

ACC = "torch::autograd::AccumulateGrad"


def shape_of(node, depth=4):
    """The names below ``node``, nested to ``depth``."""
    if node is None:
        return None
    if depth == 0 or not node.next_functions:
        return node.name()
    return (node.name(), [shape_of(n, depth - 1) for n, _ in node.next_functions])


@pytest.mark.parametrize("shape", [(1, 1), (3, 1, 1)])
def test_det_of_one_by_one(shape):
    a = torch.full(shape, 2.5, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.linalg.det(a).sum(), a, create_graph=True)
    assert g.grad_fn is None and g.tolist() == torch.ones(shape).tolist()
    go = torch.ones(shape[:-2], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.linalg.det(a), a, go, create_graph=True)
    assert shape_of(g.grad_fn) == (
        "ExpandBackward0", [("UnsqueezeBackward0", [("UnsqueezeBackward0", [ACC])])])
    g, = torch.autograd.grad(torch.linalg.det(a * a).sum(), a, create_graph=True)
    g2, = torch.autograd.grad(g.sum(), a)
    assert g2.tolist() == torch.full(shape, 2.0).tolist()


def matrices(upper):
    gen = torch.Generator().manual_seed(0)
    A = torch.randn(3, 3, generator=gen, dtype=torch.float64).triu() + 3 * torch.eye(3)
    A = A if upper else A.mT
    b = torch.randn(3, 2, generator=gen, dtype=torch.float64)
    return A.requires_grad_(), b.requires_grad_()


def solve(b, A, upper, transpose, unitriangular):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # triangular_solve is deprecated
        return torch.triangular_solve(b, A, upper=upper, transpose=transpose,
                                      unitriangular=unitriangular)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_triangular_solve_gradient_graph(upper, transpose, unitriangular):
    A, b = matrices(upper)
    x = solve(b, A, upper, transpose, unitriangular)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gb, gA = torch.autograd.grad(x.sum(), (b, A), create_graph=True)
        assert shape_of(gb.grad_fn, 1) == ("TriangularSolveBackward0", [None, ACC])
        cut = "TriuBackward0" if upper else "TrilBackward0"
        # -(gb @ x.mT), or -(x @ gb.mT) when transposed: both solves are this row's
        assert shape_of(gA.grad_fn, 3) == (cut, [("NegBackward0", [("MmBackward0", [
            "TriangularSolveBackward0", "TransposeBackward0"])])])
        second = torch.autograd.grad((gb * gb).sum() + (gA * gA).sum(), (b, A))
    # the same second derivative as solve_triangular's, solving with Aᵀ when transposed
    A2, b2 = A.detach().clone().requires_grad_(), b.detach().clone().requires_grad_()
    M = A2.mT if transpose else A2
    x2 = torch.linalg.solve_triangular(M, b2, upper=upper != transpose,
                                       unitriangular=unitriangular)
    gb2, gA2 = torch.autograd.grad(x2.sum(), (b2, A2), create_graph=True)
    expected = torch.autograd.grad((gb2 * gb2).sum() + (gA2 * gA2).sum(), (b2, A2))
    for got, want in zip(second, expected):
        assert torch.allclose(got, want)


def test_the_copy_s_gradient_alone():
    A, b = matrices(True)
    m = solve(b, A, True, False, False)[1]
    gb, gA = torch.autograd.grad(m.sum(), (b, A), create_graph=True)
    assert gb.grad_fn is None and gA.grad_fn is None
    assert gb.tolist() == torch.zeros(3, 2).tolist() and gA.tolist() == torch.ones(3, 3).tolist()


def test_the_backward_warns_as_the_call_does(warn_always):
    A, b = matrices(True)
    x = solve(b, A, True, False, False)[0]
    with pytest.warns(UserWarning, match="torch.triangular_solve is deprecated"):
        torch.autograd.grad(x.sum(), (b, A))
