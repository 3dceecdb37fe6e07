"""Reductions asked for a dtype, given an empty tuple of dims, or run on empty tensors."""

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("args", [(), (0,), (1, True), (None,)])
def test_sum_with_a_dtype_converts_inside_the_node(args):
    x = torch.tensor([[1.5, 2.0], [3.0, 4.0]], requires_grad=True)
    y = torch.sum(x, *args, dtype=torch.float64)
    assert y.dtype == torch.float64
    assert type(y.grad_fn).__name__ == ("SumBackward0" if not args else "SumBackward1")
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    assert "_saved_dtype" not in dir(y.grad_fn)
    y.sum().backward()
    assert x.grad.dtype == torch.float32
    assert x.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_sum_with_a_dtype_sums_in_that_dtype():
    assert torch.tensor([200, 100], dtype=torch.uint8).sum(dtype=torch.uint8).item() == 44
    assert torch.sum(torch.tensor([0.5, 0.0]), dtype=torch.bool).item() is True
    assert torch.sum(torch.tensor([[0.5, 1.6]]), 1, dtype=torch.int32).tolist() == [1]
    assert torch.sum(torch.zeros(0, 2), 0, dtype=torch.bool).tolist() == [False, False]


def test_sum_refuses_a_dtype_that_is_not_one():
    x = torch.ones(2)
    with raises(TypeError, "sum() received an invalid combination of arguments - got "
                           "(Tensor, dtype=int), but expected one of:\n"
                           " * (Tensor input, *, torch.dtype dtype = None)\n"
                           " * (Tensor input, tuple of ints dim, bool keepdim = False, *, "
                           "torch.dtype dtype = None, Tensor out = None)\n"):
        torch.sum(x, dtype=3)
    with raises(TypeError, 'sum() missing 1 required positional arguments: "dim"'):
        x.sum(keepdim=True, dtype=torch.float64)


def test_sum_refuses_an_integer_dtype_for_a_tensor_that_requires_grad():
    x = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, "Autograd not support dtype: Int"):
        x.sum(dtype=torch.int32)


@pytest.mark.parametrize("args", [(), (0,), (1, True)])
def test_mean_with_a_dtype_converts_inside_the_node(args):
    x = torch.tensor([[1.5, 2.0], [3.0, 4.0]], requires_grad=True)
    y = torch.mean(x, *args, dtype=torch.float64)
    assert y.dtype == torch.float64
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    y.sum().backward()
    assert x.grad.dtype == torch.float32


@pytest.mark.parametrize("x", [torch.ones(2), torch.ones(2, dtype=torch.int64)])
@pytest.mark.parametrize("dtype, name", [(torch.int32, "Int"), (torch.bool, "Bool")])
def test_mean_names_the_dtype_asked_for(x, dtype, name):
    with raises(RuntimeError, "mean(): could not infer output dtype. Optional dtype must be "
                              f"either a floating point or complex dtype. Got: {name}"):
        torch.mean(x, dtype=dtype)


def test_mean_of_an_integer_tensor_in_a_floating_dtype():
    assert torch.mean(torch.tensor([1, 2]), dtype=torch.float64).item() == 1.5


@pytest.mark.parametrize("args", [(), (0,), (1,), ((0, 1),), ((),)])
def test_the_mean_of_nothing_is_nan_without_a_warning(args):
    # the suite turns warnings into errors: a warning would fail here
    y = torch.mean(torch.zeros(0, 3), *args)
    assert y.isnan().all().item() and y.dtype == torch.float32


@pytest.mark.parametrize("dim", [(), []])
def test_count_nonzero_over_no_dims_counts_everything(dim):
    assert torch.count_nonzero(torch.tensor([[1.0, 0.0, 2.0], [0.0, 3.0, 4.0]]), dim).item() == 4


@pytest.mark.parametrize("x", [torch.tensor(2.5), torch.tensor(0), torch.zeros(0, 3)])
def test_a_bool_running_sum_of_a_0d_or_empty_tensor_is_a_copy(x):
    y = torch.cumsum(x, 0, dtype=torch.bool)
    assert y.dtype == torch.bool and y.shape == x.shape
    assert y.tolist() == x.bool().tolist()


def test_a_bool_running_sum_of_values_is_refused():
    with raises(NotImplementedError, "\"cumsum_out_cpu\" not implemented for 'Bool'"):
        torch.cumsum(torch.tensor([[3]]), 0, dtype=torch.bool)


@pytest.mark.parametrize("p, shown", [(-1, "-1"), (-1.0, "-1"), (-0.5, "-0.5"), (-1e-7, "-1e-07"),
                                      (float("inf"), "inf")])
