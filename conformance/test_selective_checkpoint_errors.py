"""Selective activation checkpointing's refusals, to the letter: a kept output written in
place, a recomputation that runs other ops, a second backward through kept outputs, the
reentrant form, and lists that are not lists of overloads."""

import functools

import pytest
import torch
from torch.utils.checkpoint import checkpoint, create_selective_checkpoint_contexts

from conformance._support import preorder_names, raises

aten = torch.ops.aten
MISMATCH = (
    "This can happen if the operations in the checkpointed region are nondeterministic "
    "or depend on global state that changed between forward and backward."
)
EXTRA_BACKWARD = (
    "Trying to backward an extra time. You are only allowed to backward once on any "
    "region computed under selective activation checkpoint."
)


def _leaves():
    x = (torch.arange(9, dtype=torch.float64).reshape(3, 3) * 0.13 - 0.4).requires_grad_()
    w = (torch.arange(9, dtype=torch.float64).reshape(3, 3).t() * 0.07 + 0.2).requires_grad_()
    return x, w


def _transposed():
    return (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()


def _keep(*ops, **options):
    return functools.partial(create_selective_checkpoint_contexts, list(ops), **options)


def _written(x, w):
    a = torch.mm(x, w)
    b = a.sin()
    a.mul_(2)
    return b * a


def test_a_kept_output_written_in_place_is_refused():
    x, w = _leaves()
    y = checkpoint(_written, x, w, use_reentrant=False, context_fn=_keep(aten.mm.default))
    with raises(RuntimeError,
                "Tensor cached during selective activation checkpoint has been mutated"):
        y.sum().backward()


def test_allow_cache_entry_mutation_hands_back_the_written_output():
    x, w = _leaves()
    y = checkpoint(_written, x, w, use_reentrant=False,
                   context_fn=_keep(aten.mm.default, allow_cache_entry_mutation=True))
    gx, gw = torch.autograd.grad(y.sum(), (x, w))
    # The recomputation gets the product a already doubled, and doubles it again in place
    # after sin saved it: the nodes read sin(2a), then 4a for both sin's input and the
    # product's operand.
    a = torch.mm(x, w).detach()
    g = 2 * (2 * a).sin() + 4 * a * (4 * a).cos()
    assert torch.allclose(gx, g @ w.detach().t()) and torch.allclose(gw, x.detach().t() @ g)


def _changing(second):
    calls = {"n": 0}

    def f(x, w):
        calls["n"] += 1
        return torch.mm(x, w).sin().sum() if calls["n"] == 1 else second(x, w)

    return f


@pytest.mark.parametrize(("second", "message"), [
    (lambda x, w: (torch.mm(w, x) + 0).sin().sum(),
     f"aten.add.Tensor encountered during backward but not found in storage. {MISMATCH}"),
    (lambda x, w: torch.mm(torch.mm(x.detach(), w.detach()), w).mm(x).sin().sum(),
     "aten.mm.default invocation index 1 encountered during backward but not found in "
     f"storage. {MISMATCH}"),
])
def test_a_recomputation_that_runs_other_ops_is_refused(second, message):
    x, w = _leaves()
    y = checkpoint(_changing(second), x, w, use_reentrant=False,
                   context_fn=_keep(aten.mm.default))
    with raises(RuntimeError, message):
        y.backward()


def test_a_second_backward_through_a_kept_output_is_refused():
    x, w = _leaves()
    y = checkpoint(lambda a, b: torch.mm(a, b).exp().sum(), x, w, use_reentrant=False,
                   context_fn=_keep(aten.exp.default))
    y.backward(retain_graph=True)
    with raises(RuntimeError, EXTRA_BACKWARD):
        y.backward()


def test_the_reentrant_form_takes_no_context_fn():
    x, _ = _leaves()
    with raises(ValueError,
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False."):
        checkpoint(torch.sin, x, use_reentrant=True, context_fn=_keep(aten.sin.default))


def test_a_list_holds_overloads_only():
    with raises(ValueError, "Expected op in `op_list` to be an OpOverload but got: mm of type "
                            "<class 'str'>. "):
        create_selective_checkpoint_contexts([aten.mm.default, "mm"])
    extra = ("Please update the OpOverloadPacket to a specific OpOverload.For example, if you "
             "have `torch.ops.aten.mm`, change it to `torch.ops.aten.mm.default`.")
    with raises(ValueError, f"Expected op in `op_list` to be an OpOverload but got: aten.mm "
                            f"of type {type(aten.mm)}. {extra}"):
        create_selective_checkpoint_contexts([aten.mm])
    for other in ((aten.mm.default,), 3, None):
        with raises(TypeError, "policy_fn_or_list must be either a function or a list of ops."):
            create_selective_checkpoint_contexts(other)


def test_a_kept_output_written_later_in_the_forward_is_refused():
    x = _transposed()
    y = checkpoint(lambda a: (a * 2).mul_(3).add_(1).exp(), x, use_reentrant=False,
                   context_fn=functools.partial(create_selective_checkpoint_contexts,
                                                lambda ctx, op, *args, **kwargs: True))
    with raises(RuntimeError,
                "Tensor cached during selective activation checkpoint has been mutated"):
        y.sum().backward()


def _double(policy):
    x = _transposed()
    w = (torch.arange(6, dtype=torch.float64).reshape(3, 2) * 0.1 - 0.2).requires_grad_()

    def f(a, b):
        return torch.mm(a, b).exp().sin()

    y = f(x, w) if policy is None else checkpoint(
        f, x, w, use_reentrant=False, context_fn=_keep(*policy))
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    return g, lambda: torch.autograd.grad(g.sum(), x)[0]


def test_a_gradient_with_a_graph_differentiates_again_when_nothing_is_kept():
    g, again = _double([])
    plain, plain_again = _double(None)
    assert preorder_names(g.grad_fn, 12) == preorder_names(plain.grad_fn, 12)
    assert g.stride() == plain.stride() and torch.equal(g, plain)
    assert torch.equal(again(), plain_again())


def test_a_gradient_with_a_graph_cannot_reach_a_kept_output_twice():
    g, again = _double([aten.mm.default])
    with raises(RuntimeError, EXTRA_BACKWARD):
        again()


def test_what_a_policy_raises_comes_out_of_the_forward():
    def policy(ctx, op, *args, **kwargs):
        raise ZeroDivisionError("no policy")

    with raises(ZeroDivisionError, "no policy"):
        checkpoint(torch.sin, _transposed(), use_reentrant=False,
                   context_fn=functools.partial(create_selective_checkpoint_contexts, policy))
