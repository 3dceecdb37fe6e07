"""Oracle test: refgrad's segment_reduce (with its gradient), batch_norm_update_stats and
embedding_renorm_ against torch's.

Every reduction runs on float16, float32 and float64 data drawn so that segments hold ties,
zeros and NaNs, cut by lengths or by offsets along each axis, with and without `initial`;
the results and the gradients (for gradients of both signs) agree byte for byte, the
signs of NaNs included.

batch_norm_update_stats agrees byte for byte with torch's on inputs laid out row-major or
channels-last, the running statistics included; on other layouts, which refgrad's batch
norm reduces in float64, to within rounding. embedding_renorm_ agrees byte for byte for
float16, float32 and float64 weights, norms of several orders and negative indices.
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


def _update_stats(lib, data, layout, momentum, with_running):
    x = lib.tensor(data)
    if layout == "channels_last":
        x = x.to(memory_format=lib.channels_last)
    elif layout == "strided":
        x = x.transpose(0, -1).contiguous().transpose(0, -1)
    running = [lib.tensor(np.linspace(-1, 1, data.shape[1]).astype(data.dtype)),
               lib.tensor(np.linspace(0.5, 2, data.shape[1]).astype(data.dtype))]
    mean, var = lib.batch_norm_update_stats(x, *(running if with_running else (None, None)),
                                            momentum)
    return [t.numpy() for t in (mean, var, *running)]


@pytest.mark.parametrize(("shape", "layout"), [
    ((8, 5), "contiguous"), ((3, 4, 7), "contiguous"), ((2, 3, 4, 5), "contiguous"),
    ((2, 3, 4, 5), "channels_last"), ((3, 4, 7), "strided"), ((40, 20), "contiguous"),
    ((1, 6, 3), "contiguous")])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("with_running", [False, True])
def test_batch_norm_update_stats_matches_torch(shape, layout, dtype, with_running):
    data = (np.random.default_rng(zlib.crc32(repr(shape).encode())).standard_normal(shape) * 3
            + 1).astype(dtype)
    expected = _update_stats(torch, data, layout, 0.1, with_running)
    got = _update_stats(refgrad, data, layout, 0.1, with_running)
    if layout == "strided":  # NOTE [Batch norm in float64]: within rounding, not bitwise
        for a, b in zip(got, expected):
            np.testing.assert_allclose(a, b, rtol=2e-6 if dtype == np.float32 else 1e-14)
    else:
        assert [a.tobytes() for a in got] == [b.tobytes() for b in expected]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, float("inf"), 0.5])
@pytest.mark.parametrize("max_norm", [1.5, 4.0, -1.0])
def test_embedding_renorm_matches_torch(dtype, norm_type, max_norm):
    data = (np.random.default_rng(7).standard_normal((9, 5)) * 3).astype(dtype)
    indices = np.array([0, 3, 3, 8, 1, -2, 4])
    results = []
    for lib in (torch, refgrad):
        weight = lib.tensor(data)
        lib.embedding_renorm_(weight, lib.tensor(indices), max_norm, norm_type)
        results.append(weight.numpy().tobytes())
    assert results[1] == results[0]
