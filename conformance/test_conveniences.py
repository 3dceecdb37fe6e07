"""Black-box tests: eye, linspace, logspace, the random _like factories, randperm,
finfo and iinfo, the dtype questions, isclose, and the shape operations by other names.
The constants e, pi, inf, nan and newaxis.
The same assertions run on torch.
"""

import math

import numpy as np
import pytest
import torch

from conformance._support import raises


def test_eye():
    assert torch.eye(3).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert torch.eye(2, 3, dtype=torch.int64).tolist() == [[1, 0, 0], [0, 1, 0]]
    assert torch.eye(0).shape == (0, 0) and torch.eye(2, requires_grad=True).requires_grad
    with raises(RuntimeError, "n must be greater or equal to 0, got -1"):
        torch.eye(-1)
    with raises(RuntimeError, "m must be greater or equal to 0, got -3"):
        torch.eye(2, -3)


def test_linspace_is_computed_from_the_nearer_end_in_one_rounding():
    assert torch.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert torch.linspace(0, 10, 1).tolist() == [0.0] and torch.linspace(0, 1, 0).tolist() == []
    assert torch.linspace(0, 10, 5, dtype=torch.int64).tolist() == [0, 2, 5, 7, 10]
    assert torch.linspace(-7, 3, 6, dtype=torch.int64).tolist() == [-7, -5, -3, -1, 1, 3]
    assert torch.linspace(0.1, 0.7, 7).tolist() == [
        0.10000000149011612, 0.19999998807907104, 0.29999998211860657, 0.4000000059604645,
        0.5, 0.6000000238418579, 0.699999988079071]
    points = torch.linspace(-40.0, 30.5, 37, dtype=torch.float64).tolist()
    assert points[5] == -30.208333333333332 and points[18] == -4.749999999999998
    assert points[-1] == 30.5
    with raises(RuntimeError, "number of steps must be non-negative"):
        torch.linspace(0, 1, -1)
    assert torch.logspace(0, 2, 3).tolist() == [1.0, 10.0, 100.0]
    assert torch.logspace(0, 2, 3, base=2).tolist() == [1.0, 2.0, 4.0]


def test_random_factories_like_other_tensors():
    m = torch.zeros(2, 3)
    assert torch.randn_like(m).shape == (2, 3) and torch.rand_like(m).dtype == torch.float32
    assert torch.rand_like(m, dtype=torch.float64).dtype == torch.float64
    r = torch.randint_like(m, 3, 5)
    assert r.dtype == torch.float32 and all(3 <= v < 5 for v in r.flatten().tolist())
    assert torch.randint_like(torch.zeros(4, dtype=torch.int64), 5).dtype == torch.int64
    p = torch.randperm(6)
    assert p.dtype == torch.int64 and sorted(p.tolist()) == list(range(6))
    assert torch.randperm(0).tolist() == []
    with raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"):
        torch.randperm(-1)


def test_finfo_and_iinfo():
    assert repr(torch.finfo(torch.float32)) == (
        "finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, "
        "smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=float32)")
    assert repr(torch.finfo(torch.float16)) == (
        "finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, "
        "smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)")
    assert torch.finfo().dtype == "float32" and torch.finfo(torch.float64).bits == 64
    assert torch.finfo(torch.float16).eps == 0.0009765625
    assert torch.finfo(torch.float64).tiny == 2.2250738585072014e-308
    assert repr(torch.iinfo(torch.int8)) == "iinfo(min=-128, max=127, dtype=int8)"
    assert repr(torch.iinfo(torch.int64)) == "iinfo(min=-9.22337e+18, max=9.22337e+18, dtype=int64)"
    assert torch.iinfo(torch.uint8).max == 255 and torch.iinfo(torch.int64).max == 2**63 - 1
    with raises(TypeError, "torch.finfo() requires a floating point input type. Use torch.iinfo "
                           "to handle 'torch.finfo'"):
        torch.finfo(torch.int64)
    with raises(TypeError, "torch.iinfo() requires an integer input type. Use torch.finfo to "
                           "handle 'torch.iinfo'"):
        torch.iinfo(torch.float32)
    with raises(TypeError, "torch.bool is not supported by torch.iinfo"):
        torch.iinfo(torch.bool)


