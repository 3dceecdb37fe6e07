"""Oracle test: long rows with ties sort as torch's introsort leaves them.

Rows of hundreds to thousands of elements are cut by NumPy in refgrad, short ranges in
Python; either way equal values must end in torch's positions: few distinct values,
all equal, NaNs, 0.0 beside -0.0, ascending and descending, floats and ints.
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise


def long_row(rng, trial, dtype):
    n = int(rng.integers(257, 5000))
    kind = trial % 4
    if kind == 0:
        row = rng.integers(-2, int(rng.integers(-1, 8)), n)
    elif kind == 1:
        row = np.zeros(n)
    elif kind == 2:
        row = np.sort(rng.integers(0, 30, n))[::-1 if trial % 8 == 2 else 1].copy()
    else:
        row = rng.standard_normal(n).round(1)
    row = row.astype(dtype)
    if row.dtype.kind == "f" and trial % 3 == 0:
        row[rng.random(n) < 0.1] = np.nan
        row[rng.random(n) < 0.2] = -0.0
    return row


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int16])
def test_long_rows_sort_ties_as_torch_does(dtype):
    rng = np.random.default_rng(2013)
    for trial in range(24):
        values = long_row(rng, trial, dtype)
        if trial % 5 == 4:
            values = np.stack([values, values[::-1].copy()])
        descending = bool(trial % 2)
        ours, theirs = [], []
        for lib, record in ((refgrad, ours), (torch, theirs)):
            got = lib.tensor(values).sort(descending=descending)
            record += [got.values.numpy().copy(), got.indices.numpy().copy(),
                       lib.tensor(values).argsort(dim=-1, descending=descending).numpy()]
        assert_bitwise(ours, theirs)


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_long_rows_topk_sorts_ties_as_torch_does(dtype):
    rng = np.random.default_rng(1302)
    for trial in range(16):
        values = long_row(rng, trial, dtype)
        k = int(rng.integers(values.size // 2, values.size + 1))
        ours, theirs = [], []
        for lib, record in ((refgrad, ours), (torch, theirs)):
            got = lib.tensor(values).topk(k, largest=bool(trial % 2))
            record += [got.values.numpy().copy(), got.indices.numpy().copy()]
        assert_bitwise(ours, theirs)
