"""Determinants, inverses, matrix powers, Cholesky factors and solves, on torch's API."""

import numpy as np
import pytest
import torch

RNG = np.random.default_rng(7)
A3 = RNG.uniform(-2.0, 2.0, (3, 3))
BATCH = RNG.uniform(-2.0, 2.0, (2, 3, 3))
SINGULAR = [[1.0, 2.0], [2.0, 4.0]]
TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-12}


def _leaf(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def _names(fn):
    return sorted(name for name in dir(fn) if name.startswith("_saved_"))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("values", [A3, BATCH])
def test_det_and_its_gradient_follow_jacobi(dtype, values):
    a = _leaf(values, dtype)
    d = torch.linalg.det(a)
    assert d.dtype == dtype and type(d.grad_fn).__name__ == "LinalgDetBackward0"
    np.testing.assert_allclose(d.detach().numpy(), np.linalg.det(values),
                               rtol=TOLERANCE[dtype] * 10)
    d.sum().backward()
    expected = np.linalg.det(values)[..., None, None] * np.linalg.inv(values).swapaxes(-1, -2)
    np.testing.assert_allclose(a.grad.numpy(), expected, rtol=TOLERANCE[dtype] * 100,
                               atol=TOLERANCE[dtype])
    assert torch.det(a).grad_fn.name() == "LinalgDetBackward0"


def test_det_saves_a_lu_of_the_transpose_for_a_matrix_laid_out_by_rows():
    a = _leaf(A3)
    node = torch.det(a).grad_fn
    assert _names(node) == ["_saved_A", "_saved_LU", "_saved_pivots", "_saved_result"]
    assert node._saved_pivots.dtype == torch.int32
    lu, pivots = node._saved_LU, node._saved_pivots.tolist()
    # P Aᵀ = L U, with pivots counted from 1
    rows = list(range(3))
    for k, p in enumerate(pivots):
        rows[k], rows[p - 1] = rows[p - 1], rows[k]
    lower = np.tril(lu.numpy(), -1) + np.eye(3)
    np.testing.assert_allclose(lower @ np.triu(lu.numpy()), A3.T[rows], atol=1e-12)
    assert torch.equal(node._saved_A, a) and node._saved_result.item() == torch.det(a).item()


def test_det_of_a_singular_matrix_has_a_zero_gradient_unless_differentiated_again():
    a = _leaf(SINGULAR)
    d = torch.det(a)
    assert d.item() == 0
    d.backward()
    assert torch.equal(a.grad, torch.zeros(2, 2, dtype=torch.float64))
    (g,) = torch.autograd.grad(torch.det(a), a, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), [[4.0, -2.0], [-2.0, 1.0]], atol=1e-12)
    (gg,) = torch.autograd.grad(g.sum(), a)
    np.testing.assert_allclose(gg.numpy(), [[1.0, -1.0], [-1.0, 1.0]], atol=1e-12)


def test_slogdet_sign_requires_grad_but_passes_none_on():
    a = _leaf(A3)
    result = torch.linalg.slogdet(a)
    assert type(result).__name__ == "linalg_slogdet"
    assert type(torch.slogdet(a)).__name__ == "slogdet"
    sign, logabsdet = result
    assert sign.requires_grad and sign.grad_fn is logabsdet.grad_fn
    assert logabsdet.grad_fn.name() == "LinalgSlogdetBackward0"
    assert _names(logabsdet.grad_fn) == ["_saved_A", "_saved_LU", "_saved_pivots", "_saved_sign"]
    np.testing.assert_allclose(sign.item() * np.exp(logabsdet.item()), np.linalg.det(A3))
    logabsdet.backward()
    np.testing.assert_allclose(a.grad.numpy(), np.linalg.inv(A3).T, rtol=1e-10)


def test_slogdet_of_a_singular_matrix():
    a = _leaf(SINGULAR)
    sign, logabsdet = torch.linalg.slogdet(a)
    assert sign.item() == 0 and logabsdet.item() == float("-inf")
    logabsdet.backward()
    assert torch.isinf(a.grad).all()


