"""Gradients of the factorizations and solves at empty inputs, and linalg.solve_ex.

An empty matrix, or an empty batch of them, still has a gradient: zeros of its
shape, made by the whole formula, whose steps a gradient taken with
``create_graph=True`` records node for node. The results of the factorizations
are laid out by columns even when they hold nothing, and those strides reach
the gradients. ``solve_ex`` is ``solve`` that reports a singular matrix in
``info`` instead of raising, and returns what the LU solve gave.
"""

import pytest
import torch

from conformance._linalg_empty_gradients_expected import EXPECTED
from conformance._support import preorder_names

L = torch.linalg
D = torch.float64


def leaf(shape, transposed):
    """A float64 leaf of zeros, made as the transpose of its transpose if asked."""
    if transposed:
        x = torch.zeros(*shape[:-2], shape[-1], shape[-2], dtype=D).mT
    else:
        x = torch.zeros(*shape, dtype=D)
    return x.requires_grad_()


def spd(x):
    return x @ x.mT + torch.eye(x.shape[-2], dtype=D)


def other(x):
    return x.detach() * 0.3 + 0.2


FORMULAS = {
    "svdvals": L.svdvals,
    "svd_U": lambda x: L.svd(x, full_matrices=False).U,
    "nuc": lambda x: L.matrix_norm(x, "nuc"),
    "qr_R": lambda x: L.qr(x.mT).R,
    "qr_Q": lambda x: L.qr(x).Q,
    "eigvalsh": lambda x: L.eigvalsh(spd(x)),
    "eigh_V": lambda x: L.eigh(spd(x)).eigenvectors,
    "lstsq": lambda x: L.lstsq(x.mT, other(x).mT).solution,
    "pinv": L.pinv,
    "slogdet": lambda x: L.slogdet(spd(x)).logabsdet,
    "det": lambda x: L.det(spd(x)),
    "cholesky": lambda x: L.cholesky(spd(x)),
    "inv": lambda x: L.inv(spd(x)),
    "solve_A": lambda x: L.solve(spd(x), other(x)),
    "solve_ex_A": lambda x: L.solve_ex(spd(x), other(x)).result,
}
SHAPES = {"3x0": (3, 0), "0x3": (0, 3), "0x3x3": (0, 3, 3), "2x0x0": (2, 0, 0), "2x3x0": (2, 3, 0)}
CASES = {f"{name}-{label}-{'t' if tr else 'c'}": (shape, tr, f)
         for name, f in FORMULAS.items() for label, shape in SHAPES.items() for tr in (False, True)
         if not (name == "qr_Q" and shape[-2] < shape[-1])}


@pytest.mark.parametrize("key", sorted(CASES))
def test_an_empty_input_gets_the_whole_formula(key):
    shape, transposed, f = CASES[key]
    x = leaf(shape, transposed)
    (g,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    assert g.shape == x.shape and g.dtype == D
    x2 = leaf(shape, transposed)
    f(x2).sum().backward()
    assert x2.grad is not None and x2.grad.shape == x.shape
    strides, grad_strides, version, nodes = EXPECTED[key]
    assert (g.stride(), preorder_names(g.grad_fn, 4)) == (strides, nodes)
    assert (x2.grad.stride(), x2.grad._version) == (grad_strides, version)


def test_solve_ex_returns_the_solution_and_info():
    A = torch.tensor([[2.0, 0.5], [0.3, 1.5]], dtype=D, requires_grad=True)
    B = torch.tensor([[1.0, -1.0], [2.0, 0.5]], dtype=D)
    result = L.solve_ex(A, B)
    assert type(result).__name__ == "linalg_solve_ex" and len(result) == 2
    assert result[0] is result.result and result[1] is result.info
    assert result.result.grad_fn.name() == "LinalgSolveExBackward0"
    assert result.info.dtype == torch.int32 and result.info.shape == () and result.info.item() == 0
    assert result.result.stride() == (1, 2)
    assert torch.allclose(result.result, L.solve(A, B), rtol=0, atol=1e-15)
    (gA,) = torch.autograd.grad(result.result.sum(), A)
    (again,) = torch.autograd.grad(L.solve(A, B).sum(), A)
    assert torch.equal(gA, again)


def test_solve_ex_on_a_singular_matrix_gives_what_the_lu_solve_gives():
    A = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=D)
    B = torch.tensor([[1.0, 0.0], [1.0, 2.0]], dtype=D)
    inf, nan = float("inf"), float("nan")
    left = L.solve_ex(A, B)
    assert left.info.item() == 2
    assert torch.equal(left.result, torch.tensor([[-inf, inf], [inf, -inf]], dtype=D))
    right = L.solve_ex(A, B, left=False)
    assert torch.allclose(right.result, torch.tensor([[-inf, inf], [nan, nan]], dtype=D),
                          equal_nan=True)
    batch = L.solve_ex(torch.stack([A, torch.eye(2, dtype=D)]), B)
    assert batch.info.tolist() == [2, 0]
    assert torch.equal(batch.result, torch.tensor([[-inf, inf], [1.0, 2.0]], dtype=D))
    zero = L.solve_ex(torch.zeros(2, 2, dtype=D), B)
    assert zero.info.item() == 1
    assert torch.allclose(zero.result, torch.tensor([[nan, nan], [inf, inf]], dtype=D),
                          equal_nan=True)


