"""torch.linalg.ldl_factor, ldl_factor_ex and ldl_solve: LAPACK's Bunch-Kaufman pivots,
the packed factor, its layout, refusals, no derivative, and what a dispatch mode is handed."""

import numpy as np
import pytest
import torch

from conformance._support import raises

A = [[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]]
S = [[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]]  # a 2 x 2 block at once
UNKNOWN = ('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
           'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. {}: Unknown error '
           'code: 1.')


def test_packed_factor():
    LD, pivots = torch.linalg.ldl_factor(torch.tensor(A))
    assert LD.tolist() == [[4.0, 0.0, 0.0], [0.25, 2.75, 0.0], [0.5, 0.0, 4.0]]
    assert pivots.tolist() == [1, 2, 3] and pivots.dtype == torch.int32
    assert LD.stride() == (1, 3)
    result = torch.linalg.ldl_factor_ex(torch.tensor(S, dtype=torch.float64))
    assert type(result).__name__ == "linalg_ldl_factor_ex"
    assert repr(result).startswith("torch.return_types.linalg_ldl_factor_ex(\nLD=tensor(")
    assert result.LD.tolist() == [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.5, 0.5, -3.0]]
    assert result.pivots.tolist() == [-3, -3, 3] and result.info.shape == ()
    assert result.info.dtype == torch.int32 and result.info.item() == 0


@pytest.mark.parametrize("seed", range(6))
def test_lapacks_pivots(seed):
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((4, 7, 7))
    M = M + M.swapaxes(-1, -2)
    M[..., range(7), range(7)] *= 0.01 * seed  # small diagonals call for swaps and blocks
    LD, pivots, info = torch.linalg.ldl_factor_ex(torch.tensor(M))
    assert LD.stride() == (49, 1, 7) and not info.any()
    expected = {0: [[-7, -7, -7, -7, 6, 6, 7]]}.get(seed)
    if expected is not None:
        assert pivots[:1].tolist() == expected
    B = torch.tensor(rng.standard_normal((4, 7, 2)))
    X = torch.linalg.ldl_solve(LD, pivots, B)
    assert X.stride() == (14, 1, 7)
    np.testing.assert_allclose(X.numpy(), np.linalg.solve(M, B.numpy()), rtol=1e-8, atol=1e-8)


def test_empty_and_broadcast():
    LD, pivots = torch.linalg.ldl_factor(torch.zeros(2, 0, 0))
    assert LD.stride() == (1, 1, 1) and pivots.shape == (2, 0)
    LD, pivots = torch.linalg.ldl_factor(torch.tensor(S, dtype=torch.float64))
    B = torch.arange(6.0, dtype=torch.float64).reshape(3, 2)
    X = torch.linalg.ldl_solve(LD, pivots, B.expand(2, 3, 2))
    assert X.shape == (2, 3, 2) and X.stride() == (6, 1, 3)
    torch.testing.assert_close(X[1], torch.linalg.solve(torch.tensor(S, dtype=torch.float64), B))


def test_refusals():
    with raises(RuntimeError, UNKNOWN.format("torch.linalg.ldl_factor")):
        torch.linalg.ldl_factor(torch.zeros(2, 3, 3))
    with raises(RuntimeError, UNKNOWN.format("torch.linalg.ldl_factor_ex")):
        torch.linalg.ldl_factor_ex(torch.zeros(3, 3), check_errors=True)
    assert torch.linalg.ldl_factor_ex(torch.zeros(2, 3, 3)).info.tolist() == [1, 1]
    name = "torch.linalg.ldl_factor_ex"
    with raises(RuntimeError, f"{name}: The input tensor A must have at least 2 dimensions."):
        torch.linalg.ldl_factor(torch.ones(3))
    with raises(RuntimeError, f"{name}: A must be batches of square matrices, but they are 2 "
                              "by 3 matrices"):
        torch.linalg.ldl_factor(torch.ones(2, 3))
    with raises(RuntimeError, f"{name}: Expected a floating point or complex tensor as input. "
                              "Got Long"):
        torch.linalg.ldl_factor(torch.ones(3, 3, dtype=torch.int64))
    with raises(NotImplementedError, "\"ldl_factor_kernel_cpu\" not implemented for 'Half'"):
        torch.linalg.ldl_factor(torch.ones(2, 2, dtype=torch.float16))
    LD, pivots = torch.linalg.ldl_factor(torch.tensor(S, dtype=torch.float64))
    with raises(RuntimeError, "Expected b and A to have the same dtype, but found b of type "
                              "Float and A of type Double instead."):
        torch.linalg.ldl_solve(LD, pivots, torch.ones(3, 1))
    with raises(RuntimeError, "Incompatible matrix sizes for torch.linalg.ldl_solve: each A "
                              "matrix is 3 by 3 but each b matrix is 2 by 2"):
        torch.linalg.ldl_solve(LD, pivots, torch.ones(2, 2, dtype=torch.float64))