def test_logdet_is_nan_for_a_negative_determinant_and_a_where_over_slogdet():
    a = _leaf([[1.0, 2.0], [3.0, 4.0]])
    out = torch.logdet(a)
    assert torch.isnan(out) and out.grad_fn.name() == "WhereBackward0"
    (none, (slogdet, slot)) = out.grad_fn.next_functions
    assert none[0] is None and slogdet.name() == "LinalgSlogdetBackward0" and slot == 1
    assert torch.logdet(torch.zeros(2, 2)).item() == float("-inf")
    b = _leaf(A3 @ A3.T + np.eye(3))
    torch.logdet(b).backward()
    np.testing.assert_allclose(b.grad.numpy(), np.linalg.inv(A3 @ A3.T + np.eye(3)).T)


def test_inverse_and_its_gradient():
    a = _leaf(BATCH)
    out = torch.linalg.inv(a)
    assert out.grad_fn.name() == "LinalgInvExBackward0" and _names(out.grad_fn) == [
        "_saved_inverse"]
    np.testing.assert_allclose(out.detach().numpy(), np.linalg.inv(BATCH), rtol=1e-10)
    weights = RNG.uniform(-1.0, 1.0, (2, 3, 3))
    (out * torch.tensor(weights)).sum().backward()
    inverse_t = np.linalg.inv(BATCH).swapaxes(-1, -2)
    np.testing.assert_allclose(a.grad.numpy(), -inverse_t @ weights @ inverse_t, rtol=1e-9)
    assert torch.inverse(a).grad_fn.name() == "LinalgInvExBackward0"
    inverse, info = torch.linalg.inv_ex(torch.tensor(SINGULAR))
    assert info.item() == 2 and info.dtype == torch.int32 and not torch.isfinite(inverse).all()


