"""A leaf saved through pack hooks while a dispatch mode is on keeps its AccumulateGrad:
second derivatives through such saved values reach the leaf, under a mode as without one."""

import contextlib

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.checkpoint import checkpoint


class PassThrough(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


PROGRAMS = {
    "x*x*x": lambda x, w: x * x * x,
    "mul_ by a leaf": lambda x, w: (x * 1).mul_(w).mul_(w),
    "addcmul": lambda x, w: torch.addcmul(x, w, w) * w,
    "pow": lambda x, w: (x ** 2) * w,
    "mm": lambda x, w: x.view(1, 2) @ w.view(2, 1) * w,
    "cat": lambda x, w: torch.cat([x * w, w]) * w.sum(),
    "checkpoint": lambda x, w: checkpoint(lambda t: (t.sin() * t).exp() * w, x,
                                          use_reentrant=False),
}


def _second_derivatives(program, mode: bool):
    x = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([1.5, 2.0], dtype=torch.float64, requires_grad=True)
    with PassThrough() if mode else contextlib.nullcontext():
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
            y = program(x, w)
        first = torch.autograd.grad(y.sum(), (x, w), create_graph=True, allow_unused=True)
        total = sum(g.sum() for g in first if g is not None)
        return [None if g is None else g.tolist()
                for g in torch.autograd.grad(total, (x, w), allow_unused=True)]


@pytest.mark.parametrize("program", PROGRAMS.values(), ids=PROGRAMS.keys())
def test_second_derivatives_are_the_same_under_a_mode(program):
    assert _second_derivatives(program, True) == _second_derivatives(program, False)


def test_the_node_and_the_saved_leaf_share_one_accumulate_grad():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    with PassThrough(), torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = x * x
    edge = y.grad_fn.next_functions[0][0]
    assert edge is y.grad_fn.next_functions[1][0]
    assert type(edge).__name__ == "AccumulateGrad" and edge.variable is x
    saved = y.grad_fn._saved_self
    assert saved is not x and saved.is_leaf and saved.requires_grad
    (saved * 3).sum().backward()  # the unpacked leaf's gradient goes to x
    assert x.grad.tolist() == [3.0, 3.0]
