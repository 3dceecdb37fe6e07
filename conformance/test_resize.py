"""Tensor.resize_, resize_as_ and the deprecated resize: shapes, memory and autograd's refusals."""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

REQUIRES_GRAD = "cannot resize variables that require grad"
OVERFLOW = "numel: integer multiplication overflow"
INFERENCE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can "
             "make a clone to get a normal tensor before doing inplace update.See "
             "https://github.com/pytorch/rfcs/pull/17 for more details.")


def test_a_new_shape_is_laid_row_major_from_the_first_element():
    x = torch.arange(6.0).reshape(2, 3)
    v0 = x._version
    assert x.resize_(3, 2) is x
    assert x.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]] and x.stride() == (2, 1)
    assert x._version == v0 + 1
    t = torch.arange(6.0).reshape(2, 3).t()  # read in memory order once its shape changes
    assert t.resize_(2, 3).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert torch.arange(6.0)[::2].resize_(2).tolist() == [0.0, 1.0]


def test_the_same_shape_changes_nothing_not_even_the_version():
    t = torch.arange(6.0).reshape(2, 3).t()
    v0 = t._version
    t.resize_(3, 2)
    assert t.stride() == (1, 3) and t._version == v0


def test_shrinking_then_growing_within_the_storage_finds_the_values_again():
    x = torch.arange(6.0)
    x.resize_(2)
    assert x.tolist() == [0.0, 1.0]
    assert x.resize_(2, 3).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert x.resize_(0).shape == (0,) and x.resize_(2, 3, 0).shape == (2, 3, 0)
    assert x.resize_(6).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_a_view_is_resized_within_its_bases_storage_from_its_offset():
    y = torch.arange(6.0)
    v = y[2:]
    v.resize_(2, 2)
    assert v.tolist() == [[2.0, 3.0], [4.0, 5.0]] and v.storage_offset() == 2 and v._base is y
    w = y[:3]
    w.resize_(5)
    w[4] = 40.0
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0, 40.0, 5.0]


def test_growing_past_the_storage_keeps_the_old_values_and_the_sharing():
    y = torch.arange(6.0)
    v = y.view(2, 3)
    y.resize_(10)
    assert y[:6].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and y.shape == (10,)
    v[0, 0] = 100.0  # the view moved to the new memory with its base
    assert y[0].item() == 100.0
    base = torch.arange(4.0)
    view = base[1:3]
    view.resize_(8)
    view[0] = -1.0
    assert base.tolist() == [0.0, -1.0, 2.0, 3.0] and view.storage_offset() == 1
    assert view[:3].tolist() == [-1.0, 2.0, 3.0]


def test_resize_as_and_the_ways_to_give_sizes():
    y = torch.arange(6.0)
    assert y.resize_as_(torch.zeros(2, 2)).tolist() == [[0.0, 1.0], [2.0, 3.0]]
    assert torch.resize_as_(y, torch.ones(3)).shape == (3,)
    assert y.resize_((2, 3)).shape == (2, 3) and y.resize_([3]).shape == (3,)
    assert y.resize_(torch.Size([2])).shape == (2,) and y.resize_(size=(1,)).shape == (1,)
    assert y.resize_(torch.tensor(2)).shape == (2,)
    assert torch.ones(3, dtype=torch.int64).resize_(2).tolist() == [1, 1]


@pytest.mark.parametrize("call, kind, message", [
    ("y.resize_()", TypeError, 'resize_() missing 1 required positional arguments: "size"'),
    ("y.resize_(2.0)", TypeError,
     "resize_(): argument 'size' (position 1) must be tuple of ints, not float"),
    ("y.resize_((2,), 3)", TypeError, "resize_() takes 1 positional argument but 2 were given"),
    ("y.resize_(2, 'a')", TypeError, "resize_(): argument 'size' failed to unpack the object at "
     "pos 2 with error \"type must be tuple of ints,but got str\""),
    ("y.resize_(2, bogus=1)", TypeError, "resize_() got an unexpected keyword argument 'bogus'"),
    ("y.resize_as_()", TypeError,
     'resize_as_() missing 1 required positional arguments: "the_template"'),
    ("y.resize_as_(3)", TypeError,
     "resize_as_(): argument 'the_template' (position 1) must be Tensor, not int"),
    ("y.resize_(-2)", RuntimeError, OVERFLOW),
    ("y.resize_(2, -1)", RuntimeError, OVERFLOW),
    ("y.resize_(2**62, 2**62)", RuntimeError, OVERFLOW),
])
def test_bad_sizes_are_refused_in_torchs_words(call, kind, message):
    y = torch.arange(6.0)  # noqa: F841 - the eval uses it; torch may leave it broken after
    with raises(kind, message):
        eval(call)


def test_tensors_that_require_grad_are_refused_outside_inference_mode():
    w = torch.ones(3, requires_grad=True)
    for tensor, size in ((w, 2), (w * 2, 3), (w, -1)):
        with raises(RuntimeError, REQUIRES_GRAD):
            tensor.resize_(size)
    with torch.no_grad(), raises(RuntimeError, REQUIRES_GRAD):
        w.resize_(2)
    with torch.inference_mode():  # autograd's checks do not run there
        assert w.resize_(2).shape == (2,) and w.requires_grad


def test_inference_tensors_keep_their_shape_outside_inference_mode():
    with torch.inference_mode():
        t = torch.ones(3)
        assert t.resize_(5).shape == (5,)
    assert t.resize_(5).shape == (5,)  # no change, no write
    with raises(RuntimeError, INFERENCE):
        t.resize_(2)


