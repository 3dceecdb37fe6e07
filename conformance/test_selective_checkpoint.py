"""Selective activation checkpointing: which ops a policy keeps, which rerun, the
gradients, and what a policy is asked, as torch.utils.checkpoint gives them (the
errors are in test_selective_checkpoint_errors.py).

What reruns is seen by a recording mode entered around the recomputation's own mode,
so that it sees only the ops that mode passes on; detach, which the checkpoint's own
hooks call, is left out of the counts.
"""

import contextlib
import functools

import pytest
import torch
from torch.utils.checkpoint import (
    SAC_IGNORED_OPS,
    CheckpointPolicy,
    SelectiveCheckpointContext,
    checkpoint,
    create_selective_checkpoint_contexts,
)

from conformance._support import recording_mode

aten = torch.ops.aten
Recording = recording_mode()
def _leaves():
    x = (torch.arange(9, dtype=torch.float64).reshape(3, 3) * 0.13 - 0.4).requires_grad_()
    w = (torch.arange(9, dtype=torch.float64).reshape(3, 3).t() * 0.07 + 0.2).requires_grad_()
    return x, w


# NOTE: the last op saves its output. torch saves an op's inputs before the op reaches a
# mode, refgrad after, so an early-stopped recomputation whose last saved tensor is an
# input would end one op sooner in torch.
def fn(x, w):
    return (torch.sigmoid(torch.mm(torch.mm(x, w), w)).sin() * w).exp()


def _logged_contexts(policy, log):
    """A context_fn for ``policy`` whose recomputation ``log`` records."""
    @contextlib.contextmanager
    def logged(inner):
        with log, inner:
            yield

    def context_fn():
        forward, recompute = create_selective_checkpoint_contexts(policy)
        return forward, logged(recompute)

    return context_fn


def _rerun(policy, f=fn, args=None):
    """(ops the recomputation ran, gradients) for ``f`` checkpointed under ``policy``."""
    args = _leaves() if args is None else args
    log = Recording()
    context_fn = _logged_contexts(policy, log)
    y = checkpoint(f, *args, use_reentrant=False, context_fn=context_fn)
    grads = torch.autograd.grad(y.sum(), args)
    return [name for name in log.seen if name != "aten.detach.default"], grads


def _keep(*ops, **options):
    return functools.partial(create_selective_checkpoint_contexts, list(ops), **options)


def _plain_grads(f=fn):
    args = _leaves()
    return torch.autograd.grad(f(*args).sum(), args)


ALL = ["aten.mm.default", "aten.mm.default", "aten.sigmoid.default", "aten.sin.default",
       "aten.mul.Tensor", "aten.exp.default"]


@pytest.mark.parametrize(("policy", "ran"), [
    ([], ALL),
    ([aten.mm.default], ALL[2:]),
    ([aten.sigmoid.default, aten.sin.default], ALL[:2] + ALL[4:]),
    ([aten.mm.default, aten.sigmoid.default, aten.sin.default, aten.mul.Tensor,
      aten.exp.default], []),
])
def test_a_list_keeps_its_ops_and_the_gradients_are_unchanged(policy, ran):
    seen, grads = _rerun(policy)
    assert seen == ran
    assert all(torch.equal(a, b) for a, b in zip(grads, _plain_grads()))


@pytest.mark.parametrize(("choice", "kept"), [
    (CheckpointPolicy.MUST_SAVE, True),
    (CheckpointPolicy.PREFER_SAVE, True),
    (CheckpointPolicy.MUST_RECOMPUTE, False),
    (CheckpointPolicy.PREFER_RECOMPUTE, False),
    (CheckpointPolicy.MUST_CPU_OFFLOAD, False),
    (True, True),
    (False, False),
    ("save", False),
    (None, False),
])
def test_what_a_policy_returns_decides(choice, kept):
    def policy(ctx, op, *args, **kwargs):
        return choice if op == aten.mm.default else CheckpointPolicy.PREFER_RECOMPUTE

    seen, grads = _rerun(policy)
    assert seen == (ALL[2:] if kept else ALL)
    assert all(torch.equal(a, b) for a, b in zip(grads, _plain_grads()))


def test_a_policy_is_asked_in_the_forward_only_with_the_op_and_its_output():
    asked = []

    def policy(ctx, op, *args, **kwargs):
        assert isinstance(ctx, SelectiveCheckpointContext)
        asked.append((str(op), ctx.is_recompute, len(args), ctx.op_output.shape))
        return op in {aten.mm.default}

    x, w = _leaves()
    y = checkpoint(fn, x, w, use_reentrant=False,
                   context_fn=functools.partial(create_selective_checkpoint_contexts, policy))
    assert [a[0] for a in asked] == ALL
    assert all(a[1] is False for a in asked)
    assert asked[0][2:] == (2, (3, 3))
    del asked[:]
    y.sum().backward()
    assert asked == []


def test_no_policy_is_asked_without_grad():
    asked = []
    x, w = _leaves()
    with torch.no_grad():
        checkpoint(fn, x, w, use_reentrant=False, context_fn=functools.partial(
            create_selective_checkpoint_contexts, lambda *a, **k: asked.append(a) or True))
    assert asked == []


