"""Arguments of a kind users get wrong: refused or answered as torch does."""

import pytest
import torch
import torch.nn.functional as F

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
INVALID = "received an invalid combination of arguments - got (Tensor, Tensor)"


@pytest.mark.parametrize("shape", [(), (1,), (0,), (2, 3)])
def test_broadcast_to_refuses_an_int_for_its_sizes(shape):
    with pytest.raises(TypeError) as caught:
        torch.broadcast_to(torch.zeros(shape), 0)
    assert str(caught.value) == ("broadcast_to(): argument 'size' (position 2) must be tuple of "
                                 "ints, not int")


def test_broadcast_to_takes_a_tuple():
    assert torch.broadcast_to(torch.ones(3), (2, 3)).shape == (2, 3)


@pytest.mark.parametrize("dims", [torch.zeros(0), torch.zeros(0, dtype=torch.long),
                                  torch.zeros(0, 3), torch.tensor([0, 1])])
def test_frobenius_norm_refuses_a_tensor_for_its_dims(dims):
    with pytest.raises(TypeError) as caught:
        torch.frobenius_norm(X, dims)
    assert str(caught.value) == ("frobenius_norm(): argument 'dim' (position 2) must be tuple "
                                 "of ints, not Tensor")


@pytest.mark.parametrize("name", ["squeeze_copy", "std_mean", "var_mean"])
@pytest.mark.parametrize("dims", [torch.zeros(0), torch.zeros(0, 3), torch.tensor([0, 1])])
def test_a_tensor_of_other_than_one_element_is_no_dims(name, dims):
    with pytest.raises(TypeError) as caught:
        getattr(torch, name)(X, dims)
    assert str(caught.value).startswith(f"{name}() {INVALID}, but expected one of:")


def test_a_zero_dim_integer_tensor_still_is_a_dim():
    std, mean = torch.var_mean(X, torch.tensor(1))
    assert std.tolist() == [1.0, 1.0] and mean.tolist() == [2.0, 5.0]


@pytest.mark.parametrize("y", [torch.ones(0), torch.ones(3), torch.ones(3, 0)])
@pytest.mark.parametrize("name", ["trapezoid", "cumulative_trapezoid"])
def test_trapezoid_refuses_a_number_for_x(name, y):
    with pytest.raises(TypeError) as caught:
        getattr(torch, name)(y, 0)
    assert str(caught.value) == (
        f"{name}() received an invalid combination of arguments - got (Tensor, int), but "
        "expected one of:\n * (Tensor y, Tensor x, *, int dim = -1)\n"
        " * (Tensor y, *, Number dx = 1, int dim = -1)\n")


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool])
@pytest.mark.parametrize(("shape", "size", "expected"), [
    ((1, 2, 3), 0, (1, 2, 0)), ((0, 2, 3), 2, (0, 2, 2))])
def test_adaptive_avg_pool1d_of_any_dtype_to_an_empty_result(dtype, shape, size, expected):
    out = F.adaptive_avg_pool1d(torch.ones(shape, dtype=dtype), size)
    assert (tuple(out.shape), out.dtype) == (expected, dtype)


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool])
def test_adaptive_avg_pool2d_of_any_dtype_to_an_empty_result(dtype):
    out = F.adaptive_avg_pool2d(torch.ones(1, 2, 3, 3, dtype=dtype), (2, 0))
    assert (tuple(out.shape), out.dtype, out.stride()) == ((1, 2, 2, 0), dtype, (4, 2, 1, 1))


def test_adaptive_avg_pool_still_refuses_integers_with_something_to_average():
    with pytest.raises(NotImplementedError) as caught:
        F.adaptive_avg_pool2d(torch.ones(1, 2, 3, 3, dtype=torch.int64), (2, 2))
    assert str(caught.value) == "\"adaptive_avg_pool2d\" not implemented for 'Long'"
    with pytest.raises(NotImplementedError, match="adaptive_avg_pool3d_cpu"):
        F.adaptive_avg_pool3d(torch.ones(1, 2, 3, 3, 3, dtype=torch.int64), 0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32])
