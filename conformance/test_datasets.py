"""torch.utils.data's datasets: TensorDataset, StackDataset, ConcatDataset, ChainDataset,
Subset and random_split, with their refusals in torch's words."""

import math
import warnings

import pytest
import torch
from torch.utils.data import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from torch.utils.data import dataset as dataset_module

from conformance._support import raises


class Tens(Dataset):
    """Sample i is 10 * i, for i below n."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return 10 * i

    def __len__(self):
        return self.n


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


def test_the_modules_hold_the_names_torch_keeps_there():
    assert torch.utils.data.TensorDataset is dataset_module.TensorDataset
    assert torch.utils.data.random_split is dataset_module.random_split
    assert issubclass(IterableDataset, Dataset)


def test_tensor_dataset_gives_rows_as_tuples():
    x, y = torch.arange(6.0).reshape(3, 2), torch.tensor([1, 0, 1])
    data = TensorDataset(x, y)
    assert len(data) == 3 and data.tensors[0] is x
    row = data[1]
    assert isinstance(row, tuple) and row[0].tolist() == [2.0, 3.0] and row[1].item() == 0
    assert data[1:][0].shape == (2, 2)
    with raises(AssertionError, "Size mismatch between tensors"):
        TensorDataset(torch.ones(3), torch.ones(4))
    TensorDataset()  # nothing to compare: built


def test_abstract_datasets_refuse():
    with raises(NotImplementedError, "Subclasses of Dataset should implement __getitem__."):
        Dataset()[0]
    with pytest.raises(TypeError, match="abstract method __iter__"):
        IterableDataset()


def test_concat_dataset_indexes_across_parts():
    both = Tens(3) + Tens(4)
    assert type(both) is ConcatDataset and len(both) == 7 and both.cumulative_sizes == [3, 7]
    assert [both[i] for i in range(7)] == [0, 10, 20, 0, 10, 20, 30]
    assert [both[i] for i in range(-7, 0)] == [both[i] for i in range(7)]
    assert ConcatDataset.cumsum([Tens(2), Tens(5)]) == [2, 7]
    with raises(ValueError, "absolute value of index should not exceed dataset length"):
        both[-8]
    with raises(IndexError, "list index out of range"):
        both[7]
    with raises(AssertionError, "datasets should not be an empty iterable"):
        ConcatDataset([])
    with raises(AssertionError, "ConcatDataset does not support IterableDataset"):
        ConcatDataset([Tens(2), Stream(2)])
    with pytest.warns(FutureWarning, match="`cummulative_sizes` attribute is renamed"):
        assert both.cummulative_sizes == [3, 7]


def test_chain_dataset_streams_one_after_another():
    chain = Stream(2) + Stream(3)
    assert type(chain) is ChainDataset and list(chain) == [0, 1, 0, 1, 2] and len(chain) == 5
    with raises(AssertionError, "ChainDataset only supports IterableDataset"):
        list(ChainDataset([Stream(2), Tens(2)]))
    with raises(AssertionError, "ChainDataset only supports IterableDataset"):
        len(ChainDataset([Stream(2), Tens(2)]))


def test_stack_dataset_as_tuples_and_dicts():
    pairs = StackDataset(Tens(3), TensorDataset(torch.arange(3)))
    assert len(pairs) == 3 and pairs[2][0] == 20 and pairs[2][1][0].item() == 2
    assert [s[0] for s in pairs.__getitems__([0, 2])] == [0, 20]
    named = StackDataset(a=Tens(3), b=Tens(3))
    assert named[1] == {"a": 10, "b": 10}
    assert named.__getitems__([2, 0]) == [{"a": 20, "b": 20}, {"a": 0, "b": 0}]
    with raises(ValueError, "Supported either ``tuple``- (via ``args``) or``dict``- (via "
                "``kwargs``) like input/output, but both types are given."):
        StackDataset(Tens(3), a=Tens(3))
    with raises(ValueError, "At least one dataset should be passed"):
        StackDataset()
    with raises(ValueError, "Size mismatch between datasets"):
        StackDataset(Tens(3), Tens(2))


def test_stack_dataset_checks_what_a_part_reads_at_once():
    class Short(Tens):
        def __getitems__(self, indices):
            return [10 * i for i in indices[:-1]]

    with raises(ValueError, "Nested dataset's output size mismatch. Expected 2, got 1"):
        StackDataset(Short(4), Tens(4)).__getitems__([1, 2])


def test_subset_reads_through_its_indices():
    sub = Subset(Tens(10), [3, 1, 4])
    assert len(sub) == 3 and sub[0] == 30 and sub.__getitems__([0, 2]) == [30, 40]
    assert list(sub) == [30, 10, 40]
    rows = Subset(TensorDataset(torch.arange(5.0)), [4, 0, 2])[[0, 1]]
    assert rows[0].tolist() == [4.0, 0.0]

    class OnlyGetitem(Subset):
        def __getitem__(self, idx):
            return 0

    with pytest.raises(NotImplementedError, match=r"\AOnlyGetitem overrides __getitem__ but "
                       r"not __getitems__\. .*\n\ndef __getitems__\(self, indices\):\n    "
                       r"return \[self\.__getitem__\(idx\) for idx in indices\]\Z"):
        OnlyGetitem(Tens(3), [0])


def test_random_split_deals_one_permutation_in_blocks():
    parts = random_split(range(10), [3, 7], generator=torch.Generator().manual_seed(4))
    order = torch.randperm(10, generator=torch.Generator().manual_seed(4)).tolist()
    assert [p.indices for p in parts] == [order[:3], order[3:]]
    assert list(parts[0]) == order[:3]  # range(10)[i] is i


def test_random_split_draws_from_the_default_generator_without_one():
    torch.manual_seed(5)
    parts = random_split(range(6), [2, 4])
    after = torch.rand(1)
    torch.manual_seed(5)
    order = torch.randperm(6).tolist()
    assert [p.indices for p in parts] == [order[:2], order[2:]]
    assert torch.equal(torch.rand(1), after)  # one randperm's draws, no more


@pytest.mark.parametrize("fractions, n", [
    ([0.3, 0.7], 10), ([0.5, 0.3, 0.2], 10), ([0.34, 0.33, 0.33], 10), ([0.25] * 4, 7),
    ([0.1, 0.1, 0.8], 31), ([1.0], 5)])
def test_random_split_by_fractions_hands_out_the_remainder_round_robin(fractions, n):
    counts = [math.floor(n * f) for f in fractions]
    for i in range(n - sum(counts)):
        counts[i % len(counts)] += 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parts = random_split(range(n), fractions, generator=torch.Generator().manual_seed(0))
    assert [len(p) for p in parts] == counts
    assert sorted(i for p in parts for i in p.indices) == list(range(n))


def test_random_split_warns_of_an_empty_split_and_refuses_bad_lengths():
    with pytest.warns(UserWarning) as caught:
        parts = random_split(range(2), [0.1, 0.9, 0.0])
    assert [len(p) for p in parts] == [1, 1, 0]
    assert [str(w.message) for w in caught] == [
        "Length of split at index 2 is 0. This might result in an empty dataset."]
    assert caught[0].filename == __file__
    with raises(ValueError, "Sum of input lengths does not equal the length of the input "
                "dataset!"):
        random_split(range(10), [3, 3])
    with raises(ValueError, "Fraction at index 0 is not between 0 and 1"):
        random_split(range(10), [1.5, -0.5])