@pytest.mark.parametrize("n, chain", [
    (0, ["torch::autograd::CopyBackwards", "CloneBackward0"]),
    (1, ["CloneBackward0"]), (-1, ["LinalgInvExBackward0"]),
    (2, ["MmBackward0"]), (5, ["MmBackward0", "MmBackward0", "MmBackward0"]),
])
def test_matrix_power_is_products(n, chain):
    a = _leaf(A3)
    out = torch.linalg.matrix_power(a, n)
    np.testing.assert_allclose(out.detach().numpy(), np.linalg.matrix_power(A3, n), rtol=1e-10)
    names, stack, seen = [], [out.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen or node.name().endswith("AccumulateGrad"):
            continue
        seen.add(id(node))
        names.append(node.name())
        stack.extend(f for f, _ in node.next_functions)
    assert sorted(names) == sorted(chain)
    out.sum().backward()
    assert a.grad.shape == (3, 3)


def test_matrix_power_of_integers_and_its_errors():
    m = torch.arange(4).reshape(2, 2)
    assert torch.matrix_power(m, 3).tolist() == [[6, 11], [22, 39]]
    assert m.matrix_power(0).tolist() == [[1, 0], [0, 1]]
    with pytest.raises(RuntimeError, match="^linalg.inv: Expected a floating point or complex "
                                           "tensor as input. Got Long$"):
        torch.matrix_power(m, -1)
    with pytest.raises(RuntimeError, match="^linalg.matrix_power: A must be batches of square "
                                           r"matrices, but they are 2 by 3 matrices$"):
        torch.linalg.matrix_power(torch.ones(2, 3), 2)
    with pytest.raises(TypeError, match=r"argument 'n' \(position 2\) must be int, not float"):
        torch.linalg.matrix_power(torch.ones(2, 2), 2.0)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_reads_one_triangle_and_saves_upper(upper):
    spd = A3 @ A3.T + np.eye(3)
    messy = np.triu(spd, 1) * 5 + np.tril(spd) if not upper else np.tril(spd, -1) * 5 + np.triu(spd)
    a = _leaf(messy)
    factor = torch.linalg.cholesky(a, upper=upper)
    lower = np.linalg.cholesky(spd)
    np.testing.assert_allclose(factor.detach().numpy(), lower.T if upper else lower, rtol=1e-12)
    node = factor.grad_fn
    assert node.name() == "LinalgCholeskyExBackward0" and _names(node) == [
        "_saved_L", "_saved_upper"]
    assert node._saved_upper is upper
    weights = torch.tensor(RNG.uniform(-1.0, 1.0, (3, 3)))
    (factor * weights).sum().backward()
    assert torch.allclose(a.grad, a.grad.mT)  # symmetric, whichever triangle was read


def test_solve_shapes_sides_and_names():
    a, b = _leaf(BATCH), _leaf(RNG.uniform(-1.0, 1.0, (3,)))
    x = torch.linalg.solve(a, b)
    assert x.shape == (2, 3) and x.grad_fn.name() == "LinalgSolveExBackward0"
    assert _names(x.grad_fn) == ["_saved_A", "_saved_LU", "_saved_left", "_saved_pivots",
                                 "_saved_result"]
    np.testing.assert_allclose(x.detach().numpy(), np.linalg.solve(BATCH, np.broadcast_to(
        b.detach().numpy(), (2, 3))[..., None])[..., 0], rtol=1e-10)
    x.sum().backward()
    assert b.grad.shape == (3,) and a.grad.shape == (2, 3, 3)
    right = torch.tensor(RNG.uniform(-1.0, 1.0, (4, 3)))
    y = torch.linalg.solve(a[0], right, left=False)
    assert y.grad_fn._saved_left is False
    np.testing.assert_allclose((y.detach().numpy() @ BATCH[0]), right.numpy(), atol=1e-10)


@pytest.mark.parametrize("call, message", [
    (lambda: torch.det(torch.ones(3)), "linalg.det: The input tensor A must have at least 2 "
                                      "dimensions."),
    (lambda: torch.det(torch.ones(2, 3)), "linalg.det: A must be batches of square matrices, "
                                          "but they are 2 by 3 matrices"),
    (lambda: torch.det(torch.ones(2, 2, dtype=torch.long)),
     "linalg.det: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: torch.logdet(torch.ones(2, 2, dtype=torch.float16)),
     "logdet: Low precision dtypes not supported. Got Half"),
    (lambda: torch.linalg.slogdet(torch.ones(2, 2, dtype=torch.bool)),
     "linalg.slogdet: Expected a floating point or complex tensor as input. Got Bool"),
    (lambda: torch.linalg.solve(torch.eye(2), torch.ones(3)),
     r"linalg.solve: Incompatible shapes of A and B for the equation AX = B \(2x2 and 3x1\)"),
    (lambda: torch.linalg.solve(torch.eye(2), torch.ones(2), left=False),
     r"linalg.solve: Incompatible shapes of A and B for the equation XA = B \(2x2 and 2x1\)"),
    (lambda: torch.linalg.solve(torch.eye(2), torch.ones(2, dtype=torch.float64)),
     "linalg.solve: Expected A and B to have the same dtype, but found A of type Float and B "
     "of type Double instead"),
    (lambda: torch.linalg.solve(torch.ones(3, 2, 2), torch.ones(4, 2, 1)),
     r"The size of tensor a \(4\) must match the size of tensor b \(3\) at non-singleton "
     "dimension 0"),
])
def test_errors(call, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        call()


@pytest.mark.parametrize("call, kernel", [
    (lambda: torch.det(torch.ones(2, 2, dtype=torch.float16)), "lu_cpu"),
    (lambda: torch.linalg.cholesky(torch.ones(2, 2, dtype=torch.float16)), "cholesky_cpu"),
])
def test_half_has_no_kernel(call, kernel):
    with pytest.raises(NotImplementedError, match=f"^\"{kernel}\" not implemented for 'Half'$"):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: torch.linalg.inv(torch.tensor(SINGULAR)),
     "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because "
     "the input matrix is singular."),
    (lambda: torch.inverse(torch.tensor([[[1.0, 0.0], [0.0, 1.0]], SINGULAR])),
     r"linalg.inv: \(Batch element 1\): The diagonal element 2 is zero, the inversion could not "
     "be completed because the input matrix is singular."),
    (lambda: torch.linalg.cholesky(torch.tensor([[4.0, 2.0], [2.0, -3.0]])),
     r"linalg.cholesky: The factorization could not be completed because the input is not "
     r"positive-definite \(the leading minor of order 2 is not positive-definite\)."),
    (lambda: torch.linalg.cholesky(torch.tensor([[4.0, 7.0], [2.0, 3.0]]), upper=True),
     r"linalg.cholesky: The factorization could not be completed because the input is not "
     r"positive-definite \(the leading minor of order 2 is not positive-definite\)."),
    (lambda: torch.linalg.cholesky(torch.tensor([[float("nan"), 1.0], [1.0, 1.0]])),
     r"linalg.cholesky: The factorization could not be completed because the input is not "
     r"positive-definite \(the leading minor of order 1 is not positive-definite\)."),
    (lambda: torch.linalg.solve(torch.ones(2, 2, 2), torch.ones(2)),
     r"torch.linalg.solve: \(Batch element 0\): The solver failed because the input matrix is "
     "singular."),
])
def test_linalg_errors(call, message):
    with pytest.raises(torch.linalg.LinAlgError, match=f"^{message}$") as caught:
        call()
    assert isinstance(caught.value, RuntimeError)


