"""Oracle test: a TensorDataset's batches, which refgrad gathers at once where it can,
against real torch's, which stacks the rows one by one.

Each batch must agree bitwise with torch's, with the same dtype, shape, strides, no base,
requires_grad False and a version of 0 (in the main process); a subclass of TensorDataset
must see its own __getitem__ called once per key, in torch's order; a key out of range
must raise torch's error; and the loader must leave the default generator where torch's
leaves it.
"""

import hashlib

import numpy as np
import pytest
import torch

import refgrad


def _facts(t):
    array = t.detach().numpy()
    # a worker's batch is rebuilt over shared memory, which counts as one write
    return (str(t.dtype).rsplit(".")[-1], tuple(t.shape), tuple(t.stride()), t._base is None,
            t.requires_grad, t._version, t.is_shared(), t.is_contiguous(),
            hashlib.md5(np.ascontiguousarray(array).tobytes()).hexdigest())


def _epoch(T, arrays, **kwargs):
    T.manual_seed(7)
    data = T.utils.data.TensorDataset(*(T.tensor(a) for a in arrays))
    batches = [[_facts(t) for t in batch]
               for batch in T.utils.data.DataLoader(data, **kwargs)]
    return batches, T.randint(0, 10**6, (3,)).tolist()


_rng = np.random.default_rng(0)
_CASES = {
    "float32_rows_int64_labels": (_rng.standard_normal((203, 8)).astype(np.float32),
                                  _rng.integers(0, 10, 203)),
    "images_with_a_unit_dim": (_rng.standard_normal((50, 1, 3, 2)).astype(np.float64),),
    "volumes_with_unit_dims": (_rng.standard_normal((12, 1, 2, 1, 3)).astype(np.float32),
                               _rng.standard_normal((12, 3, 1, 1, 1, 2)).astype(np.float32)),
    "small_dtypes": (_rng.standard_normal((40, 3)).astype(np.float16),
                     _rng.integers(0, 2, (40, 2)).astype(np.bool_),
                     _rng.integers(-5, 5, 40).astype(np.int8),
                     _rng.integers(0, 255, (40, 1)).astype(np.uint8)),
}


@pytest.mark.parametrize("case", sorted(_CASES))
@pytest.mark.parametrize("kwargs", [dict(batch_size=16, shuffle=True),
                                    dict(batch_size=7, shuffle=False, drop_last=True),
                                    dict(batch_size=64, shuffle=True, num_workers=2)],
                         ids=["shuffled", "drop_last", "workers"])
def test_batches_match_torch(case, kwargs):
    arrays = _CASES[case]
    assert _epoch(refgrad, arrays, **kwargs) == _epoch(torch, arrays, **kwargs)


def test_inference_mode_batches_are_inference_tensors():
    arrays = _CASES["float32_rows_int64_labels"]
    found = []
    for T in (torch, refgrad):
        data = T.utils.data.TensorDataset(*(T.tensor(a) for a in arrays))
        with T.inference_mode():
            batch = next(iter(T.utils.data.DataLoader(data, batch_size=5)))
        found.append([(t.is_inference(), t.requires_grad) for t in batch])
    assert found[0] == found[1]


def test_rows_requiring_grad_are_stacked_with_a_node():
    x = np.arange(12.0).reshape(6, 2)
    found = []
    for T in (torch, refgrad):
        data = T.utils.data.TensorDataset(T.tensor(x, requires_grad=True))
        (batch,) = next(iter(T.utils.data.DataLoader(data, batch_size=4)))
        found.append((type(batch.grad_fn).__name__, batch.requires_grad, batch.tolist()))
    assert found[0] == found[1]


def _calls(T):
    class Logged(T.utils.data.TensorDataset):
        def __getitem__(self, index):
            seen.append(index)
            return super().__getitem__(index)

    seen = []
    T.manual_seed(3)
    data = Logged(T.arange(20.0).reshape(10, 2), T.arange(10))
    batches = [[t.tolist() for t in b] for b in T.utils.data.DataLoader(data, 4, shuffle=True)]
    return seen, batches


