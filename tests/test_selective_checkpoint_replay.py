"""refgrad.ops and the selective checkpoint's replay: overloads compare by name, and a kept
output handed back to the recomputation still gets its row's node."""

import functools

import pytest

import refgrad as torch
from refgrad._op_overloads import OpOverload
from refgrad.autograd.graph import saved_tensors_hooks
from refgrad.utils._overloads import OpOverloadPacket
from refgrad.utils._python_dispatch import OpFunc, TorchDispatchMode
from refgrad.utils._sac_replay import replayed
from refgrad.utils.checkpoint import checkpoint, create_selective_checkpoint_contexts


def test_an_overload_equals_a_func_of_the_same_name_and_hashes_alike():
    func = OpFunc("mm", (), ("self", "mat2"), None)
    assert func == torch.ops.aten.mm.default and torch.ops.aten.mm.default == func
    assert hash(func) == hash(torch.ops.aten.mm.default)
    assert func in {torch.ops.aten.mm.default}
    assert func != torch.ops.aten.mm.out and func != "aten.mm.default"
    assert torch.ops.aten.mm is OpOverloadPacket("mm") is func.overloadpacket
    assert isinstance(torch.ops.aten.sum.dim_IntList, OpOverload)
    assert torch.ops.aten.sum.dim_IntList.name() == "aten::sum.dim_IntList"


def test_dunder_names_are_no_ops():
    with pytest.raises(AttributeError):
        torch.ops.aten.__wrapped__  # noqa: B018
    with pytest.raises(AttributeError):
        torch.ops.aten.mm.__wrapped__  # noqa: B018


def test_a_kept_output_comes_back_with_its_node_and_saves_as_the_forward_did():
    x = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
    w = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
    counts = []

    def f(a, b):
        return torch.mm(a, b).sin()

    def count(t):
        counts.append(tuple(t.shape))
        return t

    keep = functools.partial(create_selective_checkpoint_contexts, [torch.ops.aten.mm.default])
    with saved_tensors_hooks(count, lambda t: t):
        y = checkpoint(f, x, w, use_reentrant=False, context_fn=keep)
    y.sum().backward()
    assert counts == [(3, 3), (3, 3)]  # the arguments, saved by the frame
    assert torch.allclose(x.grad, (torch.mm(x, w).cos() @ w.t()).detach())


def test_replayed_records_a_row_node_around_the_kept_tensor_and_leaves_other_ops():
    x = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
    kept = torch.mm(x, x).detach()
    seen = {}

    class Grab(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen["func"] = func
            return func(*args, **(kwargs or {}))

    with Grab():
        torch.mm(x, x)
    out = replayed(seen["func"], (x, x), {}, kept)
    assert type(out.grad_fn).__name__ == "MmBackward0" and out.data_ptr() == kept.data_ptr()
    plain = OpFunc("lift_fresh.default", (), ("self",), None)
    assert replayed(plain, (x,), {}, kept) is kept
