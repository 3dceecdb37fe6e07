"""Black-box tests: rounding functions, logs and their relatives, tests of values,
positions, truth reductions and the conversion methods. The same assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import raises


def test_rounding_functions_of_floats_and_of_integers():
    x = torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.5, -2.7])
    assert x.floor().tolist() == [-2.0, -1.0, 0.0, 1.0, 2.0, -3.0]
    assert x.ceil().tolist() == [-1.0, -0.0, 1.0, 2.0, 3.0, -2.0]
    assert x.round().tolist() == [-2.0, -0.0, 0.0, 2.0, 2.0, -3.0]  # half to even
    assert torch.trunc(x).tolist() == torch.fix(x).tolist() == [-1.0, -0.0, 0.0, 1.0, 2.0, -2.0]
    assert x.frac().tolist() == pytest.approx([-0.5, -0.5, 0.5, 0.5, 0.5, -0.7])
    assert torch.round(torch.tensor([1.25, 1234.5678]), decimals=1).tolist() == pytest.approx(
        [1.2, 1234.6])
    assert torch.round(torch.tensor([1234.5678]), decimals=-2).tolist() == [1200.0]
    i = torch.tensor([-3, 0, 7])
    for f in (torch.floor, torch.ceil, torch.round, torch.trunc):
        out = f(i)
        assert out.dtype == torch.int64 and out.tolist() == [-3, 0, 7] and out is not i
    with raises(NotImplementedError, "\"frac_cpu\" not implemented for 'Long'"):
        i.frac()
    with raises(NotImplementedError, "\"round_cpu\" not implemented for 'Long'"):
        i.round(decimals=1)


def test_steps_have_zero_gradients_and_frac_passes_them():
    x = torch.tensor([-1.5, 0.25, 2.5], requires_grad=True)
    y = x.floor() + x.ceil() + x.round() + x.trunc() + x.round(decimals=1)
    names = [type(n).__name__ for n, _ in y.grad_fn.next_functions]
    assert names[1] == "RoundBackward1" and y.grad_fn.next_functions[0][0] is not None
    assert not [n for n in dir(y.grad_fn.next_functions[1][0]) if n.startswith("_saved")]
    (y * torch.tensor([1.0, math.inf, 2.0]) + x.frac()).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_logs_exponentials_and_their_saved_values():
    x = torch.tensor([0.5, 1.0, 3.0], dtype=torch.float64, requires_grad=True)
    assert type(x.log1p().grad_fn).__name__ == "Log1PBackward0"
    assert x.log1p().grad_fn._saved_self is x
    assert type(x.expm1().grad_fn).__name__ == "Expm1Backward0"
    assert x.expm1().grad_fn._saved_result.tolist() == pytest.approx(
        [math.expm1(v) for v in (0.5, 1.0, 3.0)])
    tiny = torch.tensor([1e-10], dtype=torch.float64)
    assert tiny.log1p().item() == pytest.approx(1e-10, rel=1e-12)
    assert torch.log1p(torch.tensor([1, 3])).dtype == torch.float32
    assert torch.exp2(torch.tensor([3])).tolist() == [8.0]
    (x.log2() + x.log10() + x.exp2()).sum().backward()
    expected = [1 / (v * math.log(2)) + 1 / (v * math.log(10)) + 2**v * math.log(2)
                for v in (0.5, 1.0, 3.0)]
    assert x.grad.tolist() == pytest.approx(expected)


def test_hyperbolic_and_inverse_trigonometric_gradients():
    x = torch.tensor([-0.5, 0.25], dtype=torch.float64, requires_grad=True)
    (x.sinh() + x.cosh() + x.asin() + x.acos() + x.atan() + x.asinh() + x.atanh()
     + torch.arctan(x)).sum().backward()
    expected = [math.cosh(v) + math.sinh(v) + 1 / (1 + v * v) * 2
                + 1 / math.sqrt(v * v + 1) + 1 / (1 - v * v) for v in (-0.5, 0.25)]
    assert x.grad.tolist() == pytest.approx(expected)
    assert math.isnan(torch.asin(torch.tensor(2.0)).item())
    assert math.isnan(torch.acosh(torch.tensor(0.5)).item())
    assert type(torch.arcsin(x).grad_fn).__name__ == "AsinBackward0"


def test_atan2_finds_the_quadrant_and_is_flat_at_the_origin():
    y = torch.tensor([1.0, 1.0, -1.0, 0.0], requires_grad=True)
    x = torch.tensor([1.0, -1.0, -1.0, 0.0], requires_grad=True)
    angle = torch.atan2(y, x)
    assert angle.tolist() == pytest.approx([math.pi / 4, 3 * math.pi / 4, -3 * math.pi / 4, 0])
    assert type(angle.grad_fn).__name__ == "Atan2Backward0"
    angle.sum().backward()
    assert y.grad.tolist() == pytest.approx([0.5, -0.5, -0.5, 0.0])
    assert x.grad.tolist() == pytest.approx([-0.5, -0.5, 0.5, 0.0])
    with raises(TypeError, "atan2(): argument 'other' (position 2) must be Tensor, not int"):
        torch.atan2(y, 2)


def test_tests_of_values_record_nothing():
    v = torch.tensor([1.0, math.nan, math.inf, -math.inf, -0.0], requires_grad=True)
    assert v.isnan().tolist() == [False, True, False, False, False]
    assert v.isinf().tolist() == [False, False, True, True, False]
    assert v.isfinite().tolist() == [True, False, False, False, True]
    assert v.isposinf().tolist() == [False, False, True, False, False]
    assert v.isneginf().tolist() == [False, False, False, True, False]
    assert v.signbit().tolist() == [False, False, False, True, True]
    assert v.isnan().grad_fn is None and v.isnan().dtype == torch.bool
    assert torch.isnan(torch.tensor([1, 2])).tolist() == [False, False]


def test_positions_of_the_largest_and_smallest():
    v = torch.tensor([[1.0, math.nan, 3.0], [math.nan, 0.0, -1.0]])
    assert v.argmax().item() == 1 and v.argmin().item() == 1  # a nan wins both
    assert torch.argmax(v, 1).tolist() == [1, 0]
    assert torch.argmin(v, 0, keepdim=True).tolist() == [[1, 0, 1]]
    m = torch.tensor([[1, 5], [7, 1]])
    assert m.argmax().dtype == torch.int64 and m.argmax(keepdim=True).tolist() == [[2]]
    assert m.argmin(dim=-1).tolist() == [0, 1] and torch.tensor(3.0).argmax(0).item() == 0
    with raises(RuntimeError, "argmin(): does not support bool input"):
        torch.argmin(torch.tensor([True]))
    with raises(IndexError, "argmax(): Expected reduction dim to be specified for "
                            "input.numel() == 0."):
        torch.argmax(torch.tensor([]))
    with raises(IndexError, "argmax(): Expected reduction dim 1 to have non-zero size."):
        torch.argmax(torch.zeros(2, 0), 1)
    assert torch.argmax(torch.zeros(2, 0), 0).tolist() == []
    for name, dim in (("max", -1), ("min", 1)):
        with raises(IndexError, f"{name}(): Expected reduction dim 1 to have non-zero size."):
            getattr(torch.zeros(2, 0), name)(dim)
    assert torch.zeros(2, 0).max(0).values.shape == (0,)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                            "got 1)"):
        torch.argmax(torch.tensor([1, 2]), 1)


def test_all_and_any():
    m = torch.tensor([[1, 0], [1, 1]])
    assert torch.all(m, 1, keepdim=True).tolist() == [[False], [True]]
    assert torch.all(m, dim=(0, 1)).item() is False and m.any(0).tolist() == [True, True]
    assert torch.tensor([1.0, 2.0]).all().dtype == torch.bool
    assert torch.all(torch.tensor([])).item() is True
    u = torch.tensor([1, 2], dtype=torch.uint8)
    assert u.all().dtype == torch.uint8 and u.all(0).item() == 1
    assert torch.any(torch.tensor([], dtype=torch.uint8)).dtype == torch.uint8
    assert torch.tensor(2).all(0).item() is True


def test_conversions_and_shorthands():
    x = torch.tensor([-1.5, 0.0, 2.7], requires_grad=True)
    for method, dtype in (("int", torch.int32), ("short", torch.int16), ("char", torch.int8),
                          ("byte", torch.uint8), ("bool", torch.bool)):
        assert getattr(x, method)().dtype == dtype
    assert x.int().tolist() == [-1, 0, 2] and x.bool().tolist() == [True, False, True]
    square = x.square()
    assert type(square.grad_fn).__name__ == "PowBackward0" and square.grad_fn._saved_exponent == 2
    assert torch.tensor([3]).square().tolist() == [9]
    assert x.type_as(torch.tensor([1])).dtype == torch.int64
    assert torch.tensor([1, 2, 3]).expand_as(torch.zeros(2, 3)).shape == (2, 3)
    assert x.reshape_as(torch.zeros(3, 1)).shape == (3, 1)
    assert x.nelement() == 3 and torch.zeros(2, 3).ndimension() == 2
    assert type(x.negative().grad_fn).__name__ == "NegBackward0"
    assert type(x.absolute().grad_fn).__name__ == "AbsBackward0"


def test_in_place_forms():
    x = torch.tensor([-1.5, 0.25, 2.5])
    assert x.floor_() is x and x.tolist() == [-2.0, 0.0, 2.0]
    assert x.square_().tolist() == [4.0, 0.0, 4.0]
    assert torch.tensor([1, 2]).floor_().tolist() == [1, 2]
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        torch.tensor([1, 2]).sinh_()
    y = torch.tensor([1.5])
    assert y.atan2_(torch.tensor([2])).tolist() == pytest.approx([math.atan2(1.5, 2)])
