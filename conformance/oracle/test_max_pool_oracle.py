"""Oracle test: max pools pick the same element as torch's kernels, ties and NaNs included."""

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import refgrad
import refgrad.nn.functional as RF

LAYOUTS = {4: "channels_last", 5: "channels_last_3d"}


def _array(shape, seed, dtype=np.float32):
    """Values with many ties (few distinct numbers), and some NaNs and infinities."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, shape).astype(dtype)
    if dtype in (np.float32, np.float64):
        a[rng.random(shape) < 0.05] = np.nan
        a[rng.random(shape) < 0.03] = -np.inf
        a[rng.random(shape) < 0.03] = np.inf
        a[a == 0] = np.where(rng.random((a == 0).sum()) < 0.5, -0.0, 0.0)
    return a


def _pooled(lib, F, a, pool, laid):
    x = lib.tensor(a)
    if laid:
        x = x.contiguous(memory_format=getattr(lib, LAYOUTS[a.ndim]))
    x.requires_grad_()
    values, indices = pool(F, x)
    seed = lib.tensor(np.arange(values.numel(), dtype=a.dtype).reshape(tuple(values.shape)))
    values.backward(seed)
    return values, indices, x.grad


POOLS = [
    (2, lambda F, x: F.max_pool2d(x, 2, return_indices=True)),
    (2, lambda F, x: F.max_pool2d(x, 3, 1, 1, return_indices=True)),
    (2, lambda F, x: F.max_pool2d(x, (2, 3), (1, 2), (1, 1), return_indices=True)),
    (2, lambda F, x: F.max_pool2d(x, 3, 2, 1, dilation=2, return_indices=True)),
    (2, lambda F, x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True, return_indices=True)),
    (2, lambda F, x: F.max_pool2d(x, 1, return_indices=True)),
    (3, lambda F, x: F.max_pool3d(x, 2, return_indices=True)),
    (3, lambda F, x: F.max_pool3d(x, (2, 3, 2), 2, 1, ceil_mode=True, return_indices=True)),
]


@pytest.mark.parametrize("laid", [False, True])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("n", "pool"), POOLS)
def test_max_pool_values_indices_and_gradient_match_torch(n, pool, seed, laid):
    a = _array((2, 3, *[7 + d for d in range(n)]), seed, np.float64 if seed % 2 else np.float32)
    ours = _pooled(refgrad, RF, a, pool, laid)
    theirs = _pooled(torch, TF, a, pool, laid)
    for mine, torchs in zip(ours, theirs):
        assert mine.dtype == getattr(refgrad, str(torchs.dtype).split(".")[1])
        assert tuple(mine.shape) == tuple(torchs.shape)
        assert mine.stride() == torchs.stride()
        assert np.array_equal(mine.detach().numpy(), torchs.detach().numpy(), equal_nan=True)
    # A NaN's sign and a zero's sign are kept too: compare the bytes.
    assert ours[0].detach().numpy().tobytes() == theirs[0].detach().numpy().tobytes()


@pytest.mark.parametrize("n", [2, 3])
def test_max_pool_of_an_empty_batch_matches_torch(n):
    a = np.zeros((0, 2, *[5] * n), np.float32)
    pool = TF.max_pool2d if n == 2 else TF.max_pool3d
    ours = (RF.max_pool2d if n == 2 else RF.max_pool3d)(refgrad.tensor(a), 2, return_indices=True)
    theirs = pool(torch.tensor(a), 2, return_indices=True)
    for mine, torchs in zip(ours, theirs):
        assert tuple(mine.shape) == tuple(torchs.shape) and mine.stride() == torchs.stride()
