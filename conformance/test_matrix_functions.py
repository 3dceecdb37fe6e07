"""The matrix exponential, the pseudo-inverse, the rank, multi_dot and vecdot, on torch's API."""

import numpy as np
import pytest
import torch

from conformance._support import first_edges, matrix_leaf, numeric_gradient, raises, saved_names

RNG = np.random.default_rng(17)
SQUARE, TALL = RNG.uniform(-1.0, 1.0, (3, 3)), RNG.uniform(-1.0, 1.0, (4, 3))
TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-12}


def _expm(a):
    """exp of a diagonalizable matrix through its eigenvalues, as a reference."""
    w, v = np.linalg.eig(a)
    return (v * np.exp(w)[..., None, :] @ np.linalg.inv(v)).real


# --- matrix_exp


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matrix_exp_values(dtype):
    values = np.stack([SQUARE, 3 * SQUARE, np.diag([1.0, -2.0, 0.5])])
    result = torch.linalg.matrix_exp(matrix_leaf(values, dtype))
    assert result.dtype == dtype and result.grad_fn.name() == "LinalgMatrixExpBackward0"
    np.testing.assert_allclose(result.detach().numpy(), _expm(values),
                               rtol=TOLERANCE[dtype] * 10, atol=TOLERANCE[dtype] * 10)
    nilpotent = torch.tensor([[0.0, 1.0], [0.0, 0.0]], dtype=dtype)
    assert torch.equal(torch.matrix_exp(nilpotent), torch.tensor([[1.0, 1.0], [0.0, 1.0]],
                                                                  dtype=dtype))
    assert torch.equal(nilpotent.matrix_exp(), torch.linalg.matrix_exp(nilpotent))


def test_matrix_exp_of_a_large_matrix_squares_its_way_back():
    rotation = torch.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64) * 20.0
    expected = [[np.cos(20.0), -np.sin(20.0)], [np.sin(20.0), np.cos(20.0)]]
    np.testing.assert_allclose(torch.linalg.matrix_exp(rotation).numpy(), expected, atol=1e-12)