def test_empty_matrices():
    assert torch.det(torch.ones(2, 0, 0)).tolist() == [1.0, 1.0]
    assert torch.linalg.inv(torch.ones(0, 0)).shape == (0, 0)
    assert torch.linalg.cholesky(torch.ones(2, 0, 0)).shape == (2, 0, 0)
    assert torch.linalg.slogdet(torch.ones(0, 0)).logabsdet.item() == 0.0


def test_addr_is_one_node_and_promotes():
    m = torch.ones(2, 3, requires_grad=True)
    u, v = torch.arange(2.0).requires_grad_(), torch.arange(3.0).requires_grad_()
    out = torch.addr(m, u, v, beta=2, alpha=3)
    assert out.tolist() == [[2.0, 2.0, 2.0], [2.0, 5.0, 8.0]]
    node = out.grad_fn
    assert node.name() == "AddrBackward0" and _names(node) == [
        "_saved_alpha", "_saved_beta", "_saved_vec1", "_saved_vec2"]
    assert (node._saved_alpha, node._saved_beta) == (3, 2)
    out.sum().backward()
    assert m.grad.tolist() == [[2.0] * 3] * 2 and u.grad.tolist() == [9.0, 9.0]
    assert v.grad.tolist() == [3.0, 3.0, 3.0]
    assert torch.addr(torch.ones(2, 3), torch.ones(2, dtype=torch.float64),
                      torch.ones(3)).dtype == torch.float64
    dropped = torch.addr(torch.full((2, 3), float("nan")), u, v, beta=0)
    assert not torch.isnan(dropped).any()
    longs = torch.ones(2, dtype=torch.long)
    assert torch.addr(torch.ones(2, 2, dtype=torch.long), longs, longs, beta=2, alpha=3).tolist(
    ) == [[5, 5], [5, 5]]