@pytest.mark.parametrize("kept", ["mm", "exp", "sigmoid", "tanh", "max.dim", "sort"])
def test_kept_outputs_that_backward_reads_give_the_same_gradients(kept):
    def f(x, w):
        h = torch.mm(x, w).exp().sigmoid().tanh()
        values, _ = h.max(dim=0)
        ordered, _ = h.sort(dim=1)
        return ordered * values + h.sum(dim=0)

    packet, overload = (kept + ".default").split(".")[:2]
    seen, grads = _rerun([getattr(getattr(aten, packet), overload)], f)
    assert str(getattr(getattr(aten, packet), overload)) not in seen
    assert all(torch.equal(a, b) for a, b in zip(grads, _plain_grads(f)))


def test_the_ops_are_named_as_torch_names_them():
    assert aten.detach.default in SAC_IGNORED_OPS
    assert str(aten.mm.default) == "aten.mm.default"
    assert aten.mm.default == aten.mm.default and aten.mm.default != aten.mm.out
    assert [p.value for p in CheckpointPolicy] == [0, 1, 2, 3, 4, 5]
    assert CheckpointPolicy(0) is CheckpointPolicy.MUST_SAVE
    ctx = SelectiveCheckpointContext(is_recompute=True)
    assert (ctx.is_recompute, ctx.op_output) == (True, None)


def _inner(a, w):
    return torch.mm(a, w).sin()


@pytest.mark.parametrize(("outer_policy", "inner_policy"), [
    ([aten.mm.default], None), (None, [aten.mm.default]), ([aten.mm.default], [aten.mm.default]),
])
def test_selective_and_plain_checkpoints_nest(outer_policy, inner_policy):
    def checkpointed(f, *args, policy):
        if policy is None:
            return checkpoint(f, *args, use_reentrant=False)
        return checkpoint(f, *args, use_reentrant=False, context_fn=_keep(*policy))

    def outer(a, w):
        return checkpointed(_inner, torch.mm(a, w).cos(), w, policy=inner_policy).exp()

    x, w = _leaves()
    y = checkpointed(outer, x, w, policy=outer_policy)
    grads = torch.autograd.grad(y.sum(), (x, w))
    assert all(torch.equal(a, b) for a, b in zip(grads, _plain_grads(outer)))


def test_without_early_stop_the_recomputation_runs_to_the_end():
    def f(x, w):
        return torch.mm(x, w).sin() * w

    log = Recording()
    context_fn = _logged_contexts([aten.mm.default], log)
    x, w = _leaves()
    y = checkpoint(f, x, w, use_reentrant=False, context_fn=context_fn, early_stop=False)
    y.sum().backward()
    assert [n for n in log.seen if n != "aten.detach.default"] == [
        "aten.sin.default", "aten.mul.Tensor"]


def _transposed():
    return (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()


SHAPED = {
    "views": lambda x: (x.t().reshape(6).view(2, 3) * 2).exp().transpose(0, 1).sin(),
    "factory": lambda x: (x + torch.ones(2, 3, dtype=torch.float64)).exp() * torch.arange(
        3.0, dtype=torch.float64),
    "pieces": lambda x: torch.cat(x.exp().split(1, dim=0)).sin().unbind(1)[0].cos(),
    "softmax": lambda x: torch.softmax(x.exp(), dim=1).log(),
}


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("name", sorted(SHAPED))
def test_keeping_everything_or_nothing_gives_the_plain_gradient_and_its_strides(name, keep):
    f = SHAPED[name]
    x = _transposed()
    y = checkpoint(f, x, use_reentrant=False, context_fn=functools.partial(
        create_selective_checkpoint_contexts, lambda ctx, op, *args, **kwargs: keep))
    (g,) = torch.autograd.grad(y.sum(), x)
    x2 = _transposed()
    (plain,) = torch.autograd.grad(f(x2).sum(), x2)
    assert torch.allclose(g, plain, rtol=0, atol=1e-12) and g.stride() == plain.stride()


def test_a_policy_gets_the_arguments_as_torch_binds_them():
    asked = []

    def policy(ctx, op, *args, **kwargs):
        shown = [type(a).__name__ if isinstance(a, torch.Tensor) else a for a in args]
        out = ctx.op_output
        asked.append((str(op), shown, kwargs,
                      tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__))
        return True

    def f(a):
        h = torch.softmax(a.sum(dim=0, keepdim=True).clamp(min=0.1) * a, dim=1)
        return h.to(torch.float32).max(dim=1)[0]

    x = _transposed()
    y = checkpoint(f, x, use_reentrant=False,
                   context_fn=functools.partial(create_selective_checkpoint_contexts, policy))
    assert asked == [
        ("aten.sum.dim_IntList", ["Tensor", [0], True], {}, (1, 3)),
        ("aten.clamp.default", ["Tensor", 0.1], {}, (1, 3)),
        ("aten.mul.Tensor", ["Tensor", "Tensor"], {}, (2, 3)),
        ("aten._softmax.default", ["Tensor", 1, False], {}, (2, 3)),
        ("aten._to_copy.default", ["Tensor"], {"dtype": torch.float32}, (2, 3)),
        ("aten.max.dim", ["Tensor", 1], {}, "tuple"),
    ]
    (g,) = torch.autograd.grad(y.sum(), x)
    x2 = _transposed()
    assert torch.equal(g, torch.autograd.grad(f(x2).sum(), x2)[0])
