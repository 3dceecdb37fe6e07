"""The in-place view ops: their rows, refgrad's stricter checks, and a property sweep."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import OPS
from refgrad.autograd.grad_mode import _force_original_view_tracking

NODES = {"squeeze_": "SqueezeBackward3", "squeeze_dim_": "SqueezeBackward4",
         "squeeze_dims_": "SqueezeBackward5", "unsqueeze_": "UnsqueezeBackward1",
         "t_": "TBackward1", "transpose_": "TransposeBackward1"}


@pytest.mark.parametrize("name", NODES)
def test_each_row_writes_self_and_is_no_view(name):
    row = OPS[name]
    assert (row.node, row.writes, row.view) == (NODES[name], ("self",), False)


def test_an_inference_tensor_changes_shape_and_then_refuses():
    with torch.inference_mode():  # as torch: autograd skips it, the bump refuses
        x = torch.ones(2, 3)
        leaf = torch.ones(2, 3, requires_grad=True)
    for t in (x, leaf):
        with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
            t.t_()
        assert tuple(t.shape) == (3, 2)
    d = x.detach()  # one that counts its writes is changed and counted
    d.unsqueeze_(0)
    assert tuple(d.shape) == (1, 3, 2) and d._version == 1


def test_a_replayed_view_forgets_its_replay_once_changed():
    x = torch.ones(2, 2, 3, requires_grad=True)
    y = x * 2
    with _force_original_view_tracking(True):
        kept, changed = y[0], y[1]
    changed.t_()
    y.mul_(2)
    assert type(kept.grad_fn).__name__ == "SelectBackward0"  # replayed
    assert type(changed.grad_fn).__name__ == "AsStridedBackward0"
    (changed * torch.arange(6.0).view(3, 2)).sum().backward()
    assert x.grad[1].tolist() == [[0.0, 8.0, 16.0], [4.0, 12.0, 20.0]]


# Each step: (in-place call, the same as a view op), on a tensor of any rank.
STEPS = {
    "squeeze_": (lambda t: t.squeeze_(), lambda t: t.squeeze()),
    "unsqueeze_": (lambda t: t.unsqueeze_(0), lambda t: t.unsqueeze(0)),
    "unsqueeze_ last": (lambda t: t.unsqueeze_(-1), lambda t: t.unsqueeze(-1)),
    "squeeze_ first": (lambda t: t.squeeze_(0), lambda t: t.squeeze(0)),
    "transpose_": (lambda t: t.transpose_(0, -1), lambda t: t.transpose(0, -1)),
    "swapdims_": (lambda t: t.swapdims_(-1, 0), lambda t: t.swapdims(-1, 0)),
}


def _apply(steps, t, which):
    applied = 0
    for name in steps:
        if name == "squeeze_ first" and t.ndim == 0:
            continue  # a 0-d tensor has no dimension 0 to squeeze
        t = STEPS[name][which](t)
        applied += 1
    return t, applied


@settings(max_examples=60, deadline=None)
@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=3),
       steps=st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=5))
def test_in_place_steps_give_the_values_and_gradients_of_the_view_ops(shape, steps):
    data = np.arange(float(np.prod(shape))).reshape(shape)
    a, b = torch.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
    changed = a * 1
    out, applied = _apply(steps, changed, 0)
    viewed, _ = _apply(steps, b * 1, 1)
    assert out is changed and out._version == applied
    assert tuple(out.shape) == tuple(viewed.shape) and out.stride() == viewed.stride()
    np.testing.assert_array_equal(out.detach().numpy(), viewed.detach().numpy())
    weights = torch.tensor(np.random.default_rng(0).uniform(-1, 1, tuple(out.shape)))
    (out * weights).sum().backward()
    (viewed * weights).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), b.grad.numpy())
