"""What the bitwise normalization oracles share: their data and the comparison."""

import numpy as np


def data(shape, dtype, seed, scale=3.0, shift=1.0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale + shift).astype(dtype)


def assert_bitwise(ours, theirs, nans_alike=True):
    """Every array the same bits; with ``nans_alike``, NaNs of any payload count as alike."""
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape
        same = np.array_equal(a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}"))
        assert same or (nans_alike and np.array_equal(a, b, equal_nan=True)), (
            f"{(a != b).sum()} of {a.size} differ")