def test_a_subclass_sees_each_of_its_rows_read():
    assert _calls(refgrad) == _calls(torch)


class _Keys:
    """A batch sampler that hands out the given lists of keys."""

    def __init__(self, keys):
        self.keys = keys

    def __iter__(self):
        return iter(self.keys)

    def __len__(self):
        return len(self.keys)


@pytest.mark.parametrize("keys", [[[0, 1], [2, 10]], [[-11]], [[1, -10, 3]], [[]],
                                  [(1, 2)], [[np.int64(1), 2]], [[True, 0]]])
def test_unusual_keys_and_refusals(keys):
    found = []
    for T in (torch, refgrad):
        data = T.utils.data.TensorDataset(T.arange(20.0).reshape(10, 2), T.arange(10))
        try:
            batches = [[(str(t.dtype), t.tolist()) for t in b]
                       for b in T.utils.data.DataLoader(data, batch_sampler=_Keys(keys))]
            found.append(("ok", batches))
        except Exception as error:  # noqa: BLE001 - the error itself is compared
            found.append((type(error).__name__, str(error)))
    assert found[0] == found[1]


def test_mismatched_lengths_after_construction():
    found = []
    for T in (torch, refgrad):
        data = T.utils.data.TensorDataset(T.arange(10.0), T.arange(10))
        data.tensors = (data.tensors[0], T.arange(3))
        try:
            found.append([[t.tolist() for t in b] for b in T.utils.data.DataLoader(data, 4)])
        except IndexError as error:
            found.append(str(error))
    assert found[0] == found[1]


def _split_epochs(T, make):
    T.manual_seed(5)
    data = T.utils.data.TensorDataset(T.arange(60.0).reshape(30, 2), T.arange(30) * 3)
    part = make(T, data)
    loader = T.utils.data.DataLoader(part, batch_size=4, shuffle=True)
    epochs = [[[_facts(t) for t in b] for b in loader] for _ in range(2)]
    return epochs, T.randint(0, 10**6, (2,)).tolist()


class _OwnSubset:
    """A Subset subclass with its own __getitems__, which the loader must call."""

    @staticmethod
    def make(T, data):
        class Logged(T.utils.data.Subset):
            def __getitem__(self, idx):
                return super().__getitem__(idx)

            def __getitems__(self, indices):
                _OwnSubset.seen.append(list(indices))
                return super().__getitems__(indices)

        return Logged(data, list(range(3, 27)))


_SPLITS = {
    "random_split": lambda T, data: T.utils.data.random_split(data, [0.7, 0.3])[0],
    "subset_of_subset": lambda T, data: T.utils.data.Subset(
        T.utils.data.Subset(data, list(range(29, -1, -1))), range(2, 20, 3)),
    "negative_indices": lambda T, data: T.utils.data.Subset(data, [-1, -30, 4, -7, 8]),
    "tensor_indices": lambda T, data: T.utils.data.Subset(data, T.arange(10, 20)),
    "own_getitems": _OwnSubset.make,
}


@pytest.mark.parametrize("split", sorted(_SPLITS))
def test_subsets_match_torch(split):
    _OwnSubset.seen = []
    got = _split_epochs(refgrad, _SPLITS[split]), list(_OwnSubset.seen)
    _OwnSubset.seen = []
    assert got == (_split_epochs(torch, _SPLITS[split]), _OwnSubset.seen)


@pytest.mark.parametrize("indices", [[0, 30], [1, -31], [2, 3.0]])
def test_subset_indices_out_of_range_or_odd(indices):
    found = []
    for T in (torch, refgrad):
        data = T.utils.data.TensorDataset(T.arange(30.0), T.arange(30))
        part = T.utils.data.Subset(data, indices)
        try:
            found.append([[t.tolist() for t in b] for b in T.utils.data.DataLoader(part, 2)])
        except Exception as error:  # noqa: BLE001 - the error itself is compared
            found.append((type(error).__name__, str(error)))
    assert found[0] == found[1]
