"""Black-box tests: the arguments a dispatch mode is handed for the commonest ops are those
torch's schema binds (positional up to the last one not at its default, keyword-only ones
only where not at their default, int sequences as lists), and func called with them, then
or later, gives the op's result. The same assertions run on torch.
"""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._mode_support import graph_under_mode_is_the_ops
from conformance._support import calling_mode, mode_inputs, seen_and_called_again

Calls = calling_mode()


CASES = [
    (lambda x, y, i: x + y, "aten.add.Tensor", ("T", "T"), {}),
    (lambda x, y, i: x + 2, "aten.add.Tensor", ("T", 2), {}),
    (lambda x, y, i: x.add(y, alpha=2), "aten.add.Tensor", ("T", "T"), {"alpha": 2}),
    (lambda x, y, i: x - y, "aten.sub.Tensor", ("T", "T"), {}),
    (lambda x, y, i: x - 2, "aten.sub.Tensor", ("T", 2), {}),
    (lambda x, y, i: 2 - x, "aten.rsub.Scalar", ("T", 2), {}),
    (lambda x, y, i: torch.rsub(x, y, alpha=2), "aten.rsub.Tensor", ("T", "T"), {"alpha": 2}),
    (lambda x, y, i: x.sub(y, alpha=2), "aten.sub.Tensor", ("T", "T"), {"alpha": 2}),
    (lambda x, y, i: x.sum(0), "aten.sum.dim_IntList", ("T", [0]), {}),
    (lambda x, y, i: x.sum(dim=1, keepdim=True), "aten.sum.dim_IntList", ("T", [1], True), {}),
    (lambda x, y, i: x.sum(0, dtype=torch.float64), "aten.sum.dim_IntList", ("T", [0]),
     {"dtype": torch.float64}),
    (lambda x, y, i: x.mean(0), "aten.mean.dim", ("T", [0]), {}),
    (lambda x, y, i: x.mean((0, 1), True), "aten.mean.dim", ("T", [0, 1], True), {}),
    (lambda x, y, i: x.max(0)[0], "aten.max.dim", ("T", 0), {}),
    (lambda x, y, i: x.amax(0), "aten.amax.default", ("T", [0]), {}),
    (lambda x, y, i: x.view(3, 2), "aten.view.default", ("T", [3, 2]), {}),
    (lambda x, y, i: x.reshape(6), "aten.view.default", ("T", [6]), {}),
    (lambda x, y, i: x.softmax(1), "aten._softmax.default", ("T", 1, False), {}),
    (lambda x, y, i: x.log_softmax(-1), "aten._log_softmax.default", ("T", -1, False), {}),
    (lambda x, y, i: torch.cat([x, y]), "aten.cat.default", (["T", "T"],), {}),
    (lambda x, y, i: torch.cat((x, y), dim=1), "aten.cat.default", (["T", "T"], 1), {}),
    (lambda x, y, i: torch.stack([x, y]), "aten.stack.default", (["T", "T"],), {}),
    (lambda x, y, i: torch.stack([x, y], 1), "aten.stack.default", (["T", "T"], 1), {}),
    (lambda x, y, i: x[0], "aten.select.int", ("T", 0, 0), {}),
    (lambda x, y, i: x[:, 1], "aten.select.int", ("T", 1, 1), {}),
    (lambda x, y, i: x[1:], "aten.slice.Tensor", ("T", 0, 1, 9223372036854775807), {}),
    (lambda x, y, i: x[i], "aten.index.Tensor", ("T", ["T"]), {}),
    (lambda x, y, i: x.transpose(0, 1), "aten.transpose.int", ("T", 0, 1), {}),
    (lambda x, y, i: x.permute(1, 0), "aten.permute.default", ("T", [1, 0]), {}),
    (lambda x, y, i: x.unsqueeze(0), "aten.unsqueeze.default", ("T", 0), {}),
    (lambda x, y, i: x.expand(2, 2, 3), "aten.expand.default", ("T", [2, 2, 3]), {}),
    (lambda x, y, i: x.pow(2), "aten.pow.Tensor_Scalar", ("T", 2), {}),
    (lambda x, y, i: torch.where(i.bool()[:, None], x, y), "aten.where.self", ("T", "T", "T"),
     {}),
    (lambda x, y, i: x.split(1)[1], "aten.split.Tensor", ("T", 1), {}),
    (lambda x, y, i: x.chunk(3, 1)[2], "aten.split.Tensor", ("T", 1, 1), {}),
    (lambda x, y, i: x.to(torch.float64), "aten._to_copy.default", ("T",),
     {"dtype": torch.float64}),
    (lambda x, y, i: x.double(), "aten._to_copy.default", ("T",), {"dtype": torch.float64}),
    (lambda x, y, i: x.clone(), "aten.clone.default", ("T",), {}),
    (lambda x, y, i: x.sum(dtype=torch.float64), "aten.sum.default", ("T",),
     {"dtype": torch.float64}),
    (lambda x, y, i: x.mean(), "aten.mean.default", ("T",), {}),
    (lambda x, y, i: x.cumsum(1), "aten.cumsum.default", ("T", 1), {}),
    (lambda x, y, i: x.cumsum(0, dtype=torch.float64), "aten.cumsum.default", ("T", 0),
     {"dtype": torch.float64}),
    (lambda x, y, i: x.prod(1), "aten.prod.dim_int", ("T", 1), {}),
    (lambda x, y, i: x.var(0), "aten.var.correction", ("T", [0]), {"correction": 1}),
    (lambda x, y, i: x.std(1, correction=0, keepdim=True), "aten.std.correction", ("T", [1]),
     {"correction": 0, "keepdim": True}),
    (lambda x, y, i: x.logsumexp(1), "aten.logsumexp.default", ("T", [1]), {}),
    (lambda x, y, i: x.argmax(1), "aten.argmax.default", ("T", 1), {}),
    (lambda x, y, i: x.argmin(), "aten.argmin.default", ("T",), {}),
    (lambda x, y, i: x.norm(), "aten.linalg_vector_norm.default", ("T",), {}),
    (lambda x, y, i: x[None].squeeze(0), "aten.squeeze.dim", ("T", 0), {}),
    (lambda x, y, i: x.unbind(1)[1], "aten.unbind.int", ("T", 1), {}),
    (lambda x, y, i: x.flip(0), "aten.flip.default", ("T", [0]), {}),
    (lambda x, y, i: x.repeat(2, 1), "aten.repeat.default", ("T", [2, 1]), {}),
    (lambda x, y, i: x.roll(1, 1), "aten.roll.default", ("T", [1], [1]), {}),
    (lambda x, y, i: x.roll(2), "aten.roll.default", ("T", [2]), {}),
    (lambda x, y, i: x.diagonal(), "aten.diagonal.default", ("T",), {}),
    (lambda x, y, i: x.tril(), "aten.tril.default", ("T",), {}),
    (lambda x, y, i: x.triu(1), "aten.triu.default", ("T", 1), {}),
    (lambda x, y, i: x.clamp(-0.3, 0.3), "aten.clamp.default", ("T", -0.3, 0.3), {}),
    (lambda x, y, i: x.clamp(min=0), "aten.clamp.default", ("T", 0), {}),
    (lambda x, y, i: x.gather(1, i[None]), "aten.gather.default", ("T", 1, "T"), {}),
    (lambda x, y, i: x.index_select(1, i), "aten.index_select.default", ("T", 1, "T"), {}),
    (lambda x, y, i: x.masked_fill(x > 0, 0.0), "aten.masked_fill.Scalar", ("T", "T", 0.0), {}),
    (lambda x, y, i: x.masked_select(x > 0), "aten.masked_select.default", ("T", "T"), {}),
    (lambda x, y, i: x.scatter(1, i[None], 1.0), "aten.scatter.value", ("T", 1, "T", 1.0), {}),
    (lambda x, y, i: x.topk(2)[0], "aten.topk.default", ("T", 2), {}),
    (lambda x, y, i: x.topk(1, 0, False)[0], "aten.topk.default", ("T", 1, 0, False), {}),
    (lambda x, y, i: torch.nn.functional.gelu(x), "aten.gelu.default", ("T",), {}),
    (lambda x, y, i: torch.nn.functional.gelu(x, approximate="tanh"), "aten.gelu.default",
     ("T",), {"approximate": "tanh"}),
    (lambda x, y, i: torch.nn.functional.leaky_relu(x, 0.2), "aten.leaky_relu.default",
     ("T", 0.2), {}),
    (lambda x, y, i: torch.addmm(x, x, y.t() @ y), "aten.addmm.default", ("T", "T", "T"), {}),
    (lambda x, y, i: x.any(), "aten.any.default", ("T",), {}),
    (lambda x, y, i: x.any(1), "aten.any.dim", ("T", 1), {}),
    (lambda x, y, i: x.any((0, 1)), "aten.any.dims", ("T", [0, 1]), {}),
    (lambda x, y, i: x.all(1, keepdim=True), "aten.all.dim", ("T", 1, True), {}),
    (lambda x, y, i: torch.all(x, dim=(0,)), "aten.all.dims", ("T", [0]), {}),
    (lambda x, y, i: x.relu(), "aten.relu.default", ("T",), {}),
    (lambda x, y, i: x @ y.t(), "aten.mm.default", ("T", "T"), {}),
]


