"""Dims that an empty input lets pass, and the order in which reductions check theirs."""

import pytest
import torch

from conformance._support import raises


def _out_of_range(low, high, got):
    return f"Dimension out of range (expected to be in range of [{low}, {high}], but got {got})"


@pytest.mark.parametrize("dim", [1, 3, -2])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_running_extremes_of_an_empty_tensor_take_any_dim(name, shape, dim):
    if -len(shape) <= dim < len(shape):
        return
    x = torch.zeros(shape, requires_grad=True)
    values, indices = getattr(torch, name)(x, dim)
    assert values.shape == shape and indices.shape == shape
    assert indices.dtype == torch.int64
    values.sum().backward()
    assert x.grad.shape == shape
    with raises(TypeError, f"{name}(): argument 'dim' (position 2) must be int, not float"):
        getattr(torch, name)(torch.zeros(shape), 1.5)
    with raises(IndexError, _out_of_range(-1, 0, 3)):
        torch.cumsum(torch.zeros(0), 3)


@pytest.mark.parametrize("dims", [1, 2, (5, 6), -3])
def test_roll_of_an_empty_tensor_takes_any_dim(dims):
    shifts = (1, 2) if isinstance(dims, tuple) else 1
    x = torch.zeros(2, 0, requires_grad=True)
    y = torch.roll(x, shifts, dims)
    assert y.shape == (2, 0)
    y.sum().backward()
    assert x.grad.shape == (2, 0)
    with raises(IndexError, _out_of_range(-1, 0, 2)):
        torch.roll(torch.zeros(2), 1, 2)


def test_cat_of_legacy_empties_alone_reads_no_dim():
    a = torch.zeros(0, requires_grad=True)
    y = torch.cat([a, torch.zeros(0, dtype=torch.int64)], dim=5)
    assert y.shape == (0,) and y.dtype == torch.float32
    y.sum().backward()
    assert a.grad.shape == (0,)
    assert torch.cat([torch.zeros(0), torch.zeros(0)], dim=1).shape == (0,)


def test_cat_reads_dim_before_it_compares_dimensions():
    with raises(IndexError, _out_of_range(-2, 1, 2)):
        torch.cat([torch.zeros(1, 3), torch.zeros(3)], dim=2)
    with raises(IndexError, _out_of_range(-2, 1, 5)):
        torch.cat([torch.zeros(0), torch.zeros(1, 3), torch.zeros(2, 3, 4)], dim=5)
    with raises(RuntimeError, "Tensors must have same number of dimensions: got 2 and 1"):
        torch.cat([torch.zeros(1, 3), torch.zeros(3)], dim=1)
    with raises(RuntimeError, "zero-dimensional tensor (at position 1) cannot be concatenated"):
        torch.cat([torch.zeros(0), torch.tensor(1.0)], dim=5)


def test_diff_reads_its_dim():
    with raises(IndexError, _out_of_range(-1, 0, 2)):
        torch.diff(torch.zeros(2), dim=2)
    with raises(IndexError, _out_of_range(-2, 1, -3)):
        torch.diff(torch.zeros(0, 3), dim=-3)
    assert torch.diff(torch.zeros(2), n=0, dim=3).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("name", ["amax", "amin"])
@pytest.mark.parametrize(("shape", "dim", "named"), [
    ((0,), (0, 0), 0), ((0,), (-1, -2), -1), ((0,), (0, 5), 0), ((2, 0), (1, 1), 1),
    ((2, 0), (1, 2), 1), ((0, 2), (0, 1, 1), 0),
])
def test_an_empty_dim_is_named_before_repeats_and_ranges(name, shape, dim, named):
    with raises(IndexError, f"{name}(): Expected reduction dim {named} to have non-zero size."):
        getattr(torch, name)(torch.zeros(shape), dim=dim)


@pytest.mark.parametrize("name", ["amax", "amin"])
def test_extremes_check_ranges_and_repeats_as_before_elsewhere(name):
    f = getattr(torch, name)
    with raises(IndexError, _out_of_range(-1, 0, 5)):
        f(torch.zeros(0), dim=(5, 0))
    with raises(RuntimeError, "dim 0 appears multiple times in the list of dims"):
        f(torch.zeros(2, 3), dim=(0, 0))


_NO_IDENTITY = ("linalg.vector_norm cannot compute the {} norm on the dimension {}because "
                "this dimension is empty and the operation does not have an identity")


@pytest.mark.parametrize("p", [-1, float("inf"), -float("inf")])
def test_vector_norm_asks_for_an_identity_before_reading_dtype(p):
    shown = {-1: "-1", float("inf"): "inf", -float("inf"): "-inf"}[p]
    x = torch.zeros(2, 0)
    for dtype in (torch.int64, torch.float16):
        with raises(RuntimeError, _NO_IDENTITY.format(shown, 1)):
            torch.norm(x, dim=1, p=p, dtype=dtype)
        with raises(IndexError, _out_of_range(-2, 1, 2)):
            torch.norm(x, dim=(2,), p=p, dtype=dtype)
    with raises(RuntimeError, _NO_IDENTITY.format(shown, -1)):
        torch.linalg.vector_norm(x, p, dim=(0, -1, -1))
    with raises(RuntimeError, "linalg.vector_norm: dtype should be floating point or "
                              "complex, but got Long"):
        torch.linalg.vector_norm(torch.zeros(2, 1), p, dim=3, dtype=torch.int64)
    with raises(RuntimeError, "linalg.vector_norm: Expected a floating point or complex "
                              "tensor as input. Got Long"):
        torch.linalg.vector_norm(torch.zeros(2, 0, dtype=torch.int64), p, dim=1)


def test_matrix_norm_reads_dims_before_dtype():
    x = torch.zeros(2, 0)
    with raises(RuntimeError, "linalg.matrix_norm: dim must be a 2-tuple. Got 2"):
        torch.norm(x, p="nuc", dim=(2,), dtype=torch.int16)
    with raises(IndexError, _out_of_range(-2, 1, 2)):
        torch.norm(x, p="nuc", dim=(0, 2), dtype=torch.int16)
    with raises(RuntimeError, "linalg.matrix_norm: dtype should be floating point or complex, "
                              "but got Short"):
        torch.norm(x, p="nuc", dim=(0, 1), dtype=torch.int16)
    with raises(RuntimeError, "linalg.matrix_norm: the dtype of the input (Float) should be "
                              "convertible without narrowing to the specified dtype (Half)"):
        torch.linalg.matrix_norm(torch.zeros(2, 2), 2, dtype=torch.float16)