def test_multilabel_margin_loss_of_no_rows_reads_no_target_dtype(dtype):
    out = F.multilabel_margin_loss(torch.ones(0, 3), torch.ones(0, 3, dtype=dtype),
                                   reduction="none")
    assert (tuple(out.shape), out.dtype) == ((0,), torch.float32)
    with pytest.raises(RuntimeError, match="^expected scalar type Long but found Float$"):
        F.multilabel_margin_loss(torch.ones(2, 3), torch.ones(2, 3))


@pytest.mark.parametrize(("bounds", "values"), [
    ((0, 3), (0, 3)), ((0, 3), (0, 2)), ((3, 0), (3, 2)), ((2, 0, 3), (2, 0, 3))])
def test_searchsorted_with_empty_rows(bounds, values):
    out = torch.searchsorted(torch.ones(bounds), torch.ones(values))
    assert (tuple(out.shape), out.dtype) == (values, torch.int64)
    assert out.sum().item() == 0


@pytest.mark.parametrize(("shape", "expected"), [((0, 4), 0), ((4, 0), 0), ((2, 0, 4), [0, 0]),
                                                 ((0, 3, 4), [])])
def test_hermitian_rank_of_an_empty_matrix(shape, expected):
    out = torch.linalg.matrix_rank(torch.zeros(shape), hermitian=True)
    assert out.tolist() == expected and out.dtype == torch.int64


def test_hermitian_rank_still_refuses_a_matrix_that_is_not_square():
    with pytest.raises(RuntimeError) as caught:
        torch.linalg.matrix_rank(torch.zeros(3, 4), hermitian=True)
    assert str(caught.value) == ("linalg.eigh: A must be batches of square matrices, but they "
                                 "are 3 by 4 matrices")


@pytest.mark.parametrize("call", [
    lambda: torch.trapezoid(X, None), lambda: torch.trapz(X, None),
    lambda: torch.cumulative_trapezoid(X, None), lambda: torch.squeeze_copy(X, None),
    lambda: torch.nuclear_norm(X, None), lambda: torch.nuclear_norm(X, torch.tensor([0, 1])),
    lambda: torch.constant_pad_nd(X, torch.tensor([0, 1]))])
def test_none_or_a_tensor_where_the_signature_names_neither(call):
    with pytest.raises(TypeError, match=r"received an invalid combination of arguments|"
                                        r"must be tuple of ints, not Tensor"):
        call()


def test_pinverse_refuses_none_for_rcond():
    with pytest.raises(TypeError) as caught:
        torch.pinverse(X, None)
    assert str(caught.value) == ("pinverse(): argument 'rcond' (position 2) must be float, not "
                                 "NoneType")


def test_counts_take_an_integer_tensor_of_one_element():
    assert torch.multinomial(X, torch.tensor([1])).shape == (2, 1)
    assert [p.shape for p in torch.unsafe_split(X, torch.tensor([1]))] == [(1, 3), (1, 3)]
    with pytest.raises(TypeError, match=r"^unsafe_split\(\): argument 'split_size' \(position 2\) "
                                        r"must be int, not Tensor$"):
        torch.unsafe_split(X, torch.tensor([1.0]))


def test_native_group_norm_names_the_argument_of_the_wrong_kind():
    with pytest.raises(TypeError) as caught:
        torch.native_group_norm(X, 0)
    assert str(caught.value) == ("native_group_norm(): argument 'weight' (position 2) must be "
                                 "Tensor, not int")


@pytest.mark.parametrize("shape", [(0,), (0, 3)])
def test_unbind_copy_of_nothing(shape):
    assert torch.unbind_copy(torch.zeros(shape)) == ()