def test_matrix_exp_gradient_matches_finite_differences():
    weights = RNG.uniform(-1.0, 1.0, (3, 3))
    a = matrix_leaf(SQUARE)
    node = torch.linalg.matrix_exp(a).grad_fn
    assert saved_names(node) == ["_saved_self"] and torch.equal(node._saved_self, a)
    (torch.linalg.matrix_exp(a) * torch.tensor(weights)).sum().backward()
    expected = numeric_gradient(lambda x: (_expm(x) * weights).sum(), SQUARE)
    np.testing.assert_allclose(a.grad.numpy(), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("call, message", [
    (lambda: torch.linalg.matrix_exp(torch.ones(3)),
     "linalg.matrix_exp: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.matrix_exp(torch.ones(2, 3)),
     "linalg.matrix_exp: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: torch.linalg.matrix_exp(torch.ones(2, 2, dtype=torch.long)),
     "linalg.matrix_exp: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: torch.linalg.matrix_exp(torch.ones(2, 2, dtype=torch.bool)),
     "linalg.matrix_exp: Expected a floating point or complex tensor as input. Got Bool"),
])
def test_matrix_exp_errors(call, message):
    with raises(RuntimeError, message):
        call()


# --- pinv and matrix_rank

DIAGONAL = np.diag([3.0, 1.0, 0.1])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("values", [TALL, TALL.T, np.stack([TALL, 2 * TALL])])
def test_pinv_values(dtype, values):
    result = torch.linalg.pinv(matrix_leaf(values, dtype))
    assert result.dtype == dtype and result.grad_fn.name() == "LinalgPinvBackward0"
    np.testing.assert_allclose(result.detach().numpy(), np.linalg.pinv(values),
                               rtol=TOLERANCE[dtype] * 100, atol=TOLERANCE[dtype] * 10)


@pytest.mark.parametrize("kwargs, kept", [
    ({}, [3.0, 1.0, 0.1]), ({"atol": 0.5}, [3.0, 1.0]), ({"rtol": 0.5}, [3.0]),
    ({"atol": 0.05, "rtol": 0.5}, [3.0]), ({"atol": 2.0, "rtol": 0.01}, [3.0]),
    ({"atol": 0.0}, [3.0, 1.0, 0.1]),
])
def test_pinv_and_rank_cut_off_at_torchs_tolerance(kwargs, kept):
    inverted = [1 / v if v in kept else 0.0 for v in (3.0, 1.0, 0.1)]
    np.testing.assert_allclose(torch.linalg.pinv(torch.tensor(DIAGONAL), **kwargs).numpy(),
                               np.diag(inverted), atol=1e-12)
    rank = torch.linalg.matrix_rank(torch.tensor(DIAGONAL), **kwargs)
    assert rank.dtype == torch.int64 and rank.item() == len(kept)


def test_pinv_of_a_rank_deficient_matrix_and_the_older_spellings():
    values = TALL.copy()
    values[:, 2] = values[:, 0] - values[:, 1]
    np.testing.assert_allclose(torch.linalg.pinv(torch.tensor(values)).numpy(),
                               np.linalg.pinv(values), atol=1e-12)
    assert torch.linalg.matrix_rank(torch.tensor(values)).item() == 2
    assert torch.linalg.matrix_rank(torch.tensor(DIAGONAL), 0.5).item() == 2  # tol: an atol
    np.testing.assert_allclose(torch.pinverse(torch.tensor(DIAGONAL), rcond=0.5).numpy(),
                               np.diag([1 / 3, 0.0, 0.0]), atol=1e-12)
    assert torch.equal(torch.tensor(DIAGONAL).pinverse(), torch.pinverse(torch.tensor(DIAGONAL)))


def test_hermitian_pinv_reads_the_lower_triangle_and_keeps_signs():
    symmetric = SQUARE + SQUARE.T
    garbage = np.tril(symmetric) + np.triu(np.full((3, 3), 9.0), 1)
    np.testing.assert_allclose(torch.linalg.pinv(torch.tensor(garbage), hermitian=True).numpy(),
                               np.linalg.pinv(symmetric), atol=1e-12)
    assert torch.linalg.matrix_rank(torch.tensor(garbage), hermitian=True).item() == 3


@pytest.mark.parametrize("values", [TALL, TALL.T, SQUARE])
def test_pinv_gradient_matches_finite_differences(values):
    weights = RNG.uniform(-1.0, 1.0, values.T.shape)
    a = matrix_leaf(values)
    result = torch.linalg.pinv(a)
    assert saved_names(result.grad_fn) == ["_saved_result", "_saved_self"]
    (result * torch.tensor(weights)).sum().backward()
    expected = numeric_gradient(lambda x: (np.linalg.pinv(x) * weights).sum(), values)
    np.testing.assert_allclose(a.grad.numpy(), expected, rtol=1e-6, atol=1e-8)


def test_matrix_rank_of_batches_and_empty_matrices():
    rank = torch.linalg.matrix_rank(torch.ones(2, 3, 3, requires_grad=True))
    assert rank.tolist() == [1, 1] and not rank.requires_grad
    assert torch.linalg.matrix_rank(torch.zeros(0, 3)).item() == 0
    assert torch.linalg.matrix_rank(torch.ones(2, 3, 3),
                                    atol=torch.tensor([0.0, 5.0])).tolist() == [1, 0]
    assert torch.linalg.pinv(torch.zeros(0, 3)).shape == (3, 0)


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.linalg.pinv(torch.ones(3)), RuntimeError,
     "linalg.pinv(Float{[3]}): expected a tensor with 2 or more dimensions of float, double, "
     "cfloat or cdouble types"),
    (lambda: torch.linalg.pinv(torch.ones(2, 2, dtype=torch.long)), RuntimeError,
     "linalg.pinv(Long{[2, 2]}): expected a tensor with 2 or more dimensions of float, double, "
     "cfloat or cdouble types"),
    (lambda: torch.linalg.pinv(torch.ones(2, 3), hermitian=True), RuntimeError,
     "linalg.eigh: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: torch.linalg.pinv(torch.tensor([[float("nan"), 1.0], [1.0, 1.0]])),
     torch.linalg.LinAlgError, "linalg.svd: The algorithm failed to converge because the input "
     "matrix contained non-finite values."),
    (lambda: torch.linalg.matrix_rank(torch.ones(3)), RuntimeError,
     "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions."),
    (lambda: torch.linalg.matrix_rank(torch.ones(2, 2, dtype=torch.long)), RuntimeError,
     "This function doesn't handle types other than float and double"),
    (lambda: torch.linalg.matrix_rank(torch.ones(2, 2, dtype=torch.float16)), RuntimeError,
     "This function doesn't handle types other than float and double"),
])
def test_pinv_and_rank_errors(call, kind, message):
    with raises(kind, message):
        call()


