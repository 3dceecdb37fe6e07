"""DataLoader with num_workers > 0: what a dataset sees in a worker (get_worker_info, its own
copy, generators seeded from the epoch's base seed plus the worker's id), which worker reads
which batch, worker_init_fn, and persistent workers."""

import os
import random
import warnings

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info


class Seen(Dataset):
    """Sample i: i, the worker reading it, a draw from each generator, and the copy's tag."""

    def __init__(self, n=7):
        self.n, self.tag = n, "main"

    def __getitem__(self, i):
        info = get_worker_info()
        return (i, info.id, info.num_workers, torch.rand(()).item(), random.random(),
                float(np.random.rand()), self.tag)

    def __len__(self):
        return self.n


class Split(IterableDataset):
    """range(n), each worker reading every num_workers-th item from its id on."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        return iter(range(info.id, self.n, info.num_workers))


def _tag_copy(worker_id):
    get_worker_info().dataset.tag = f"w{worker_id}"


def test_batch_k_is_read_by_worker_k_mod_n_in_its_own_copy():
    dataset = Seen()
    loader = DataLoader(dataset, batch_size=2, num_workers=2, worker_init_fn=_tag_copy)
    batches = list(loader)
    assert [b[0].tolist() for b in batches] == [[0, 1], [2, 3], [4, 5], [6]]
    assert [b[1].tolist() for b in batches] == [[0, 0], [1, 1], [0, 0], [1]]
    assert {n for b in batches for n in b[2].tolist()} == {2}
    assert [b[6] for b in batches] == [("w0", "w0"), ("w1", "w1"), ("w0", "w0"), ("w1",)]
    assert get_worker_info() is None
    assert dataset.tag == "main" and get_worker_info() is None


def test_workers_draw_from_generators_seeded_by_the_base_seed_plus_their_id():
    g = torch.Generator().manual_seed(5)
    torch.manual_seed(0)
    random.seed(1)
    np.random.seed(2)
    main_draws = torch.rand(1), random.random(), np.random.rand()
    torch.manual_seed(0)
    random.seed(1)
    np.random.seed(2)
    batches = list(DataLoader(Seen(4), batch_size=1, num_workers=2, generator=g))
    assert (torch.rand(1), random.random(), np.random.rand()) == main_draws  # untouched
    base = torch.empty((), dtype=torch.int64).random_(
        generator=torch.Generator().manual_seed(5)).item()
    for worker in (0, 1):
        mine = [b for b in batches if b[1].item() == worker]
        torch_side = torch.Generator().manual_seed(base + worker)
        assert [b[3].item() for b in mine] == [torch.rand((), generator=torch_side).item()
                                               for _ in mine]
        python_side = random.Random(base + worker)
        assert [b[4].item() for b in mine] == [python_side.random() for _ in mine]


def test_iterable_datasets_split_by_worker_info_interleave():
    assert [b.tolist() for b in DataLoader(Split(9), batch_size=2, num_workers=2)] == [
        [0, 2], [1, 3], [4, 6], [5, 7], [8]]
    assert list(DataLoader(Split(5), batch_size=None, num_workers=2)) == [0, 1, 2, 3, 4]


def test_an_unsplit_stream_is_read_once_per_worker():
    class Whole(IterableDataset):
        def __iter__(self):
            return iter(range(3))

    assert [b.item() for b in DataLoader(Whole(), num_workers=2)] == [0, 0, 1, 1, 2, 2]


def test_persistent_workers_keep_their_state_and_draw_no_new_base_seed():
    g = torch.Generator().manual_seed(7)
    loader = DataLoader(Seen(6), batch_size=3, num_workers=2, persistent_workers=True,
                        generator=g, worker_init_fn=_tag_copy)
    first, second = list(loader), list(loader)
    base = torch.empty((), dtype=torch.int64).random_(
        generator=torch.Generator().manual_seed(7)).item()
    worker0 = torch.Generator().manual_seed(base)
    expected = [torch.rand((), generator=worker0).item() for _ in range(6)]
    assert first[0][3].tolist() + second[0][3].tolist() == expected
    assert second[1][6] == ("w1",) * 3
    one_draw = torch.Generator().manual_seed(7)
    torch.empty((), dtype=torch.int64).random_(generator=one_draw)
    assert torch.equal(g.get_state(), one_draw.get_state())  # one base seed for both epochs


@pytest.mark.parametrize("count", [1, 2])
def test_each_epoch_without_persistent_workers_draws_a_base_seed(count):
    g = torch.Generator().manual_seed(9)
    loader = DataLoader(Seen(7), batch_size=3, num_workers=count, generator=g)
    assert len(loader) == 3 and len(iter(loader)) == 3
    list(loader)
    three_draws = torch.Generator().manual_seed(9)
    for _ in range(2):  # one per iter(loader): len(iter(loader)), then list(loader)
        torch.empty((), dtype=torch.int64).random_(generator=three_draws)
    assert torch.equal(g.get_state(), three_draws.get_state())


def test_more_workers_than_cores_warns_when_the_loader_is_built():
    cores = len(os.sched_getaffinity(0))
    with pytest.warns(UserWarning) as caught:
        DataLoader(Seen(), num_workers=cores + 1)  # built, never iterated: nothing starts
    assert [str(w.message) for w in caught] == [
        f"This DataLoader will create {cores + 1} worker processes in total. Our suggested max "
        f"number of worker in current system is {cores}, which is smaller than what this "
        "DataLoader is going to create. Please be aware that excessive worker creation might get "
        "DataLoader running slow or even freeze, lower the worker number to avoid potential "
        "slowness/freeze if necessary."]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DataLoader(Seen(), num_workers=cores)


class Failing(Dataset):
    def __getitem__(self, i):
        if i == 2:
            raise ValueError("bad sample")
        if i == 3:
            raise KeyError("k")
        return i

    def __len__(self):
        return 5


def _caught_head(call):
    try:
        call()
    except Exception as error:  # the type is checked by the caller
        lines = str(error).rstrip().split("\n")
        return type(error), lines[0], lines[1], lines[-1], error.__context__
    raise AssertionError("nothing raised")


def test_a_workers_error_is_raised_with_its_type_worker_and_traceback():
    it = iter(DataLoader(Failing(), batch_size=None, num_workers=2))
    assert [next(it), next(it)] == [0, 1]
    assert _caught_head(lambda: next(it)) == (
        ValueError, "Caught ValueError in DataLoader worker process 0.",
        "Original Traceback (most recent call last):", "ValueError: bad sample", None)
    assert _caught_head(lambda: next(it)) == (
        KeyError, "Caught KeyError in DataLoader worker process 1.",
        "Original Traceback (most recent call last):", "KeyError: 'k'", None)
    assert next(it) == 4  # the epoch goes on


def test_a_worker_init_fn_error_is_raised_at_that_workers_first_batch():
    def init(worker_id):
        if worker_id == 1:
            raise RuntimeError("no init")

    it = iter(DataLoader(range(4), batch_size=None, num_workers=2, worker_init_fn=init))
    assert next(it) == 0
    assert _caught_head(lambda: next(it))[:4] == (
        RuntimeError, "Caught RuntimeError in DataLoader worker process 1.",
        "Original Traceback (most recent call last):", "RuntimeError: no init")
    assert next(it) == 2
