"""Oracle test: average pools and small reductions agree with torch's CPU kernels bit for bit."""

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import refgrad
import refgrad.nn.functional as RF

FLOATS = [np.float32, np.float64]
LAYOUTS = {4: "channels_last", 5: "channels_last_3d"}


def _array(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 3, shape)).astype(dtype)


def _tensor(lib, a, laid):
    t = lib.tensor(a)
    return t.contiguous(memory_format=getattr(lib, LAYOUTS[a.ndim])) if laid else t


def _pooled_both(pool, a, laid, grad_laid=None):
    """(value, gradient) of ``pool`` from refgrad and from torch, the gradient seeded with
    a gradient laid out as ``grad_laid`` says (the result's layout when None)."""
    results = []
    for lib, F in ((refgrad, RF), (torch, TF)):
        x = _tensor(lib, a, laid).requires_grad_()
        out = pool(F, x)
        seed = _array(tuple(out.shape), a.dtype, seed=1)
        g = _tensor(lib, seed, laid if grad_laid is None else grad_laid)
        out.backward(g)
        results.append((out.detach().numpy(), x.grad.numpy()))
    return results


def _same(ours, theirs):
    for mine, torchs in zip(ours, theirs):
        assert mine.dtype == torchs.dtype and mine.shape == torchs.shape
        assert np.array_equal(mine, torchs, equal_nan=True), (mine != torchs).sum()