# --- multi_dot and vecdot


def test_multi_dot_multiplies_in_the_cheapest_order():
    a, b, c = (matrix_leaf(RNG.uniform(-1, 1, shape)) for shape in [(10, 1), (1, 10), (10, 1)])
    result = torch.linalg.multi_dot([a, b, c])
    np.testing.assert_allclose(result.detach().numpy(), (a @ b @ c).detach().numpy(),
                               rtol=1e-12)
    view = result.grad_fn
    assert view.name() == "ViewBackward0" and view.next_functions[0][0].name() == "MmBackward0"
    mm = view.next_functions[0][0]
    # a (b c): b c is 1 x 1, ten times cheaper than a b
    assert mm.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    assert mm.next_functions[1][0].name() == "MmBackward0"


def test_multi_dot_takes_vectors_at_the_ends():
    u, M, v = (matrix_leaf(RNG.uniform(-1, 1, s)) for s in [(3,), (3, 4), (4,)])
    result = torch.linalg.multi_dot((u, M, v))
    assert result.shape == () and first_edges(result)[-1] == "UnsqueezeBackward0"
    np.testing.assert_allclose(result.item(), u.detach().numpy() @ M.detach().numpy()
                               @ v.detach().numpy(), rtol=1e-12)
    result.backward()
    np.testing.assert_allclose(M.grad.numpy(), np.outer(u.detach().numpy(), v.detach().numpy()))
    assert torch.linalg.multi_dot([M, v]).shape == (3,)


@pytest.mark.parametrize("tensors, message", [
    (lambda: [torch.ones(2, 2)], "multi_dot(): expected at least 2 tensors but got 1"),
    (lambda: [torch.tensor(1.0), torch.ones(3, 4)],
     "multi_dot(): the first tensor must be 1D or 2D but got 0D"),
    (lambda: [torch.ones(3, dtype=torch.float64), torch.ones(3, 2), torch.ones(2, 2, 2)],
     "multi_dot(): the last tensor must be 1D or 2D but got 3D"),
    (lambda: [torch.ones(3), torch.ones(4, 3, 2), torch.ones(2)],
     "multi_dot(): tensor 1 must be 2D but got 3D"),
    (lambda: [torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2, dtype=torch.int)],
     "multi_dot(): all tensors must have be the same dtype but tensor 0 is long int and "
     "tensor 1 int"),
    (lambda: [torch.ones(4), torch.ones(3, 4)],
     "multi_dot(): tensors 0 and 1 with shapes [4] and [3, 4] cannot be multiplied"),
])
def test_multi_dot_errors(tensors, message):
    with raises(RuntimeError, message):
        torch.linalg.multi_dot(tensors())


def test_vecdot_is_a_product_and_a_sum():
    x, y = matrix_leaf(RNG.uniform(-1, 1, (2, 3))), matrix_leaf(RNG.uniform(-1, 1, (3,)))
    result = torch.linalg.vecdot(x, y)
    assert first_edges(result) == ["SumBackward1", "MulBackward0"]
    np.testing.assert_allclose(result.detach().numpy(), x.detach().numpy() @ y.detach().numpy(),
                               rtol=1e-12)
    assert torch.linalg.vecdot(x, x, dim=0).shape == (3,)


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.linalg.vecdot(torch.ones(3, dtype=torch.long), torch.ones(3)), RuntimeError,
     "linalg.vecdot: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: torch.linalg.vecdot(torch.ones(3), torch.ones(3, dtype=torch.long)), RuntimeError,
     "linalg.vecdot: Expected x and y to have the same dtype, but found x of type Float and y "
     "of type Long instead"),
    (lambda: torch.linalg.vecdot(torch.ones(2, 3), torch.ones(3), dim=2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
])
def test_vecdot_errors(call, kind, message):
    with raises(kind, message):
        call()
