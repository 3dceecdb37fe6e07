"""Hooks on a view whose grad_fn was regenerated after its base was written: the old ones stay
with the old node, and the view takes new ones on its new node. The same assertions run on
torch."""

import torch


def _view_of_written_base(written):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 1
    v = b[:2]
    seen = []
    v.register_hook(lambda g: seen.append(("old", g.tolist())))
    written(b)
    return a, v, seen


def test_a_regenerated_view_forgets_its_hooks_and_binds_new_ones_to_its_new_node():
    a, v, seen = _view_of_written_base(lambda b: b.mul_(2))
    assert v.grad_fn.name() == "AsStridedBackward0"
    assert v._backward_hooks is None
    v.register_hook(lambda g: seen.append(("new", g.tolist())) or g * 10)
    (v * torch.tensor([1.0, 5.0])).sum().backward()
    assert seen == [("new", [1.0, 5.0])]
    assert a.grad.tolist() == [20.0, 100.0, 0.0]


def test_a_hook_registered_after_the_view_was_used_again_runs():
    a, v, seen = _view_of_written_base(lambda b: b.add_(1))
    w = v * 2
    v.register_hook(lambda g: g * 10)
    w.sum().backward()
    assert seen == [] and a.grad.tolist() == [20.0, 20.0, 0.0]


def test_a_write_through_another_view_regenerates_this_one_and_drops_its_hooks():
    a = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    b = a.clone()
    v1, v2 = b[:2], b[1:3]
    seen = []
    v2.register_hook(lambda g: seen.append(("before", g.tolist())))
    v1.mul_(2)
    assert v2.grad_fn.name() == "AsStridedBackward0" and v2._backward_hooks is None
    v2.register_hook(lambda g: seen.append(("after", g.tolist())))
    (v2 * torch.tensor([3.0, 7.0])).sum().backward()
    assert seen == [("after", [3.0, 7.0])]
    assert a.grad.tolist() == [0.0, 6.0, 7.0, 0.0]


def test_the_old_hooks_run_when_a_backward_reaches_the_old_node():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 1
    v = b[:2]
    before = v * 3
    seen = []
    v.register_hook(lambda g: seen.append(("kept", g.tolist())))
    b.add_(1)
    assert v.grad_fn.name() == "AsStridedBackward0"
    v.register_hook(lambda g: seen.append(("new", g.tolist())))
    before.sum().backward(retain_graph=True)
    assert seen == [("kept", [3.0, 3.0])] and a.grad.tolist() == [3.0, 3.0, 0.0]
    (v * 2).sum().backward()
    assert seen[1:] == [("new", [2.0, 2.0])] and a.grad.tolist() == [5.0, 5.0, 0.0]
