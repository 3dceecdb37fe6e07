"""Black-box tests: the sign of zeros that maxima, minima and some gradients give,
nextafter's gradient and in-place form, and expand's name for a bool tensor. The same
assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import raises

T = torch.tensor
FLOATS = (torch.float16, torch.float32, torch.float64)


def signs(t):
    return [math.copysign(1.0, v) for v in t.reshape(-1).tolist()]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin", "max", "min"])
def test_a_tie_of_zeros_keeps_the_first_operand(name, dtype):
    a, b = T([0.0, -0.0, 0.0, -0.0], dtype=dtype), T([-0.0, 0.0, 0.0, -0.0], dtype=dtype)
    assert signs(getattr(torch, name)(a, b)) == [1.0, -1.0, 1.0, -1.0]
    assert signs(getattr(torch, name)(b, a)) == [-1.0, 1.0, 1.0, -1.0]


@pytest.mark.parametrize("dtype", FLOATS)
def test_clamp_keeps_the_input_on_a_tie(dtype):
    a, b = T([0.0, -0.0, 0.0, -0.0], dtype=dtype), T([-0.0, 0.0, 0.0, -0.0], dtype=dtype)
    for clamped in (torch.clamp(a, min=-0.0), torch.clamp(a, max=0.0), torch.clamp(a, -0.0, 0.0),
                    torch.clamp(a, min=b), torch.clamp(a, max=b), torch.clamp_min(a, 0.0),
                    a.clone().clamp_(min=b)):
        assert signs(clamped) == [1.0, -1.0, 1.0, -1.0]


@pytest.mark.parametrize("dtype", FLOATS)
def test_an_integer_operand_first_wins_a_tie_as_a_positive_zero(dtype):
    a, zeros = T([0.0, -0.0], dtype=dtype), torch.zeros(2, dtype=torch.int16)
    assert torch.maximum(zeros, a).dtype is dtype
    assert signs(torch.maximum(zeros, a)) == [1.0, 1.0]
    assert signs(torch.minimum(zeros, a)) == [1.0, 1.0]
    assert signs(torch.maximum(a, zeros)) == [1.0, -1.0]


def test_fmax_still_passes_over_nan():
    nan = float("nan")
    out = torch.fmax(T([nan, 1.0, nan, -0.0]), T([2.0, nan, nan, 0.0]))
    assert out[:2].tolist() == [2.0, 1.0] and out[2].isnan() and signs(out[3:]) == [-1.0]
    assert torch.fmin(T([1, 5]), T([3, 2])).tolist() == [1, 2]


def grads(f, *values, weight=None, dtype=torch.float64):
    xs = [T(v, dtype=dtype, requires_grad=True) for v in values]
    out = f(*xs)
    (out * (1.0 if weight is None else T(weight, dtype=dtype))).sum().backward()
    return [x.grad for x in xs]


def test_nextafter_gives_no_gradient_where_input_equals_other():
    a, b = grads(torch.nextafter, [1.0, 2.0], [1.0, 3.0])
    assert a.tolist() == [0.0, 1.0] and b.tolist() == [0.0, 0.0]
    nan, inf = float("nan"), float("inf")
    a, b = grads(torch.nextafter, [1.0, 2.0, 0.0, -0.0, 5.0, nan, inf],
                 [0.0, 3.0, -0.0, 0.0, nan, 1.0, inf], weight=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    assert a.tolist() == [1.0, 2.0, 0.0, 0.0, 5.0, 6.0, 0.0]
    a, _ = grads(torch.nextafter, [1.0, 2.0], [1.0, 3.0], weight=[-1.0, -1.0])
    assert signs(a) == [1.0, -1.0]  # a plain zero where they are equal
    a, _ = grads(torch.nextafter, [[1.0], [2.0]], [1.0, 3.0])
    assert a.tolist() == [[1.0], [2.0]]
    a, _ = grads(torch.nextafter, [1.0, 2.0], [1.0, 3.0], dtype=torch.float16)
    assert a.tolist() == [0.0, 1.0] and a.dtype is torch.float16


def test_nextafter_in_place():
    assert T([1.0]).nextafter_(T([2.0])).tolist() == [1.0000001192092896]
    x = T([[float("inf"), -0.0, 1e30]], dtype=torch.float16)
    assert x.nextafter_(T([[2, 1, 127]], dtype=torch.uint8)).tolist() == [
        [65504.0, 5.960464477539063e-08, 65504.0]]
    assert T([-0.7, 2.0], dtype=torch.float64).nextafter_(T(2)).tolist()[1] == 2.0
    with raises(TypeError, "nextafter_(): argument 'other' (position 1) must be Tensor, not bool"):
        T([1.0]).nextafter_(False)
    with raises(TypeError, "nextafter_(): argument 'other' (position 1) must be Tensor, not "
                           "float"):
        T([1.0]).nextafter_(2.0)
    with raises(NotImplementedError, "\"nextafter_cpu\" not implemented for 'Byte'"):
        T(7, dtype=torch.uint8).nextafter_(T(False))
    with raises(RuntimeError, "output with shape [] doesn't match the broadcast shape [3]"):
        T(5, dtype=torch.int32).nextafter_(T([-7, -3, -7]))
    with raises(RuntimeError, "output with shape [1, 3] doesn't match the broadcast shape [2, 3]"):
        T([[5, -1, 13]], dtype=torch.int16).nextafter_(torch.ones(2, 3, dtype=torch.int32))


def test_nextafter_in_place_records_the_functions_node():
    x = T([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.nextafter_(T([1.0, 3.0]))
    assert y.grad_fn.name() == "NextafterBackward0" and y._version == 1
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0]


def test_sinc_gradient_is_a_plain_zero_at_zero():
    for dtype in FLOATS:
        (g,) = grads(torch.sinc, [0.0, -0.0, 2.0], weight=[-1.0, -1.0, -1.0], dtype=dtype)
        assert g.tolist()[:2] == [0.0, 0.0] and signs(g)[:2] == [1.0, 1.0]
        assert g.tolist()[2] == -0.5
    (g,) = grads(torch.sinc, [1e-200, 1e-170], weight=[-1.0, 1.0])  # x * x underflows
    assert g.tolist() == [0.0, 0.0] and signs(g) == [1.0, 1.0]


def test_cumprod_gradient_at_the_first_zero_keeps_torchs_sign():
    x = T([[-2.0, 0.0, 0.3], [0.3, -1.5, 0.0]], dtype=torch.float64, requires_grad=True)
    w = T([[3.25, 3.25, 2.0], [0.0, 2.0, 0.0]], dtype=torch.float64)
    (torch.cumprod(x, 1) * w).sum().backward()
    assert x.grad.tolist() == [[3.25, -7.7, 0.0], [-3.0, 0.6, 0.0]]
    assert signs(x.grad) == [1.0, -1.0, 1.0, -1.0, 1.0, -1.0]  # 0 * (0.3 * -1.5)
    (g,) = grads(lambda t: torch.cumprod(t, 0), [-1.0, 0.0, 5.0, 0.0, 2.0],
                 weight=[1.0, 1.0, -1.0, 2.0, 3.0])
    assert g.tolist() == [1.0, -1.0 + 5.0, 0.0, 0.0, 0.0]


def test_expand_names_a_bool_tensor_in_cs_words():
    message = ("expand({}{{[2, 0]}}, size=[3]): the number of sizes provided (1) must be "
               "greater or equal to the number of dimensions in the tensor (2)")
    with raises(RuntimeError, message.format("CPUBoolType")):
        torch.zeros(2, 0, dtype=torch.bool).expand(3)
    for dtype, name in ((torch.float32, "torch.FloatTensor"), (torch.int8, "torch.CharTensor"),
                        (torch.float16, "torch.HalfTensor"), (torch.uint8, "torch.ByteTensor")):
        with raises(RuntimeError, message.format(name)):
            torch.zeros(2, 0, dtype=dtype).expand(3)


def test_polygamma_in_place():
    x = T([1.0, 2.0])
    assert x.polygamma_(1) is x and torch.allclose(x, T([1.6449340668, 0.6449340668]))
    assert torch.allclose(T([1.0, 2.0]).polygamma_(n=0), T([-0.5772156649, 0.4227843351]))
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        T([1, 2]).polygamma_(1)
    with raises(TypeError, "polygamma_(): argument 'n' (position 1) must be int, not float"):
        T([1.0]).polygamma_(1.5)
    with raises(TypeError, "polygamma_(): argument 'n' (position 1) must be int, not bool"):
        T([1.0]).polygamma_(True)
    with raises(TypeError, "polygamma_() missing 1 required positional arguments: \"n\""):
        T([1.0]).polygamma_()
    with raises(ValueError, "Overflow when unpacking long long"):
        T([1.0]).polygamma_(2**63)
    negative = "polygamma(n, x) does not support negative n."
    with raises(RuntimeError, negative):
        T([1, 2]).polygamma_(-1)  # before the cast
    with raises(RuntimeError, negative):
        T([1.0]).expand(2).polygamma_(-1)  # before the shared memory
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        T([1.0], requires_grad=True).polygamma_(-1)


def test_polygamma_in_place_records_a_node_of_its_own():
    x = T([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = x * 1
    y.polygamma_(2)
    assert y.grad_fn.name() == "PolygammaBackward1" and y.grad_fn._saved_n == 2
    assert y._version == 1 and torch.equal(y.grad_fn._saved_self, x)
    assert x.polygamma(2).grad_fn.name() == "PolygammaBackward0"
    y.sum().backward()
    assert torch.allclose(x.grad, torch.polygamma(3, x.detach()))
