"""The branch-free select behind where, relu's gradient and masked_fill."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops.conditional import _SELECT_MIN, select

DTYPES = (np.float16, np.float32, np.float64, np.int8, np.int64, np.uint16, np.bool_,
          np.complex64, np.complex128)


def _same_bits(got, expected) -> bool:
    return got.dtype == expected.dtype and got.shape == expected.shape and bool(
        (np.ascontiguousarray(got).view(np.uint8) == np.ascontiguousarray(expected).view(
            np.uint8)).all())


@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 6))
def test_select_matches_where_bit_for_bit(dtype, seed, which):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal((70, 90)) * 10).astype(dtype)
    b = (rng.standard_normal((1, 90)) * 10).astype(dtype)
    if a.dtype.kind in "fc":
        a[0, :4] = [np.nan, np.inf, -np.inf, -0.0]
    condition = rng.random((70, 90)) < 0.5
    # A zero on either side takes the one-pass way; a negative zero must not.
    x, y = ((a, b), (a, 0), (0.5, b), (b, a), (0, a), (-0.0, b), (a, -0.0))[which]
    assert _same_bits(select(condition, x, y), np.where(condition, x, y))


def test_nan_and_negative_zero_come_through():
    a = np.array([np.nan, -0.0] * _SELECT_MIN, np.float32)
    condition = np.arange(a.size) % 3 == 0
    assert _same_bits(select(condition, a, -a), np.where(condition, a, -a))


def test_a_condition_wider_than_the_values_broadcasts_them():
    condition = np.arange(2 * _SELECT_MIN).reshape(2, -1) % 2 == 0
    got = select(condition, np.float32(1), np.zeros(_SELECT_MIN, np.float32))
    assert got.shape == condition.shape and got.dtype == np.float32
    assert (got == condition).all()


def test_large_relu_gradient_is_zero_exactly_where_the_result_is_not_positive():
    x = torch.tensor(np.linspace(-1, 1, 3 * _SELECT_MIN, dtype=np.float32), requires_grad=True)
    g = torch.tensor(np.linspace(-5, 5, 3 * _SELECT_MIN, dtype=np.float32))
    x.relu().backward(g)
    expected = np.where(x.detach().numpy() <= 0, 0, g.numpy()).astype(np.float32)
    assert _same_bits(x.grad.numpy(), expected)
    assert not np.signbit(x.grad.numpy()[x.detach().numpy() <= 0]).any()  # +0, as torch gives


@pytest.mark.parametrize("rows", [1, 70])
def test_a_narrower_condition_with_a_zero_side_broadcasts_the_mask(rows):
    # The one-pass way writes its product over the mask only where the mask has the
    # result's shape; a condition of one row is broadcast over the values instead.
    rng = np.random.default_rng(rows)
    a = rng.standard_normal((70, 90)).astype(np.float32)
    condition = rng.random((rows, 90)) < 0.5
    for x, y in ((a, 0), (0, a)):
        assert _same_bits(select(condition, x, y), np.where(condition, x, y))
