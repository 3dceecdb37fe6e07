"""torch.utils.data.DataLoader without workers: the batches it gives, the seeds it draws and
from which generator, len(), iterable datasets, and its refusals and warnings in torch's
words."""

import warnings

import pytest
import torch
from torch.utils.data import (
    BatchSampler,
    DataLoader,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    TensorDataset,
    get_worker_info,
)
from torch.utils.data import dataloader as dataloader_module

from conformance._support import raises

EXCLUSIVE = ("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
             "drop_last")


class Stream(IterableDataset):
    def __init__(self, n, reported=None):
        self.n, self.reported = n, reported

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.reported

    def __repr__(self):
        return "Stream()"


def _keys(loader):
    return [batch[0].tolist() for batch in loader]


DATA = TensorDataset(torch.arange(10), torch.arange(10.0))


def test_the_loader_lives_where_torch_keeps_it():
    assert torch.utils.data.DataLoader is dataloader_module.DataLoader
    assert get_worker_info() is None


@pytest.mark.parametrize("batch_size, drop_last", [(1, False), (3, False), (3, True), (5, True)])
def test_batches_in_order(batch_size, drop_last):
    loader = DataLoader(DATA, batch_size=batch_size, drop_last=drop_last)
    expected = [list(range(i, min(i + batch_size, 10))) for i in range(0, 10, batch_size)]
    expected = [b for b in expected if len(b) == batch_size or not drop_last]
    assert _keys(loader) == expected and len(loader) == len(expected)
    batch = next(iter(loader))
    assert type(batch) is list and batch[1].dtype == torch.float32


def test_batch_size_none_reads_single_samples_unbatched():
    loader = DataLoader(DATA, batch_size=None)
    first = next(iter(loader))
    assert type(first) is list and first[0].shape == () and len(loader) == 10
    assert list(DataLoader(range(3), batch_size=None)) == [0, 1, 2]  # numbers left as they are


def test_shuffle_draws_the_base_seed_then_the_samplers_seed():
    torch.manual_seed(0)
    first = _keys(DataLoader(DATA, batch_size=4, shuffle=True))
    after = torch.rand(1)
    torch.manual_seed(0)
    torch.empty((), dtype=torch.int64).random_()  # the epoch's base seed
    order = torch.randperm(10, generator=torch.Generator().manual_seed(
        int(torch.empty((), dtype=torch.int64).random_().item()))).tolist()
    assert first == [order[:4], order[4:8], order[8:]]
    assert torch.equal(torch.rand(1), after)


def test_a_generator_gives_both_draws_and_repeats():
    def epochs(seed):
        loader = DataLoader(DATA, batch_size=4, shuffle=True,
                            generator=torch.Generator().manual_seed(seed))
        return _keys(loader), _keys(loader)

    torch.manual_seed(1)
    before = torch.rand(1)
    torch.manual_seed(1)
    one = epochs(3)
    assert torch.equal(torch.rand(1), before)  # the default generator untouched
    assert one == epochs(3) and one[0] != one[1]
    g = torch.Generator().manual_seed(3)
    torch.empty((), dtype=torch.int64).random_(generator=g)
    order = torch.randperm(10, generator=g).tolist()
    assert one[0] == [order[:4], order[4:8], order[8:]]


def test_sampler_and_batch_sampler_are_used_as_given():
    assert _keys(DataLoader(DATA, sampler=[3, 1], batch_size=2)) == [[3, 1]]
    assert _keys(DataLoader(DATA, batch_sampler=[[0, 9], [5]])) == [[0, 9], [5]]
    loader = DataLoader(DATA, batch_size=4, shuffle=True)
    assert type(loader.sampler) is RandomSampler and type(loader.batch_sampler) is BatchSampler
    assert type(DataLoader(DATA).sampler) is SequentialSampler
    assert DataLoader(DATA, collate_fn=len, batch_size=3).collate_fn is len
    assert list(DataLoader(DATA, collate_fn=len, batch_size=3)) == [3, 3, 3, 1]


