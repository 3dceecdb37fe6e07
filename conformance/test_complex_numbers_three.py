"""Complex numbers, part three: asin, acos and acosh with their branch cuts, logaddexp,
var_mean and std_mean."""

import cmath
import math

import numpy as np
import pytest
import torch

C64, C128 = torch.complex64, torch.complex128


def _close(found, expected, tolerance=1e-12):
    assert len(found) == len(expected)
    assert all(abs(a - b) <= tolerance * max(1.0, abs(b)) for a, b in zip(found, expected))


INVERSES = {  # the function and the derivative torch's gradient conjugates
    "asin": (cmath.asin, lambda z: 1 / cmath.sqrt(1 - z * z)),
    "acos": (cmath.acos, lambda z: -1 / cmath.sqrt(1 - z * z)),
    "acosh": (cmath.acosh, lambda z: 1 / (cmath.sqrt(z + 1) * cmath.sqrt(z - 1))),
}
Z, G = [0.5 + 1j, -1.2 + 0.3j, 0.25 - 0.75j, 3 - 2j], [1 - 1j, 0.5j, 2 + 0.25j, -1]


@pytest.mark.parametrize("name", sorted(INVERSES))
def test_inverse_sines_and_cosines_and_their_conjugate_gradients(name):
    f, derivative = INVERSES[name]
    z = torch.tensor(Z, dtype=C128, requires_grad=True)
    y = getattr(torch, name)(z)
    (grad,) = torch.autograd.grad(y, z, torch.tensor(G, dtype=C128))
    assert y.dtype is C128 and y.grad_fn.name() == f"{name.capitalize()}Backward0"
    _close(y.tolist(), [f(v) for v in Z])
    _close(grad.tolist(), [g * derivative(v).conjugate() for g, v in zip(G, Z)])
    y64 = getattr(torch, name)(z.detach().to(C64))
    assert y64.dtype is C64
    _close(y64.tolist(), [f(v) for v in Z], 1e-6)


CUT = [complex(2, 0.0), complex(2, -0.0), complex(-3, 0.0), complex(-3, -0.0)]
ON_THE_CUT = {  # the values' imaginary parts, then the gradients for an incoming 1 - 1j
    "asin": ([1.316958, -1.316958, 1.762747, -1.762747],
             [0.57735 + 0.57735j] * 2 + [0.353553 + 0.353553j] * 2),
    "acos": ([-1.316958, 1.316958, -1.762747, 1.762747],
             [-0.57735 - 0.57735j] * 2 + [-0.353553 - 0.353553j] * 2),
    "acosh": ([0.0, -0.0, math.pi, -math.pi],
              [0.57735 - 0.57735j] * 2 + [-0.353553 + 0.353553j] * 2),
}


@pytest.mark.parametrize("name", sorted(ON_THE_CUT))
def test_on_a_branch_cut_the_zero_s_sign_picks_the_side_and_the_gradient_is_torch_s(name):
    imaginary, gradients = ON_THE_CUT[name]
    z = torch.tensor(CUT, dtype=C128, requires_grad=True)
    y = getattr(torch, name)(z)
    (grad,) = torch.autograd.grad(y, z, torch.full_like(y, 1 - 1j))
    found = [v.imag for v in y.tolist()]
    _close(found, imaginary, 1e-6)
    assert [math.copysign(1, v) for v in found] == [math.copysign(1, v) for v in imaginary]
    _close(grad.tolist(), gradients, 1e-6)


def _log_add_exp(a, b):
    low, high = (a, b) if a.real < b.real else (b, a)
    return high + cmath.log(1 + cmath.exp(low - high))  # not reduced to (-pi, pi]


A, B = [1 + 2j, -30 + 0j, 1 + 3.7j, 0.25 - 2j], [0.5 - 1j, 2 + 1j, 1.5 + 3.1j, 0.25 - 2j]


