"""torch.utils.data's samplers, DistributedSampler among them: the keys they give, the draws
they make from which generator (so that a seeded shuffle repeats torch's), and their
refusals."""

import pytest
import torch
from torch.utils.data import (
    BatchSampler,
    DistributedSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from torch.utils.data import sampler as sampler_module

from conformance._support import raises


def _one_seed_generator():
    """The generator a RandomSampler without one makes: seeded by one default draw."""
    seed = int(torch.empty((), dtype=torch.int64).random_().item())
    return torch.Generator().manual_seed(seed)


def test_the_module_holds_the_names():
    assert torch.utils.data.RandomSampler is sampler_module.RandomSampler
    with raises(NotImplementedError, ""):
        iter(Sampler())


def test_sequential_sampler():
    assert list(SequentialSampler(range(4))) == [0, 1, 2, 3]
    assert len(SequentialSampler(range(4))) == 4


def test_random_sampler_seeds_a_fresh_generator_from_one_default_draw():
    torch.manual_seed(0)
    first, second = list(RandomSampler(range(7))), list(RandomSampler(range(7)))
    after = torch.rand(1)
    torch.manual_seed(0)
    assert first == torch.randperm(7, generator=_one_seed_generator()).tolist()
    assert second == torch.randperm(7, generator=_one_seed_generator()).tolist()
    assert torch.equal(torch.rand(1), after)  # one number per epoch, whatever the length


def test_random_sampler_cuts_whole_permutations_at_num_samples():
    g = torch.Generator().manual_seed(1)
    drawn = list(RandomSampler(range(5), num_samples=12, generator=g))
    g.manual_seed(1)
    whole = [torch.randperm(5, generator=g).tolist() for _ in range(3)]
    assert drawn == whole[0] + whole[1] + whole[2][:2]
    assert len(RandomSampler(range(5), num_samples=12)) == 12


def test_random_sampler_with_replacement_draws_in_blocks_of_32():
    g = torch.Generator().manual_seed(2)
    drawn = list(RandomSampler(range(6), replacement=True, num_samples=70, generator=g))
    g.manual_seed(2)
    blocks = [torch.randint(high=6, size=(n,), dtype=torch.int64, generator=g).tolist()
              for n in (32, 32, 6)]
    assert drawn == blocks[0] + blocks[1] + blocks[2]


@pytest.mark.parametrize("make, kind, message", [
    (lambda: RandomSampler(range(3), replacement=1), TypeError,
     "replacement should be a boolean value, but got replacement=1"),
    (lambda: RandomSampler(range(3), num_samples=0), ValueError,
     "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda: RandomSampler(range(0)), ValueError,
     "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda: RandomSampler(range(3), num_samples=2.0), ValueError,
     "num_samples should be a positive integer value, but got num_samples=2.0"),
    (lambda: WeightedRandomSampler([1, 2], 0), ValueError,
     "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda: WeightedRandomSampler([1, 2], True), ValueError,
     "num_samples should be a positive integer value, but got num_samples=True"),
    (lambda: WeightedRandomSampler([1, 2], 2, replacement=0), ValueError,
     "replacement should be a boolean value, but got replacement=0"),
    (lambda: WeightedRandomSampler([[1, 2]], 2), ValueError,
     "weights should be a 1d sequence but given weights have shape (1, 2)"),
    (lambda: BatchSampler(range(3), 0, False), ValueError,
     "batch_size should be a positive integer value, but got batch_size=0"),
    (lambda: BatchSampler(range(3), True, False), ValueError,
     "batch_size should be a positive integer value, but got batch_size=True"),
    (lambda: BatchSampler(range(3), 2, None), ValueError,
     "drop_last should be a boolean value, but got drop_last=None"),
])
def test_sampler_refusals(make, kind, message):
    with raises(kind, message):
        make()


def test_subset_random_sampler_permutes_its_keys_directly():
    torch.manual_seed(3)
    drawn = list(SubsetRandomSampler([10, 20, 30, 40]))
    torch.manual_seed(3)
    assert drawn == [[10, 20, 30, 40][i] for i in torch.randperm(4).tolist()]
    assert len(SubsetRandomSampler([1, 2])) == 2


def test_weighted_random_sampler_is_one_multinomial():
    sampler = WeightedRandomSampler([1, 2, 0.5], 8, generator=torch.Generator().manual_seed(4))
    assert sampler.weights.dtype == torch.float64 and len(sampler) == 8
    expected = torch.multinomial(torch.tensor([1, 2, 0.5], dtype=torch.float64), 8, True,
                                 generator=torch.Generator().manual_seed(4)).tolist()
    assert list(sampler) == expected
    with raises(RuntimeError,
                "cannot sample n_sample > prob_dist.size(-1) samples without replacement"):
        list(WeightedRandomSampler([1, 2], 3, replacement=False))


@pytest.mark.parametrize("n, size", [(10, 4), (8, 4), (3, 5), (0, 2)])
def test_batch_sampler_groups_keys(n, size):
    keep = BatchSampler(range(n), size, drop_last=False)
    drop = BatchSampler(range(n), size, drop_last=True)
    keys = list(range(n))
    whole = [keys[i : i + size] for i in range(0, n, size)]
    assert list(keep) == whole and len(keep) == len(whole)
    full = [b for b in whole if len(b) == size]
    assert list(drop) == full and len(drop) == len(full)


@pytest.mark.parametrize("n, replicas", [(7, 3), (9, 3), (2, 4), (8, 4)])
@pytest.mark.parametrize("drop_last", [False, True])
def test_distributed_sampler_shards_one_permutation(n, replicas, drop_last):
    shards = [DistributedSampler(range(n), replicas, rank, seed=3, drop_last=drop_last)
              for rank in range(replicas)]
    order = torch.randperm(n, generator=torch.Generator().manual_seed(3)).tolist()
    size = (n // replicas) if drop_last else -(-n // replicas)
    padded = (order * (1 + replicas))[: size * replicas]
    assert [list(s) for s in shards] == [padded[r::replicas] for r in range(replicas)]
    assert {len(s) for s in shards} == {size} and shards[0].total_size == size * replicas
    shards[0].set_epoch(2)
    order = torch.randperm(n, generator=torch.Generator().manual_seed(5)).tolist()
    assert list(shards[0]) == (order * (1 + replicas))[: size * replicas][::replicas]
    plain = DistributedSampler(range(n), replicas, 0, shuffle=False, drop_last=drop_last)
    assert list(plain) == (list(range(n)) * (1 + replicas))[: size * replicas][::replicas]


@pytest.mark.parametrize("options, message", [
    (dict(), "Default process group has not been initialized, please make sure to call "
             "init_process_group."),
    (dict(num_replicas=2, rank=2), "Invalid rank 2, rank should be in the interval [0, 1]"),
    (dict(num_replicas=2, rank=-1), "Invalid rank -1, rank should be in the interval [0, 1]"),
])
def test_distributed_sampler_refusals(options, message):
    with raises(ValueError, message):
        DistributedSampler(range(5), **options)
