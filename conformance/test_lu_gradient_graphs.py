"""The LU gradients and cholesky_inverse's, taken with create_graph, node for node.

torch's formulas for linalg.lu_factor(_ex), linalg.lu, linalg.lu_solve and
torch.lu_unpack unpack the factors with lu_unpack (a LuUnpackBackward0 node in a
create_graph gradient), solve with Uᴴ before Lᴴ, and leave out the gradient of a
factor no loss reached; cholesky_inverse's multiplies (g + gᴴ) A⁻¹ first. These
tests check, against torch's (conformance/_lu_gradient_graphs.py), the graph of
each gradient in preorder, what is packed under saved_tensors_hooks and in which
order, the gradient's strides, the values of the gradient and of the second
derivative (to 1e-9), and the layout and version of a leaf's ``.grad``.
"""

import pytest
import torch

from conformance._lu_gradient_graphs import EXPECTED
from conformance._support import unique_preorder

D = torch.float64


def leaf(*shape):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=D).reshape(shape).sin() * 0.5 + 0.1).requires_grad_()


def transposed_leaf(*shape):
    """A leaf of ``shape`` laid out by columns."""
    n = shape[-1] * shape[-2]
    t = torch.arange(n, dtype=D).reshape(shape[-1], shape[-2]).mT
    return (t.sin() * 0.5 + 0.1).requires_grad_()


def weights(t):
    return torch.arange(t.numel(), dtype=D).reshape(t.shape).cos() + 0.3


def spd(x):
    return x @ x.mT + 2 * torch.eye(x.shape[-2], dtype=D)


def weighted(*factors):
    return sum((f * weights(f)).sum() for f in factors)


def squared(*factors):
    return sum((f * f).sum() for f in factors)


def lu_of(loss, pick, square=True):
    return lambda x: loss(*pick(torch.linalg.lu(spd(x) if square else x * 1.5 + 0.2)))


def unpacked(pick, loss=squared):
    def f(x):
        pivots = torch.linalg.lu_factor(x.detach())[1]
        return loss(*pick(torch.lu_unpack(x, pivots)))
    return f


def solved(scale, **kw):
    def f(x):
        LU, pivots = torch.linalg.lu_factor(spd(x))
        return (torch.linalg.lu_solve(LU, pivots, x * scale, **kw) ** 2).sum()
    return f


def solved_for_B(x):
    LU, pivots = torch.linalg.lu_factor(spd(weights(torch.zeros(3, 3, dtype=D))))
    return (torch.linalg.lu_solve(LU, pivots, x) ** 2).sum()


