"""Oracle test: lerp and addcmul round their last product and sum once, as torch's kernels."""

import numpy as np
import pytest
import torch

import refgrad


def _arrays(dtype, count=3, size=20_000, seed=4):
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-4, 4, size)
    return [(rng.standard_normal(size) * scale).astype(dtype) for _ in range(count)]


def _both(fn, arrays):
    ours = fn(refgrad, *(refgrad.tensor(a) for a in arrays)).numpy()
    theirs = fn(torch, *(torch.tensor(a) for a in arrays)).numpy()
    return ours, theirs


DTYPES = [np.float16, np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("weight", [0.1, -0.3, 0.5, 0.7, 0.9, 1.5])
def test_lerp_with_a_number(dtype, weight):
    ours, theirs = _both(lambda lib, a, b, c: a.lerp(b, weight), _arrays(dtype))
    assert np.array_equal(ours, theirs, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
def test_lerp_with_a_tensor_of_weights(dtype):
    start, end, _ = _arrays(dtype)
    weight = np.random.default_rng(5).uniform(-1, 2, start.size).astype(dtype)
    ours, theirs = _both(lambda lib, a, b, w: a.lerp(b, w), [start, end, weight])
    assert np.array_equal(ours, theirs, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("value", [1, 0.001, -2.5])
def test_addcmul(dtype, value):
    ours, theirs = _both(lambda lib, a, b, c: a.addcmul(b, c, value=value), _arrays(dtype))
    assert np.array_equal(ours, theirs, equal_nan=True)


def test_in_place_forms_agree_too():
    def run(lib, a, b, c):
        out = a.clone()
        out.lerp_(b, 0.9).addcmul_(b, c, value=0.25)
        return out

    ours, theirs = _both(run, _arrays(np.float32))
    assert np.array_equal(ours, theirs)