def test_logaddexp_orders_by_the_real_parts_and_keeps_the_larger_s_angle():
    a = torch.tensor(A, dtype=C128, requires_grad=True)
    b = torch.tensor(B, dtype=C128, requires_grad=True)
    out = torch.logaddexp(a, b)
    grads = torch.autograd.grad(out, (a, b), torch.tensor(G, dtype=C128))
    assert out.grad_fn.name() == "LogaddexpBackward0"
    _close(out.tolist(), [_log_add_exp(x, y) for x, y in zip(A, B)])
    assert out[2].imag.item() > math.pi  # beyond the principal logarithm's range
    _close(grads[0].tolist(), [g / (1 + cmath.exp(y - x)).conjugate()
                               for g, x, y in zip(G, A, B)])
    _close(grads[1].tolist(), [g / (1 + cmath.exp(x - y)).conjugate()
                               for g, x, y in zip(G, A, B)])


def test_logaddexp_s_infinities_and_nans():
    inf, nan = math.inf, math.nan
    a = torch.tensor([complex(-inf, 1), complex(inf, 0), complex(nan, 0), 1j], dtype=C128)
    b = torch.tensor([complex(-inf, 2), complex(1, 0), 2 + 0j, complex(0, nan)], dtype=C128)
    out = torch.logaddexp(a, b).tolist()
    assert out[0] == complex(-inf, 2) and out[1].real == inf  # a tie: the second
    assert all(math.isnan(v.real) and math.isnan(v.imag) for v in out[2:])


def test_logaddexp_of_complex64_keeps_its_dtype():
    out = torch.logaddexp(torch.tensor(A, dtype=C64), torch.tensor(B, dtype=C64))
    assert out.dtype is C64
    _close(out.tolist(), [_log_add_exp(x, y) for x, y in zip(A, B)], 1e-5)


X = [[1 + 1j, 2 - 1j, -0.5j], [3 + 0j, 1j, 2 + 2j]]


def _spread(row, correction=1):
    mean = sum(row) / len(row)
    return sum(abs(v - mean) ** 2 for v in row) / (len(row) - correction), mean


@pytest.mark.parametrize(("name", "root"), [("var_mean", False), ("std_mean", True)])
def test_var_mean_and_std_mean_are_real_spreads_and_complex_means(name, root):
    z = torch.tensor(X, dtype=C128, requires_grad=True)
    spread, mean = getattr(torch, name)(z, dim=1)
    assert spread.dtype is torch.float64 and mean.dtype is C128
    assert spread.grad_fn.name() == f"{name.title().replace('_', '')}Backward0"
    expected = [_spread(row) for row in X]
    _close(spread.tolist(), [math.sqrt(s) if root else s for s, _ in expected])
    _close(mean.tolist(), [m for _, m in expected])
    (grad,) = torch.autograd.grad(spread.sum() * 2 + (mean * (1 - 2j)).real.sum(), z)
    wanted = []
    for row, (s, m) in zip(X, expected):
        scale = 2 * 2 / (len(row) - 1) / (2 * math.sqrt(s) if root else 1)
        wanted.append([scale * (v - m) + (1 + 2j) / len(row) for v in row])
    _close(sum(grad.tolist(), []), sum(wanted, []))


def test_var_mean_of_complex64_over_everything():
    spread, mean = torch.var_mean(torch.tensor(X, dtype=torch.complex64), correction=0)
    assert spread.dtype is torch.float32 and mean.dtype is C64
    s, m = _spread(sum(X, []), 0)
    _close([spread.item(), mean.item()], [s, m], 1e-6)


M = [[1 + 1j, 2, -0.5j], [0.5j, -1 + 0.5j, 1], [2 - 1j, 0.25, 1j]]
GM = [[1, 0.5j, -1], [2 - 1j, 0, 1j], [0.5, 1 + 1j, -2j]]


def _matrix(values):
    return np.array(values, dtype=np.complex128)


def _close_matrices(found, expected, tolerance=1e-10):
    _close(sum(found.tolist(), []), list(expected.ravel()), tolerance)


@pytest.mark.parametrize("invert", [torch.linalg.inv, torch.inverse, lambda A: A.inverse()])
def test_the_inverse_of_a_complex_matrix_and_its_gradient(invert):
    A = torch.tensor(M, dtype=C128, requires_grad=True)
    inverse = invert(A)
    (grad,) = torch.autograd.grad(inverse, A, torch.tensor(GM, dtype=C128))
    assert inverse.grad_fn.name() == "LinalgInvExBackward0"
    expected = np.linalg.inv(_matrix(M))
    _close_matrices(inverse, expected)
    adjoint = expected.conj().T
    _close_matrices(grad, -adjoint @ _matrix(GM) @ adjoint)


