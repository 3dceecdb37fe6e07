"""Oracle test: refgrad's segment_reduce and its gradient against torch's, bit for bit.

Every reduction runs on float16, float32 and float64 data drawn so that segments hold ties,
zeros and NaNs, cut by lengths or by offsets along each axis, with and without `initial`;
the results and the gradients (for gradients of both signs) agree byte for byte, NaNs'
signs included.
"""

import itertools
import zlib

import numpy as np
import pytest
import torch

import refgrad

REDUCES = ["sum", "mean", "max", "min", "prod", "amax"]
DTYPES = [np.float16, np.float32, np.float64]


def _data(rng, shape, dtype, special):
    values = rng.standard_normal(shape) * 3
    if special:  # small integers give ties and zeros; a few NaNs
        values = np.round(values / 3)
        values[rng.random(shape) < 0.04] = np.nan
        values[rng.random(shape) < 0.04] = -np.nan  # its sign bit set
    return values.astype(dtype)


def _lengths(rng, rows, total, count):
    out = []
    for _ in range(rows):
        cuts = np.sort(rng.integers(0, total + 1, count - 1))
        out.append(np.diff(np.concatenate([[0], cuts, [total]])))
    return np.array(out, dtype=np.int64)


def _run(lib, data, reduce, by, cuts, axis, initial, grad):
    x = lib.tensor(data, requires_grad=True)
    kwargs = {by: lib.tensor(cuts), "axis": axis}
    if initial is not None:
        kwargs["initial"] = initial
    out = lib.segment_reduce(x, reduce, **kwargs)
    (g,) = lib.autograd.grad(out, x, lib.tensor(grad))
    return out.detach().numpy().tobytes(), g.numpy().tobytes(), tuple(out.shape)


CASES = list(itertools.product(REDUCES, DTYPES, [0, 1, 2], ["lengths", "offsets"],
                               [None, 0.5, 0.0], [False, True]))


@pytest.mark.parametrize(("reduce", "dtype", "axis", "by", "initial", "special"), CASES)
def test_segment_reduce_and_its_gradient_match_torch(reduce, dtype, axis, by, initial, special):
    rng = np.random.default_rng(zlib.crc32(repr((reduce, axis, by, special)).encode()))
    shape = (3, 7, 4)[: axis + 1] + (4,) * (axis < 2)
    data = _data(rng, shape, dtype, special)
    rows = int(np.prod(shape[:axis]))
    lengths = _lengths(rng, rows, shape[axis], 5).reshape(shape[:axis] + (5,))
    cuts = lengths if by == "lengths" else np.concatenate(
        [np.zeros(shape[:axis] + (1,), np.int64), np.cumsum(lengths, axis=-1)], axis=-1)
    out_shape = shape[:axis] + (5,) + shape[axis + 1:]
    grad = (rng.standard_normal(out_shape) * 2).astype(dtype)
    expected = _run(torch, data, reduce, by, cuts, axis, initial, grad)
    assert _run(refgrad, data, reduce, by, cuts, axis, initial, grad) == expected
