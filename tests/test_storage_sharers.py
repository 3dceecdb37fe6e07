"""White-box tests: the table of tensors over each memory, and growths that walk no heap."""

import gc

import numpy as np
import pytest

import refgrad as torch
from refgrad._backend import storage_root
from refgrad._storage_sharers import SHARERS, tensors_over


@pytest.fixture
def no_walks(monkeypatch):
    """Fail a test that asks the garbage collector for every object."""
    def refused(*args):
        raise AssertionError("gc.get_objects() was called")

    monkeypatch.setattr(gc, "get_objects", refused)


def test_growing_past_the_memory_walks_no_objects(no_walks):
    crowd = [[i] for i in range(50_000)]  # unrelated objects the collector tracks
    p = torch.arange(4.0)
    head, alias, data = p[:2], p.detach(), p.data
    s = p.untyped_storage()
    for step in range(200):
        s.resize_(16 + 8 * (step + 1))  # past the memory each time
        p.resize_(4 + 2 * (step + 1) + 1)  # and a tensor's own growth
        alias[0] = float(step)
    assert head[0].item() == data[0].item() == 199.0 and len(crowd) == 50_000
    assert {t.data_ptr() for t in (p, head, alias, data)} == {s.data_ptr()}


def test_entries_go_with_their_tensors_and_memory():
    gc.collect()
    before = len(SHARERS)
    x = torch.arange(3.0)
    key = id(storage_root(x._data))
    x.untyped_storage()
    parameters = [torch.nn.Parameter(x) for _ in range(5)]
    assert key in SHARERS and len(SHARERS[key][1]) == 6  # x and the five parameters
    del parameters
    assert len(SHARERS[key][1]) == 1
    del x
    gc.collect()
    assert key not in SHARERS and len(SHARERS) == before


def test_a_counter_s_aliases_are_cleared_of_dead_ones():
    x = torch.arange(3.0)
    kept = [x.detach() for _ in range(3)]
    assert [id(ref()) for ref in x._version_counter.aliases] == [id(t) for t in (x, *kept)]
    for _ in range(200):
        x.detach()
    held = x._version_counter.aliases
    assert len(held) < 64 and {id(ref()) for ref in held if ref() is not None} >= {
        id(t) for t in (x, *kept)}


def test_asking_twice_notes_a_tensor_once():
    x = torch.arange(3.0)
    for _ in range(3):
        x.untyped_storage()
    assert list(SHARERS[id(storage_root(x._data))][1]) == [id(x)]


def test_the_search_follows_views_and_drops_tensors_moved_away():
    x = torch.arange(6.0)
    views = [x[1:], x[1:][1:], x.view(2, 3).t()]
    moved = x.detach()
    moved.set_(torch.zeros(2))  # no longer over x's memory
    root = storage_root(x._data)
    found = tensors_over(root, (views[1],))
    assert {id(t) for t in found} == {id(t) for t in (x, *views)}
    assert all(isinstance(t._data, np.ndarray) for t in found)


def test_a_refused_write_leaves_the_tensor_as_it_was():
    x = torch.arange(6.0)
    w = x[2:4]
    x.untyped_storage().resize_(0)
    with pytest.raises(RuntimeError):
        w.index_add_(0, torch.tensor([0]), torch.ones(1))
    assert w._version == 0
    x.untyped_storage().resize_(24)  # back within the memory: the bytes are as they were
    assert w.tolist() == [2.0, 3.0]
