"""Under a dispatch mode, an out-of-place torch._foreach_* call records its foreach node, as
without one, and the mode sees the foreach call, not the per-tensor ops."""

import torch

from conformance._support import recording_mode

_Seen = recording_mode()


def _leaves():
    return [torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0], requires_grad=True)]


def test_gradients_flow_under_a_mode_as_without_one():
    plain = _leaves()
    expected = torch._foreach_mul(plain, plain)
    torch.autograd.backward([r.sum() for r in expected])
    leaves = _leaves()
    with _Seen() as mode:
        results = torch._foreach_mul(leaves, leaves)
        assert results[0].grad_fn.name() == expected[0].grad_fn.name()
        torch.autograd.backward([r.sum() for r in results])
    assert mode.seen[0] == "aten._foreach_mul.List"
    assert "aten.mul.Tensor" not in mode.seen[:3]  # the elements are below the mode
    assert all(torch.equal(x.grad, y.grad) for x, y in zip(leaves, plain))
    with _Seen():
        added = torch._foreach_add(leaves, 1)
    assert added[0].grad_fn.name() == torch._foreach_add(leaves, 1)[0].grad_fn.name()
