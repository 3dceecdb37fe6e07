"""Oracle test: sort and topk order equal values as torch's CPU kernels do.

torch's default sort is the C++ library's introsort and its topk a selection by
nth_element or partial_sort, neither stable; rows of many equal values, NaNs, and 0.0
beside -0.0, in several dtypes, along any dim, must come out in torch's positions, and
their values with torch's bits (the sign of a zero included).
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise

DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int8]


def tied(rng, shape, dtype):
    values = rng.integers(-3, int(rng.integers(-2, 6)), shape).astype(dtype)
    if values.dtype.kind == "f" and rng.random() < 0.5:
        values[rng.random(shape) < 0.1] = np.nan
        values[rng.random(shape) < 0.2] = -0.0
    return values


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_orders_ties_as_torch_does(dtype):
    rng = np.random.default_rng(16)
    for trial in range(80):
        shape = (int(rng.integers(1, 4)), int(rng.integers(1, 90)))
        values = tied(rng, shape, dtype)
        dim, descending = int(rng.integers(-2, 2)), bool(trial % 2)
        stable = [None, False, True, "unset"][trial % 4]
        kw = {} if stable == "unset" else {"stable": stable}
        ours, theirs = [], []
        for lib, record in ((refgrad, ours), (torch, theirs)):
            got = lib.tensor(values).sort(dim=dim, descending=descending, **kw)
            record += [got.values.numpy().copy(), got.indices.numpy().copy(),
                       lib.tensor(values).argsort(dim=dim, descending=descending).numpy()]
        assert_bitwise(ours, theirs)


@pytest.mark.parametrize("dtype", DTYPES)
def test_topk_picks_and_orders_ties_as_torch_does(dtype):
    rng = np.random.default_rng(61)
    for trial in range(80):
        n = int(rng.integers(1, 300)) if trial % 3 == 0 else int(rng.integers(1, 40))
        values = tied(rng, (int(rng.integers(1, 4)), n), dtype)
        k = int(rng.integers(0, n + 1)) if trial % 2 else int(rng.integers(0, min(n, 4) + 1))
        largest, keep_sorted = bool(trial % 3), bool(trial % 4)
        ours, theirs = [], []
        for lib, record in ((refgrad, ours), (torch, theirs)):
            got = lib.tensor(values).topk(k, -1, largest, keep_sorted)
            record += [got.values.numpy().copy(), got.indices.numpy().copy()]
        assert_bitwise(ours, theirs)
