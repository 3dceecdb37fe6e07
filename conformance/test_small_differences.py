"""Black-box tests: sinc's second derivative near zero, polygamma of huge orders, unique
along a dimension of a 0-d tensor, and torch.Size in Python's own refusals. The same
assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import raises


def _second_derivative(value, dtype):
    x = torch.tensor(value, dtype=dtype, requires_grad=True)
    (slope,) = torch.autograd.grad(torch.sinc(x), x, create_graph=True)
    (curve,) = torch.autograd.grad(slope, x)
    return slope, curve


@pytest.mark.parametrize(("value", "dtype", "expected"), [
    (1e-4, torch.float32, 5.961705207824707),  # rounding noise, added up in torch's order
    (-1e-3, torch.float32, -3.245547294616699),
    (1e-2, torch.float32, -3.289297580718994),
    (1e-2, torch.float64, -3.2888941000126932),
])
def test_sinc_second_derivative_rounds_as_torchs_graph_does(value, dtype, expected):
    slope, curve = _second_derivative(value, dtype)
    assert type(slope.grad_fn).__name__ == "WhereBackward0"
    assert curve.item() == pytest.approx(expected, rel=1e-6, abs=0)


def test_sinc_second_derivative_at_zero_is_nan():
    for dtype in (torch.float32, torch.float64):
        slope, curve = _second_derivative(0.0, dtype)
        assert slope.item() == 0 and math.isnan(curve.item())


def test_polygamma_of_a_huge_order_is_quick_and_torchs():
    x = torch.tensor([0.5, 1.0, 2.0, 0.0, -1.0, math.inf])
    # the kernel reads n as a 32-bit int: 2**62 and 2**32 arrive as 0, 2**31 as -2**31
    for n in (2**62, 2**32, 2**40):
        assert torch.polygamma(n, x).tolist() == [-math.inf] * 6
    assert all(math.isnan(v) for v in torch.polygamma(2**31, x.double()).tolist())
    assert all(math.isnan(v) for v in torch.polygamma(2**63 - 1, x).tolist())
    # 2**32 + 2 arrives as 2: -2 zeta(3, x), and -inf at -inf, where trigamma would say nan
    wrapped = torch.polygamma(2**32 + 2, torch.tensor([1.0, -math.inf], dtype=torch.float64))
    assert wrapped[0].item() == pytest.approx(-2.4041138063191885, rel=1e-12)
    assert wrapped[1].item() == -math.inf
    big = torch.polygamma(200, torch.tensor([1.0, 0.5], dtype=torch.float64))
    assert big.tolist() == [-math.inf, -math.inf]  # 200! overflows


def test_polygamma_past_int64_and_below_zero_are_refused():
    with raises(ValueError, "Overflow when unpacking long long"):
        torch.polygamma(2**63, torch.tensor([1.0]))
    with raises(RuntimeError, "polygamma(n, x) does not support negative n."):
        torch.polygamma(-1, torch.tensor([1.0]))


@pytest.mark.parametrize("dim", [0, -1, 1, -2])
def test_unique_along_a_dimension_of_a_0d_tensor_is_refused(dim):
    for function in (torch.unique, torch.unique_consecutive):
        with raises(IndexError, f"Dimension specified as {dim} but tensor has no dimensions"):
            function(torch.tensor(5.0), dim=dim, return_inverse=True, return_counts=True)
    with raises(IndexError, f"Dimension specified as {dim} but tensor has no dimensions"):
        torch.tensor(True).unique_consecutive(dim=dim)


def test_unique_consecutive_of_a_0d_tensor_without_dim():
    values, inverse, counts = torch.unique_consecutive(torch.tensor(3), return_inverse=True,
                                                       return_counts=True)
    assert values.tolist() == [3] and inverse.shape == () and counts.tolist() == [1]


def test_a_size_is_named_as_pythons_messages_name_torchs():
    x = torch.tensor([1.0, 2.0])
    size = torch.Size([2])
    with raises(TypeError, "unsupported operand type(s) for +: 'Tensor' and 'torch.Size'"):
        x + size
    with raises(TypeError, "'<' not supported between instances of 'Tensor' and 'torch.Size'"):
        assert x < size
    with raises(TypeError, 'can only concatenate list (not "torch.Size") to list'):
        [1] + size
    with raises(TypeError, "list indices must be integers or slices, not torch.Size"):
        [1][size]
    assert torch.Size.__qualname__ == "Size" and repr(size) == "torch.Size([2])"
