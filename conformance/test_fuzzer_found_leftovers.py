"""Behaviour the differential fuzzer found: the layout of ldexp's result where torch multiplies
by a power of two it computes first. The same assertions run on torch.
"""

import pytest
import torch


def _transposed(dtype):
    return torch.arange(6, dtype=torch.float64).reshape(2, 3).t().to(dtype)


@pytest.mark.parametrize(("dtype", "other_dtype", "shape", "strides"), [
    (torch.float32, torch.float32, (), (2, 1)),
    (torch.float32, torch.float32, (1, 2), (2, 1)),
    (torch.float32, torch.float64, (), (2, 1)),
    (torch.int64, torch.int64, (), (2, 1)),
    (torch.int32, torch.float16, (1, 2), (2, 1)),
    (torch.bool, torch.int32, (), (2, 1)),
    (torch.float64, torch.float32, (), (1, 3)),  # a 0-d 2.0 of the input's dtype
    (torch.float16, torch.float16, (1, 2), (1, 3)),
    (torch.float32, torch.int64, (), (1, 3)),  # torch's own kernel
    (torch.float32, torch.int32, (1, 2), (1, 3)),
])
def test_ldexp_is_laid_out_as_its_product(dtype, other_dtype, shape, strides, recwarn):
    result = torch.ldexp(torch.ones(shape, dtype=dtype), _transposed(other_dtype))
    assert result.shape == (3, 2)
    assert result.stride() == strides
    assert torch.equal(result, torch.pow(2.0, _transposed(torch.float64)).to(result.dtype))


def test_ldexp_of_a_0d_input_and_a_permuted_exponent():
    other = torch.ones(2, 3, 4).permute(2, 0, 1)
    assert torch.ldexp(torch.tensor(0.5), other).stride() == (6, 3, 1)
    assert torch.ldexp(torch.ones(4, 1, 3), other).stride() == (6, 3, 1)
    assert torch.ldexp(other, other).stride() == (1, 12, 4)