def test_dtype_questions_and_isclose():
    x = torch.tensor([1.0, math.inf, math.nan, 1e-9, 2.0])
    y = torch.tensor([1.00001, math.inf, math.nan, 0.0, 2.1])
    assert torch.isclose(x, y).tolist() == [False, True, False, True, False]
    assert x.isclose(y, equal_nan=True).tolist() == [False, True, True, True, False]
    assert torch.isclose(x, y, rtol=0.1, atol=0).tolist() == [True, True, False, False, True]
    with raises(RuntimeError, "Long did not match Float"):
        torch.isclose(torch.tensor([1]), torch.tensor([1.0]))
    with raises(RuntimeError, "rtol must be greater than or equal to zero, but got -1"):
        torch.isclose(x, y, rtol=-1)
    assert torch.is_floating_point(x) and not torch.is_floating_point(torch.tensor([1]))
    assert torch.result_type(x, 2) == torch.float32
    assert torch.result_type(torch.tensor([1]), 2.5) == torch.float32
    assert not torch.can_cast(torch.float32, torch.int32)
    assert torch.can_cast(torch.int32, torch.float32) and torch.can_cast(torch.int64, torch.int8)
    assert not torch.can_cast(torch.int64, torch.bool)


def test_shapes_by_other_names():
    x = torch.tensor(1.0, requires_grad=True)
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    m = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
    assert type(torch.broadcast_to(v, (3, 2)).grad_fn).__name__ == "ExpandBackward0"
    assert type(m.swapaxes(0, 2).grad_fn).__name__ == "TransposeBackward0"
    moved = torch.movedim(m, (0, 1), (2, 0))
    assert moved.shape == (3, 4, 2) and type(moved.grad_fn).__name__ == "PermuteBackward0"
    assert torch.moveaxis(m, -1, 0).shape == (4, 2, 3)
    with raises(RuntimeError, "movedim: repeated dim in `source` ([0, 0])"):
        torch.movedim(m, (0, 0), (1, 2))
    flat = m.transpose(0, 2).ravel()
    assert type(flat.grad_fn).__name__ == "ViewBackward0"
    assert type(flat.grad_fn.next_functions[0][0]).__name__ == "CloneBackward0"
    assert flat[:4].tolist() == [0.0, 12.0, 4.0, 16.0]
    assert torch.atleast_1d(x).shape == (1,) and torch.atleast_1d(v) is v
    assert torch.atleast_2d(v).shape == (1, 2) and torch.atleast_2d(m) is m
    assert [t.shape for t in torch.atleast_1d(x, v)] == [(1,), (2,)]
    assert torch.hstack((v, v)).tolist() == [1.0, 2.0, 1.0, 2.0]
    assert torch.hstack((m, m)).shape == (2, 6, 4) and torch.vstack((v, v)).shape == (2, 2)
    assert type(torch.vstack((x, x)).grad_fn).__name__ == "CatBackward0"
    with raises(RuntimeError, "hstack expects a non-empty TensorList"):
        torch.hstack([])
    (moved * torch.arange(24.0).reshape(3, 4, 2)).sum().backward()
    expected = np.transpose(np.arange(24.0).reshape(3, 4, 2), (2, 0, 1)).ravel().tolist()
    assert m.grad.flatten().tolist() == pytest.approx(expected)


def test_index_select_takes_whole_slices_and_adds_their_gradients_back():
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()
    y = x.index_select(0, torch.tensor([2, 0, 2]))
    assert y.tolist() == [[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0], [8.0, 9.0, 10.0, 11.0]]
    node = y.grad_fn
    assert type(node).__name__ == "IndexSelectBackward0" and node._saved_dim == 0
    assert node._saved_index.tolist() == [2, 0, 2] and node._saved_self_sym_sizes == (3, 4)
    (y * torch.arange(12.0).reshape(3, 4)).sum().backward()
    assert x.grad.tolist() == [[4.0, 5.0, 6.0, 7.0], [0.0] * 4, [8.0, 10.0, 12.0, 14.0]]
    assert torch.index_select(x, -1, torch.tensor(1)).tolist() == [[1.0], [5.0], [9.0]]
    assert x.index_select(0, torch.tensor([1], dtype=torch.int32)).shape == (1, 4)
    assert x.index_select(0, torch.tensor([], dtype=torch.int64)).shape == (0, 4)
    with raises(IndexError, "index_select(): Index is supposed to be a vector"):
        x.index_select(0, torch.tensor([[0]]))
    with raises(RuntimeError, "index_select(): Expected dtype int32 or int64 for index"):
        x.index_select(0, torch.tensor([0.0]))
    for bad in ([5], [-1]):
        with raises(IndexError, "index out of range in self"):
            x.index_select(0, torch.tensor(bad))


def test_gradient_checks_of_empty_inputs_and_outputs():
    from torch.autograd.gradcheck import gradcheck, gradgradcheck

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    empty = torch.zeros(0, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: t[:0] * 2, (x,)) and gradgradcheck(lambda t: t[:0] * 2, (x,))
    assert gradcheck(lambda t: t * 2, (empty,))
    assert gradgradcheck(lambda t: t.sum() * x, (empty,))


