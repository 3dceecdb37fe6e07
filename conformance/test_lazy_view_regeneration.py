"""A view whose base was written gets its new grad_fn when it is next needed, not at the write:
its node's sequence number, and so the order in which independent branches' hooks run,
is torch's. The same assertions run on torch."""

import copy

import pytest
import torch
from torch.autograd.grad_mode import _force_original_view_tracking


def _order(roots, named):
    """Backward through the sum of ``roots``; the names of ``named``'s nodes as they ran."""
    ran = []
    for name, node in named:
        node.register_hook(lambda gi, go, name=name: ran.append(name))
    sum(r.sum() for r in roots).backward()
    return ran


def _written():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[:2]
    b.mul_(2)
    return x, b, v


def test_a_view_read_after_a_newer_node_runs_before_it():
    x, b, v = _written()
    n = x.exp()
    assert _order([v, n], [("v", v.grad_fn), ("n", n.grad_fn)]) == ["v", "n"]
    assert v.grad_fn._sequence_nr() > n.grad_fn._sequence_nr()


def test_a_view_read_before_the_newer_node_was_made_runs_after_it():
    x, b, v = _written()
    fn = v.grad_fn
    n = x.exp()
    assert _order([v, n], [("v", fn), ("n", n.grad_fn)]) == ["n", "v"]


def test_an_op_that_uses_the_view_regenerates_it():
    x, b, v = _written()
    n = x.exp()
    s = v * 2
    view_node = s.grad_fn.next_functions[0][0]
    assert type(view_node).__name__ == "AsStridedBackward0"
    assert _order([s, n], [("v", view_node), ("n", n.grad_fn)]) == ["v", "n"]
    assert x.grad.tolist() == pytest.approx([4 + 2.718281828459045, 4 + 7.38905609893065,
                                             20.085536923187668])


def test_the_written_view_itself_is_regenerated_at_once():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[:2]
    v.mul_(2)
    n = x.exp()
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert v.grad_fn._sequence_nr() < n.grad_fn._sequence_nr()
    assert b.grad_fn._sequence_nr() < v.grad_fn._sequence_nr()
    assert _order([v, n], [("v", v.grad_fn), ("n", n.grad_fn)]) == ["n", "v"]


def test_a_write_through_one_view_leaves_the_others_waiting():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v, w = b.view(-1), b[0:2]
    w.mul_(2)
    n, m = x.exp(), x.sin()
    named = [("w", w.grad_fn), ("n", n.grad_fn), ("v", v.grad_fn), ("m", m.grad_fn)]
    assert _order([v, n, w, m], named) == ["v", "m", "n", "w"]


def test_two_writes_regenerate_twice_and_the_later_node_counts():
    x, b, v = _written()
    first = v.grad_fn
    n = x.exp()
    b.add_(1)
    m = x.sin()
    assert v.grad_fn is not first
    assert v.grad_fn is v.grad_fn  # read twice, made once
    named = [("v", v.grad_fn), ("n", n.grad_fn), ("m", m.grad_fn)]
    assert _order([v, n, m], named) == ["v", "m", "n"]


def test_views_read_in_some_order_run_in_the_reverse_one():
    x = torch.ones(4, requires_grad=True)
    b = x * 1
    views = [b[i:i + 1] for i in range(4)]
    b.mul_(2)
    named = [(i, views[i].grad_fn) for i in (2, 0, 3, 1)]
    assert _order(views, named) == [1, 3, 0, 2]
    assert x.grad.tolist() == [2.0, 2.0, 2.0, 2.0]


def test_a_replayed_view_is_regenerated_lazily_too():
    x = torch.ones(2, 3, requires_grad=True)
    b = x * 1
    with _force_original_view_tracking(True):
        v = b[1]
    b.mul_(2)
    n = x.exp()
    assert type(v.grad_fn).__name__ == "SelectBackward0"
    assert _order([v, n], [("v", v.grad_fn), ("n", n.grad_fn)]) == ["v", "n"]
    e = 2.718281828459045
    assert x.grad.reshape(-1).tolist() == pytest.approx([e] * 3 + [2 + e] * 3)


