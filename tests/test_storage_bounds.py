"""How a shrunk storage is checked: at each view and index while some storage is smaller
than its memory, with no search for the tensors over it when it shrinks or grows back."""

import gc

import pytest

import refgrad as torch
from refgrad._storage_sizes import SIZES


@pytest.fixture
def no_walks(monkeypatch):
    """Fail a test that asks the garbage collector for every object."""
    def refused(*args):
        raise AssertionError("gc.get_objects() was called")

    monkeypatch.setattr(gc, "get_objects", refused)


def test_freeing_and_bringing_back_a_storage_walks_no_objects(no_walks):
    crowd = [[i] for i in range(50_000)]  # unrelated objects the collector tracks
    p = torch.arange(6.0)
    head, alias = p[:2], p.detach()
    s = p.untyped_storage()
    for step in range(300):
        s.resize_(0)
        with pytest.raises(RuntimeError, match="out of bounds for storage of size 0"):
            alias[:1]
        s.resize_(4)  # part of the way back: the memory stays, nothing is searched
        assert alias[:1].tolist() == [step - 1.0 if step else 0.0]
        s.resize_(24)
        p.fill_(step)
    assert head.tolist() == [299.0, 299.0] and len(crowd) == 50_000
    assert id(s._array) not in SIZES  # back to its memory: no view pays for the check


def test_the_table_is_empty_when_no_storage_is_smaller_than_its_memory():
    gc.collect()  # what earlier tests left goes first
    before = len(SIZES)
    x = torch.arange(6.0)
    x.untyped_storage().resize_(0)
    assert id(x.untyped_storage()._array) in SIZES and len(SIZES) == before + 1
    del x
    gc.collect()
    assert len(SIZES) == before  # the entry went with the memory


def test_writes_through_views_still_count_after_a_shrink():
    x = torch.arange(6.0, requires_grad=True).clone()
    s = x.untyped_storage()
    s.resize_(8)
    head = x[:2]
    head.mul_(2)
    assert head._version == x._version == 1 and head.grad_fn.name() == "AsStridedBackward0"
    s.resize_(24)
    x[1:3].add_(1)  # grown back: views past the old end are made again
    assert x._version == 2


def test_growing_past_the_memory_still_finds_every_tensor_over_it():
    x = torch.arange(6.0)
    alias, view = x.data, x[2:]
    x.untyped_storage().resize_(48)
    x[3] = -1.0
    assert alias[3].item() == view[1].item() == -1.0
    assert alias.untyped_storage() is view.untyped_storage() is x.untyped_storage()


def test_sharing_keeps_the_address_and_the_link_to_numpy():
    import numpy as np

    a = np.ones(3, dtype=np.float32)
    t = torch.from_numpy(a)
    pointer = t.data_ptr()
    t.share_memory_()  # torch moves it (a new address, no link to `a`): a named difference
    a[0] = 5.0
    assert t.is_shared() and t.data_ptr() == pointer and t[0].item() == 5.0


@pytest.mark.parametrize("read", [
    lambda x: x.view(2, 3).index_select(1, torch.tensor([0])),
    lambda x: x.view(2, 3).gather(1, torch.zeros(2, 1, dtype=torch.int64)),
    lambda x: torch.put(x, torch.tensor([0]), torch.tensor([1.0])),
    lambda x: x.put(torch.tensor([0]), torch.tensor([1.0])),
])
def test_reads_torch_crashes_on_are_refused_as_not_allocated(read):
    from refgrad._storage_reads import NOT_ALLOCATED

    x = torch.arange(6.0)
    x.untyped_storage().resize_(0)
    with pytest.raises(RuntimeError) as caught:
        read(x)
    assert str(caught.value) == NOT_ALLOCATED
    x.untyped_storage().resize_(24)
    assert read(x).numel() in (2, 6)


@pytest.mark.parametrize("read", [repr, str, lambda t: t.numpy(), lambda t: t.tolist(),
                                  lambda t: t.view_made_before.item()])
def test_reads_past_a_smaller_storage_are_refused_where_torch_reads_freed_memory(read):
    from refgrad._storage_reads import PAST_THE_END

    class Held(torch.Tensor):  # a subclass may carry attributes
        pass

    x = torch.arange(6.0).as_subclass(Held)
    x.view_made_before = x[5]  # 20 bytes in, as far as x reaches
    x.untyped_storage().resize_(8)
    with pytest.raises(RuntimeError) as caught:
        read(x)
    needed = 24
    assert str(caught.value) == PAST_THE_END.format(needed, 8)
    assert x[:2].tolist() == [0.0, 1.0] and repr(x[:2]) == "Held([0., 1.])"