@pytest.mark.parametrize(("shape", "tolerance", "rank", "pseudo"), [
    ((0, 3), (0, 3), (), (3, 0)), ((2, 0, 3), (4,), (2,), (2, 3, 0)), ((3, 0), (7,), (), (0, 3))])
def test_an_empty_matrix_never_looks_at_its_tolerances(shape, tolerance, rank, pseudo):
    A, tol = torch.zeros(shape), torch.zeros(tolerance)
    assert torch.linalg.matrix_rank(A, atol=tol).shape == rank
    assert torch.linalg.pinv(A, atol=tol).shape == pseudo


def test_tensorinv_cuts_no_sizes_past_the_end():
    with pytest.raises(RuntimeError, match=r"^ArrayRef: invalid slice, N = 5; size = 2$"):
        torch.linalg.tensorinv(X, 5)


@pytest.mark.parametrize(("size", "shown"), [([0, 1], "[0, 1]"), (torch.Size([1, 2]),
                                                                  "torch.Size([1, 2])")])
def test_affine_grid_shows_its_size_as_given(size, shown):
    with pytest.raises(NotImplementedError) as caught:
        F.affine_grid(torch.zeros(1, 2, 3), size, align_corners=False)
    assert str(caught.value).endswith(f"Got size {shown}.")
    with pytest.raises(TypeError, match=r"^object of type 'int' has no len\(\)$"):
        F.affine_grid(torch.zeros(1, 2, 3), 4, align_corners=False)


def test_grid_sampler_checks_the_batch_before_the_last_size():
    with pytest.raises(RuntimeError, match="to have same batch size"):
        F.grid_sample(torch.zeros(2, 3, 4, 4), torch.zeros(3, 4, 4, 3), align_corners=False)
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no dim"):
        F.grid_sample(X, torch.tensor(1.0), align_corners=False)


def test_adaptive_avg_pool3d_looks_for_empty_sizes_first():
    with pytest.raises(RuntimeError, match=r"sizes \[3, 0\] with dimension 1 being empty$"):
        F.adaptive_avg_pool3d(torch.zeros(3, 0), 2)


def test_refusals_in_torch_order():
    with pytest.raises(RuntimeError, match="^meshgrid expects all tensors to have the same dtype$"):
        torch.meshgrid(torch.zeros(2, 2), torch.tensor([1]), indexing="ij")
    with pytest.raises(RuntimeError, match=r"dims must be different. Got \(1, 1\)$"):
        torch.linalg.matrix_norm(X, dim=(-1, -1))
    with pytest.raises(ValueError, match="^binomial only supports floating-point dtypes for prob, "
                                         "got: Bool$"):
        torch.binomial(torch.zeros(2), torch.zeros(2, dtype=torch.bool))
    with pytest.raises(RuntimeError, match=r"^torch.lu_unpack: Expected tensor with 2 or more "
                                           r"dimensions. Got size: \[3\] instead$"):
        torch.lu_unpack(torch.zeros(3), torch.zeros(3))
    with pytest.raises(RuntimeError, match="^pivots passed to lu_unpack must be between 1"):
        torch.lu_unpack(torch.zeros(3, 3), torch.tensor([4, 1, 1], dtype=torch.int32))
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of "
                                         r"\[-1, 0\], but got 1\)$"):
        torch.group_norm(torch.zeros(3), 1)
    with pytest.raises(TypeError, match="^'>=' not supported between instances of 'list'"):
        torch.pca_lowrank(X, [0, 1])


@pytest.mark.parametrize(("bins", "words"), [
    (-1, "bins tensor should have at least 1 element, but got 0 elements in the bins tensor "
         "for dimension 0"),
    ([0, -2, 2], "number of steps must be non-negative"),
    ([0, -1, 2], "for dimension 1"), ([0, 1, 2], "bins must be > 0, but got 0 for dimension 0")])
def test_histogramdd_spaces_every_dimension_before_it_counts(bins, words):
    with pytest.raises(RuntimeError) as caught:
        torch.histogramdd(torch.ones(2, 3), bins)
    assert str(caught.value).endswith(words)


