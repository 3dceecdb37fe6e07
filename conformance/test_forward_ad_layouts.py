"""The layout of tangents torch's formulas build, where an input has no tangent.

A missing tangent is torch's zero tensor: a sum with it is laid out like its
other term. Where that is the primal's layout, the tangent is kept as it is;
where the primal was laid out otherwise, it is copied into the primal's layout,
a recorded copy. The same assertions run on torch.
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD


@pytest.mark.parametrize(("combine", "copied"), [
    (lambda d, w: d.sin() * w, False), (lambda d, w: d.sin() + w, False),
    (lambda d, w: w * d.sin(), True), (lambda d, w: w - d.sin(), True)])
def test_a_tangent_beside_a_missing_one_is_copied_only_into_another_layout(combine, copied):
    w = torch.rand(3, 2, requires_grad=True)  # row-major, and without a tangent
    leaf = torch.rand(2, 3).t().requires_grad_()  # transposed
    with fwAD.dual_level():
        out = combine(fwAD.make_dual(leaf, torch.ones_like(leaf)), w)
        tangent = fwAD.unpack_dual(out).tangent
    assert tangent.stride() == out.stride() == ((2, 1) if copied else (1, 3))
    assert tangent._version == int(copied)
    assert (tangent.grad_fn.name() == "torch::autograd::CopyBackwards") == copied
