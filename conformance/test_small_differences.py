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


def _nan_or(values):
    return ["nan" if math.isnan(v) else v for v in values]


def test_polygamma_rounds_its_two_factors_to_the_dtype_first():
    x = torch.tensor([0.5, 1.0, 2.0, 3.0, -1.5, 10.0])
    # 40! is inf in float32 and zeta(41, 2) is not 0: -inf; zeta(1001, 2) is 0: nan
    assert _nan_or(torch.polygamma(40, x).tolist()) == [-math.inf] * 6
    assert _nan_or(torch.polygamma(1000, x).tolist()) == [-math.inf, -math.inf] + ["nan"] * 4
    assert _nan_or(torch.polygamma(100, x).tolist()) == [
        -math.inf, -math.inf, -math.inf, "nan", -math.inf, "nan"]
    # float16: zeta underflows to zero, the float32 factorial does not overflow
    assert _nan_or(torch.polygamma(30, x.half()).tolist()) == [
        -math.inf, -math.inf, -0.0, -0.0, -math.inf, -0.0]
    assert _nan_or(torch.polygamma(35, x.half()).tolist()) == [
        math.inf, math.inf, "nan", "nan", math.inf, "nan"]
    assert _nan_or(torch.polygamma(1000, x.double()).tolist()) == [  # 3**-1001 is 0 too
        -math.inf, -math.inf, -math.inf, "nan", -math.inf, "nan"]


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


@pytest.mark.parametrize(("operator", "name", "qualname"), [
    ("__add__", "__add__", "TensorBase.__add__"),
    ("__radd__", "__radd__", "TensorBase.__radd__"),
    ("__iadd__", "__iadd__", "TensorBase.__iadd__"),
    ("__rsub__", "__rsub__", "Tensor.__rsub__"),
    ("__truediv__", "__truediv__", "TensorBase.__truediv__"),
    ("__rtruediv__", "__rdiv__", "Tensor.__rdiv__"),
    ("__itruediv__", "__idiv__", "TensorBase.__idiv__"),
    ("__pow__", "pow", "TensorBase.pow"),
    ("__rpow__", "__rpow__", "Tensor.__rpow__"),
    ("__ipow__", "pow_", "TensorBase.pow_"),
    ("__neg__", "neg", "TensorBase.neg"),
    ("__abs__", "abs", "TensorBase.abs"),
    ("__pos__", "positive", "TensorBase.positive"),
    ("__matmul__", "__matmul__", "TensorBase.__matmul__"),
    ("__rmatmul__", "__rmatmul__", "Tensor.__rmatmul__"),
    ("__floordiv__", "__floordiv__", "Tensor.__floordiv__"),
    ("__mod__", "__mod__", "TensorBase.__mod__"),
    ("__rmod__", "__rmod__", "Tensor.__rmod__"),
    ("__lt__", "__lt__", "TensorBase.__lt__"),
    ("__eq__", "__eq__", "TensorBase.__eq__"),
    ("__and__", "__and__", "TensorBase.__and__"),
    ("__rlshift__", "__rlshift__", "Tensor.__rlshift__"),
    ("__ixor__", "__ixor__", "TensorBase.__ixor__"),
    ("__invert__", "__invert__", "TensorBase.__invert__"),
    ("__getitem__", "__getitem__", "TensorBase.__getitem__"),
    ("__setitem__", "__setitem__", "TensorBase.__setitem__"),
    ("__iter__", "__iter__", "Tensor.__iter__"),
    ("__div__", "__div__", "TensorBase.__div__"),
    ("__rdiv__", "__rdiv__", "Tensor.__rdiv__"),
    ("__idiv__", "__idiv__", "TensorBase.__idiv__"),
])
def test_operators_are_named_as_torchs(operator, name, qualname):
    method = getattr(torch.Tensor, operator)
    assert (method.__name__, method.__qualname__) == (name, qualname)


