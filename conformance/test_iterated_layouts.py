"""The strides of an elementwise result over tensors laid out differently.

torch's TensorIterator orders the result's dimensions by its operands, the first
operand that tells two dimensions apart deciding; an operand cast to another dtype
first is copied as ``to()`` copies it. Operands: ``t`` a transposed tensor, ``c`` a
row-major one, ``g`` a transposed one with gaps, ``e`` an expanded row.
"""

import pytest
import torch

CASES = [
    ('a + b', 't', 'c', 'float32', 'float32', (1, 4)),
    ('a + b', 't', 'c', 'float32', 'float64', (1, 4)),
    ('a + b', 'c', 't', 'float32', 'float32', (3, 1)),
    ('a + b', 'c', 't', 'float32', 'float64', (3, 1)),
    ('a + b', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('a + b', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('a + b', 'e', 't', 'float32', 'float32', (3, 1)),
    ('a + b', 'e', 't', 'float32', 'float64', (3, 1)),
    ('a * b', 't', 'c', 'float32', 'float32', (1, 4)),
    ('a * b', 't', 'c', 'float32', 'float64', (1, 4)),
    ('a * b', 'c', 't', 'float32', 'float32', (3, 1)),
    ('a * b', 'c', 't', 'float32', 'float64', (3, 1)),
    ('a * b', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('a * b', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('a * b', 'e', 't', 'float32', 'float32', (3, 1)),
    ('a * b', 'e', 't', 'float32', 'float64', (3, 1)),
    ('a / b', 't', 'c', 'float32', 'float32', (1, 4)),
    ('a / b', 't', 'c', 'float32', 'float64', (1, 4)),
    ('a / b', 'c', 't', 'float32', 'float32', (3, 1)),
    ('a / b', 'c', 't', 'float32', 'float64', (3, 1)),
    ('a / b', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('a / b', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('a / b', 'e', 't', 'float32', 'float32', (3, 1)),
    ('a / b', 'e', 't', 'float32', 'float64', (3, 1)),
    ('torch.rsub(a, b)', 't', 'c', 'float32', 'float32', (3, 1)),
    ('torch.rsub(a, b)', 't', 'c', 'float32', 'float64', (3, 1)),
    ('torch.rsub(a, b)', 'c', 't', 'float32', 'float32', (1, 4)),
    ('torch.rsub(a, b)', 'c', 't', 'float32', 'float64', (1, 4)),
    ('torch.rsub(a, b)', 'g', 'c', 'float32', 'float32', (3, 1)),
    ('torch.rsub(a, b)', 'g', 'c', 'float32', 'float64', (3, 1)),
    ('torch.rsub(a, b)', 'e', 't', 'float32', 'float32', (1, 4)),
    ('torch.rsub(a, b)', 'e', 't', 'float32', 'float64', (1, 4)),
    ('a > b', 't', 'c', 'float32', 'float32', (1, 4)),
    ('a > b', 't', 'c', 'float32', 'float64', (1, 4)),
    ('a > b', 'c', 't', 'float32', 'float32', (3, 1)),
    ('a > b', 'c', 't', 'float32', 'float64', (3, 1)),
    ('a > b', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('a > b', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('a > b', 'e', 't', 'float32', 'float32', (3, 1)),
    ('a > b', 'e', 't', 'float32', 'float64', (3, 1)),
    ('torch.maximum(a, b)', 't', 'c', 'float32', 'float32', (1, 4)),
    ('torch.maximum(a, b)', 't', 'c', 'float32', 'float64', (1, 4)),
    ('torch.maximum(a, b)', 'c', 't', 'float32', 'float32', (3, 1)),
    ('torch.maximum(a, b)', 'c', 't', 'float32', 'float64', (3, 1)),
    ('torch.maximum(a, b)', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('torch.maximum(a, b)', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('torch.maximum(a, b)', 'e', 't', 'float32', 'float32', (3, 1)),
    ('torch.maximum(a, b)', 'e', 't', 'float32', 'float64', (3, 1)),
    ('torch.atan2(a, b)', 't', 'c', 'float32', 'float32', (1, 4)),
    ('torch.atan2(a, b)', 't', 'c', 'float32', 'float64', (1, 4)),
    ('torch.atan2(a, b)', 'c', 't', 'float32', 'float32', (3, 1)),
    ('torch.atan2(a, b)', 'c', 't', 'float32', 'float64', (3, 1)),
    ('torch.atan2(a, b)', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('torch.atan2(a, b)', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('torch.atan2(a, b)', 'e', 't', 'float32', 'float32', (3, 1)),
    ('torch.atan2(a, b)', 'e', 't', 'float32', 'float64', (3, 1)),
    ('torch.where(b > 5, a, b)', 't', 'c', 'float32', 'float32', (3, 1)),
    ('torch.where(b > 5, a, b)', 't', 'c', 'float32', 'float64', (3, 1)),
    ('torch.where(b > 5, a, b)', 'c', 't', 'float32', 'float32', (1, 4)),
    ('torch.where(b > 5, a, b)', 'c', 't', 'float32', 'float64', (1, 4)),
    ('torch.where(b > 5, a, b)', 'g', 'c', 'float32', 'float32', (3, 1)),
    ('torch.where(b > 5, a, b)', 'g', 'c', 'float32', 'float64', (3, 1)),
    ('torch.where(b > 5, a, b)', 'e', 't', 'float32', 'float32', (1, 4)),
    ('torch.where(b > 5, a, b)', 'e', 't', 'float32', 'float64', (1, 4)),
    ('torch.clamp(a, b, b + 5)', 't', 'c', 'float32', 'float32', (1, 4)),
    ('torch.clamp(a, b, b + 5)', 't', 'c', 'float32', 'float64', (1, 4)),
    ('torch.clamp(a, b, b + 5)', 'c', 't', 'float32', 'float32', (3, 1)),
    ('torch.clamp(a, b, b + 5)', 'c', 't', 'float32', 'float64', (3, 1)),
    ('torch.clamp(a, b, b + 5)', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('torch.clamp(a, b, b + 5)', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('torch.clamp(a, b, b + 5)', 'e', 't', 'float32', 'float32', (3, 1)),
    ('torch.clamp(a, b, b + 5)', 'e', 't', 'float32', 'float64', (3, 1)),
    ('torch.addcmul(a, b, a)', 't', 'c', 'float32', 'float32', (1, 4)),
    ('torch.addcmul(a, b, a)', 't', 'c', 'float32', 'float64', (1, 4)),
    ('torch.addcmul(a, b, a)', 'c', 't', 'float32', 'float32', (3, 1)),
    ('torch.addcmul(a, b, a)', 'c', 't', 'float32', 'float64', (3, 1)),
    ('torch.addcmul(a, b, a)', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('torch.addcmul(a, b, a)', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('torch.addcmul(a, b, a)', 'e', 't', 'float32', 'float32', (3, 1)),
    ('torch.addcmul(a, b, a)', 'e', 't', 'float32', 'float64', (3, 1)),
    ('torch.lerp(a, b.to(a.dtype), 0.3)', 't', 'c', 'float32', 'float32', (1, 4)),
    ('torch.lerp(a, b.to(a.dtype), 0.3)', 't', 'c', 'float32', 'float64', (1, 4)),
    ('torch.lerp(a, b.to(a.dtype), 0.3)', 'c', 't', 'float32', 'float32', (3, 1)),
    ('torch.lerp(a, b.to(a.dtype), 0.3)', 'c', 't', 'float32', 'float64', (3, 1)),
    ('torch.lerp(a, b.to(a.dtype), 0.3)', 'g', 'c', 'float32', 'float32', (1, 4)),
    ('torch.lerp(a, b.to(a.dtype), 0.3)', 'g', 'c', 'float32', 'float64', (1, 4)),
    ('torch.lerp(a, b.to(a.dtype), 0.3)', 'e', 't', 'float32', 'float32', (3, 1)),
    ('torch.lerp(a, b.to(a.dtype), 0.3)', 'e', 't', 'float32', 'float64', (3, 1)),
]


def operand(kind, dtype):
    base = torch.arange(1, 13, dtype=torch.float64).reshape(4, 3)
    made = {
        "t": lambda: base.reshape(3, 4).t(),
        "c": lambda: base,
        "e": lambda: base[0].expand(4, 3),
        "g": lambda: torch.arange(1, 25, dtype=torch.float64).reshape(3, 8).t()[::2],
    }[kind]()
    return made.to(getattr(torch, dtype))


@pytest.mark.parametrize(("source", "first", "second", "dtype_a", "dtype_b", "strides"), CASES)
def test_result_strides_follow_the_first_operand_that_decides(
        source, first, second, dtype_a, dtype_b, strides):
    a, b = operand(first, dtype_a), operand(second, dtype_b)
    result = eval(source, {"torch": torch, "a": a, "b": b})
    assert result.stride() == strides


def test_a_cast_copy_of_an_expanded_row_is_row_major():
    a = torch.ones(3, dtype=torch.float64)
    b = torch.ones(3).expand(2, 3)
    assert (a * b).stride() == (3, 1)
    assert (b * a).stride() == (3, 1)


def test_gradients_of_a_transposed_product_follow_their_operands():
    a = torch.ones(3, 2).t().requires_grad_()
    b = torch.ones(2, 3, requires_grad=True)
    (a * b).sum().backward()
    assert (a.grad.stride(), b.grad.stride()) == ((1, 2), (3, 1))
    out = b * a
    assert out.stride() == (3, 1)
    assert (a * b).is_contiguous() is False


def test_size_one_dimensions_are_ordered_when_an_operand_is_broadcast_or_a_number():
    x = torch.rand(2, 1).t()  # (1, 2) with strides (1, 1)
    y = torch.rand(1, 2)
    assert (x * 2.5).stride() == (1, 1)
    assert (x + torch.rand(2)).stride() == (1, 1)
    assert torch.where(x > 0, x, 0.0).stride() == (1, 1)
    assert (x + x).stride() == (2, 1)  # alike and unbroadcast: the shortcut
    assert (x + y).stride() == (2, 1)
    assert x.sin().stride() == (2, 1)


def lone_operand(kind):
    """A tensor with size-one dimensions, gaps, or no elements, as one operand."""
    return {
        "unsqueezed_front": lambda: torch.rand(2, 3).t().unsqueeze(0),
        "unsqueezed_middle": lambda: torch.rand(2, 3).t().unsqueeze(1),
        "unsqueezed_back": lambda: torch.rand(2, 3).t().unsqueeze(2),
        "gapped": lambda: torch.rand(12).as_strided((2, 1, 3), (1, 5, 2)),
        "channels_last": lambda: torch.rand(2, 3, 1, 1).contiguous(
            memory_format=torch.channels_last),
        "permuted_empty": lambda: torch.rand(2, 0, 3).permute(2, 0, 1),
        "transposed_empty": lambda: torch.rand(0, 3).t(),
        "expanded": lambda: torch.rand(3).expand(2, 3),
    }[kind]()


UNARY = {
    "tanh": lambda x: x.tanh(), "abs": lambda x: x.abs(), "relu": lambda x: x.relu(),
    "sqrt": lambda x: x.sqrt(), "exp": lambda x: x.exp(), "neg": lambda x: -x,
    "sigmoid": lambda x: x.sigmoid(), "square": lambda x: x ** 2, "pow": lambda x: x.pow(3.0),
    "clamp": lambda x: x.clamp(0.2, 0.8), "clamp_min": lambda x: x.clamp(min=0.3),
    "floor": lambda x: x.floor(), "sign": lambda x: x.sign(), "frac": lambda x: x.frac(),
    "reciprocal": lambda x: x.reciprocal(), "erf": lambda x: x.erf(), "log1p": lambda x: x.log1p(),
    "elu": lambda x: torch.nn.functional.elu(x), "logical_not": lambda x: x.logical_not(),
    "silu": lambda x: torch.nn.functional.silu(x), "gelu": lambda x: torch.nn.functional.gelu(x),
    "softplus": lambda x: torch.nn.functional.softplus(x), "isnan": lambda x: x.isnan(),
    "sgn": lambda x: x.sgn(), "logit": lambda x: x.logit(), "round": lambda x: x.round(decimals=2),
    "polygamma": lambda x: torch.polygamma(1, x), "bitwise_not": lambda x: ~x.to(torch.int64),
    "threshold": lambda x: torch.nn.functional.threshold(x, 0.5, 0.0),
    "hardshrink": lambda x: torch.nn.functional.hardshrink(x, 0.3),
}
# beside a number or a 0-d tensor: ordered dimension by dimension
WITH_NUMBER = {
    "times_number": lambda x: x * 2, "plus_number": lambda x: x + 1,
    "number_minus": lambda x: 1 - x, "by_0d": lambda x: x * torch.tensor(2.0),
    "copysign": lambda x: x.copysign(-1.0), "fmod": lambda x: x.fmod(0.3),
    "remainder": lambda x: x.remainder(0.3), "number_remainder": lambda x: torch.remainder(2.0, x),
    "floor_divide": lambda x: x.floor_divide(0.3), "number_floor_divide": lambda x: 2.0 // x,
    "xlogy": lambda x: x.xlogy(2.0), "number_xlogy": lambda x: torch.xlogy(2.0, x),
}
# written into a tensor made like the input (preserve_format)
LIKE_INPUT = {
    "hardtanh": lambda x: torch.nn.functional.hardtanh(x), "nan_to_num": lambda x: x.nan_to_num(),
    "deg2rad": lambda x: x.deg2rad(), "rad2deg": lambda x: x.rad2deg(),
}
# written into a fresh row-major tensor
ROW_MAJOR = {
    "number_power": lambda x: 2 ** x, "mvlgamma": lambda x: (x + 2).mvlgamma(1),
    "logsigmoid": lambda x: torch.nn.functional.logsigmoid(x),
}
KINDS = ["unsqueezed_front", "unsqueezed_middle", "unsqueezed_back", "gapped", "channels_last",
         "permuted_empty", "transposed_empty", "expanded"]
# torch's strides, kind by kind, for each group
EXPECTED = {
    "unsqueezed_front": ((3, 1, 3), (3, 1, 3), (3, 1, 3), (6, 2, 1)),
    "unsqueezed_middle": ((1, 6, 3), (1, 6, 3), (1, 6, 3), (2, 2, 1)),
    "unsqueezed_back": ((1, 3, 1), (1, 3, 1), (1, 3, 1), (2, 1, 1)),
    "gapped": ((1, 5, 2), (1, 6, 2), (1, 5, 2), (3, 3, 1)),
    "channels_last": ((3, 1, 1, 1), (3, 1, 1, 1), (3, 1, 1, 1), (3, 1, 1, 1)),
    "permuted_empty": ((2, 1, 1), (1, 0, 3), (1, 3, 3), (2, 1, 1)),
    "transposed_empty": ((1, 1), (1, 3), (1, 3), (1, 1)),
    "expanded": ((3, 1), (3, 1), (3, 1), (3, 1)),
}
GROUPS = (UNARY, WITH_NUMBER, LIKE_INPUT, ROW_MAJOR)
CALLS = [(name, group) for group, ops in enumerate(GROUPS) for name in sorted(ops)]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "group"), CALLS)
def test_a_lone_operand_lays_out_its_result(name, group, kind):
    # a lone dense operand's own strides, size-one dimensions included; an empty
    # one's row-major ones
    result = GROUPS[group][name](lone_operand(kind))
    assert result.stride() == EXPECTED[kind][group]


def test_number_minus_a_transposed_row_is_ordered_dimension_by_dimension():
    x = torch.rand(2, 1).t()  # (1, 2) with strides (1, 1)
    assert (1 - x).stride() == (1, 1)
    assert (1 - torch.rand(1, 2).t()).stride() == (1, 2)


def test_gradient_of_a_row_through_two_dtypes():
    a = torch.rand(1, 2, requires_grad=True)
    (a.double() * a).sum().backward()
    assert (a.grad.stride(), a.grad._version) == ((2, 1), 1)
    b = torch.rand(2, 1, requires_grad=True)
    (b.double() * b).sum().backward()
    assert (b.grad.stride(), b.grad._version) == ((1, 1), 1)


def test_a_gradient_expanded_along_size_one_dimensions_is_copied():
    # the layout contract takes a zero stride even where the size is one as broken
    a = torch.rand(1, 1, requires_grad=True)
    a.sum().backward()
    assert (a.grad.stride(), a.grad._version) == ((1, 1), 1)
    b = torch.rand(1, requires_grad=True)
    b.sum().backward()
    assert (b.grad.stride(), b.grad._version) == ((1,), 1)
    c = torch.rand(1, 3, requires_grad=True)
    (c * 2).sum().backward()
    assert (c.grad.stride(), c.grad._version) == ((3, 1), 0)