def test_the_determinant_of_a_complex_matrix_and_its_gradient():
    A = torch.tensor(M, dtype=C128, requires_grad=True)
    det = torch.linalg.det(A)
    assert det.grad_fn.name() == "LinalgDetBackward0"
    expected = np.linalg.det(_matrix(M))
    _close([det.item()], [complex(expected)])
    (grad,) = torch.autograd.grad(det, A, torch.tensor(0.5 - 1j, dtype=C128))
    _close_matrices(grad, (0.5 - 1j) * np.conj(expected) * np.linalg.inv(_matrix(M)).conj().T)


@pytest.mark.parametrize(("left", "columns"), [(True, None), (True, 2), (False, 2)])
def test_a_complex_solve_and_its_gradients(left, columns):  # a vector B: on the left only
    A = torch.tensor(M, dtype=C128, requires_grad=True)
    rhs = _matrix(GM)[:, :columns] if columns else _matrix(GM)[0]
    rhs = rhs.T.copy() if columns and not left else rhs
    B = torch.tensor(rhs, dtype=C128, requires_grad=True)
    X = torch.linalg.solve(A, B, left=left)
    assert X.grad_fn.name() == "LinalgSolveExBackward0"
    a = _matrix(M)
    expected = np.linalg.solve(a, rhs) if left else np.linalg.solve(a.T, rhs.T).T
    g = np.ones_like(expected) * (1 - 0.5j)
    gA, gB = torch.autograd.grad(X, (A, B), torch.tensor(g, dtype=C128))
    column = (lambda v: v[:, None]) if expected.ndim == 1 else (lambda v: v)
    if left:
        wanted_B = np.linalg.solve(a.conj().T, column(g))
        wanted_A = -wanted_B @ column(expected).conj().T
    else:
        wanted_B = np.linalg.solve(a.conj(), g.T).T
        wanted_A = -expected.conj().T @ wanted_B
    _close(np.ravel(X.tolist()).tolist(), expected.ravel().tolist())
    _close_matrices(gA, wanted_A)
    _close(np.ravel(gB.tolist()).tolist(), wanted_B.ravel().tolist())


def test_singular_values_of_a_complex_matrix_are_real_and_their_gradient_is_u_g_vh():
    A = torch.tensor(M, dtype=C128, requires_grad=True)
    values = torch.linalg.svdvals(A)
    assert values.dtype is torch.float64 and values.grad_fn.name() == "LinalgSvdBackward0"
    U, S, Vh = np.linalg.svd(_matrix(M))
    _close(values.tolist(), list(S))
    g = [1.0, -2.0, 0.5]
    (grad,) = torch.autograd.grad(values, A, torch.tensor(g, dtype=torch.float64))
    _close_matrices(grad, U @ np.diag(g) @ Vh)
    U, S, Vh = torch.linalg.svd(A.detach())
    assert S.dtype is torch.float64 and U.dtype is C128 and Vh.dtype is C128
    _close_matrices(U @ torch.diag(S).to(C128) @ Vh, _matrix(M))


@pytest.mark.parametrize("UPLO", ["L", "U"])
def test_the_eigenvalues_of_a_hermitian_matrix_are_real(UPLO):
    H = _matrix(M) + _matrix(M).conj().T
    A = torch.tensor(H, dtype=C128, requires_grad=True)
    values = torch.linalg.eigvalsh(A, UPLO=UPLO)
    assert values.dtype is torch.float64 and values.grad_fn.name() == "LinalgEighBackward0"
    expected, V = np.linalg.eigh(H)
    _close(values.tolist(), list(expected))
    g = [1.0, -2.0, 0.5]
    (grad,) = torch.autograd.grad(values, A, torch.tensor(g, dtype=torch.float64))
    _close_matrices(grad, V @ np.diag(g) @ V.conj().T)
    lower = torch.tensor(np.tril(H), dtype=C64)  # only the lower triangle is read
    _close(torch.linalg.eigvalsh(lower).tolist(), list(expected), 1e-5)