def test_random_fills_in_place():
    x = torch.zeros(3, requires_grad=True)
    y = x * 2
    assert y.uniform_(-1, 1) is y and type(y.grad_fn).__name__ == "UniformBackward0"
    assert all(-1 <= v < 1 for v in y.tolist())
    z = x * 2
    z.normal_()
    assert type(z.grad_fn).__name__ == "NormalBackward0"
    z.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        x.uniform_()
    with torch.no_grad():
        assert x.uniform_(2, 3) is x and all(2 <= v < 3 for v in x.tolist())
    assert torch.zeros(2).uniform_(to=0.0).tolist() == [0.0, 0.0]
    assert torch.zeros(2).normal_(1.5, 0.0).tolist() == [1.5, 1.5]
    assert torch.zeros(2, dtype=torch.float16).normal_(std=2).dtype == torch.float16
    with raises(NotImplementedError, "\"check_uniform_bounds\" not implemented for 'Bool'"):
        torch.zeros(2, dtype=torch.bool).uniform_()
    with raises(NotImplementedError, "\"normal_kernel_cpu\" not implemented for 'Long'"):
        torch.zeros(2, dtype=torch.int64).normal_()
    with raises(RuntimeError, "uniform_ expects to return a [from, to) range, but found from=2 > "
                              "to=1"):
        torch.zeros(2).uniform_(2, 1)
    with raises(RuntimeError, "normal expects std >= 0.0, but found std -1"):
        torch.zeros(2).normal_(0, -1)


def test_smaller_agreements():
    s = torch.tensor(3.0, requires_grad=True)
    assert type(torch.movedim(s, 0, 0).grad_fn).__name__ == "AliasBackward0"
    assert type(torch.swapaxes(s, 0, 0).grad_fn).__name__ == "TransposeBackward0"
    assert torch.flip(s, [0]).item() == 3.0 and torch.roll(s, 1).item() == 3.0
    with raises(IndexError, "Dimension specified as 0 but tensor has no dimensions"):
        torch.roll(s, 1, 0)
    m = torch.zeros(2, 3)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                            "got 2)"):
        torch.roll(m, 1, 2)
    with raises(RuntimeError, "order must be non-negative but got -1"):
        torch.diff(torch.zeros(3), n=-1)
    assert m.flip(0, 1).shape == (2, 3) and torch.zeros(3).broadcast_to(2, 3).shape == (2, 3)
    assert torch.swapdims(m, dim0=0, dim1=1).shape == (3, 2)
    assert torch.negative(torch.tensor([1.0])).tolist() == [-1.0]
    assert torch.absolute(torch.tensor([-1.0])).tolist() == [1.0]
    assert torch.divide(torch.tensor([3]), 2, rounding_mode="floor").tolist() == [1]
    t = torch.tensor([3.0])
    assert t.divide_(2) is t and t.negative_().absolute_().tolist() == [1.5]
    assert torch.finfo(torch.float32) == torch.finfo(torch.float32)
    assert torch.finfo(torch.float32) != torch.finfo(torch.float64)
    assert torch.iinfo(torch.int8) == torch.iinfo(torch.int8)
    for form, kernel in ((torch.floor, "floor_vml_cpu"), (torch.round, "round_vml_cpu"),
                         (torch.trunc, "trunc_vml_cpu"), (torch.ceil, "ceil_vml_cpu")):
        with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Bool'"):
            form(torch.tensor([True]))
    with raises(RuntimeError, "topk does not support bool dtypes on CPU"):
        torch.topk(torch.tensor([True, False]), 1)
    with raises(NotImplementedError, "\"linspace_cpu\" not implemented for 'Bool'"):
        torch.linspace(0, 1, 3, dtype=torch.bool)
    with raises(NotImplementedError, "\"addcmul_cpu_out\" not implemented for 'Bool'"):
        torch.addcmul(torch.tensor([True]), torch.tensor([True]), torch.tensor([True]))
    with raises(RuntimeError, "where expected condition to be a boolean tensor, but got a tensor "
                              "with dtype Long"):
        torch.where(torch.tensor([1, 0]), torch.zeros(2), 1.0)
    half = torch.round(torch.tensor([2.35], dtype=torch.float16), decimals=1)
    assert half.item() == 2.30078125


def test_constants():
    assert (torch.e, torch.pi) == (math.e, math.pi)
    assert math.isinf(torch.inf) and torch.inf > 0 and math.isnan(torch.nan)
    assert torch.newaxis is None
    assert torch.ones(2, 3)[torch.newaxis, :, torch.newaxis].shape == (1, 2, 1, 3)
