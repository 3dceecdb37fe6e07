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


def test_a_tensor_with_no_elements_keeps_zero_strides_and_its_views_move_them():
    t = torch.empty_strided((0, 3), (0, 0))
    assert t.stride() == (0, 0) and t.is_contiguous()
    assert torch.empty_strided((3, 0, 2), (0, 0, 0)).stride() == (0, 0, 0)
    assert torch.empty_strided((0,), (0,)).stride() == (0,)
    assert t.t().stride() == (0, 0) and t.unsqueeze(1).stride() == (0, 0, 0)
    assert t[:, 1:].stride() == (0, 0) and t.select(1, 0).stride() == (0,)
    assert t.view(3, 0).stride() == (1, 1) and t.reshape(0, 3, 1).stride() == (3, 1, 1)
    assert torch.empty_like(t).stride() == (0, 0)
    assert (t + 1).stride() == (3, 1)  # arithmetic makes a row-major result
    assert torch.empty(0, 3).stride() == (3, 1)  # and a new empty tensor is row-major


def test_other_strides_of_an_empty_tensor_are_kept_as_given():
    assert torch.empty_strided((2, 0), (5, 7)).stride() == (5, 7)
    assert torch.empty_strided((0,), (4,)).stride() == (4,)
    assert torch.empty_strided((2, 0), (0, 1)).stride() == (0, 1)


def test_a_negative_stride_nothing_steps_along_is_replaced_by_a_row_major_one():
    assert torch.empty_strided((0, 3), (-1, 5)).stride() == (15, 5)
    assert torch.empty_strided((0, 3), (5, -1)).stride() == (5, 1)
    assert torch.empty_strided((0, 3), (-7, -9)).stride() == (3, 1)
    assert torch.empty_strided((0, 3, 2), (4, -1, 9)).stride() == (4, 18, 9)
    assert torch.empty_strided((0, 3, 2), (-1, 0, 0)).stride() == (0, 0, 0)
    assert torch.empty_strided((0,), (-2,)).stride() == (1,)
    assert torch.empty_strided((1, 3), (-4, 1)).stride() == (3, 1)
    with raises(RuntimeError, "Storage size calculation overflowed with sizes=[3] and "
                "strides=[-1]"):
        torch.empty_strided((3,), (-1,))
    with raises(RuntimeError, "Storage size calculation overflowed with sizes=[2, 3] and "
                "strides=[3, -1]"):
        torch.empty_strided((2, 3), (3, -1))


def test_as_strided_with_no_elements_keeps_strides_and_offset():
    b = torch.zeros(6)
    v = b.as_strided((0, 3), (0, 0))
    assert v.stride() == (0, 0) and v.storage_offset() == 0 and v.t().stride() == (0, 0)
    v = b.as_strided((2, 0), (5, 7), 1)
    assert v.stride() == (5, 7) and v.storage_offset() == 1
    z = torch.empty(0, 3)
    assert z.stride() == (3, 1) and z.as_strided((0, 3), (0, 0)).stride() == (0, 0)
    v = z.as_strided((2, 0), (5, 7), 3)
    assert v.stride() == (5, 7) and v.storage_offset() == 3
    assert z.as_strided((0,), (4,), 2).storage_offset() == 2
    assert z.stride() == (3, 1)  # the view's zeros are its own
