"""Oracle test: seeded data loading in refgrad and in real torch, compared exactly.

Each case builds a dataset and a loader (or a split, or a sampler) against a module ``T``
(torch or refgrad) after the same seed, and reads it for two epochs; the batches must agree
in values and dtypes, and the default generator must be left in the same state.
"""

import random

import numpy as np
import pytest
import torch

import refgrad


def _plain(value):
    """A batch as nested Python values, with each tensor's dtype named."""
    if hasattr(value, "tolist") and hasattr(value, "dtype") and not isinstance(value, np.ndarray):
        return (str(value.dtype).rsplit(".")[-1], value.tolist())
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value).__name__, [_plain(v) for v in value]
    return value


def _table(T, n=11):
    return T.utils.data.TensorDataset(T.arange(n * 2.0).reshape(n, 2), T.arange(n) % 3)


def _augmenting(T):
    """A dataset, for module T, whose samples draw from T's generator, Python's and NumPy's,
    and name the worker that read them."""

    class Augmenting(T.utils.data.Dataset):
        def __getitem__(self, i):
            info = T.utils.data.get_worker_info()
            return {"i": i, "noise": T.rand(2), "python": random.random(),
                    "numpy": float(np.random.rand()), "worker": info.id if info else -1}

        def __len__(self):
            return 9

    return Augmenting()


CASES = {
    "shuffle, default generator": lambda T: T.utils.data.DataLoader(
        _table(T), batch_size=4, shuffle=True),
    "shuffle, own generator": lambda T: T.utils.data.DataLoader(
        _table(T), batch_size=3, shuffle=True, drop_last=True,
        generator=T.Generator().manual_seed(3)),
    "sequential, unbatched": lambda T: T.utils.data.DataLoader(_table(T, 4), batch_size=None),
    "random sampler with replacement": lambda T: T.utils.data.DataLoader(
        _table(T), batch_size=5, sampler=T.utils.data.RandomSampler(
            _table(T), replacement=True, num_samples=40)),
    "weighted sampler": lambda T: T.utils.data.DataLoader(
        _table(T), batch_size=4, sampler=T.utils.data.WeightedRandomSampler(
            [0.1 * (k + 1) for k in range(11)], 12)),
    "subset random sampler": lambda T: T.utils.data.DataLoader(
        _table(T), batch_size=2, sampler=T.utils.data.SubsetRandomSampler([1, 4, 6, 9])),
    "distributed sampler": lambda T: [list(T.utils.data.DistributedSampler(
        range(11), 3, rank, seed=4)) for rank in range(3)],
    "random split": lambda T: [list(part) for part in T.utils.data.random_split(
        range(20), [0.5, 0.3, 0.2])],
    "augmenting, main process": lambda T: T.utils.data.DataLoader(
        _augmenting(T), batch_size=2, shuffle=True),
    "augmenting, two workers": lambda T: T.utils.data.DataLoader(
        _augmenting(T), batch_size=2, shuffle=True, num_workers=2),
}


def _read(T, case, seed):
    T.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed % 2**32)
    made = case(T)
    epochs = [_plain(list(made)) for _ in range(2)]
    return epochs, T.get_rng_state().numpy(), random.random(), float(np.random.rand())


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 3])
@pytest.mark.parametrize("name", list(CASES))
def test_seeded_loading_matches(name, seed):
    (theirs, their_state, *their_rest) = _read(torch, CASES[name], seed)
    (ours, our_state, *our_rest) = _read(refgrad, CASES[name], seed)
    assert ours == theirs
    assert np.array_equal(our_state, their_state) and our_rest == their_rest
