"""bfloat16: the dtype, its promotion and creation, values computed in float32 and rounded once."""

import pytest
import torch

from conformance._support import raises

B = torch.bfloat16
JUST_ABOVE_HALFWAY = 1 + 2**-8 + 2**-40  # rounds to 1 by way of float32, to 1 + 2**-7 straight


def _values():
    return torch.tensor([0.1, 1.7, -2.3, 3.14159, 100.5], dtype=B)


def test_the_dtype_and_its_numbers():
    assert (repr(B), str(B), B.itemsize, B.is_floating_point, B.is_signed) == (
        "torch.bfloat16", "torch.bfloat16", 2, True, True)
    assert not B.is_complex and B.to_real() is B
    info = torch.finfo(B)
    assert (info.bits, info.eps, info.resolution, info.tiny, info.smallest_normal) == (
        16, 2**-7, 0.01, 2**-126, 2**-126)
    assert info.max == (2 - 2**-7) * 2**127 and info.min == -info.max and info.dtype == "bfloat16"
    assert repr(info) == ("finfo(resolution=0.01, min=-3.38953e+38, max=3.38953e+38, "
                          "eps=0.0078125, smallest_normal=1.17549e-38, tiny=1.17549e-38, "
                          "dtype=bfloat16)")


def test_promotion():
    assert torch.promote_types(B, torch.float16) is torch.float32
    assert torch.promote_types(torch.float16, B) is torch.float32
    assert torch.promote_types(B, torch.int64) is B and torch.promote_types(B, torch.bool) is B
    assert torch.promote_types(B, torch.float64) is torch.float64
    x = torch.ones(2, dtype=B)
    assert (x * 2.5).dtype is B and (x + 3).dtype is B and (x + torch.arange(2)).dtype is B
    assert (x + torch.tensor(0.5)).dtype is B  # a 0-d float32 tensor does not promote
    assert (x + torch.ones(2, dtype=torch.float16)).dtype is torch.float32
    assert (x + torch.ones(2)).dtype is torch.float32
    assert torch.result_type(x, 1.5) is B


def test_creation_and_conversion():
    assert torch.zeros(2, dtype=B).tolist() == [0.0, 0.0]
    assert torch.ones(2, 2, dtype=B).dtype is B and torch.empty(0, dtype=B).dtype is B
    assert torch.arange(3, dtype=B).tolist() == [0.0, 1.0, 2.0]
    assert torch.full((2,), 1 / 3, dtype=B).tolist() == [0.333984375] * 2
    assert torch.ones(2).bfloat16().dtype is B and torch.ones(2).to(B).dtype is B
    x = torch.tensor([1.5, -2.25], dtype=B)
    assert x.float().dtype is torch.float32 and x.double().tolist() == [1.5, -2.25]
    assert x.half().dtype is torch.float16 and x.long().tolist() == [1, -2]
    assert x.to(torch.float32).dtype is torch.float32 and x.bfloat16() is x
    assert type(x[0].item()) is float and x[1].item() == -2.25


def test_doubles_round_by_way_of_float32():
    assert torch.tensor(JUST_ABOVE_HALFWAY, dtype=B).item() == 1.0
    assert torch.tensor([JUST_ABOVE_HALFWAY], dtype=torch.float64).to(B).item() == 1.0
    assert torch.full((3,), JUST_ABOVE_HALFWAY, dtype=B).tolist() == [1.0] * 3


def test_a_fill_beyond_the_range_is_refused():
    with raises(RuntimeError, "value cannot be converted to type c10::BFloat16 without overflow"):
        torch.full((3,), 1e39, dtype=B)
    with raises(RuntimeError, "value cannot be converted to type c10::BFloat16 without overflow"):
        torch.ones(2, dtype=B).fill_(1e39)


def test_repr():
    assert repr(torch.tensor([1.0, 2.5], dtype=B)) == (
        "tensor([1.0000, 2.5000], dtype=torch.bfloat16)")
    assert repr(torch.tensor([1 / 3, 2.5], dtype=B)) == (
        "tensor([0.3340, 2.5000], dtype=torch.bfloat16)")
    assert repr(torch.tensor(0.5, dtype=B)) == "tensor(0.5000, dtype=torch.bfloat16)"
    assert repr(torch.tensor([1e-3, 123456.0], dtype=B)) == (
        "tensor([9.9945e-04, 1.2339e+05], dtype=torch.bfloat16)")
    assert repr(torch.tensor([float("nan"), float("inf"), 1], dtype=B)) == (
        "tensor([nan, inf, 1.], dtype=torch.bfloat16)")


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "atan2", "maximum", "pow"])
def test_binary_operations_round_their_float32_result_once(name):
    x, y = _values(), torch.tensor([2.0, -0.3, 0.77, 9.0, 1e-3], dtype=B)
    y = y.abs() if name == "pow" else y
    got = getattr(torch, name)(x.abs() if name == "pow" else x, y)
    wide = getattr(torch, name)((x.abs() if name == "pow" else x).float(), y.float())
    assert got.dtype is B and got.tolist() == wide.to(B).tolist()


@pytest.mark.parametrize("name", ["exp", "log1p", "sin", "tanh", "sigmoid", "sqrt", "erf",
                                  "neg", "reciprocal", "floor", "round"])
