"""linalg.lu_solve and linalg.ldl_solve check the factors they are given: the dtype first,
the pivots' values, then the CPU kernel's refusal of float16 where there is work to do."""

import pytest
import torch

from conformance._support import raises

LU_LOW = ("Pivots given to lu_solve must all be greater or equal to 1. Did you properly pass "
          "the result of lu_factor?")
LU_HIGH = ("Pivots given to lu_solve must all be smaller or equal to LU.size(-2). Did you "
           "properly pass the result of lu_factor?")
LDL_LOW = ("Pivots given to ldl_solve must all satisfy |pivot| >= 1. Did you properly pass "
           "the result of ldl_factor?")
LDL_HIGH = ("Pivots given to ldl_solve must all satisfy |pivot| <= LD.size(-2). Did you "
            "properly pass the result of ldl_factor?")


def _pivots(*values):
    return torch.tensor(values, dtype=torch.int32)


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool, torch.uint8, torch.int32])
@pytest.mark.parametrize("n", [0, 3])
def test_an_integer_factor_is_refused_before_its_shape(dtype, n):
    a = torch.ones(n, n, dtype=dtype)
    for solve in ("lu_solve", "ldl_solve"):
        name = {torch.int64: "Long", torch.bool: "Bool", torch.uint8: "Byte",
                torch.int32: "Int"}[dtype]
        with raises(RuntimeError, f"torch.linalg.{solve}: Expected a floating point or "
                                  f"complex tensor as input. Got {name}"):
            getattr(torch.linalg, solve)(a, torch.ones(n, dtype=torch.int32), a)
    with raises(RuntimeError, "torch.linalg.lu_solve: Expected a floating point or complex "
                              "tensor as input. Got Long"):
        torch.linalg.lu_solve(torch.ones(3, 2, dtype=torch.int64), _pivots(1, 2), a.float())


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_pivots_out_of_range_are_refused(dtype):
    a = torch.eye(3, dtype=dtype)
    with raises(RuntimeError, LU_LOW):
        torch.linalg.lu_solve(a, _pivots(0, 2, 3), a)
    with raises(RuntimeError, LU_HIGH):
        torch.linalg.lu_solve(a, _pivots(1, 4, 3), a)
    with raises(RuntimeError, LDL_LOW):
        torch.linalg.ldl_solve(a, _pivots(1, 0, 3), a)
    with raises(RuntimeError, LDL_HIGH):
        torch.linalg.ldl_solve(a, _pivots(1, -4, 3), a)
    batch = a.expand(2, 3, 3)
    with raises(RuntimeError, LU_LOW):
        torch.linalg.lu_solve(batch, torch.tensor([[1, 2, 3], [1, 0, 3]], dtype=torch.int32), a)


def test_float32_solves_with_valid_pivots():
    A = torch.tensor([[4.0, 1.0], [1.0, 3.0]], dtype=torch.float64)
    B = torch.tensor([[1.0], [2.0]], dtype=torch.float64)
    LU, pivots = torch.linalg.lu_factor(A)
    assert torch.allclose(A @ torch.linalg.lu_solve(LU, pivots, B), B)
    LD, piv = torch.linalg.ldl_factor(A)
    assert torch.allclose(A @ torch.linalg.ldl_solve(LD, piv, B), B)


def test_float16_is_refused_by_the_kernel_only_with_work_to_do():
    a = torch.eye(3, dtype=torch.float16)
    with raises(NotImplementedError, "\"linalg.lu_solve_cpu\" not implemented for 'Half'"):
        torch.linalg.lu_solve(a, _pivots(1, 2, 3), a)
    with raises(NotImplementedError, "\"ldl_solve_kernel_cpu\" not implemented for 'Half'"):
        torch.linalg.ldl_solve(a, _pivots(1, 2, 3), a)
    e = torch.empty(0, 0, dtype=torch.float16)
    assert torch.linalg.lu_solve(e, _pivots(), e).dtype == torch.float16
    assert torch.linalg.ldl_solve(e, _pivots(), e).shape == (0, 0)


def test_ldl_solve_checks_in_torchs_order():
    a = torch.eye(3)
    with raises(RuntimeError, "torch.linalg.ldl_solve: A must be batches of square matrices, "
                              "but they are 3 by 2 matrices"):
        torch.linalg.ldl_solve(a[:, :2].long(), _pivots(1, 2, 3), a)
    with raises(RuntimeError, "torch.linalg.ldl_solve: The input tensor A must have at least "
                              "2 dimensions."):
        torch.linalg.ldl_solve(a[0], _pivots(1, 2, 3), a)
    with raises(RuntimeError, "torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape "
                              "to be the same, but got pivots with shape [2] instead"):
        torch.linalg.ldl_solve(a, _pivots(1, 2), a)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                            "got -2)"):
        torch.linalg.ldl_solve(a, _pivots(1, 2, 3), a[0])
    with raises(RuntimeError, "Incompatible matrix sizes for torch.linalg.ldl_solve: each A "
                              "matrix is 3 by 3 but each b matrix is 2 by 3"):
        torch.linalg.ldl_solve(a.half(), _pivots(1, 2, 3), a[:2].half())
    with raises(RuntimeError, "Expected b and A to have the same dtype, but found b of type "
                              "Double and A of type Float instead."):
        torch.linalg.ldl_solve(a, _pivots(1, 2, 3), a.double())
