"""A view of a view, each made with view replay on or off, regenerated after a write.

Every node name and value here was read from torch 2.13; the same assertions run on torch.
"""

import pytest
import torch


def chain(t) -> list:
    """The names of ``t``'s grad_fn and of the nodes along its first edges."""
    names, node = [], t.grad_fn
    while node is not None and len(names) < 4:
        names.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


SLICE, AS_STRIDED, TRANSPOSE = "SliceBackward0", "AsStridedBackward0", "TransposeBackward0"


@pytest.mark.parametrize("outer, inner, nodes", [
    (False, False, [AS_STRIDED]),
    (False, True, [TRANSPOSE, SLICE, AS_STRIDED]),
    (True, False, [AS_STRIDED, AS_STRIDED, SLICE]),
    (True, True, [TRANSPOSE, SLICE, SLICE]),
])
@pytest.mark.parametrize("write_view", [False, True])
def test_a_view_of_a_view_replays_as_far_as_replay_was_on(outer, inner, nodes, write_view):
    a = torch.arange(16.0).reshape(4, 4).requires_grad_()
    b = a * 1
    before = torch._C._is_view_replay_enabled()
    try:
        torch._C._set_view_replay_enabled(outer)
        v1 = b[1:]
        torch._C._set_view_replay_enabled(inner)
        v2 = v1[:, 1:].transpose(0, 1)
    finally:
        torch._C._set_view_replay_enabled(before)
    if write_view:
        v2.mul_(3)
    else:
        b.mul_(2)
    after = "torch::autograd::CopySlices" if write_view else "MulBackward0"
    assert chain(v2) == (nodes + [after, "MulBackward0", "torch::autograd::AccumulateGrad"])[:4]
    (v2 * torch.arange(9.0).reshape(3, 3)).sum().backward()
    k = 3 if write_view else 2
    assert a.grad.flatten().tolist() == [0.0] * 6 + [3.0 * k, 6.0 * k, 0.0, k, 4.0 * k,
                                                     7.0 * k, 0.0, 2.0 * k, 5.0 * k, 8.0 * k]