LU_AND = lambda r: (r.L, r.U)  # noqa: E731
CASES = {
    "lu_factor": ((3, 3), lambda x: weighted(torch.linalg.lu_factor(spd(x)).LU)),
    "lu_factor_by_columns": ("by columns", lambda x: squared(torch.linalg.lu_factor(spd(x)).LU)),
    "lu_solve_by_columns": ("by columns", solved(2.0, adjoint=True)),
    "lu_factor_batched": ((2, 3, 3), lambda x: weighted(torch.linalg.lu_factor(spd(x)).LU)),
    "lu_factor_ex": ((3, 3), lambda x: weighted(torch.linalg.lu_factor_ex(spd(x)).LU)),
    "lu_factor_squared": ((3, 3), lambda x: squared(torch.linalg.lu_factor(spd(x)).LU)),
    "lu_factor_wide": ((3, 4), lambda x: squared(torch.linalg.lu_factor(x * 1.5 + 0.2).LU)),
    "lu_factor_tall": ((4, 3), lambda x: squared(torch.linalg.lu_factor(x * 1.5 + 0.2).LU)),
    "lu": ((3, 3), lu_of(weighted, LU_AND)),
    "lu_L": ((3, 3), lu_of(weighted, lambda r: (r.L,))),
    "lu_U": ((3, 3), lu_of(weighted, lambda r: (r.U,))),
    "lu_batched": ((2, 3, 3), lu_of(weighted, LU_AND)),
    "lu_squared": ((3, 3), lu_of(squared, LU_AND)),
    "lu_wide": ((3, 4), lu_of(squared, LU_AND, False)),
    "lu_wide_L": ((3, 4), lu_of(squared, lambda r: (r.L,), False)),
    "lu_wide_U": ((3, 4), lu_of(squared, lambda r: (r.U,), False)),
    "lu_tall": ((4, 3), lu_of(squared, LU_AND, False)),
    "lu_tall_L": ((4, 3), lu_of(squared, lambda r: (r.L,), False)),
    "lu_tall_U": ((4, 3), lu_of(squared, lambda r: (r.U,), False)),
    "lu_unpack": ((3, 3), unpacked(LU_AND)),
    "lu_unpack_L": ((3, 3), unpacked(lambda r: (r.L,))),
    "lu_unpack_U": ((3, 3), unpacked(lambda r: (r.U,))),
    "lu_unpack_wide": ((3, 4), unpacked(LU_AND)),
    "lu_unpack_wide_L": ((3, 4), unpacked(lambda r: (r.L,))),
    "lu_unpack_wide_U": ((3, 4), unpacked(lambda r: (r.U,))),
    "lu_unpack_tall": ((4, 3), unpacked(LU_AND)),
    "lu_unpack_tall_L": ((4, 3), unpacked(lambda r: (r.L,))),
    "lu_unpack_tall_U": ((4, 3), unpacked(lambda r: (r.U,))),
    "lu_solve_LU": ((3, 3), lambda x: (lambda f: (torch.linalg.lu_solve(
        f.LU, f.pivots, weights(x)) ** 2).sum())(torch.linalg.lu_factor(spd(x)))),
    "lu_solve_B": ((3, 2), solved_for_B),
    "lu_solve": ((3, 3), solved(2.0)),
    "lu_solve_adjoint": ((3, 3), solved(2.0, adjoint=True)),
    "lu_solve_right": ((3, 3), solved(2.0, left=False)),
    "lu_solve_right_adjoint": ((3, 3), solved(2.0, left=False, adjoint=True)),
    "lu_solve_batched": ((2, 3, 3), solved(2.0)),
    "lu_solve_broadcast_B": ((3, 3), lambda x: (lambda f: (torch.linalg.lu_solve(
        f.LU, f.pivots, (x * 2).expand(2, 3, 3)) ** 2).sum())(torch.linalg.lu_factor(spd(x)))),
    "lu_solve_broadcast_LU": ((2, 3, 3), lambda x: (lambda f: (torch.linalg.lu_solve(
        f.LU, f.pivots, x[0] * 2) ** 2).sum())(torch.linalg.lu_factor(spd(x)))),
    "lu_batched_wide": ((2, 3, 4), lu_of(squared, LU_AND, False)),
    "lu_batched_tall_L": ((2, 4, 3), lu_of(squared, lambda r: (r.L,), False)),
    "cholesky_inverse": ((3, 3), lambda x: (torch.cholesky_inverse(
        torch.linalg.cholesky(spd(x))) ** 2).sum()),
    "cholesky_inverse_upper": ((3, 3), lambda x: (torch.cholesky_inverse(
        torch.linalg.cholesky(spd(x), upper=True), upper=True) ** 2).sum()),
    "cholesky_inverse_leaf": ((3, 3), lambda x: (torch.cholesky_inverse(
        x.tril() + torch.eye(3, dtype=D)) ** 2).sum()),
}


def test_every_case_has_torch_numbers():
    assert set(CASES) == set(EXPECTED)


@pytest.mark.parametrize("name", list(CASES))
def test_gradient_graph_packs_and_values(name):
    shape, f = CASES[name]
    graph, packed, strides, numbers, grad_strides, version = EXPECTED[name]
    make = (lambda: transposed_leaf(3, 3)) if shape == "by columns" else (lambda: leaf(*shape))
    x = make()
    seen = []
    with torch.autograd.graph.saved_tensors_hooks(
            lambda t: (seen.append(str(t.dim())), t)[1], lambda t: t):
        (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    names = [n.removesuffix("Backward0") for n in unique_preorder(g.grad_fn)]
    assert names == graph.split()
    assert "".join(seen) == packed
    assert g.stride() == strides
    (gg,) = torch.autograd.grad((g * weights(g)).sum(), x)
    got = (g.sum(), (g * weights(g)).sum(), gg.sum(), (gg * weights(gg)).sum())
    assert [float(v.detach()) for v in got] == pytest.approx(numbers, rel=1e-9, abs=1e-9)
    x2 = make()
    f(x2).backward()
    assert (x2.grad.stride(), x2.grad._version) == (grad_strides, version)
