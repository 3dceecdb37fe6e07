"""White-box tests of refgrad._ops.assignment: copy_to's choice and expandable's view."""

import refgrad as torch
from refgrad._ops import inplace_writes
from refgrad._ops.assignment import copy_to, expandable


def test_copy_to_fills_with_a_0d_host_value_and_copies_otherwise(monkeypatch):
    calls = []
    monkeypatch.setattr(inplace_writes, "fill_", lambda t, v: calls.append("fill"))
    monkeypatch.setattr(inplace_writes, "copy_", lambda t, v: calls.append(("copy", v.shape)))
    copy_to(torch.zeros(3), torch.tensor(1.0))
    copy_to(torch.zeros(()), torch.tensor(1.0))
    copy_to(torch.zeros(2, 3), torch.ones(1, 3))
    assert calls == ["fill", ("copy", ()), ("copy", (2, 3))]


def test_expandable_always_views_and_expands_only_when_needed():
    value = torch.ones(1, 3, requires_grad=True)
    same = expandable(value * 1, torch.zeros(3))
    assert same.shape == (3,) and same.grad_fn.name() == "ViewBackward0"
    wider = expandable(value * 1, torch.zeros(2, 3))
    assert wider.grad_fn.name() == "ExpandBackward0"
    assert wider.grad_fn.next_functions[0][0].name() == "ViewBackward0"
