"""What linalg.solve's node saves and how a plain backward uses it; a determinant's gradient for
a batch of singular and invertible matrices; item assignment through a mask of one matrix.

A plain backward through ``linalg.solve`` solves with the factors the forward saved, so its
gradient for ``B`` is, bit for bit, ``lu_solve`` with the node's own ``LU`` and pivots. A
batch of determinants whose matrices take different formulas writes each part by item
assignment, and a part of one matrix is viewed down to that matrix first. The same
assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises, unique_preorder

D = torch.float64
MATRICES = [[[2.0, 0.5, 0.1], [0.3, 1.5, 0.2], [0.1, 0.4, 1.1]],
            [[1.0, 0.2, -0.3], [0.4, 0.9, 0.1], [0.0, 0.3, 1.4]]]
SINGULAR = [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [0.5, 0.3, 1.4]]  # det exactly 0


def _a(layout, dtype=D):
    a = torch.tensor(MATRICES, dtype=dtype)
    if layout == "rows":
        return a
    if layout == "columns":
        return a.mT.contiguous().mT
    return torch.cat([a, a], -1)[..., :3]  # neither


def _b(shape, dtype=D):
    n = torch.Size(shape).numel()
    return (torch.arange(n, dtype=dtype).reshape(shape) * 0.37 - 0.8).requires_grad_()


SOLVES = [((3, 2), True), ((2, 3, 2), True), ((2, 3), True), ((3,), True),
          ((2, 2, 3), False), ((4, 2, 3, 1), True), ((2, 1, 3), False)]


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("layout", ["rows", "columns", "strided"])
@pytest.mark.parametrize("shape, left", SOLVES, ids=[f"{s}-{lf}" for s, lf in SOLVES])
def test_plain_gradient_solves_with_the_saved_factors(shape, left, layout, dtype):
    A = _a(layout, dtype).requires_grad_()
    B = _b(shape, dtype)
    X = torch.linalg.solve(A, B, left=left)
    node = X.grad_fn
    LU, pivots = node._saved_LU, node._saved_pivots
    assert (LU.dtype, tuple(LU.shape), LU.stride()) == (dtype, (2, 3, 3), (9, 1, 3))
    assert (pivots.dtype, tuple(pivots.shape), pivots.stride()) == (torch.int32, (2, 3), (3, 1))
    own = torch.linalg.lu_factor(A.detach())
    assert torch.equal(LU, own.LU) and torch.equal(pivots, own.pivots)  # A's own, any layout
    weights = torch.arange(X.numel(), dtype=dtype).reshape(X.shape) * 0.1 + 0.5
    (X * weights).sum().backward()
    vector = B.ndim == 1 or tuple(B.shape) == tuple(A.shape[:-1])
    g = weights.unsqueeze(-1) if vector else weights
    gB = torch.linalg.lu_solve(LU, pivots, g, left=left, adjoint=True)
    gB = gB.squeeze(-1) if vector else gB
    assert torch.equal(B.grad, gB.sum_to_size(B.shape))
    gB = gB.unsqueeze(-1) if vector else gB
    Xm = X.detach().unsqueeze(-1) if vector else X.detach()
    gA = -(gB @ Xm.mT) if left else -(Xm.mT @ gB)
    assert torch.equal(A.grad, gA.sum_to_size(A.shape))


@pytest.mark.parametrize("shape, left, strides", [
    ((4, 2, 3, 1), True, (6, 3, 1, 3)), ((4, 2, 1, 3), False, (6, 3, 3, 1)),
    ((2, 3, 2), True, (6, 2, 1)), ((3,), True, (1,))])
def test_a_leaf_keeps_the_solves_layout_where_it_may(shape, left, strides):
    A = _a("rows").requires_grad_()
    B = _b(shape)
    torch.linalg.solve(A, B, left=left).sum().backward()
    assert B.grad.stride() == strides


def test_solve_saves_what_torch_saves_in_its_order():
    packed = []

    def pack(t):
        packed.append((tuple(t.shape), t.dtype, t.stride()))
        return t

    A = _a("rows").requires_grad_()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        X = torch.linalg.solve(A, _b((2, 3)))
    assert packed == [((2, 3, 3), D, (9, 3, 1)), ((2, 3, 3), D, (9, 1, 3)),
                      ((2, 3), torch.int32, (3, 1)), ((2, 3), D, (1, 2))]
    node = X.grad_fn
    assert node._saved_A.stride() == (9, 3, 1) and node._saved_left is True
    assert torch.equal(node._saved_result, X)


def test_a_second_derivative_still_solves_with_a():
    A = _a("rows").requires_grad_()
    B = _b((2, 3, 2))
    X = torch.linalg.solve(A, B)
    gA, gB = torch.autograd.grad((X * X).sum(), (A, B), create_graph=True)
    assert unique_preorder(gB.grad_fn) == [
        "LinalgSolveExBackward0", "TransposeBackward0", "AccumulateGrad", "AddBackward0",
        "MulBackward0", "LinalgSolveExBackward0", "AccumulateGrad", "MulBackward0"]
    assert gB.stride() == (6, 1, 3)
    (gg,) = torch.autograd.grad(gB.sum(), A)
    assert gg.flatten().tolist() == pytest.approx([
        0.445064, 0.387099, 0.18164, 0.342097, 0.184698, -0.156601, -0.181858, -1.66673,
        -4.034183, -13.579586, -9.585009, -10.827327, -5.365553, -3.388399, -3.702009,
        -11.318179, -7.530405, -8.3621], rel=1e-5, abs=1e-6)


def _mixed():
    return torch.tensor([MATRICES[0], SINGULAR, MATRICES[1]], dtype=D).requires_grad_()


def test_det_of_a_mixed_batch_has_torchs_graph():
    A = _mixed()
    (g,) = torch.autograd.grad(torch.linalg.det(A).sum(), A, create_graph=True)
    assert unique_preorder(g.grad_fn) == [
        "IndexPutBackward0", "IndexPutBackward0", "ViewBackward0", "UnsafeViewBackward0",
        "BmmBackward0", "ReshapeAliasBackward0", "ExpandBackward0", "MulBackward0",
        "LinalgSvdBackward0", "IndexBackward0", "AccumulateGrad", "UnsqueezeBackward0",
        "MulBackward0", "UnsqueezeBackward0", "MulBackward0", "MulBackward0",
        "LinalgDetBackward0", "LinalgDetBackward0", "MulBackward0", "CumprodBackward0",
        "CatBackward0", "SliceBackward0", "FlipBackward0", "CumprodBackward0",
        "CatBackward0", "FlipBackward0", "SliceBackward0", "ReshapeAliasBackward0",
        "ExpandBackward0", "LinalgSolveExBackward0", "TransposeBackward0", "IndexBackward0",
        "IndexBackward0", "TransposeBackward0", "DiagEmbedBackward0", "ExpandBackward0",
        "UnsqueezeBackward0", "MulBackward0", "LinalgDetBackward0"]
    assert g.stride() == (9, 3, 1)
    assert g[1].flatten().tolist() == pytest.approx(
        [0.0, 0.0, 0.0, -1.9, -0.1, 0.7, 0.0, 0.0, 0.0], abs=1e-12)
    (gg,) = torch.autograd.grad(g.sum(), A)
    assert gg[1].flatten().tolist() == pytest.approx(
        [1.1, -0.9, -0.2, -0.1, -1.1, 1.2, -1.0, 2.0, -1.0], abs=1e-9)


def test_det_of_a_mixed_batch_with_two_singular_matrices_views_the_invertible_one():
    A = torch.tensor([SINGULAR, MATRICES[0], SINGULAR], dtype=D).requires_grad_()
    (g,) = torch.autograd.grad(torch.linalg.det(A).sum(), A, create_graph=True)
    put = g.grad_fn.next_functions
    assert [type(n).__name__ for n, _ in put] == ["IndexPutBackward0", "ViewBackward0"]
    assert type(put[1][0].next_functions[0][0]).__name__ == "LinalgSolveExBackward0"
    first = put[0][0].next_functions[1][0]
    assert type(first).__name__ == "UnsafeViewBackward0"  # two matrices: nothing to drop


def test_a_plain_backward_of_a_mixed_batch_gives_a_singular_matrix_zeros():
    A = _mixed()
    torch.linalg.det(A).sum().backward()
    assert A.grad[1].tolist() == [[0.0] * 3] * 3
    assert A.grad[0].flatten().tolist() == pytest.approx(
        [1.57, -0.31, -0.03, -0.51, 2.19, -0.75, -0.05, -0.37, 2.85])


def test_writing_through_a_mask_drops_leading_ones_by_a_view():
    mask = torch.tensor([True, False, True])
    v = torch.ones(1, 1, 4, requires_grad=True)
    x = torch.zeros(3, 4)
    x[mask] = v * 2
    assert unique_preorder(x.grad_fn) == [
        "IndexPutBackward0", "ViewBackward0", "MulBackward0", "AccumulateGrad"]
    x = torch.zeros(3, 4)
    x[mask] = torch.ones(2, 4, requires_grad=True) * 2
    assert unique_preorder(x.grad_fn) == ["IndexPutBackward0", "MulBackward0", "AccumulateGrad"]
    with raises(RuntimeError, "shape mismatch: value tensor of shape [5] cannot be broadcast "
                              "to indexing result of shape [2, 4]"):
        x[mask] = torch.ones(1, 5)
    with raises(RuntimeError, "shape mismatch: value tensor of shape [2, 4] cannot be "
                              "broadcast to indexing result of shape [2, 3]"):
        x[mask, 1:] = torch.ones(1, 2, 4)


@pytest.mark.parametrize("layout", ["rows", "columns", "strided"])
@pytest.mark.parametrize("fn", [torch.linalg.det, lambda a: torch.linalg.slogdet(a).logabsdet],
                         ids=["det", "slogdet"])
def test_det_saves_factors_laid_out_by_columns(fn, layout):
    A = _a(layout).requires_grad_()
    y = fn(A)
    LU = y.grad_fn._saved_LU
    assert LU.stride() == (9, 1, 3)
    source = A.detach().mT if A.is_contiguous() else A.detach()  # Aᵀ costs no copy
    assert torch.equal(LU, torch.linalg.lu_factor(source).LU)
    y.sum().backward()
    assert A.grad.flatten().tolist() == pytest.approx(
        [0.526492, -0.103957, -0.01006, -0.171026, 0.734406, -0.251509, -0.016767, -0.124078,
         0.955734, 1.136784, -0.51756, 0.110906, -0.341959, 1.2939, -0.277264, 0.268022,
         -0.203327, 0.757856] if fn is not torch.linalg.det else
        [1.57, -0.31, -0.03, -0.51, 2.19, -0.75, -0.05, -0.37, 2.85, 1.23, -0.56, 0.12,
         -0.37, 1.4, -0.3, 0.29, -0.22, 0.82], rel=1e-5, abs=1e-6)
