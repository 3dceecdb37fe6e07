"""Complex numbers, part four: slogdet, logdet, pinv and matrix_rank of complex matrices,
values and gradients, against formulas written out here."""

import cmath

import numpy as np
import pytest
import torch

C64, C128 = torch.complex64, torch.complex128
A = [[1 + 1j, 2, 0.5], [0.5j, -1 + 0.5j, 1j], [2 - 1j, 0.25, -1]]
G_SIGN, G_LOG = 0.3 - 0.7j, 1.5


def _close(found, expected, tolerance=1e-12):
    if isinstance(found, torch.Tensor):  # torch's solves can hand back a conjugate view
        found = found.detach().resolve_conj().numpy()
    found, expected = np.asarray(found), np.asarray(expected)
    assert found.shape == expected.shape
    assert np.all(np.abs(found - expected) <= tolerance * np.maximum(1.0, np.abs(expected)))


def test_slogdet_values_and_dtypes():
    sign, logabsdet = torch.linalg.slogdet(torch.tensor(A, dtype=C128))
    det = np.linalg.det(np.array(A))
    assert (sign.dtype, logabsdet.dtype) == (C128, torch.float64)
    _close([sign.item()], [det / abs(det)])
    _close([logabsdet.item()], [np.log(abs(det))])
    sign, logabsdet = torch.slogdet(torch.tensor(A, dtype=C64))
    assert (sign.dtype, logabsdet.dtype) == (C64, torch.float32)
    assert type(torch.slogdet(torch.tensor(A, dtype=C64))).__name__ == "slogdet"


@pytest.mark.parametrize("used", ["both", "sign", "logabsdet"])
def test_slogdet_gradient_folds_both_outputs(used):
    a = torch.tensor(A, dtype=C128, requires_grad=True)
    sign, logabsdet = torch.linalg.slogdet(a)
    g_sign = torch.tensor(G_SIGN, dtype=C128)
    g_log = torch.tensor(G_LOG, dtype=torch.float64)
    outputs, grads = {"both": ((sign, logabsdet), (g_sign, g_log)),
                      "sign": ((sign,), (g_sign,)),
                      "logabsdet": ((logabsdet,), (g_log,))}[used]
    (found,) = torch.autograd.grad(outputs, a, grads)
    s = sign.item()
    turn = -1j * (G_SIGN.conjugate() * s).imag
    g = {"both": G_LOG + turn, "sign": turn, "logabsdet": G_LOG}[used]
    _close(found.detach().numpy(), g * np.linalg.inv(np.array(A)).conj().T)


def test_logdet_is_the_log_of_the_sign_plus_logabsdet():
    a = torch.tensor(A, dtype=C128, requires_grad=True)
    d = torch.logdet(a)
    assert d.dtype == C128 and type(d.grad_fn).__name__ == "AddBackward0"
    det = complex(np.linalg.det(np.array(A)))
    _close([d.item()], [cmath.log(det)])
    d.backward(torch.tensor(1 - 1j, dtype=C128))
    _close(a.grad.numpy(), (1 - 1j) * np.linalg.inv(np.array(A)).conj().T)


def test_logdet_of_a_matrix_with_a_negative_determinant_is_not_nan():
    d = torch.logdet(torch.tensor([[0, 1], [1, 0]], dtype=C128))  # det = -1
    _close([d.item()], [complex(0, np.pi)])


def _pinv_gradient(a, p, g):  # torch's formula, every transpose conjugated
    m, n = a.shape
    ph, gh = p.conj().T, g.conj().T
    if m <= n:
        k = gh @ p
        return -(p @ k).conj().T + k @ ph - a @ p @ k @ ph + ph @ p @ (gh - k @ a)
    k = p @ gh
    return -(k @ p).conj().T + (gh - a @ k) @ p @ ph + ph @ k - ph @ k @ p @ a


@pytest.mark.parametrize("rows", [2, 3])
def test_pinv_values_and_gradient(rows):
    a_np = np.array(A)[:rows].T if rows == 2 else np.array(A)[:2]
    a = torch.tensor(a_np.tolist(), dtype=C128, requires_grad=True)
    p = torch.linalg.pinv(a)
    assert p.dtype == C128 and type(p.grad_fn).__name__ == "LinalgPinvBackward0"
    _close(p.detach().numpy(), np.linalg.pinv(a_np))
    g = np.full(p.shape, 1 - 2j)
    (found,) = torch.autograd.grad(p, a, torch.tensor(g.tolist(), dtype=C128))
    _close(found.numpy(), _pinv_gradient(a_np, np.linalg.pinv(a_np), g))


def test_pinv_of_a_hermitian_matrix():
    h = [[2, 1 - 1j], [1 + 1j, 3]]
    p = torch.linalg.pinv(torch.tensor(h, dtype=C128), hermitian=True)
    _close(p.numpy(), np.linalg.inv(np.array(h)))


