"""White-box tests of refgrad._ops.copy_slices: which windows share memory, and when the
backward pass refuses to write the base's gradient back through one."""

import pytest

import refgrad as torch
from refgrad._ops.copy_slices import base_wanted


def _written(window_of):
    x = torch.arange(1.0, 4.0, requires_grad=True)
    y = x * 1
    window_of(y).zero_()
    return x, y


def test_only_a_window_with_a_stretched_dimension_is_marked_shared():
    _, y = _written(lambda y: y[:1].expand(3))
    assert y.grad_fn._shared is True
    _, y = _written(lambda y: y[1:])
    assert y.grad_fn._shared is False
    _, y = _written(lambda y: y.unfold(0, 2, 1))  # windows meet, yet no stride is 0
    assert y.grad_fn._shared is False


def test_the_base_is_wanted_outside_a_pass_and_when_its_edge_leads_on():
    _, y = _written(lambda y: y[:1].expand(3))
    assert base_wanted(y.grad_fn)  # no pass: every edge counts
    plain = torch.zeros(1)
    window = plain.expand(3)
    with pytest.warns(UserWarning):
        window.masked_fill_(torch.tensor([True, False, True]), torch.ones((), requires_grad=True))
    assert plain.grad_fn._next_nodes[0] is None and not base_wanted(plain.grad_fn)


def test_a_shared_window_refuses_when_its_node_runs_and_nothing_accumulates():
    x, y = _written(lambda y: y[:1].expand(3))
    seen = []
    y.grad_fn.register_prehook(lambda grads: seen.append(grads[0].tolist()))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        y.sum().backward()
    assert seen == [[1.0, 1.0, 1.0]] and x.grad is None


def test_an_unshared_window_writes_the_gradient_back():
    x, y = _written(lambda y: y[1:])
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 0.0]


def test_a_0d_base_is_indexed_as_a_row_of_one():
    x = torch.ones((), requires_grad=True)
    s = x * 1
    s[None] = torch.tensor(4.0)  # the view s[None] has one element of the 0-d base
    assert [w.tolist() for w in s.grad_fn._where] == [[0]]
    (s * 3).backward()
    assert x.grad.tolist() == 0.0


def test_the_handed_on_gradient_is_its_own_tensor_at_version_2():
    from refgrad._ops.copy_slices import _as_torch_leaves_it

    row = torch.tensor([4.0])
    out = _as_torch_leaves_it(row, 0, ())
    assert out.shape == () and not out._is_view() and out._version == 2 and row._version == 0
    full = torch.ones(2)
    assert _as_torch_leaves_it(full, 1, (1,)) is full and full._version == 2
    tracked = torch.tensor([4.0], requires_grad=True) * 1
    kept = _as_torch_leaves_it(tracked, 0, ())
    assert kept._is_view() and kept.grad_fn.name() == "ViewBackward0"
    grad = torch.arange(6.0).reshape(3, 2)
    moved = _as_torch_leaves_it(grad, 2, (1, 3))  # a transposed base's strides
    assert moved is grad and moved.stride() == (1, 3) and moved._version == 2
    assert moved.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
