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
