"""allow_mutation_on_saved_tensors (F107-F112, F174, F179), on torch's API."""

import contextlib

import pytest
import torch
import torch.autograd.graph as graph
from torch.autograd.graph import (
    allow_mutation_on_saved_tensors,
    disable_saved_tensors_hooks,
    saved_tensors_hooks,
)

OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin "
           "which the graph was originally recorded.")
NESTED = "allow_mutation_on_saved_tensors contexts cannot be nested"


def test_is_a_generator_context_manager_yielding_a_cleared_ctx():
    cm = allow_mutation_on_saved_tensors()
    assert type(cm) is contextlib._GeneratorContextManager
    with cm as ctx:
        a = torch.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        b.sin_()
        out.backward()
    assert type(ctx).__name__ == "_AllowMutationOnSavedContext"
    assert torch.equal(a.grad, torch.full((2, 3), 2.0))
    assert (dict(ctx.cloned), dict(ctx.original), dict(ctx.tid_to_weakhandle),
            dict(ctx.sid_to_tid)) == ({}, {}, {}, {})


def test_counts_during_save_mutate_backward():
    with allow_mutation_on_saved_tensors() as ctx:
        a = torch.ones(3, requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        counts = [(len(ctx.original), len(ctx.cloned), len(ctx.tid_to_weakhandle),
                   len(ctx.sid_to_tid))]
        b.sin_()
        counts.append((len(ctx.original), len(ctx.cloned), len(ctx.tid_to_weakhandle),
                       len(ctx.sid_to_tid)))
        out.backward()
        counts.append((len(ctx.original), len(ctx.cloned), len(ctx.tid_to_weakhandle),
                       len(ctx.sid_to_tid)))
    assert counts == [(1, 0, 1, 1), (1, 1, 2, 2), (1, 0, 1, 2)]


def test_repeated_mutation_clones_once():
    with allow_mutation_on_saved_tensors() as ctx:
        a = torch.ones(3, requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        b.add_(1)
        b.add_(1)
        assert (len(ctx.cloned), len(ctx.original)) == (1, 0)
        out.backward()
    assert torch.equal(a.grad, torch.full((3,), 2.0))


def test_out_argument_counts_as_a_write():
    with allow_mutation_on_saved_tensors() as ctx:
        a = torch.ones(3, requires_grad=True)
        b = a.clone().detach()
        out = (a * b).sum()
        torch.mul(torch.ones(3), 7, out=b)
        assert len(ctx.cloned) == 1
        out.backward()
    assert torch.equal(a.grad, torch.ones(3))


def test_freed_saved_tensor_is_not_cloned():
    with allow_mutation_on_saved_tensors() as ctx:
        a = torch.ones(2, 3, requires_grad=True).clone()
        out = (a**2).sum()
        out.backward()
        a.sin_()
        assert len(ctx.cloned) == 0


def test_flag_is_true_only_inside():
    assert graph._allow_mutation_on_saved_tensors_enabled is False
    with allow_mutation_on_saved_tensors():
        assert graph._allow_mutation_on_saved_tensors_enabled is True
    assert graph._allow_mutation_on_saved_tensors_enabled is False


def test_nesting_is_refused_and_a_caught_error_disables_the_outer_context():
    with pytest.raises(RuntimeError, match=f"^{NESTED}$"), allow_mutation_on_saved_tensors():
        with allow_mutation_on_saved_tensors():
            pass
    assert graph._allow_mutation_on_saved_tensors_enabled is False
    with allow_mutation_on_saved_tensors():
        a = torch.ones(3, requires_grad=True)
        out = (a.clone() ** 2).sum()
        with pytest.raises(RuntimeError, match=NESTED), allow_mutation_on_saved_tensors():
            pass
        assert graph._allow_mutation_on_saved_tensors_enabled is False
        with pytest.raises(AssertionError) as info:
            out.backward()
    assert str(info.value) == OUTSIDE


@pytest.mark.parametrize("mutate", [True, False])
def test_backward_outside_the_recording_context(mutate):
    with allow_mutation_on_saved_tensors():
        a = torch.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        if mutate:
            b.sin_()
    with pytest.raises(AssertionError) as info:
        out.backward()
    assert str(info.value) == OUTSIDE


def test_backward_in_another_context_is_refused():
    with allow_mutation_on_saved_tensors():
        a = torch.ones(2, 3, requires_grad=True)
        out = (a.clone() ** 2).sum()
    with pytest.raises(AssertionError) as info, allow_mutation_on_saved_tensors():
        out.backward()
    assert str(info.value) == OUTSIDE


def _square_then_scale(saved_row, written_row):
    """a.grad after saving b (or one row of it) and scaling b (or one row) in place."""
    with allow_mutation_on_saved_tensors():
        a = torch.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = ((b if saved_row is None else b[saved_row]) ** 2).sum()
        (b if written_row is None else b[written_row]).mul_(5)
        out.backward()
    return a.grad


def test_views_at_offset_zero_are_caught():
    assert torch.equal(_square_then_scale(None, 0), torch.full((2, 3), 2.0))
    assert torch.equal(_square_then_scale(0, None), torch.tensor([[2.0, 2, 2], [0, 0, 0]]))


def test_views_at_an_offset_are_not_caught():
    assert torch.equal(_square_then_scale(None, 1), torch.tensor([[2.0, 2, 2], [10, 10, 10]]))
    assert torch.equal(_square_then_scale(1, None), torch.tensor([[0.0, 0, 0], [10, 10, 10]]))


def test_leaf_mutated_under_no_grad_is_protected():
    with allow_mutation_on_saved_tensors():
        a = torch.ones(3, requires_grad=True)
        out = (a**2).sum()
        with torch.no_grad():
            a.mul_(3)
        out.backward()
    assert torch.equal(a.grad, torch.full((3,), 2.0))
    assert torch.equal(a.detach(), torch.full((3,), 3.0))


def test_inner_saved_tensors_hooks_win():
    with allow_mutation_on_saved_tensors():
        a = torch.ones(3, requires_grad=True)
        b = a.clone()
        with saved_tensors_hooks(lambda x: x.detach(), lambda x: x):
            out = (b**2).sum()
        b.sin_()
        out.backward()
    assert torch.allclose(a.grad, torch.full((3,), 2 * 0.8414709848))


def test_cannot_enter_while_hooks_are_disabled():
    with pytest.raises(RuntimeError, match="^no hooks please$"):
        with disable_saved_tensors_hooks("no hooks please"), allow_mutation_on_saved_tensors():
            pass
    assert graph._allow_mutation_on_saved_tensors_enabled is False


def test_without_the_context_the_version_check_fails():
    a = torch.ones(2, 3, requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    b.sin_()
    with pytest.raises(RuntimeError, match="which is output 0 of Sin, is at version 1"):
        out.backward()


NO_VERSION = "Inference tensors do not track version counter."


@pytest.mark.parametrize("make", [
    lambda: torch.tensor([1.0, 2.0], requires_grad=True),
    lambda: torch.tensor([1.0, 2.0]),
    lambda: torch.ones(1).new_tensor([1.0], requires_grad=True),
])
def test_tensor_made_in_inference_mode_is_refused(make):
    # torch.tensor detaches what it made in place; below autograd that is a write the
    # context's mode sees, and an inference tensor has no version to key it by.
    with allow_mutation_on_saved_tensors(), torch.inference_mode():
        with pytest.raises(RuntimeError, match=f"^{NO_VERSION}$"):
            make()


def test_other_factories_and_requires_grad_pass_in_inference_mode():
    with allow_mutation_on_saved_tensors(), torch.inference_mode():
        made = [torch.ones(2, requires_grad=True), torch.zeros(2, requires_grad=True),
                torch.full((2,), 1.0, requires_grad=True), torch.arange(2.0, requires_grad=True),
                torch.ones(2).requires_grad_(), torch.ones(1).new_ones(2, requires_grad=True)]
        plain = torch.as_tensor([1.0, 2.0])
        with pytest.raises(RuntimeError, match=f"^{NO_VERSION}$"):
            torch.ones(2).detach_()
    assert all(t.requires_grad and t.is_inference() for t in made)
    assert plain.is_inference() and not plain.requires_grad


def test_outside_inference_mode_tensor_passes_and_an_inference_tensor_is_refused():
    with torch.inference_mode():
        made = torch.ones(2)
    with allow_mutation_on_saved_tensors():
        t = torch.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="^Setting requires_grad=True on inference tensor "
                                               "outside InferenceMode is not allowed.$"):
            made.requires_grad_()
        with pytest.raises(RuntimeError, match=f"^{NO_VERSION}$"):
            made.detach_()
    assert t.requires_grad and t.is_leaf and not t.is_inference()