def test_solve_ex_raises_only_when_asked():
    A = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=D)
    B = torch.ones(2, 2, dtype=D)
    with pytest.raises(L.LinAlgError, match=r"^torch.linalg.solve_ex: The solver failed "
                       r"because the input matrix is singular.$"):
        L.solve_ex(A, B, check_errors=True)
    with pytest.raises(L.LinAlgError, match=r"^torch.linalg.solve_ex: \(Batch element 0\): "):
        L.solve_ex(torch.stack([A, torch.eye(2, dtype=D)]), B, check_errors=True)
    with pytest.raises(RuntimeError, match="linalg.solve: A must be batches of square matrices"):
        L.solve_ex(torch.zeros(2, 3, dtype=D), torch.zeros(2, dtype=D))
    info = L.solve_ex(torch.eye(2, dtype=D).expand(3, 2, 2), B).info
    assert info.shape == (3,) and info.dtype == torch.int32


def test_solve_ex_writes_into_out():
    A = torch.eye(2, dtype=D) * 2
    out = (torch.empty(2, 2, dtype=D), torch.empty((), dtype=torch.int32))
    result = L.solve_ex(A, torch.ones(2, 2, dtype=D), out=out)
    assert type(result).__name__ == "linalg_solve_ex_out"
    assert result[0] is out[0] and result[1] is out[1]
    assert out[0].tolist() == [[0.5, 0.5], [0.5, 0.5]] and out[1].item() == 0
    assert (out[0].stride(), out[0]._version, out[1]._version) == ((2, 1), 1, 1)
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype int, but got long"):
        L.solve_ex(A, torch.ones(2, 2, dtype=D),
                   out=(torch.empty(2, 2, dtype=D), torch.empty((), dtype=torch.int64)))
    with pytest.raises(RuntimeError, match=r"^_linalg_solve_ex\(\): functions with out="):
        L.solve_ex(A.requires_grad_(), torch.ones(2, 2, dtype=D),
                   out=(torch.empty(2, 2, dtype=D), torch.empty((), dtype=torch.int32)))


CDIST = [  # x1's shape, x2's, transposed, then torch's strides and versions: the two
    # create_graph gradients, the two .grad of a plain backward and their versions
    ((3, 2), (0, 2), False, (2, 1), (2, 1), (2, 1), 0, (2, 1), 0),
    ((3, 2), (0, 2), True, (1, 3), (1, 1), (1, 3), 0, (1, 1), 0),
    ((2, 3, 2), (2, 0, 2), True, (6, 1, 3), (2, 1, 1), (6, 1, 3), 0, (2, 1, 1), 0),
    ((3, 0), (4, 0), True, (1, 3), (1, 4), (1, 3), 0, (1, 4), 0),
    ((2, 0), (2, 0), True, (1, 2), (1, 2), (1, 2), 0, (1, 2), 0),
    ((0, 3), (2, 3), False, (3, 1), (3, 1), (3, 1), 0, (3, 1), 0),
]