def test_a_write_under_no_grad_leaves_the_view_waiting_as_well():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[:2]
    with torch.no_grad():
        b.mul_(2)
    n = x.exp()
    assert _order([v, n], [("v", v.grad_fn), ("n", n.grad_fn)]) == ["v", "n"]


def test_what_a_user_sees_of_a_waiting_view_is_unchanged():
    x, b, v = _written()
    assert (v.requires_grad, v.is_leaf, v._version) == (True, False, 1)
    assert repr(v) == "tensor([2., 4.], grad_fn=<AsStridedBackward0>)"
    with pytest.raises(RuntimeError, match="only change requires_grad flags of leaf"):
        _written()[2].requires_grad_(False)
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(_written()[2])
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert _written()[2].grad is None


def test_retain_grad_before_the_write_follows_the_view():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[:2]
    v.retain_grad()
    b.mul_(2)
    n = x.exp()
    (v.sum() * 3 + n.sum()).backward()
    assert v.retains_grad and v.grad.tolist() == [3.0, 3.0]
    assert x.grad.tolist() == pytest.approx([6 + 2.718281828459045, 6 + 7.38905609893065,
                                             20.085536923187668])


def test_retain_grad_after_the_write_takes_the_new_node():
    x, b, v = _written()
    n = x.exp()
    v.retain_grad()
    m = x.sin()
    named = [("v", v.grad_fn), ("n", n.grad_fn), ("m", m.grad_fn)]
    assert _order([v, n, m], named) == ["m", "v", "n"]
    assert v.grad.tolist() == [1.0, 1.0]


def test_a_hook_registered_before_the_first_read_joins_the_old_ones():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[:2]
    seen = []
    v.register_hook(lambda g: seen.append("before"))
    b.mul_(2)
    assert v._backward_hooks is not None  # nothing has regenerated the node yet
    v.register_hook(lambda g: seen.append("between"))
    v.grad_fn  # noqa: B018 - the read regenerates it
    assert v._backward_hooks is None
    v.register_hook(lambda g: seen.append("after"))
    (v.sum() * 3).backward()
    assert seen == ["after"] and x.grad.tolist() == [6.0, 6.0, 0.0]


def test_a_view_of_a_base_that_comes_to_require_grad_after_a_write_is_regenerated():
    b = torch.zeros(3)
    v = b[:2]
    b.mul_(2)
    b.requires_grad_()
    assert v.requires_grad and not v.is_leaf
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    (v * 3).sum().backward()
    assert b.grad.tolist() == [3.0, 3.0, 0.0]


def test_without_a_write_such_a_view_stays_a_leaf():
    b = torch.zeros(3)
    v = b[:2]
    b.requires_grad_()
    assert v.requires_grad and v.is_leaf and v.grad_fn is None


def test_a_saved_view_names_its_regenerated_node_when_refused():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[:2]
    y = v * v
    b.mul_(2)
    with pytest.raises(RuntimeError, match=r"output 0 of AsStrided, is at version 1"):
        y.sum().backward()


def test_an_in_place_op_on_a_waiting_view_regenerates_it_before_its_own_node():
    x, b, v = _written()
    v.mul_(3)
    copy_slices = b.grad_fn
    assert copy_slices.name() == "torch::autograd::CopySlices"
    assert v.grad_fn._sequence_nr() == copy_slices._sequence_nr() + 1
    v.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0, 0.0]


def test_many_written_rows_keep_their_gradients():
    x = torch.zeros(50, 2, requires_grad=True)
    y = x * 1
    rows = [y[i] for i in range(50)]
    for i, r in enumerate(rows):
        r.mul_(i)
    (y * 2).sum().backward()
    assert x.grad[:, 0].tolist() == [2.0 * i for i in range(50)]


def test_asking_only_whether_a_waiting_view_is_a_leaf_regenerates_nothing():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[:2]
    v.retain_grad()
    with torch.no_grad():
        b.mul_(2)
    v.retain_grad()  # already retained: torch looks no further than the old node
    v.requires_grad_()
    assert v.grad is None and v.requires_grad
    n = x.exp()
    assert _order([n, v], [("n", n.grad_fn)]) == ["n"]
    assert v.grad_fn._sequence_nr() > n.grad_fn._sequence_nr()
    assert v.grad.tolist() == [1.0, 1.0]
