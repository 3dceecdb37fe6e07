"""Writes counted on the fresh results of inference tensors used outside inference
mode, found by a sweep over the public functions; the layout of a stack of
channels-last inputs; the in-place products' refusal of a self of another dtype.
The same assertions run on torch.
"""

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F


def inference(array):
    with torch.inference_mode():
        return torch.tensor(array)


def versions(result):
    if isinstance(result, tuple | list):
        return tuple(versions(t) for t in result)
    return result._version


RNG = np.random.default_rng(7)
V1 = RNG.standard_normal(5).astype(np.float32)
M = RNG.standard_normal((3, 4)).astype(np.float32)
T3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
T4 = RNG.standard_normal((1, 2, 3, 4)).astype(np.float32)
SPD = (np.eye(3) * 3 + 0.5).astype(np.float32)
EMPTY = np.zeros((0, 4), np.float32)
INTS = np.arange(12).reshape(3, 4)


@pytest.mark.parametrize("array", [V1, M, INTS, EMPTY])
def test_diff_of_order_zero_fills_then_copies(array):
    assert torch.diff(inference(array), 0)._version == 2
    assert torch.diff(inference(array), 0, 0)._version == 2


def turned_writes(shape, k, dims):
    """A clone for no turn; a flip, transposed in place for a quarter turn; a flip
    that moves nothing (empty, or along dims of size one) is a clone."""
    turns = k % 4
    if turns == 0:
        return 1
    flipped = {1: dims[1:], 2: dims, 3: dims[:1]}[turns]
    return int(turns != 2) + int(0 in shape or all(shape[d] <= 1 for d in flipped))


@pytest.mark.parametrize("array", [M, T3, T4, INTS, EMPTY, np.ones((3, 1), np.float32),
                                   np.ones((2, 1, 1), np.float32)])
@pytest.mark.parametrize("k", [0, 1, 2, 3, -1, 5])
@pytest.mark.parametrize("dims", [(0, 1), (1, 0), (-1, 0)])
def test_rot90_counts_its_clone_flip_and_transpose(array, k, dims):
    expected = turned_writes(array.shape, k, dims)
    assert torch.rot90(inference(array), k, dims)._version == expected


def test_rot90_of_four_dimensions_with_a_dimension_of_size_one():
    x = inference(T4)
    assert [torch.rot90(x, k)._version for k in range(4)] == [1, 1, 0, 2]
    assert [torch.rot90(x, k, (1, 3))._version for k in range(4)] == [1, 1, 0, 1]


@pytest.mark.parametrize("array, dims", [(V1, (0,)), (M, (0, 1)), (T3, (1,)),
                                         (EMPTY, (0,)), (np.float32(2.0), ())])
def test_frobenius_norm_writes_once(array, dims):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.frobenius_norm(inference(array), dims)._version == 1
        assert torch.frobenius_norm(inference(array), dims, True)._version == 1


@pytest.mark.parametrize("array, dim, expected", [
    (V1, 0, 1), (V1, -1, 1), (M, 0, 1), (M, 1, 1), (T3, 0, 1), (T3, 2, 1),
    (T3, 1, 0),  # the transposed input is copied first, into a normal tensor
    (T3[:1], 1, 1),  # no copy: the transpose of a size-one dimension is contiguous
    (EMPTY, 1, 1), (np.float32(2.0), -1, 1)])
def test_norm_except_dim_writes_where_no_copy_is_made(array, dim, expected):
    assert torch.norm_except_dim(inference(array), 2, dim)._version == expected


def test_norm_except_dim_of_a_scalar_refuses_dim_zero():
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no "
                                         "dimensions$"):
        torch.norm_except_dim(inference(np.float32(2.0)))


@pytest.mark.parametrize("array", [SPD, np.stack([SPD, SPD])])
def test_eigh_and_ldl_factor_write_one_result(array):
    x = inference(array)
    assert versions(torch.linalg.eigh(x)) == (0, 1)
    assert torch.linalg.eigvalsh(x)._version == 0
    assert versions(torch.linalg.ldl_factor(x)) == (1, 0)
    assert versions(torch.linalg.ldl_factor_ex(x)) == (1, 0, 0)
    assert torch.linalg.matrix_rank(x)._version == 1