def test_matrix_rank_of_complex_matrices():
    a = torch.tensor(A, dtype=C128)
    assert torch.linalg.matrix_rank(a).item() == 3
    assert torch.linalg.matrix_rank(a[[0, 0, 1]]).item() == 2
    assert torch.linalg.matrix_rank(a, atol=2.0).item() == 1  # singular values 3.17, 1.94, 1.02
    h = torch.tensor([[2, 1 - 1j], [1 + 1j, 1]], dtype=C64)  # det 0: rank one
    assert torch.linalg.matrix_rank(h, hermitian=True).item() == 1


def test_matrix_rank_of_a_complex_matrix_under_a_dispatch_mode():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Record(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    with Record():
        rank = torch.linalg.matrix_rank(torch.tensor(A, dtype=C128)[[0, 0, 1]])
    assert rank.item() == 2
    assert "aten._linalg_svd.default" in seen and "aten.full.default" in seen


def test_slogdet_gradient_is_nan_at_a_singular_matrix_of_a_batch():
    batch = [[[1 + 1j, 2], [1 + 1j, 2]], [[1, 2j], [3, 4]]]
    a = torch.tensor(batch, dtype=C128, requires_grad=True)
    _, logabsdet = torch.linalg.slogdet(a)
    assert logabsdet[0].item() == float("-inf")
    (found,) = torch.autograd.grad(logabsdet.sum(), a)
    assert torch.isnan(found[0].real).all() and torch.isnan(found[0].imag).all()
    _close(found[1].numpy(), np.linalg.inv(np.array(batch[1])).conj().T)


SQUARE_A = [[1 + 1j, 2, 0.3], [0.5j, -1 + 0.5j, 1], [2, 1j, 1 - 1j]]
RIGHT_B = [[1j, 1], [2 - 1j, 0], [1, 1j]]


def test_lu_factor_pivots_by_the_sum_of_the_parts_sizes():
    # column 0: |2| = 2 is the largest modulus, but |1| + |1| = 2 ties it first, so no swap;
    # column 1 then swaps in the third row: |re| + |im| of -2+3j beats that of its modulus rival
    lu, pivots = torch.linalg.lu_factor(torch.tensor(SQUARE_A, dtype=C128))
    assert pivots.tolist() == [1, 3, 3]
    _close(lu.numpy(), [[1 + 1j, 2, 0.3], [1 - 1j, -2 + 3j, 0.7 - 0.7j],
                        [0.25 + 0.25j, (3 + 4.5j) / 13, lu[2, 2].item()]])
    P, L, U = torch.linalg.lu(torch.tensor(SQUARE_A, dtype=C128))
    _close((P @ L @ U).numpy(), SQUARE_A)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_lu_solve_conjugates_for_the_adjoint(left, adjoint):
    a_np, b_np = np.array(SQUARE_A), np.array(RIGHT_B)
    a = torch.tensor(SQUARE_A, dtype=C128, requires_grad=True)
    b = torch.tensor((b_np if left else b_np.T).tolist(), dtype=C128, requires_grad=True)
    lu, pivots = torch.linalg.lu_factor(a)
    x = torch.linalg.lu_solve(lu, pivots, b, left=left, adjoint=adjoint)
    m = a_np.conj().T if adjoint else a_np
    expected = np.linalg.solve(m, b_np) if left else np.linalg.solve(m.T, b_np).T
    _close(x, expected, 1e-10)
    g = np.full(expected.shape, 1 - 1j)
    ga, gb = torch.autograd.grad(x, (a, b), torch.tensor(g.tolist(), dtype=C128))
    # X = M⁻¹B: gB = M⁻ᴴ g and gM = −gB Xᴴ (left); for X M = B, gB = g M⁻ᴴ and gM = −Xᴴ gB
    gb_expected = np.linalg.solve(m.conj().T, g) if left else g @ np.linalg.inv(m).conj().T
    gm = -(gb_expected @ expected.conj().T) if left else -(expected.conj().T @ gb_expected)
    _close(gb, gb_expected, 1e-10)
    _close(ga, gm.conj().T if adjoint else gm, 1e-10)


def test_solve_triangular_of_complex_matrices():
    a_np, b_np = np.triu(np.array(SQUARE_A)), np.array(RIGHT_B)
    a = torch.tensor(SQUARE_A, dtype=C128, requires_grad=True)
    b = torch.tensor(RIGHT_B, dtype=C128, requires_grad=True)
    x = torch.linalg.solve_triangular(a, b, upper=True)
    expected = np.linalg.solve(a_np, b_np)
    _close(x, expected)
    ga, gb = torch.autograd.grad(x, (a, b), torch.ones_like(x))
    gb_expected = np.linalg.solve(a_np.conj().T, np.ones(expected.shape))
    _close(gb.numpy(), gb_expected)
    _close(ga.numpy(), np.triu(-(gb_expected @ expected.conj().T)))