def test_histogramdd_checks_the_range_before_the_bins():
    with pytest.raises(RuntimeError, match="range should have 4 elements, but got 2$"):
        torch.histogramdd(torch.ones(2, 2), [1, 1, 1], range=[0.0, 1.0])


def _inference(*shape, channels_last=False):
    with torch.inference_mode():
        x = torch.ones(*shape)
        return x.contiguous(memory_format=torch.channels_last) if channels_last else x


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "bilinear", "bicubic"])
@pytest.mark.parametrize(("shape", "channels_last", "size", "writes"), [
    ((1, 2, 3, 4), False, 2, 1), ((1, 2, 3, 4), True, 2, 0), ((1, 1, 3, 4), False, 2, 0),
    ((0, 2, 3, 4), True, 2, 1), ((2, 3, 1, 1), True, (2, 3), 1), ((1, 2, 3, 4), False, 1, 0)])
def test_two_dimensional_upsampling_of_an_inference_tensor(mode, shape, channels_last, size,
                                                           writes):
    out = F.interpolate(_inference(*shape, channels_last=channels_last), size=size, mode=mode)
    assert out._version == (writes if mode != "bicubic" else 0)


@pytest.mark.parametrize(("ord", "shape", "dim", "writes"), [
    (2, (0, 3), (-2, -1), 1), (2, (2, 3, 0), (-2, -1), 1), (1, (3, 0), (-2, -1), 1),
    (1, (0, 3), (-2, -1), 0), (float("inf"), (0, 3), (-2, -1), 1),
    (float("inf"), (3, 0), (-2, -1), 0), (float("inf"), (3, 0), (-1, -2), 1)])
@pytest.mark.parametrize("inference", [False, True])
def test_the_largest_of_nothing_is_written_once(ord, shape, dim, writes, inference):
    A = _inference(*shape) if inference else torch.zeros(shape)
    assert torch.linalg.matrix_norm(A, ord, dim).tolist() in (0.0, [0.0, 0.0])
    assert torch.linalg.matrix_norm(A, ord, dim)._version == writes
    assert torch.linalg.norm(A, ord, dim)._version == writes


def _element(index, argument, kind):
    return f"expected Tensor as element {index} in argument {argument}, but got {kind}"


@pytest.mark.parametrize("call, index, argument, kind", [
    (lambda: torch.index_put(X, (1,)), 0, 1, "int"),
    (lambda: torch.index_put(X, [torch.tensor([0]), None]), 1, 1, "NoneType"),
    (lambda: torch.index_put_(X.clone(), (0, 0)), 0, 1, "int"),
    (lambda: torch.index_put(X, (1,), 3), 0, 1, "int"),
    (lambda: torch.lstm(X, [0, 1]), 0, 1, "int"),
    (lambda: torch.lstm(X, (X, 1), 3), 1, 1, "int"),
    (lambda: torch.lstm_cell(X, (X, None)), 1, 1, "NoneType"),
    (lambda: torch.cat((X, 2), dim=1.5), 1, 0, "int"),
    (lambda: torch.cat((X, 2), dimx=1), 1, 0, "int"),
])
def test_a_list_of_tensors_is_checked_before_what_follows(call, index, argument, kind):
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value) == _element(index, argument, kind)


def test_index_put_in_place_refuses_none_for_its_indices():
    with pytest.raises(TypeError) as caught:
        torch.index_put_(X.clone(), None)
    assert str(caught.value) == ("index_put_(): argument 'indices' (position 2) must be tuple "
                                 "of Tensors, not NoneType")


def test_a_list_of_tensors_still_fits():
    got = torch.index_put(X, (torch.tensor([1]),), torch.tensor(0.0))
    assert got.tolist() == [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]
    assert torch.cat([X, X], 1).shape == (2, 6)


SAMPLES = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], dtype=torch.float64)