@pytest.mark.parametrize("call, message", [
    (lambda: torch.addr(torch.ones(2, 3), torch.ones(2, 2), torch.ones(3)),
     "addr: Expected 1-D argument vec1, but got 2-D"),
    (lambda: torch.addr(torch.ones(3, 3), torch.ones(2), torch.ones(3)),
     r"The expanded size of the tensor \(2\) must match the existing size \(3\) at "
     r"non-singleton dimension 0.  Target sizes: \[2, 3\].  Tensor sizes: \[3, 3\]"),
    (lambda: torch.addr(torch.ones(2, 2, dtype=torch.long), torch.ones(2, dtype=torch.long),
                        torch.ones(2, dtype=torch.long), beta=0.5),
     "For integral input tensors, argument beta must not be a floating point number."),
    (lambda: torch.dist(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long)),
     r"norm\(\): input dtype should be either floating point or complex. Got Long instead."),
    (lambda: torch.dist(torch.ones(2), torch.ones(3)),
     r"The size of tensor a \(2\) must match the size of tensor b \(3\) at non-singleton "
     "dimension 0"),
])
def test_addr_and_dist_errors(call, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        call()


@pytest.mark.parametrize("p", [2, 1, 3, 0.5, float("inf"), float("-inf")])
def test_dist_is_the_norm_of_the_difference(p):
    a, b = _leaf([[1.0, 2.0], [3.0, 4.0]]), _leaf([1.0, 0.0])
    d = torch.dist(a, b, p)
    difference = np.array([[0.0, 2.0], [2.0, 4.0]])
    if np.isinf(p):
        expected = np.abs(difference).max() if p > 0 else np.abs(difference).min()
    else:
        expected = (np.abs(difference) ** p).sum() ** (1 / p)
    np.testing.assert_allclose(d.item(), expected)
    node = d.grad_fn
    assert node.name() == "DistBackward0" and node._saved_p == p
    assert _names(node) == ["_saved_other", "_saved_p", "_saved_result", "_saved_self"]
    d.backward()
    np.testing.assert_allclose(b.grad.numpy(), -a.grad.numpy().sum(0))


def test_dist_with_p_zero_counts_and_has_no_gradient():
    a = _leaf([1.0, 2.0, 3.0])
    d = torch.dist(a, torch.tensor([1.0, 0.0, 0.0], dtype=torch.float64), 0)
    assert d.item() == 2.0
    d.backward()
    assert a.grad is None
    d = torch.dist(a, _leaf([1.0, 0.0, 0.0]), 0)
    with pytest.raises(RuntimeError, match=r"^Expected a proper Tensor but got None \(or an "
                                           r"undefined Tensor in C\+\+\) for argument #0 'self'$"):
        d.backward()


@pytest.mark.parametrize("ord, nodes", [
    ("fro", ["LinalgVectorNormBackward0"]),
    (1, ["AmaxBackward0", "LinalgVectorNormBackward0"]),
    (-1, ["AminBackward0", "LinalgVectorNormBackward0"]),
    (float("inf"), ["AmaxBackward0", "LinalgVectorNormBackward0"]),
    (float("-inf"), ["AminBackward0", "LinalgVectorNormBackward0"]),
])
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norms_are_vector_norms_and_extremes(ord, nodes, keepdim):
    a = _leaf(BATCH[:, :, :2])
    out = torch.linalg.matrix_norm(a, ord, keepdim=keepdim)
    expected = np.linalg.norm(BATCH[:, :, :2], ord, axis=(-2, -1), keepdims=keepdim)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    names, node = [], out.grad_fn
    while node is not None and not node.name().endswith("AccumulateGrad"):
        names.append(node.name())
        node = node.next_functions[0][0]
    assert names == nodes
    out.sum().backward()
    assert a.grad.shape == a.shape


def test_linalg_norm_chooses():
    a = _leaf(A3)
    assert torch.linalg.norm(a).grad_fn._saved_ord == 2.0
    assert torch.linalg.norm(a, dim=(0, 1)).grad_fn._saved_dim == (0, 1)
    np.testing.assert_allclose(torch.linalg.norm(a, 1).item(), np.linalg.norm(A3, 1))
    np.testing.assert_allclose(torch.linalg.norm(a[0], 3).item(), np.linalg.norm(A3[0], 3))
    np.testing.assert_allclose(torch.linalg.norm(a, float("inf"), dim=(1, 0)).item(),
                               np.linalg.norm(A3.T, np.inf))
    assert torch.linalg.matrix_norm(a.float(), -1, dtype=torch.float64).dtype == torch.float64


@pytest.mark.parametrize("call, message", [
    (lambda: torch.linalg.matrix_norm(torch.ones(3, 4), "foo"),
     "linalg.matrix_norm: Order foo not supported."),
    (lambda: torch.linalg.matrix_norm(torch.ones(3, 4), 3),
     "linalg.matrix_norm: Order 3 not supported."),
    (lambda: torch.linalg.matrix_norm(torch.ones(3)),
     "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.linalg.matrix_norm(torch.ones(3, 3, dtype=torch.long)),
     "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: torch.linalg.matrix_norm(torch.ones(3, 3, dtype=torch.float64), 1,
                                      dtype=torch.float32),
     r"linalg.matrix_norm: the dtype of the input \(Double\) should be convertible without "
     r"narrowing to the specified dtype \(Float\)"),
    (lambda: torch.linalg.matrix_norm(torch.ones(3, 3), dim=(0, 0)),
     r"linalg.matrix_norm: dims must be different. Got \(0, 0\)"),
    (lambda: torch.linalg.norm(torch.ones(2, 3, 4), 1),
     "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got 3D."),
    (lambda: torch.linalg.norm(torch.ones(3, 3), dim=(0, 1, 1)),
     r"linalg.norm: If dim is specified, it must be of length 1 or 2. Got \[0, 1, 1\]"),
])
def test_norm_errors(call, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        call()