def test_a_norm_with_no_identity_of_an_empty_slice(p, shown):
    empty = torch.zeros(0, 3)
    with raises(RuntimeError, f"linalg.vector_norm cannot compute the {shown} norm on an empty "
                              "tensor because the operation does not have an identity"):
        torch.norm(empty, p)
    with raises(RuntimeError, f"linalg.vector_norm cannot compute the {shown} norm on the "
                              "dimension 0because this dimension is empty and the operation "
                              "does not have an identity"):
        torch.linalg.vector_norm(empty, p, 0)
    assert torch.linalg.vector_norm(empty, p, 1).shape == (0,)


@pytest.mark.parametrize("p", [0, 0.5, 1, 2])
def test_a_norm_of_nothing_is_zero(p):
    assert torch.norm(torch.zeros(0, 3), p).item() == 0.0


@pytest.mark.parametrize("name", ["cumprod", "cummax", "cummin", "logcumsumexp"])
def test_running_functions_read_their_dim_as_torch_does(name):
    x = torch.ones(2, 2)
    run = getattr(torch, name)
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "dim"'):
        run(x)
    with raises(TypeError, f"{name}(): argument 'dim' (position 2) must be int, not tuple"):
        run(x, (0, 1))
    with raises(TypeError, f"{name}(): argument 'dim' must be int, not NoneType"):
        run(x, dim=None)
    with raises(TypeError, f"{name}() got an unexpected keyword argument 'keepdim'"):
        run(x, 0, keepdim=True)
    result = run(x, torch.tensor(1))  # a 0-d integer tensor is the int it holds
    assert (result if name in ("cumprod", "logcumsumexp") else result.values).shape == (2, 2)


def test_a_bool_running_product_of_a_0d_or_empty_tensor_is_a_copy():
    assert torch.cumprod(torch.tensor(2.5), 0, dtype=torch.bool).item() is True
    assert torch.cumprod(torch.zeros(0, 3), 1, dtype=torch.bool).shape == (0, 3)
    with raises(NotImplementedError, "\"cumprod_out_cpu\" not implemented for 'Bool'"):
        torch.cumprod(torch.ones(2), 0, dtype=torch.bool)


@pytest.mark.parametrize("dim, keepdim, shape", [
    (0, False, (3,)), (0, True, (1, 3)), (1, False, (0,)), (1, True, (0, 1)), ((0, 1), False, ()),
])
def test_logsumexp_of_an_empty_tensor(dim, keepdim, shape):
    x = torch.zeros(0, 3, requires_grad=True)
    y = torch.logsumexp(x, dim, keepdim)
    assert y.shape == shape
    assert all(v == float("-inf") for v in y.flatten().tolist())  # the log of an empty sum
    y.sum().backward()
    assert x.grad.shape == (0, 3)


@pytest.mark.parametrize("dim", [0, -1, (-1,)])
def test_count_nonzero_of_a_0d_tensor_along_its_one_dim(dim):
    assert torch.count_nonzero(torch.tensor(2.5), dim).item() == 1
    assert torch.count_nonzero(torch.tensor(0), dim).item() == 0


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_along_a_dim_keeps_row_major_strides(name):
    values, indices = getattr(torch, name)(torch.ones(2, 3), 0, True)
    assert values.stride() == (3, 1) and indices.stride() == (3, 1)


def test_nanmedian_of_an_empty_dim_speaks_as_median():
    with raises(IndexError, "median(): Expected reduction dim 0 to have non-zero size."):
        torch.nanmedian(torch.zeros(0, 3), 0)


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_the_mean_beside_a_spread_of_nothing_warns_only_of_the_degrees_of_freedom(name):
    with pytest.warns(UserWarning, match=rf"\A{name}\(\): degrees of freedom is <= 0"):
        spread, mean = getattr(torch, name)(torch.zeros(0, 3), 0)
    assert mean.isnan().all().item() and mean.shape == (3,)


@pytest.mark.parametrize("correction", [-2, -1, -0.5, 0, 0.5, 1])
def test_the_spread_of_nothing_is_nan_whatever_the_correction(correction):
    import math
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # degrees of freedom <= 0, for some
        empty = torch.tensor([])
        for result in (empty.var(correction=correction), empty.std(correction=correction),
                       *torch.var_mean(empty, correction=correction)):
            assert result.shape == () and math.isnan(result)
        by_column = torch.zeros(0, 3).var(dim=0, correction=correction)
        assert by_column.shape == (3,) and all(math.isnan(v) for v in by_column.tolist())
    assert torch.tensor([1.0, 2.0]).var(correction=-1).item() == pytest.approx(1 / 6)