@pytest.mark.parametrize("integral", [torch.trapezoid, torch.trapz, torch.cumulative_trapezoid])
@pytest.mark.parametrize("y, points, dim", [(SAMPLES, torch.tensor(1), 1),
                                            (SAMPLES, torch.tensor(1.0), 1),
                                            (SAMPLES[0], torch.tensor(1.0), 0)])
def test_a_zero_dimensional_x_has_no_widths(integral, y, points, dim):
    with pytest.raises(RuntimeError) as caught:
        integral(y, points)
    assert str(caught.value) == (f"The size of tensor a ({y.shape[-1] - 1}) must match the size "
                                 f"of tensor b (0) at non-singleton dimension {dim}")


def test_a_zero_dimensional_x_over_one_sample_integrates_to_zero():
    assert torch.trapezoid(SAMPLES, torch.tensor(1.0), dim=0).tolist() == [0.0, 0.0, 0.0]
    assert torch.cumulative_trapezoid(SAMPLES, torch.tensor(1.0), dim=0).shape == (0, 3)


@pytest.mark.parametrize("shape", [(3, 0), (0, 0), (2, 3, 0)])
@pytest.mark.parametrize("bins", [0, -2, 2, ()])
def test_a_histogram_of_no_dimension_is_one_empty_box(shape, bins):
    got = torch.histogramdd(torch.zeros(shape, dtype=torch.float64), bins)
    assert (got.hist.shape, got.hist.dtype, got.hist.item(), got.bin_edges) == (
        (), torch.float64, 0.0, ())


def test_a_histogram_of_no_dimension_as_a_density_is_nan():
    assert torch.histogramdd(torch.zeros(3, 0), 2, density=True).hist.isnan().item()
    weighted = torch.histogramdd(torch.zeros(3, 0), 2, weight=torch.ones(3))
    assert weighted.hist.item() == 0.0


@pytest.mark.parametrize("kwargs, words", [
    ({"range": [0.0, 1.0]}, "for a 0-dimensional histogram range should have 0 elements, but "
                            "got 2"),
    ({"weight": torch.ones(5)}, "if weight tensor is provided it should have the same shape as "
                                "the input tensor excluding its innermost dimension, but got "
                                "input with shape [2, 3, 0] and weight with shape [5]"),
])
def test_a_histogram_of_no_dimension_refuses(kwargs, words):
    with pytest.raises(RuntimeError) as caught:
        torch.histogramdd(torch.zeros(2, 3, 0), 2, **kwargs)
    assert str(caught.value) == "torch.histogramdd: " + words


@pytest.mark.parametrize("density, writes", [(False, 1), (True, 2)])
def test_a_histogram_of_no_dimension_is_written_once_and_divided_once(density, writes):
    with torch.inference_mode():
        points = torch.zeros(3, 0)
    assert torch.histogramdd(points, 2, density=density).hist._version == writes


@pytest.mark.parametrize("target, words", [
    (torch.tensor(1), "output with shape [] doesn't match the broadcast shape [2, 3]"),
    (torch.tensor([1.0]), "output with shape [1] doesn't match the broadcast shape [2, 3]"),
    (torch.ones(2, 1), "output with shape [2, 1] doesn't match the broadcast shape [2, 3]"),
    (torch.ones(5, 1), "The size of tensor a (5) must match the size of tensor b (2) at "
                       "non-singleton dimension 0"),
    (torch.tensor([0.0, 1.0]), "The size of tensor a (2) must match the size of tensor b (3) "
                               "at non-singleton dimension 1"),
    (torch.zeros(0, dtype=torch.long), "The size of tensor a (0) must match the size of tensor "
                                       "b (3) at non-singleton dimension 1"),
])
@pytest.mark.parametrize("reduction", [0, 1])
def test_the_namespace_loss_multiplies_into_its_target(target, words, reduction):
    with pytest.raises(RuntimeError) as caught:
        torch.binary_cross_entropy_with_logits(X, target, None, None, reduction)
    assert str(caught.value) == words
