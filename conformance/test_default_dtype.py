"""Black-box tests: torch.set_default_dtype, and everything that reads the default dtype.

Each test restores float32, whatever happens. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises


@pytest.fixture
def default_float64():
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(torch.float32)


def test_only_floating_dtypes_can_be_the_default():
    with raises(TypeError, "only floating-point types are supported as the default type"):
        torch.set_default_dtype(torch.int64)
    for wrong in ("float64", None):
        with raises(TypeError, "invalid dtype object: only floating-point types are supported as "
                               "the default type"):
            torch.set_default_dtype(wrong)
    assert torch.get_default_dtype() == torch.float32


def test_what_the_default_dtype_decides(default_float64):
    assert torch.get_default_dtype() == torch.float64
    i = torch.tensor([1, 2])
    for t in (torch.tensor([1.5]), torch.tensor(2.5), i / 2, i * 0.5, i.reciprocal(), i.exp(),
              torch.ones(2), torch.zeros(2), torch.rand(1), torch.randn(2),
              torch.arange(0, 1, 0.5), torch.full((1,), 2.5), torch.Tensor([1]), torch.Tensor(2),
              torch.tensor([True]) + 0.5, torch.nn.Parameter()):
        assert t.dtype == torch.float64
    assert torch.full((2,), 3).dtype == torch.int64
    assert (torch.tensor([1.0], dtype=torch.float32) + torch.tensor(1.5)).dtype == torch.float32
    assert repr(torch.tensor([1.5])) == "tensor([1.5000])"
    assert repr(torch.tensor([1.5], dtype=torch.float32)) == "tensor([1.5000], dtype=torch.float32)"
    assert repr(torch.tensor([], dtype=torch.float32)) == "tensor([], dtype=torch.float32)"
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    assert x.grad.dtype == torch.float64 and x.grad.tolist() == [3.0, 3.0]


def test_float16_can_be_the_default_too():
    torch.set_default_dtype(torch.float16)
    try:
        assert torch.tensor([1.1]).dtype == torch.float16
        assert (torch.tensor([1, 2]) / 3).dtype == torch.float16
    finally:
        torch.set_default_dtype(torch.float32)
    assert repr(torch.tensor([1.5], dtype=torch.float64)) == "tensor([1.5000], dtype=torch.float64)"


def test_a_real_dtype_is_its_own_real_part():
    for kind in (torch.bool, torch.uint8, torch.int64, torch.float16, torch.float32):
        assert kind.to_real() is kind


def test_a_real_tensor_is_its_own_real_part():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    assert x.real is x and torch.real(x) is x
    with pytest.raises(RuntimeError, match=r"\Aimag is not implemented for tensors with "
                                           r"non-complex dtypes\.\Z"):
        x.imag
    with pytest.raises(RuntimeError, match=r"\Aimag is not implemented"):
        torch.imag(x)
    with pytest.raises(TypeError, match=r"\Areal\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not str\Z"):
        torch.real("a")