def test_no_derivative():
    x = torch.tensor(A, requires_grad=True)
    LD, pivots = torch.linalg.ldl_factor(x)
    assert LD.requires_grad and not pivots.requires_grad
    with raises(RuntimeError, "derivative for aten::linalg_ldl_factor_ex is not implemented"):
        LD.sum().backward()
    B = torch.ones(3, 1, requires_grad=True)
    X = torch.linalg.ldl_solve(LD.detach(), pivots, B)
    with raises(RuntimeError, "derivative for aten::linalg_ldl_solve is not implemented"):
        X.sum().backward()


def test_what_a_mode_is_handed():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), len(args), kwargs))
            return func(*args, **(kwargs or {}))

    x = torch.tensor(S, dtype=torch.float64)
    LD, pivots = torch.linalg.ldl_factor(x)
    B = torch.ones(3, 2, dtype=torch.float64)
    with Seen():
        torch.linalg.ldl_factor(x)
        torch.linalg.ldl_solve(LD, pivots, B)
    assert seen == [("aten.linalg_ldl_factor_ex.default", 1, {}),
                    ("aten._linalg_check_errors.default", 2, {"is_matrix": True}),
                    ("aten.linalg_ldl_solve.default", 3, {})]


def test_out():
    x = torch.tensor(S)
    LD, pivots, info = torch.empty(9), torch.empty(0, dtype=torch.int32), torch.empty(
        0, dtype=torch.int32)
    with pytest.warns(UserWarning, match="An output with one or more elements was resized"):
        result = torch.linalg.ldl_factor_ex(x, out=(LD, pivots, info))
    assert type(result).__name__ == "linalg_ldl_factor_ex_out" and result.LD is LD
    assert [(t.stride(), t._version) for t in (LD, pivots, info)] == [
        ((1, 3), 1), ((1,), 1), ((), 1)]
    assert torch.equal(LD, torch.linalg.ldl_factor(x).LD)
    result = torch.linalg.ldl_factor(x, out=(torch.empty(0), torch.empty(0, dtype=torch.int32)))
    assert type(result).__name__ == "linalg_ldl_factor_out"
    X = torch.empty(0)
    torch.linalg.ldl_solve(LD, pivots, torch.eye(3), out=X)
    assert X.stride() == (1, 3) and X._version == 1
    with raises(RuntimeError, "Expected out tensor to have dtype int, but got long int instead"):
        torch.linalg.ldl_factor(x, out=(torch.empty(0), torch.empty(0, dtype=torch.int64)))
    with raises(RuntimeError, "Expected out tensor to have dtype float, but got double instead"):
        torch.linalg.ldl_solve(LD, pivots, torch.eye(3), out=torch.empty(0, dtype=torch.float64))
    with raises(TypeError, "linalg_ldl_factor(): argument 'out' must be tuple of Tensors, not "
                           "Tensor"):
        torch.linalg.ldl_factor(x, out=torch.empty(0))
    with raises(RuntimeError, "aten::linalg_ldl_factor_ex(): functions with out=... arguments "
                              "don't support automatic differentiation, but one of the arguments "
                              "requires grad."):
        torch.linalg.ldl_factor(x, out=(torch.empty(0, requires_grad=True),
                                        torch.empty(0, dtype=torch.int32)))
    LD = torch.empty(0)
    torch.linalg.ldl_factor(x.requires_grad_(), out=(LD, torch.empty(0, dtype=torch.int32)))
    assert LD.grad_fn.name().endswith("NotImplemented")  # the write is recorded