def test_the_older_division_names_and_unary_plus_work():
    x = torch.tensor([1.0, -2.0])
    assert (+x).tolist() == [1.0, -2.0]
    assert x.__div__(2).tolist() == [0.5, -1.0] and x.__rdiv__(2).tolist() == [2.0, -1.0]
    y = x.clone()
    assert y.__idiv__(2) is y and y.tolist() == [0.5, -1.0]
    with raises(RuntimeError, "The `+` operator, on a bool tensor is not supported."):
        +torch.tensor([True])


_BOOL_MINUS = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
               "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
_TWO_BOOLS = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
              "`^` or `logical_xor()` operator instead.")


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: torch.rsub(torch.tensor([True]), 1), RuntimeError, _BOOL_MINUS),
    (lambda: torch.rsub(torch.tensor([1.0]), True), RuntimeError, _BOOL_MINUS),
    (lambda: torch.rsub(torch.tensor([True]), True), RuntimeError, _TWO_BOOLS),
    (lambda: True - torch.tensor([True]), RuntimeError, _TWO_BOOLS),
    (lambda: torch.tensor([1, 2]).copysign_(torch.tensor([1, -1])), RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
    (lambda: torch.tensor([1], dtype=torch.int32).copysign_(2.0), RuntimeError,
     "result type Float can't be cast to the desired output type Int"),
    (lambda: torch.tensor([True]).copysign_(torch.tensor([1.0])), RuntimeError,
     "result type Float can't be cast to the desired output type Bool"),
    (lambda: torch.tensor([1]) + 2**64, OverflowError, "int too big to convert"),
    (lambda: torch.tensor([1]) + (-2**63 - 1), OverflowError,
     "can't convert negative int to unsigned"),
    (lambda: torch.full((2,), 2**64), OverflowError, "int too big to convert"),
    (lambda: torch.full((2,), 2**63), RuntimeError,
     "value cannot be converted to type int64_t without overflow"),
    (lambda: torch.tensor([1]).fill_(2**63), RuntimeError,
     "value cannot be converted to type int64_t without overflow"),
    (lambda: torch.tensor([1.0]).fill_(2**64), OverflowError, "int too big to convert"),
    (lambda: torch.tensor(2**64), ValueError, "Overflow when unpacking long long"),
    (lambda: torch.tensor([1]) ** 2**63, RuntimeError,
     "value cannot be converted to type int64_t without overflow"),
])
def test_numbers_and_bools_refused_in_torchs_words(call, error, message):
    with raises(error, message):
        call()


def test_numbers_past_int64_that_torch_wraps_or_widens():
    assert (torch.tensor([1]) + 2**63).tolist() == [-2**63 + 1]
    assert (torch.tensor([1.0]).fill_(2**63)).tolist() == [2.0**63]
    assert torch.full((2,), 2**63, dtype=torch.float32).tolist() == [2.0**63] * 2


def test_membership_and_reversal():
    grid = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert 2.0 in grid and 5 not in grid and torch.tensor([2.0]) in grid
    assert True in torch.tensor([1])
    for element, kind in (("a", "<class 'str'>"), ([1], "<class 'list'>"),
                          (None, "<class 'NoneType'>")):
        with raises(RuntimeError, "Tensor.__contains__ only supports Tensor or scalar, but you "
                                  f"passed in a {kind}."):
            assert element in grid
    assert [row.tolist() for row in reversed(grid)] == [[3, 4], [1, 2]]
    assert reversed(grid).tolist() == [[3, 4], [1, 2]]
    scalar = torch.tensor(3.0)
    assert reversed(scalar) is scalar


def test_python_2_names_pointers_and_flags():
    x = torch.tensor(3.7)
    assert x.__long__() == 3 and x.__nonzero__() is True
    assert x.const_data_ptr() == x.data_ptr()
    for flag in ("is_meta", "is_mps", "is_xpu", "is_ipu", "is_maia", "is_mtia", "is_mkldnn",
                 "is_nested", "is_quantized", "is_sparse_csr", "is_vulkan", "is_xla"):
        assert getattr(x, flag) is False
        with raises(AttributeError, f"attribute '{flag}' of 'torch._C.TensorBase' objects is "
                                    "not writable"):
            setattr(x, flag, True)