@pytest.mark.parametrize("options, kind, message", [
    (dict(shuffle=True, sampler=range(3)), ValueError,
     "sampler option is mutually exclusive with shuffle"),
    (dict(batch_sampler=[[0]], batch_size=2), ValueError, EXCLUSIVE),
    (dict(batch_sampler=[[0]], shuffle=True), ValueError, EXCLUSIVE),
    (dict(batch_sampler=[[0]], sampler=[0]), ValueError, EXCLUSIVE),
    (dict(batch_sampler=[[0]], drop_last=True), ValueError, EXCLUSIVE),
    (dict(batch_size=None, drop_last=True), ValueError,
     "batch_size=None option disables auto-batching and is mutually exclusive with drop_last"),
    (dict(num_workers=-1), ValueError,
     "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing."),
    (dict(timeout=-1), ValueError, "timeout option should be non-negative"),
    (dict(prefetch_factor=2), ValueError,
     "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to "
     "enable multiprocessing, otherwise set prefetch_factor to None."),
    (dict(num_workers=1, prefetch_factor=-1), ValueError,
     "prefetch_factor option should be non-negative"),
    (dict(persistent_workers=True), ValueError,
     "persistent_workers option needs num_workers > 0"),
    (dict(multiprocessing_context="fork"), ValueError,
     "multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
     "but got num_workers=0"),
    (dict(num_workers=1, multiprocessing_context=3), TypeError,
     "multiprocessing_context option should be a valid context object or a string specifying "
     "the start method, but got multiprocessing_context=3"),
    (dict(batch_size=0), ValueError,
     "batch_size should be a positive integer value, but got batch_size=0"),
    (dict(drop_last=1), ValueError, "drop_last should be a boolean value, but got drop_last=1"),
])
def test_refusals(options, kind, message):
    with raises(kind, message):
        DataLoader(DATA, **options)


def test_sampling_options_are_fixed_once_built():
    loader = DataLoader(DATA)
    for name in ("batch_size", "sampler", "batch_sampler", "drop_last", "dataset"):
        with raises(ValueError, f"{name} attribute should not be set after DataLoader is "
                    "initialized"):
            setattr(loader, name, None)
    loader.num_workers = 0


def test_the_epoch_iterator():
    it = iter(DataLoader(DATA, batch_size=3))
    assert type(it).__name__ == "_SingleProcessDataLoaderIter" and len(it) == 4
    assert iter(it) is it and next(it)[0].tolist() == [0, 1, 2]
    with raises(AssertionError, "_SingleProcessDataLoaderIter requires timeout == 0"):
        iter(DataLoader(DATA, timeout=1))


@pytest.mark.parametrize("options, expected", [
    (dict(), [[0], [1], [2], [3], [4], [5], [6]]),
    (dict(batch_size=3), [[0, 1, 2], [3, 4, 5], [6]]),
    (dict(batch_size=3, drop_last=True), [[0, 1, 2], [3, 4, 5]]),
])
def test_iterable_datasets_are_read_as_streams(options, expected):
    assert [b.tolist() for b in DataLoader(Stream(7), **options)] == expected
    assert list(DataLoader(Stream(3), batch_size=None)) == [0, 1, 2]


@pytest.mark.parametrize("option, value", [
    ("shuffle", True), ("sampler", [1]), ("batch_sampler", [[1]])])
def test_iterable_datasets_take_no_sampling_options(option, value):
    with raises(ValueError, "DataLoader with IterableDataset: expected unspecified "
                f"{option} option, but got {option}={value}"):
        DataLoader(Stream(3), **{option: value})


def test_an_iterable_datasets_length_and_the_warning_past_it():
    assert len(DataLoader(Stream(9, 3), batch_size=2, drop_last=True)) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(list(DataLoader(Stream(9, reported=3), batch_size=2))) == 5  # len() not asked
    loader = DataLoader(Stream(9, reported=3), batch_size=2)
    assert len(loader) == 2
    with pytest.warns(UserWarning) as caught:
        assert len(list(loader)) == 5
    assert [str(w.message) for w in caught] == [
        "Length of IterableDataset Stream() was reported to be 3(when accessing len(dataloader)), "
        f"but {n} samples have been fetched. " for n in (4, 5)]


def test_pin_memory_without_an_accelerator_warns_and_goes_on():
    no_accelerator = ("'pin_memory' argument is set as true but no accelerator is found, then "
                      "device pinned memory won't be used.")
    with pytest.warns(UserWarning) as caught:
        assert _keys(DataLoader(DATA, batch_size=5, pin_memory=True)) == [[0, 1, 2, 3, 4],
                                                                          [5, 6, 7, 8, 9]]
    assert [str(w.message) for w in caught] == [no_accelerator]
    with pytest.warns(UserWarning) as caught:
        iter(DataLoader(DATA, pin_memory=True, pin_memory_device="cuda"))
    assert [str(w.message) for w in caught] == [
        "pin_memory_device is deprecated, the current accelerator will be used as the device,"
        "ignore pin_memory_device='cuda'.", no_accelerator]


def test_no_warning_in_plain_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _keys(DataLoader(DATA, batch_size=4, shuffle=True))
