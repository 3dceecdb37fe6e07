"""What a batch from a DataLoader worker is in the main process: rebuilt from a pickle over
shared memory, so new objects throughout, tensors shared with _version 1, and stacked in the
worker with out=, which refuses samples that require grad."""

import pytest
import torch
from torch.utils.data import DataLoader, Dataset

from conformance._support import raises


class Tag:
    """A plain object, which default_convert hands on as it is."""

    def __init__(self, i):
        self.seen = [i]


class Rows(Dataset):
    """Rows of a tensor of its own, handed out as views, each with a Tag beside it."""

    def __init__(self, requires_grad=False):
        self.data = torch.arange(6.0).reshape(3, 2).requires_grad_(requires_grad)
        self.tags = [Tag(i) for i in range(3)]

    def __len__(self):
        return 3

    def __getitem__(self, i):
        return self.data[i] if self.data.requires_grad else (self.data[i], self.tags[i])


class Labelled(Rows):
    def __getitem__(self, i):
        return self.data[i], i


class Leaves(Dataset):
    def __init__(self, make):
        self.make = make

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return self.make(i)


def test_a_worker_batch_is_a_shared_copy_with_version_one():
    rows = Rows()
    for (row, tag) in DataLoader(rows, batch_size=None, num_workers=1):
        assert row._version == 1 and row.is_shared() and row._base is None
        row.zero_()
        tag.seen.append("seen")
    assert rows.data.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert [t.seen for t in rows.tags] == [[0], [1], [2]]


def test_without_workers_the_dataset_hands_out_its_own_objects():
    rows = Rows()
    for (row, tag) in DataLoader(rows, batch_size=None):
        assert row._version == 0 and not row.is_shared()
        assert row.untyped_storage().data_ptr() == rows.data.untyped_storage().data_ptr()
        assert tag is rows.tags[int(row[0].item()) // 2]
        tag.seen.append("seen")
    assert [t.seen for t in rows.tags] == [[0, "seen"], [1, "seen"], [2, "seen"]]


@pytest.mark.parametrize("workers", [1, 2])
def test_collated_worker_batches_are_shared_with_version_one(workers):
    batches = list(DataLoader(Labelled(), batch_size=2, num_workers=workers))
    assert [b[0].tolist() for b in batches] == [[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0]]]
    for rows, labels in batches:
        assert rows._version == 1 and rows.is_shared()
        assert labels._version == 1 and labels.is_shared()


def test_main_process_batches_keep_version_zero():
    for rows, labels in DataLoader(Labelled(), batch_size=2):
        assert rows._version == 0 and not rows.is_shared() and labels._version == 0


def test_a_worker_cannot_stack_samples_that_require_grad():
    with pytest.raises(RuntimeError) as caught:
        next(iter(DataLoader(Rows(requires_grad=True), batch_size=2, num_workers=1)))
    message = str(caught.value)
    assert message.startswith("Caught RuntimeError in DataLoader worker process 0.\n")
    assert message.endswith(
        "RuntimeError: stack(): functions with out=... arguments don't support automatic "
        "differentiation, but one of the arguments requires grad.\n")
    batch = next(iter(DataLoader(Rows(requires_grad=True), batch_size=2)))
    assert batch.requires_grad and type(batch.grad_fn).__name__ == "StackBackward0"


def test_a_worker_stacks_in_the_first_sample_s_dtype():
    mixed = Leaves(lambda i: torch.tensor(1) if i == 0 else torch.tensor(1.5))
    assert next(iter(DataLoader(mixed, batch_size=2))).dtype == torch.float32
    with pytest.raises(TypeError) as caught:
        next(iter(DataLoader(mixed, batch_size=2, num_workers=1)))
    assert type(caught.value) is TypeError and str(caught.value).endswith(
        "TypeError: torch.cat(): input types can't be cast to the desired output type Long\n")


def test_a_leaf_that_requires_grad_crosses_as_a_leaf():
    leaf = torch.ones(2, requires_grad=True)
    for got in DataLoader(Leaves(lambda i: leaf), batch_size=None, num_workers=1):
        assert got is not leaf and got.requires_grad and got.is_leaf and got._version == 1


def test_views_of_one_storage_still_share_it_after_crossing():
    base = torch.arange(4.0)
    head, tail = base[:2], base[2:]
    pairs = Leaves(lambda i: (head, tail, head))
    for first, second, again in DataLoader(pairs, batch_size=None, num_workers=1):
        assert first is again
        assert first.untyped_storage().data_ptr() == second.untyped_storage().data_ptr()
        first[1] = 7.0
        assert again.tolist() == [0.0, 7.0] and base.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_views_keep_their_offsets_and_strides():
    base = torch.arange(12.0).reshape(3, 4)
    cols = Leaves(lambda i: base[:, i::2])
    got = list(DataLoader(cols, batch_size=None, num_workers=1))
    assert [g.stride() for g in got] == [(4, 2), (4, 2)]
    assert [g.tolist() for g in got] == [base[:, 0::2].tolist(), base[:, 1::2].tolist()]


def test_a_non_leaf_that_requires_grad_cannot_cross():
    leaf = torch.ones(2, requires_grad=True)
    words = ("Cowardly refusing to serialize non-leaf tensor which requires_grad, since "
             "autograd does not support crossing process boundaries.  If you just want to "
             "transfer the data, call detach() on the tensor before serializing (e.g., putting "
             "it on the queue).")
    loader = DataLoader(Leaves(lambda i: leaf * 2), batch_size=None, num_workers=1, timeout=5)
    if torch.__name__ == "torch":  # torch's worker prints the error; its loader then waits
        with pytest.raises(RuntimeError, match="^DataLoader timed out after 5 seconds$"):
            next(iter(loader))
    else:
        with raises(RuntimeError, words):
            next(iter(loader))