@pytest.mark.parametrize(("call", "name", "args", "kwargs"), CASES)
def test_the_mode_sees_torchs_arguments_and_func_gives_the_result(call, name, args, kwargs):
    alone, again = seen_and_called_again(Calls, call, (name, args, kwargs))
    if name == "aten.split.Tensor":  # the piece the call took
        again = again[2] if len(args) > 2 else again[1]
    elif name in ("aten.max.dim", "aten.topk.default"):  # (values, indices)
        again = again[0]
    elif name == "aten.unbind.int":
        again = again[1]
    assert torch.equal(again, alone) and again.dtype == alone.dtype


def test_func_is_one_object_per_overload():
    x, y, _ = mode_inputs()
    with Calls() as mode:
        x.sum(0), y.sum(1), x.sum()
    funcs = [func for func, _, _ in mode.kept]
    assert funcs[0] is funcs[1] and funcs[0] is not funcs[2]


class Other(TorchDispatchMode):
    """Sums along the last dimension whatever was asked, keeping it."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if str(func) == "aten.sum.dim_IntList":
            return func(args[0], [-1], True, **(kwargs or {}))
        return func(*args, **(kwargs or {}))


def test_a_mode_may_call_func_with_other_arguments():
    x, _, _ = mode_inputs()
    with Other():
        made = x.sum(0, dtype=torch.float64)
    assert made.shape == (2, 1) and made.dtype == torch.float64
    assert torch.equal(made, x.sum(-1, keepdim=True, dtype=torch.float64))


def test_the_graph_is_the_ops_own():
    x, y, _ = mode_inputs()
    x.requires_grad_()
    with Calls():
        out = torch.cat([x.sum(0, keepdim=True), y[:1]], 1).to(torch.float64)
    out.sum().backward()
    assert out.grad_fn.name() == "ToCopyBackward0"
    assert out.grad_fn.next_functions[0][0].name() == "CatBackward0"
    assert torch.equal(x.grad, torch.ones(2, 3))


@pytest.mark.parametrize(("call", "name", "args", "kwargs"), CASES)
def test_the_graph_made_through_func_is_the_ops(call, name, args, kwargs):
    graph_under_mode_is_the_ops(Calls, call, inside=True)


def test_fill_hands_the_mode_its_value():
    x, _, _ = mode_inputs()
    with Calls() as mode:
        x.fill_(1.5)
        x.fill_(torch.tensor(2.0))
    assert [seen[:2] for seen in mode.seen] == [
        ("aten.fill_.Scalar", ("T", 1.5)), ("aten.lift_fresh.default", ("T",)),
        ("aten.fill_.Tensor", ("T", "T"))]
    assert torch.equal(x, torch.full((2, 3), 2.0))
