"""How a shrink sets the view check: only on the tensors over that storage, with views made
before it still watched, and dropped from their set when they die."""

import gc

import refgrad as torch
from refgrad._storage_bounds import CheckedViews


def test_only_the_shrunk_storages_tensors_are_checked():
    x, other = torch.arange(6.0), torch.arange(6.0)
    other_view = other[1:]
    x.untyped_storage().resize_(8)
    assert type(x._version_counter.views) is CheckedViews
    assert type(other._version_counter.views) is set and other_view is not None


def test_views_made_before_the_shrink_stay_watched_and_leave_when_they_die():
    x = torch.arange(6.0)
    before = x[:1]
    x.untyped_storage().resize_(8)
    views = x._version_counter.views
    assert [r() for r in views] == [before]
    after = x[:2]
    assert {r() for r in views} == {before, after}
    del before, after
    gc.collect()
    assert len(views) == 0


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
