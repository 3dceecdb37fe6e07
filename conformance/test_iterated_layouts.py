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