POOLS_2D = [
    lambda F, x: F.avg_pool2d(x, 3),
    lambda F, x: F.avg_pool2d(x, (2, 3), (1, 2), (1, 1)),
    lambda F, x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
    lambda F, x: F.avg_pool2d(x, 3, 2, 1, divisor_override=7),
    lambda F, x: F.adaptive_avg_pool2d(x, (4, 5)),
    lambda F, x: F.adaptive_avg_pool2d(x, (3, 7)),
    lambda F, x: F.interpolate(x, size=(4, 5), mode="area"),
]
POOLS_3D = [
    lambda F, x: F.avg_pool3d(x, 3),
    lambda F, x: F.avg_pool3d(x, (2, 3, 2), 2, 1, ceil_mode=True, count_include_pad=False),
    lambda F, x: F.adaptive_avg_pool3d(x, (3, 4, 5)),
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("channels", [3, 6, 13, 16])
@pytest.mark.parametrize("laid", [False, True])
@pytest.mark.parametrize("pool", range(len(POOLS_2D)))
def test_two_dimensional_average_pools(dtype, channels, laid, pool):
    a = _array((2, channels, 9, 11), dtype)
    ours, theirs = _pooled_both(POOLS_2D[pool], a, laid)
    _same(ours, theirs)


@pytest.mark.parametrize("dtype", [np.float16, *FLOATS])
@pytest.mark.parametrize("laid", [False, True])
@pytest.mark.parametrize("shape", [(4, 64, 7, 7), (2, 3, 30, 31)])
def test_global_average_pool(dtype, laid, shape):
    _same(*_pooled_both(lambda F, x: F.adaptive_avg_pool2d(x, 1), _array(shape, dtype), laid))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("grad_laid", [False, True])
def test_the_gradient_layout_picks_the_adaptive_kernel(dtype, grad_laid):
    a = _array((2, 13, 9, 11), dtype)
    ours, theirs = _pooled_both(lambda F, x: F.adaptive_avg_pool2d(x, (4, 5)), a,
                                not grad_laid, grad_laid)
    _same(ours, theirs)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("laid", [False, True])
@pytest.mark.parametrize("pool", range(len(POOLS_3D)))
def test_three_dimensional_average_pools(dtype, laid, pool):
    a = _array((2, 5, 7, 8, 9), dtype)
    ours, theirs = _pooled_both(POOLS_3D[pool], a, laid)
    _same(ours, theirs)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("pool", [
    lambda F, x: F.avg_pool1d(x, 3),
    lambda F, x: F.avg_pool1d(x, 4, 3, 2, ceil_mode=True, count_include_pad=False),
    lambda F, x: F.adaptive_avg_pool1d(x, 7),
    lambda F, x: F.lp_pool1d(x, 1, 3),
])
def test_one_dimensional_average_pools(dtype, pool):
    _same(*_pooled_both(pool, _array((3, 5, 23), dtype), False))


@pytest.mark.parametrize("channels", [5, 12, 20])
@pytest.mark.parametrize("laid", [False, True])
@pytest.mark.parametrize("pool", [
    lambda F, x: F.avg_pool2d(x, 3, 2, 1),
    lambda F, x: F.adaptive_avg_pool2d(x, (4, 5)),
    lambda F, x: F.adaptive_avg_pool3d(x.unsqueeze(2).expand(-1, -1, 5, -1, -1), (3, 4, 5)),
])
def test_half_average_pools(channels, laid, pool):
    _same(*_pooled_both(pool, _array((2, channels, 9, 11), np.float16), laid))


def test_half_pool_without_a_batch():
    ours, theirs = (F.avg_pool2d(lib.tensor(_array((5, 9, 11), np.float16)), 3).numpy()
                    for lib, F in ((refgrad, RF), (torch, TF)))
    _same([ours], [theirs])


def test_integer_average_pools_truncate():
    a = np.random.default_rng(2).integers(-50, 50, (2, 3, 9, 11))
    for pool in (lambda F, x: F.avg_pool2d(x, 3, 2, 1),
                 lambda F, x: F.avg_pool3d(x[None], 3, 2, 1)):
        ours, theirs = (pool(F, lib.tensor(a)).numpy()
                        for lib, F in ((refgrad, RF), (torch, TF)))
        _same([ours], [theirs])


def _both(fn, *arrays):
    return [fn(lib, *(lib.tensor(a) for a in arrays)).numpy() for lib in (refgrad, torch)]


@pytest.mark.parametrize("dtype", [np.float16, *FLOATS])
@pytest.mark.parametrize("shape", [(1, 1), (7, 5), (37, 40), (300, 300)])
def test_trace(dtype, shape):
    a = _array(shape, dtype, seed=3)
    _same(*([r] for r in _both(lambda lib, x: lib.trace(x), a)))
    _same(*([r] for r in _both(lambda lib, x: x.t().trace(), a)))


@pytest.mark.parametrize("dtype", [np.float16, *FLOATS, np.int32])
@pytest.mark.parametrize("count, bins, minlength", [(5, 3, 0), (300, 20, 0), (4000, 7, 30)])
def test_weighted_bincount(dtype, count, bins, minlength):
    rng = np.random.default_rng(4)
    idx = rng.integers(0, bins, count)
    w = _array(count, np.float64, seed=5).astype(dtype)
    _same(*([r] for r in _both(
        lambda lib, i, w: lib.bincount(i, weights=w, minlength=minlength), idx, w)))


def _bag_gradients(dtype, count, mode, **options):
    rng = np.random.default_rng(6)
    table = _array((50, 19), dtype, seed=7)
    idx = rng.integers(0, 50 if count < 1000 else 12, count)
    offsets = np.unique(np.r_[0, rng.integers(0, count, max(1, count // 6))])
    weights = _array(count, dtype, seed=8) if options.pop("weighted", False) else None
    results = []
    for lib, F in ((refgrad, RF), (torch, TF)):
        w = lib.tensor(table, requires_grad=True)
        psw = None if weights is None else lib.tensor(weights, requires_grad=True)
        out = F.embedding_bag(lib.tensor(idx), w, lib.tensor(offsets), mode=mode,
                              per_sample_weights=psw, **options)
        out.backward(lib.tensor(_array(tuple(out.shape), dtype, seed=9)))
        results.append((out.detach().numpy(), w.grad.numpy()))
    return results


@pytest.mark.parametrize("dtype", [np.float16, *FLOATS])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("count", [40, 700, 5000])
def test_embedding_bag_weight_gradient(dtype, mode, count):
    _same(*_bag_gradients(dtype, count, mode))


@pytest.mark.parametrize("dtype", [np.float16, *FLOATS])
@pytest.mark.parametrize("mode, options", [
    ("sum", {"weighted": True}),
    ("sum", {"weighted": True, "scale_grad_by_freq": True}),
    ("mean", {"scale_grad_by_freq": True}),
    ("mean", {"padding_idx": 3}),
    ("sum", {"include_last_offset": True, "padding_idx": 0}),
])
def test_embedding_bag_weight_gradient_with_options(dtype, mode, options):
    _same(*_bag_gradients(dtype, 600, mode, **options))


@pytest.mark.parametrize("dtype", [np.float16, *FLOATS])
def test_embedding_bag_weighted_rows_skip_padding(dtype):
    _same(*_bag_gradients(dtype, 600, "sum", weighted=True, padding_idx=4))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, float("inf"), 3.0, 1.5])
@pytest.mark.parametrize("columns", [1, 2, 3, 4, 5, 8, 13, 40])
def test_cdist_adds_coordinates_as_torch_does(dtype, p, columns):
    x1, x2 = _array((3, 7, columns), dtype, seed=10), _array((3, 9, columns), dtype, seed=11)
    _same(*([r] for r in _both(lambda lib, a, b: lib.cdist(a, b, p=p), x1, x2)))


def test_cdist_of_broadcast_batches():
    x1, x2 = _array((1, 4, 6), np.float32, seed=12), _array((2, 5, 6), np.float32, seed=13)
    _same(*([r] for r in _both(lambda lib, a, b: lib.cdist(a, b), x1, x2)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("pool", [
    lambda F, x: F.lp_pool2d(x, 1, 3),
    lambda F, x: F.lp_pool2d(x, 1, (2, 3), 2, ceil_mode=True),
    lambda F, x: F.lp_pool2d(x, float("inf"), 3),
])
def test_power_average_pools_of_exact_powers(dtype, pool):
    _same(*_pooled_both(pool, _array((2, 5, 9, 11), dtype), False))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, float("inf")])
@pytest.mark.parametrize("columns", [1, 3, 4, 7, 8, 9, 13, 40])
def test_pdist_adds_lanes_as_torch_does(dtype, p, columns):
    x = _array((20, columns), dtype, seed=14)
    _same(*([r] for r in _both(lambda lib, a: lib.pdist(a, p=p), x)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("p", [2.0, 1.0, float("inf")])
@pytest.mark.parametrize("columns", [3, 8, 13])
def test_cdist_gradients(dtype, p, columns):
    x1, x2 = _array((3, 7, columns), dtype, seed=15), _array((3, 9, columns), dtype, seed=16)
    seed = _array((3, 7, 9), dtype, seed=17)
    results = []
    for lib in (refgrad, torch):
        a, b = lib.tensor(x1, requires_grad=True), lib.tensor(x2, requires_grad=True)
        lib.cdist(a, b, p=p).backward(lib.tensor(seed))
        results.append((a.grad.numpy(), b.grad.numpy()))
    _same(*results)
