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


@pytest.mark.parametrize(("combine", "strides"), [
    (lambda d, w: d * w, (1, 1)), (lambda d, w: d.sin() * w, (1, 1)),
    (lambda d, w: d + w, (2, 1)), (lambda d, w: w - d, (2, 1))])
def test_strides_of_size_one_dimensions_ask_for_no_copy(combine, strides):
    w = torch.rand(2, 1).t()  # (1, 2) with strides (1, 1), and without a tangent
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor(1.5), torch.tensor(2.0))
        primal, tangent = fwAD.unpack_dual(combine(dual, w))
    assert primal.stride() == (1, 1)
    assert tangent.stride() == strides
    assert tangent._version == 0


def test_make_dual_keeps_a_tangent_that_differs_only_where_no_step_is_taken():
    primal = torch.rand(2, 1).t()  # strides (1, 1)
    given = torch.rand(1, 2)  # strides (2, 1)
    empty_primal, empty_given = torch.rand(3, 0).t(), torch.rand(0, 3)
    with fwAD.dual_level():
        kept = fwAD.unpack_dual(fwAD.make_dual(primal, given)).tangent
        empty = fwAD.unpack_dual(fwAD.make_dual(empty_primal, empty_given)).tangent
    assert kept is given and kept.stride() == (2, 1)
    assert empty is empty_given


@pytest.mark.parametrize(("combine", "copied"), [
    (lambda d, w: d + w, True), (lambda d, w: w + d, True), (lambda d, w: d - w, True),
    (lambda d, w: d / w, True), (lambda d, w: torch.lerp(w, d.expand(2, 3), 0.3), True),
    (lambda d, w: d * w, False), (lambda d, w: w / d, False),
    (lambda d, w: torch.where(w > 0.5, d, w), False)])
def test_a_missing_tangent_is_a_row_major_zero(combine, copied):
    w = torch.rand(3, 2).t()  # transposed, without a tangent
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor(1.5, requires_grad=True),
                              torch.tensor(2.0, requires_grad=True))
        primal, tangent = fwAD.unpack_dual(combine(dual, w))
    assert primal.stride() == tangent.stride() == (1, 2)
    assert tangent._version == int(copied)
    assert (tangent.grad_fn.name() == "torch::autograd::CopyBackwards") == copied


@pytest.mark.parametrize(("copy", "strides"), [
    (lambda d: d.contiguous(), (3, 1)),
    (lambda d: d.clone(memory_format=torch.contiguous_format), (3, 1)),
    (lambda d: torch.clone(d, memory_format=torch.contiguous_format), (3, 1)),
    (lambda d: d.to(torch.float32, memory_format=torch.contiguous_format), (3, 1)),
    (lambda d: d.float().contiguous(), (3, 1)),
    (lambda d: d.clone(), (1, 2)), (lambda d: d.to(torch.float32), (1, 2))])
def test_a_copy_moved_to_a_memory_format_moves_its_tangent_along(copy, strides):
    primal = torch.rand(3, 2, dtype=torch.float64).t()
    with fwAD.dual_level():
        given = torch.rand(3, 2, dtype=torch.float64).t()
        out, tangent = fwAD.unpack_dual(copy(fwAD.make_dual(primal, given)))
    assert out.stride() == tangent.stride() == strides
    assert tangent._version == 0 and not tangent.requires_grad
    assert torch.equal(tangent, given.to(tangent.dtype))


@pytest.mark.parametrize("copy", [
    lambda d: d.contiguous(memory_format=torch.channels_last),
    lambda d: d.clone(memory_format=torch.channels_last),
    lambda d: d.to(memory_format=torch.channels_last),
    lambda d: d.contiguous(memory_format=torch.channels_last).contiguous()])
def test_a_four_dimensional_tangent_follows_channels_last_and_back(copy):
    primal = torch.rand(2, 3, 4, 5, dtype=torch.float64)
    with fwAD.dual_level():
        given = torch.rand(2, 3, 4, 5, dtype=torch.float64)
        out, tangent = fwAD.unpack_dual(copy(fwAD.make_dual(primal, given)))
    assert tangent.stride() == out.stride()
    assert tangent._version == 0
    assert torch.equal(tangent, given)


def test_a_tangent_that_requires_grad_is_moved_and_stays_connected():
    leaf = torch.rand(3, 2, dtype=torch.float64, requires_grad=True)
    with fwAD.dual_level():
        out, tangent = fwAD.unpack_dual(
            fwAD.make_dual(torch.rand(3, 2, dtype=torch.float64).t(), leaf.t()).contiguous())
    assert tangent.stride() == out.stride() == (3, 1)
    (grad,) = torch.autograd.grad(tangent.sum(), leaf)
    assert torch.equal(grad, torch.ones_like(leaf))