@pytest.mark.parametrize("order", ["fro", "nuc", 2, -2, 1, -1, math.inf, -math.inf])
def test_matrix_norms_of_complex_matrices(order):
    A = torch.tensor(M, dtype=C128, requires_grad=True)
    norm = torch.linalg.matrix_norm(A, order)
    assert norm.dtype is torch.float64
    _close([norm.item()], [float(np.linalg.norm(_matrix(M), order))])
    (grad,) = torch.autograd.grad(norm, A)
    step = 1e-6  # ∂/∂x + i ∂/∂y of the norm, entry by entry, by central differences
    for i, j in [(0, 0), (1, 2), (2, 1)]:
        parts = []
        for s in (step, step * 1j):
            moved = [_matrix(M), _matrix(M)]
            moved[0][i, j] += s
            moved[1][i, j] -= s
            parts.append((np.linalg.norm(moved[0], order) - np.linalg.norm(moved[1], order))
                         / (2 * step))
        _close([grad[i, j].item()], [parts[0] + 1j * parts[1]], 1e-6)


def test_the_conjugate_transposes_conjugate():
    A = torch.tensor(M, dtype=C128)
    expected = [[v.conjugate() for v in column] for column in zip(*M)]
    assert A.mH.tolist() == expected and A.H.tolist() == expected
    assert A.adjoint().tolist() == expected
    U, S, V = torch.svd(A)
    _close_matrices(U @ torch.diag(S).to(C128) @ V.mH, _matrix(M))


@pytest.mark.parametrize(("dtype", "part", "values"), [
    (C64, np.float32, (0.634048, -0.0691742)),
    (C128, np.float64, (-1.2459109472530652, -0.5442589828573099)),
])
def test_a_complex_mean_is_the_sum_times_the_count_s_reciprocal(dtype, part, values):
    a, b = (part(v) for v in values)  # one element not zero: the sum is exact
    z = torch.tensor([complex(a, b), 0, 0], dtype=dtype, requires_grad=True)
    third = part(1) / part(3)
    expected = complex(a * third, b * third)
    assert a * third != a / part(3)  # the reciprocal's rounding shows
    assert z.mean().item() == expected and z.view(3, 1).mean(0).item() == expected
    assert z.mean().grad_fn.name() == "MeanBackward0"
    (grad,) = torch.autograd.grad(z.mean(), z, torch.tensor(complex(a, b), dtype=dtype))
    assert grad.tolist() == [expected] * 3
    assert torch.tensor([], dtype=dtype).mean().isnan().tolist() is True
    nothing = torch.view_as_real(torch.zeros(0, 2, dtype=dtype).mean(0))
    assert nothing.isnan().all().item()


def _zero_signs(values):
    return [(v.real, v.imag, math.copysign(1, v.imag)) for v in values]


@pytest.mark.parametrize("dtype", [C64, C128])
def test_prod_s_gradient_beside_a_zero_factor_conjugates_the_others_product_last(dtype):
    z = torch.tensor([1 + 1j, 0j, 2 - 1j], dtype=dtype, requires_grad=True)
    out = z.prod()
    (grad,) = torch.autograd.grad(out, z, torch.tensor(1 - 1j, dtype=dtype))
    assert out.grad_fn.name() == "ProdBackward0"
    assert _zero_signs(grad.tolist()) == [(0.0, 0.0, -1.0), (2.0, -4.0, -1.0), (0.0, 0.0, -1.0)]
    m = torch.tensor([[0j, 1 + 2j, 3 + 0j]], dtype=dtype, requires_grad=True)
    (grad,) = torch.autograd.grad(m.prod(1), m, torch.tensor([1 - 1j], dtype=dtype))
    assert m.prod(1).grad_fn.name() == "ProdBackward1"
    assert _zero_signs(grad[0].tolist()) == [(-3.0, -9.0, -1.0), (0.0, 0.0, -1.0),
                                             (0.0, 0.0, -1.0)]
    two_zeros = torch.tensor([0j, 0j, 1 + 1j], dtype=dtype, requires_grad=True)
    (grad,) = torch.autograd.grad(two_zeros.prod(), two_zeros, torch.tensor(1 - 1j, dtype=dtype))
    assert _zero_signs(grad.tolist()) == [(0.0, 0.0, 1.0)] * 3