@pytest.mark.parametrize("array", [V1, M, INTS, EMPTY, np.float32(2.0)])
def test_a_copy_of_an_inference_tensor_is_a_write(array):
    x = inference(array)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.tensor(x)._version == 1
        assert torch.tensor(x, dtype=torch.float64)._version == 1
        assert x.new_tensor(x)._version == 1
        assert torch.ones(2).new_tensor(x)._version == 1
        assert torch.tensor(torch.ones(2))._version == 0
    assert torch.as_tensor(x).is_inference()
    assert x.new_tensor([1.0, 2.0])._version == 0


@pytest.mark.parametrize("shape", [(0, 4, 2, 2), (1, 4, 0), (2, 4, 0, 3)])
def test_an_empty_channel_shuffle_of_an_inference_tensor_is_one(shape):
    x = inference(np.zeros(shape, np.float32))
    for result in (F.channel_shuffle(x, 2), torch.channel_shuffle(x, 2),
                   torch.native_channel_shuffle(x, 2)):
        assert result.is_inference()
        assert result.shape == x.shape
    full = inference(np.zeros((1, 4, 2, 2), np.float32))
    assert not F.channel_shuffle(full, 2).is_inference()
    assert F.channel_shuffle(full, 2)._version == 1
    assert F.channel_shuffle(torch.zeros(0, 4, 2), 2)._version == 0


@pytest.mark.parametrize("shape, repeats, expected", [
    ((0,), (2,), 1), ((0,), (1,), 1), ((0, 3), (2, 1, 1), 1), ((0,), (0,), 0),
    ((3,), (0,), 0), ((3,), (2,), 1), ((2, 3), (0, 2), 0), ((2, 3), (1, 1), 1)])
def test_repeat_and_tile_copy_unless_a_count_is_zero(shape, repeats, expected):
    x = inference(np.zeros(shape, np.float32))
    assert x.repeat(*repeats)._version == expected
    assert x.tile(repeats)._version == expected


@pytest.mark.parametrize("shape", [(0,), (3,), (0, 3)])
def test_isin_of_a_number_is_compared_into_the_result(shape):
    x = inference(np.zeros(shape, np.float32))
    assert torch.isin(x, 0.0)._version == 1
    assert torch.isin(x, 0.0, invert=True)._version == 1
    assert torch.isin(x, inference(np.zeros(2, np.float32)))._version == int(x.numel() > 0)


@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4)])
def test_count_nonzero_of_bools_over_given_dims_sums(shape):
    bools = inference(RNG.integers(0, 2, shape).astype(bool))
    ints = inference(RNG.integers(0, 2, shape).astype(np.int32))
    assert torch.count_nonzero(bools, 0)._version == 1
    assert torch.count_nonzero(bools, -1)._version == 1
    assert torch.count_nonzero(bools)._version == 0
    assert torch.count_nonzero(bools, ())._version == 0
    assert torch.count_nonzero(ints, 0)._version == 0


@pytest.mark.parametrize("shape", [(3, 2), (0, 2), (4, 1), (5, 3)])
def test_histogramdd_zeroes_counts_and_divides(shape):
    x = inference(RNG.standard_normal(shape).astype(np.float32))
    d = shape[1]
    assert versions(torch.histogramdd(x, 2)) == (2, (1,) * d)
    assert versions(torch.histogramdd(x, 2, density=True)) == (3 + d, (1,) * d)
    weight = inference(np.ones(shape[0], np.float32))
    assert versions(torch.histogramdd(x, [2] * d, weight=weight)) == (2, (1,) * d)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3), (2, 3, 0), (2, 3)])
def test_svd_without_values_makes_identities(shape):
    x = inference(np.zeros(shape, np.float32))
    m, n = shape[-2:]
    empty = min(m, n) == 0
    full = (2 * (empty and m > 0), 0, 2 * (empty and n > 0))
    assert versions(torch.linalg.svd(x)) == full
    assert versions(torch.svd(x, some=False)) == full
    assert versions(torch.linalg.svd(x, full_matrices=False)) == (0, 0, 0)