def test_a_resize_through_an_alias_is_a_write_that_backward_sees():
    x = torch.ones(3, requires_grad=True)
    y = x.exp()
    y.detach().resize_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_numpy_memory_shrinks_but_does_not_grow():
    a = np.arange(6.0)
    t = torch.from_numpy(a)
    t.resize_(3)
    t[0] = 7.0
    assert a[0] == 7.0 and t.resize_(6).tolist() == [7.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    with raises(RuntimeError, "Trying to resize storage that is not resizable"):
        t.resize_(8)


def _deprecated(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    assert [(w.category, str(w.message)) for w in caught] == [
        (UserWarning, f"non-inplace {call.__name__} is deprecated")]
    return result


def test_the_deprecated_resize_is_a_reshape_with_a_node_of_its_own():
    x = torch.arange(6.0, requires_grad=True)

    def resize():
        return x.resize(2, 3)

    y = _deprecated(resize)
    assert type(y.grad_fn).__name__ == "ResizeBackward" and y._base is x
    y.sum().backward()
    assert x.grad.tolist() == [1.0] * 6

    def resize_as():
        return torch.arange(6.0).resize_as(torch.ones(3, 2))

    assert _deprecated(resize_as).shape == (3, 2)


@pytest.mark.parametrize("sizes, shown", [
    ((4,), "4 (4 elements"), (((3, 2),), "(3, 2) ((3, 2) elements")])
def test_the_deprecated_resize_keeps_the_number_of_elements(sizes, shown):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(RuntimeError, f"requested resize to {shown} in total), but the given tensor "
                    "has a size of 6 (6 elements). autograd's resize can only change the shape "
                    "of a given tensor, while preserving the number of elements. "):
            torch.arange(6.0).resize(*sizes)


def test_a_memory_format_lays_the_new_shape_out_in_its_order():
    x = torch.arange(48.0)
    x.resize_(2, 2, 3, 4, memory_format=torch.channels_last)
    assert x.stride() == (24, 1, 8, 2) and x.is_contiguous(memory_format=torch.channels_last)
    assert x[0, 0].tolist() == [[0.0, 2.0, 4.0, 6.0], [8.0, 10.0, 12.0, 14.0],
                                [16.0, 18.0, 20.0, 22.0]]
    y = torch.arange(24.0)
    y.resize_as_(torch.empty(1, 2, 3, 4), memory_format=torch.channels_last)
    assert y.stride() == (24, 1, 8, 2)


def test_the_same_shape_in_a_format_is_laid_out_again_without_a_write():
    x = torch.arange(24.0).reshape(1, 2, 3, 4)
    v0 = x._version
    x.resize_(1, 2, 3, 4, memory_format=torch.channels_last)
    assert x.stride() == (24, 1, 8, 2) and x._version == v0
    assert x.flatten()[:4].tolist() == [0.0, 2.0, 4.0, 6.0]  # the same memory, read anew
    p = torch.arange(24.0).reshape(1, 2, 3, 4).permute(0, 2, 3, 1)
    p.resize_(1, 3, 4, 2, memory_format=torch.contiguous_format)
    assert p.stride() == (24, 8, 2, 1) and p[0, 0].tolist() == [[0.0, 1.0], [2.0, 3.0],
                                                                 [4.0, 5.0], [6.0, 7.0]]


@pytest.mark.parametrize("call, kind, message", [
    ("y.resize_(24, memory_format=torch.channels_last)", RuntimeError,
     "required rank 4 tensor to use channels_last format"),
    ("y.resize_(1, 1, 4, 6, memory_format=torch.channels_last_3d)", RuntimeError,
     "required rank 5 tensor to use channels_last_3d format"),
    ("y.resize_(4, 6, memory_format=torch.preserve_format)", RuntimeError,
     "Unsupported memory formatPreserve"),
    ("y.resize_(4, 6, memory_format='a')", TypeError,
     "resize_(): argument 'memory_format' must be torch.memory_format, not str"),
])
def test_formats_that_do_not_fit_are_refused(call, kind, message):
    y = torch.arange(24.0)  # noqa: F841 - the eval uses it
    with raises(kind, message):
        eval(call)


def test_memory_in_no_c_or_f_order_is_read_in_memory_order():
    a = torch.arange(24.0).view(2, 3, 4).permute(1, 0, 2) * 1  # owns memory in permuted order
    v = a[0]
    a.resize_(24)
    assert a.tolist()[:8] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    a[0] = 100.0
    assert v[0, 0].item() == 100.0


def test_a_tensor_with_a_tangent_is_refused():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(3), torch.ones(3))
        for size in (4, 3):
            with raises(RuntimeError, "cannot resize variables that has a forward grad"):
                d.resize_(size)


def test_memory_handed_to_numpy_does_not_grow():
    t = torch.ones(3)
    a = t.numpy()
    t.resize_(2)
    with raises(RuntimeError, "Trying to resize storage that is not resizable"):
        t.resize_(10)
    assert a.shape == (3,)


def test_an_unpickled_tensor_grows():
    import pickle

    t = pickle.loads(pickle.dumps(torch.ones(3), protocol=5))
    assert t.resize_(50).shape == (50,) and t[:3].tolist() == [1.0, 1.0, 1.0]


def test_sizes_by_name_or_with_a_bool():
    assert torch.ones(4).resize_(2, True).shape == (2, 1)
    with raises(TypeError, "resize_() got multiple values for argument 'size'"):
        torch.ones(4).resize_(3, size=(2,))