def test_unary_operations_round_their_float32_result_once(name):
    x = _values().abs()
    got = getattr(torch, name)(x)
    assert got.dtype is B and got.tolist() == getattr(torch, name)(x.float()).to(B).tolist()


def test_reductions_add_in_float32():
    ones = torch.ones(257, dtype=B)
    ones[0] = 256  # in bfloat16, 256 + 1 is 256 again
    assert ones.sum().item() == 512.0 and ones.sum().dtype is B
    assert ones.mean().item() == 1.9921875  # 512 / 257, rounded once
    assert ones.sum(dtype=torch.float32).dtype is torch.float32
    x = _values()
    assert x.cumsum(0).tolist() == x.float().cumsum(0).to(B).tolist()
    m = torch.arange(12, dtype=torch.float32).reshape(3, 4).div(7).to(B)
    assert (m @ m.T).tolist() == (m.float() @ m.float().T).to(B).tolist()
    assert torch.softmax(m, 1).tolist() == torch.softmax(m.float(), 1).to(B).tolist()


def test_a_product_is_rounded_at_each_step():
    assert _values().prod().item() == -124.0  # -123.5 if multiplied in float32


def test_numbers_beside_a_bfloat16_tensor():
    x = torch.tensor([0.1, 1.7, -2.3], dtype=B)
    assert (x + 257).tolist() == [256.0, 258.0, 254.0]  # 257 is 256 as a bfloat16
    assert (x - 257).tolist() == [-256.0, -254.0, -258.0]
    assert (x * 0.1)[1].item() == (x * torch.tensor(0.1))[1].item() == 0.169921875
    assert (x * torch.tensor(0.1, dtype=B))[1].item() == 0.1708984375


def test_gradients_are_bfloat16():
    w = torch.tensor([1.0, 2.0, 3.0], dtype=B, requires_grad=True)
    y = (w * w).sum()
    assert repr(y) == "tensor(14., dtype=torch.bfloat16, grad_fn=<SumBackward0>)"
    y.backward()
    assert w.grad.dtype is B and w.grad.tolist() == [2.0, 4.0, 6.0]
    v = torch.tensor([0.1, 1.7], dtype=B, requires_grad=True)
    v.exp().mul(0.3).sum().backward()
    assert v.grad.tolist() == [0.33203125, 1.65625]  # 0.3 as a bfloat16, times exp(v)


def test_cpu_autocast_defaults_to_bfloat16():
    assert torch.get_autocast_dtype("cpu") is B
    a = torch.ones(2, 3)
    with torch.autocast("cpu") as region:
        assert region.fast_dtype is B and torch.is_autocast_enabled("cpu")
        assert (a @ a.T).dtype is B
    with torch.autocast("cpu", enabled=False) as region:
        assert region.fast_dtype is B and (a @ a.T).dtype is torch.float32


def test_numbers_a_row_promotes_with_are_bfloat16():
    x = torch.linspace(0.05, 0.95, 7).to(B)
    assert torch.pow(x, 0.37).tolist() == torch.pow(x.float(), 0.369140625).to(B).tolist()
    y = torch.linspace(-3, 3, 7).to(B)
    assert torch.fmod(y, 0.37).tolist() == torch.fmod(y.float(), 0.369140625).to(B).tolist()


def test_rows_computed_in_bfloat16_or_in_double():
    a, b = torch.tensor([1, -2.5, 0], dtype=B), torch.tensor([2, -3, -1], dtype=B)
    assert torch.nextafter(a, b).tolist() == [1.0078125, -2.515625, -(2.0**-133)]
    counts = torch.bincount(torch.tensor([0, 1, 1]), torch.tensor([0.1, 0.2, 0.3], dtype=B))
    assert counts.dtype is torch.float64 and counts.tolist()[1] == 0.2001953125 + 0.30078125


def test_names_and_refusals_outside_numpy():
    x = torch.ones(2, dtype=B)
    assert x.type() == "torch.BFloat16Tensor" and torch.typename(x) == "torch.BFloat16Tensor"
    with raises(TypeError, "Got unsupported ScalarType BFloat16"):
        x.numpy()
    with raises(NotImplementedError, "\"cdist\" not implemented for 'BFloat16'"):
        torch.cdist(x[None], x[None])


def test_a_module_in_bfloat16_trains_in_bfloat16():
    layer = torch.nn.Linear(3, 2).bfloat16()
    with torch.no_grad():
        layer.weight.copy_(torch.tensor([[0.3, -1.7, 2.2], [0.9, 0.11, -0.45]]))
        layer.bias.copy_(torch.tensor([0.05, -3.3]))
    assert layer.weight.dtype is B and layer.bias.dtype is B and layer.weight.requires_grad
    x = torch.tensor([[1.1, 2.3, -0.7], [0.2, 0.5, 4.1]], dtype=B)
    out = layer(x)
    wide = torch.nn.functional.linear(x.float(), layer.weight.float(), layer.bias.float())
    assert out.dtype is B and out.tolist() == wide.to(B).tolist()
    out.sum().backward()
    assert layer.weight.grad.dtype is B
    assert layer.weight.grad.tolist() == x.sum(0).repeat(2, 1).tolist()
    assert layer.bias.grad.tolist() == [2.0, 2.0]