@pytest.mark.parametrize("pool, shape, size", [
    (F.adaptive_avg_pool1d, (2, 3, 4), 2), (F.adaptive_avg_pool1d, (3, 4), 0),
    (F.adaptive_avg_pool2d, (2, 3, 4), 2), (F.adaptive_avg_pool2d, (1, 2, 3, 4), (3, 4)),
    (F.adaptive_avg_pool2d, (0, 2, 3, 4), (None, 2)), (F.adaptive_avg_pool2d, (2, 0, 3, 4), 3),
    (F.adaptive_avg_pool3d, (1, 2, 3, 4), 2), (F.adaptive_avg_pool3d, (1, 2, 3, 4, 5), 3)])
def test_adaptive_average_pools_resize_their_result(pool, shape, size):
    assert pool(inference(np.ones(shape, np.float32)), size)._version == 1
    assert pool(inference(np.ones(shape, np.float32)), 1)._version == 2  # a mean


def test_adaptive_average_pool_of_channels_last_resizes_too():
    with torch.inference_mode():
        x = torch.ones(2, 2, 3, 4).contiguous(memory_format=torch.channels_last)
    assert F.adaptive_avg_pool2d(x, 2)._version == 1
    # a channels-last copy made outside inference mode is a normal tensor: no count
    assert F.adaptive_avg_pool2d(x.contiguous(), 2)._version == 0


@pytest.mark.parametrize("shape, dim, expected", [
    ((1, 2, 2, 3), 0, (12, 2, 1, 6, 2)), ((1, 2, 2, 3), 1, (4, 2, 1, 12, 4)),
    ((1, 2, 2, 3), 2, (2, 1, 12, 6, 2)), ((1, 2, 2, 3), 4, (24, 12, 6, 2, 1)),
    ((2, 1, 2, 3), 4, (12, 1, 6, 2, 1)), ((2, 1, 2, 3), -1, (12, 1, 6, 2, 1)),
    ((2, 1, 1, 3, 2), 1, (12, 1, 12, 12, 4, 2))])
def test_stack_of_channels_last_inputs_is_cat_then_view(shape, dim, expected):
    fmt = torch.channels_last if len(shape) == 4 else torch.channels_last_3d
    v = torch.rand(shape).to(memory_format=fmt)
    assert torch.stack([v, v], dim).stride() == expected


def test_stack_past_the_last_dimension_of_three():
    v = torch.rand(2, 3, 1).transpose(1, 2)  # (2, 1, 3) with strides (3, 1, 1)
    assert torch.stack([v, v], -1).stride() == (6, 1, 2, 1)
    assert torch.stack([v, v], 0).stride() == (6, 3, 3, 1)


PRODUCTS = [
    ("addmm_", torch.addmm, (2, 2), lambda: (torch.ones(2, 3), torch.ones(3, 2))),
    ("addbmm_", torch.addbmm, (2, 2), lambda: (torch.ones(2, 2, 3), torch.ones(2, 3, 2))),
    ("baddbmm_", torch.baddbmm, (2, 2, 2), lambda: (torch.ones(2, 2, 3), torch.ones(2, 3, 2))),
    ("addmv_", torch.addmv, (2,), lambda: (torch.ones(2, 3), torch.ones(3))),
]


@pytest.mark.parametrize("name, out_of_place, shape, operands", PRODUCTS)
@pytest.mark.parametrize("dtype", [torch.float64, torch.int64])
@pytest.mark.parametrize("small", [(1,), (2,), (1, 1)])
def test_in_place_products_into_an_expanded_self_check_as_out_of_place(
        name, out_of_place, shape, operands, dtype, small):
    self = torch.zeros(small[-len(shape):], dtype=dtype).expand(shape)
    with pytest.raises(RuntimeError) as expected:
        out_of_place(self, *operands())
    with pytest.raises(RuntimeError) as caught:
        getattr(self, name)(*operands())
    assert str(caught.value) == str(expected.value)
    assert "dtype" in str(caught.value)


def test_an_expanded_self_of_another_shape_and_dtype():
    self = torch.zeros(1, dtype=torch.float64).expand(3)
    with pytest.raises(RuntimeError, match="^self and mat2 must have the same dtype, but "
                                           "got Double and Float$"):
        self.addmm_(torch.ones(2, 3), torch.ones(3, 2))


def test_in_place_products_of_one_dtype_still_refuse_the_overlap():
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element"):
        torch.zeros(1).expand(2, 2).addmm_(torch.ones(2, 3), torch.ones(3, 2))
