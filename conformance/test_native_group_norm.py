"""torch.native_group_norm: the group-norm row with its statistics, sizes given by hand."""

import pytest
import torch
import torch.nn.functional as F


def _input():
    return torch.linspace(-2.0, 3.0, 36, dtype=torch.float64).reshape(2, 6, 3).requires_grad_()


def test_the_row_gives_group_norm_and_its_statistics():
    x = _input()
    w, b = torch.linspace(0.5, 1.5, 6, dtype=torch.float64), torch.zeros(6, dtype=torch.float64)
    out, mean, rstd = torch.native_group_norm(x, w, b, 2, 6, 3, 3, 1e-5)
    assert torch.equal(out, F.group_norm(x, 3, w, b))
    assert mean.shape == rstd.shape == (2, 3)
    assert type(out.grad_fn).__name__ == "NativeGroupNormBackward0" and mean.grad_fn is out.grad_fn
    groups = x.detach().reshape(2, 3, 6)
    assert torch.allclose(mean, groups.mean(-1))
    assert torch.allclose(rstd, (groups.var(-1, unbiased=False) + 1e-5).rsqrt())


def test_the_sizes_are_taken_as_given():
    x = _input()
    out, mean, _ = torch.native_group_norm(x, None, None, 3, 6, 2, 3, 1e-5)
    assert out.shape == (2, 6, 3) and mean.shape == (3, 3)


@pytest.mark.parametrize(("sizes", "message"), [
    ((2, 6, 4, 3), "Expected X.numel() == N * C * HxW to be true, but got false.  (Could this "
     "error message be improved?  If so, please report an enhancement request to PyTorch.)"),
    ((2, 6, 3, 4), "Expected number of channels in input to be divisible by num_groups, but got "
     "input of shape [2, 6, 3] and num_groups=4"),
    ((2, 6, 3, 0), "Expected num groups to be greater than 0, got 0"),
])
def test_bad_sizes_are_refused_in_torchs_words(sizes, message):
    with pytest.raises(RuntimeError) as caught:
        torch.native_group_norm(_input(), None, None, *sizes, 1e-5)
    assert str(caught.value) == message


def test_a_weight_of_the_wrong_size_is_refused():
    with pytest.raises(RuntimeError, match=r"^Expected weight to be a vector of size equal to "
                       r"the number of channels in input, but got weight of shape \[3\]"):
        torch.native_group_norm(_input(), torch.ones(3, dtype=torch.float64), None, 2, 6, 3, 3,
                                1e-5)


_NOT_LAID_OUT = ("Expected X.is_contiguous(memory_format) to be true, but got false.  (Could "
                 "this error message be improved?  If so, please report an enhancement request "
                 "to PyTorch.)")


def _batch(*shape):
    n = 1
    for size in shape:
        n *= size
    return torch.linspace(-2.0, 3.0, n, dtype=torch.float64).reshape(shape)


@pytest.mark.parametrize(("shape", "layout"), [
    ((2, 4, 2, 3), torch.channels_last), ((2, 4, 2, 3, 2), torch.channels_last_3d),
])
def test_a_channels_last_batch_keeps_its_layout_and_records_no_copy(shape, layout):
    x = _batch(*shape).contiguous(memory_format=layout).requires_grad_()
    hxw = x.numel() // (shape[0] * shape[1])
    out, mean, _ = torch.native_group_norm(x, None, None, shape[0], shape[1], hxw, 2, 1e-5)
    assert out.is_contiguous(memory_format=layout) and not out.is_contiguous()
    assert out.grad_fn.next_functions[0][0].variable is x
    assert torch.equal(out, F.group_norm(x, 2))
    out.sum().backward()
    assert x.grad.shape == x.shape


@pytest.mark.parametrize("laid_out", [
    lambda x: x[..., :2],  # a slice
    lambda x: x.transpose(2, 3),  # a transposed batch that suggests no layout
])
def test_a_batch_laid_out_otherwise_is_refused(laid_out):
    x = laid_out(_batch(2, 4, 3, 3))
    with pytest.raises(RuntimeError) as caught:
        torch.native_group_norm(x, None, None, 2, 4, x.shape[2] * x.shape[3], 2, 1e-5)
    assert str(caught.value) == _NOT_LAID_OUT


def test_the_layout_is_checked_after_the_groups_and_before_the_sizes():
    x = _batch(2, 4, 3, 4)[..., :3]
    with pytest.raises(RuntimeError, match="divisible by num_groups"):
        torch.native_group_norm(x, None, None, 2, 4, 9, 3, 1e-5)
    with pytest.raises(RuntimeError) as caught:
        torch.native_group_norm(x, None, None, 2, 4, 10, 2, 1e-5)
    assert str(caught.value) == _NOT_LAID_OUT


def test_a_three_dimensional_batch_must_be_row_major():
    x = _batch(2, 12, 4).transpose(1, 2)  # (2, 4, 12), channels innermost
    with pytest.raises(RuntimeError) as caught:
        torch.native_group_norm(x, None, None, 2, 4, 12, 2, 1e-5)
    assert str(caught.value) == _NOT_LAID_OUT


def test_a_channels_last_tangent_is_refused_as_torchs_formula_refuses():
    import torch.autograd.forward_ad as fwAD

    x = _batch(2, 4, 3, 3).contiguous(memory_format=torch.channels_last)
    with fwAD.dual_level(), pytest.raises(RuntimeError, match="view size is not compatible"):
        torch.native_group_norm(fwAD.make_dual(x, torch.ones_like(x)), None, None, 2, 4, 9, 2,
                                1e-5)