@pytest.mark.parametrize("case", CDIST)
def test_cdist_of_an_empty_operand_gives_zeros_laid_out_like_each(case):
    a, b, transposed, g1, g2, grad1, v1, grad2, v2 = case
    x1, x2 = leaf(a, transposed), leaf(b, transposed)
    grads = torch.autograd.grad(torch.cdist(x1, x2).sum(), (x1, x2), create_graph=True)
    assert [g.stride() for g in grads] == [g1, g2]
    assert [g.grad_fn.name() for g in grads] == ["CdistBackwardBackward0"] * 2
    x1, x2 = leaf(a, transposed), leaf(b, transposed)
    torch.cdist(x1, x2).sum().backward()
    assert (x1.grad.stride(), x1.grad._version, x2.grad.stride(), x2.grad._version) == (
        grad1, v1, grad2, v2)


def _spd():
    return torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=D)


def _empty(dtype=D):
    return torch.empty(0, dtype=dtype)


RESIZED_OUTS = {  # a call given out= to resize, and the strides torch gives each out
    "solve_batch": (lambda o: L.solve(torch.stack([_spd()] * 2), torch.ones(3, 2, dtype=D),
                                      out=o[0]), [D], [(6, 1, 3)]),
    "solve_right": (lambda o: L.solve(_spd(), torch.ones(2, 3, dtype=D), left=False, out=o[0]),
                    [D], [(3, 1)]),
    "solve_vectors": (lambda o: L.solve(torch.stack([_spd()] * 2), torch.ones(2, 3, dtype=D),
                                        out=o[0]), [D], [(1, 2)]),
    "solve_ex": (lambda o: L.solve_ex(_spd(), torch.ones(3, 2, dtype=D), out=o),
                 [D, torch.int32], [(1, 3), ()]),
    "inv_ex": (lambda o: L.inv_ex(torch.stack([_spd()] * 2), out=o), [D, torch.int32],
               [(9, 1, 3), (1,)]),
    "inverse": (lambda o: torch.inverse(_spd(), out=o[0]), [D], [(1, 3)]),
    "cholesky_upper": (lambda o: L.cholesky(_spd(), upper=True, out=o[0]), [D], [(1, 3)]),
    "lu_factor_ex": (lambda o: L.lu_factor_ex(_spd(), out=o), [D, torch.int32, torch.int32],
                     [(1, 3), (1,), ()]),
    "qr_complete": (lambda o: L.qr(_spd()[:, :2], mode="complete", out=o), [D, D],
                    [(1, 3), (1, 3)]),
    "svd_reduced": (lambda o: L.svd(_spd()[:, :2], full_matrices=False, out=o), [D, D, D],
                    [(1, 3), (1,), (1, 2)]),
    "eigh": (lambda o: L.eigh(_spd(), out=o), [D, D], [(1,), (1, 3)]),
    "solve_triangular_right": (lambda o: L.solve_triangular(
        _spd(), torch.ones(2, 3, dtype=D), upper=True, left=False, out=o[0]), [D], [(1, 2)]),
}


@pytest.mark.parametrize("key", sorted(RESIZED_OUTS))
def test_a_resized_out_is_laid_out_as_lapack_writes(key):
    call, dtypes, strides = RESIZED_OUTS[key]
    outs = tuple(_empty(dtype) for dtype in dtypes)
    call(outs)
    assert [o.stride() for o in outs] == strides


def test_an_out_of_the_right_shape_keeps_its_strides():
    out = torch.empty(3, 3, dtype=D)
    L.inv(_spd(), out=out)
    assert (out.stride(), out._version) == ((3, 1), 1)
    assert torch.allclose(out, L.inv(_spd()), rtol=0, atol=1e-15)
