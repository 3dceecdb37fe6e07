"""Black-box tests: empty_strided and Tensor.new_empty_strided lay a new storage out by the
caller's strides. The same assertions run on torch.
"""

import torch

from conformance._support import raises


def test_the_strides_are_the_callers():
    t = torch.empty_strided((2, 3), (1, 2))
    assert t.shape == (2, 3) and t.stride() == (1, 2) and not t.is_contiguous()
    assert t.dtype is torch.float32 and not t.requires_grad
    assert torch.empty_strided(size=[2], stride=[2]).stride() == (2,)
    assert torch.empty_strided((), ()).shape == ()
    assert torch.empty_strided((0, 2), (5, 7)).stride() == (5, 7)


def test_a_zero_stride_repeats_one_element():
    t = torch.empty_strided((2, 3), (0, 1))
    t.fill_(0.0)
    assert t.stride() == (0, 1) and t.tolist() == [[0.0] * 3] * 2
    t[0, 1] = 5.0  # the one storage element behind both rows
    assert t[1, 1].item() == 5.0


def test_writes_land_where_the_strides_say():
    t = torch.empty_strided((2, 3), (1, 2), dtype=torch.int64)
    t.copy_(torch.tensor([[1, 2, 3], [4, 5, 6]]))
    assert t.tolist() == [[1, 2, 3], [4, 5, 6]]
    assert t.t().is_contiguous()  # laid out column by column


def test_new_empty_strided_takes_the_tensors_dtype_and_not_its_grad():
    i = torch.ones(2, dtype=torch.int64)
    t = i.new_empty_strided((2, 3), (3, 1))
    assert t.dtype is torch.int64 and t.stride() == (3, 1)
    assert i.new_empty_strided((2, 3), (3, 1), dtype=torch.float16).dtype is torch.float16
    d = torch.ones(2, dtype=torch.float64, requires_grad=True)
    made = d.new_empty_strided([2, 2], [1, 0])
    assert made.dtype is torch.float64 and made.stride() == (1, 0) and not made.requires_grad
    grown = d.new_empty_strided(size=(2,), stride=(1,), requires_grad=True)
    assert grown.requires_grad and grown.is_leaf


def test_new_empty_strided_refuses_as_torch_does():
    x = torch.ones(2)
    with raises(TypeError, 'new_empty_strided() missing 2 required positional argument: '
                '"size", "stride"'):
        x.new_empty_strided()
    with raises(TypeError, 'new_empty_strided() missing 1 required positional arguments: '
                '"stride"'):
        x.new_empty_strided((2,))
    with raises(TypeError, "new_empty_strided() takes 2 positional arguments but 3 were given"):
        x.new_empty_strided((2,), (1,), 3)
    with raises(TypeError, "new_empty_strided() got an unexpected keyword argument 'bogus'"):
        x.new_empty_strided((2,), (1,), bogus=3)
    with raises(TypeError, "new_empty_strided(): argument 'size' (position 1) must be tuple of "
                "ints, not int"):
        x.new_empty_strided(2, (1,))
    with raises(TypeError, "new_empty_strided(): argument 'dtype' must be torch.dtype, not int"):
        x.new_empty_strided((2,), (1,), dtype=1)
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require "
                "gradients"):
        torch.ones(2, dtype=torch.int64).new_empty_strided((2,), (1,), requires_grad=True)
    with raises(RuntimeError, "dimensionality of sizes (2) must match dimensionality of "
                "strides (1)"):
        x.new_empty_strided((2, 3), (1,))
