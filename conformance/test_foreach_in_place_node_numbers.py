"""An in-place foreach op whose plain op keeps ``self`` as it was makes every element's node
first and clones the tensors after: the nodes take the call's first sequence numbers, the
clones' nodes the next ones. The same assertions run on torch."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode


def _numbers(call, count=3, *, leaves=True):
    """The call's element nodes' and clones' numbers, counted from the last number before."""
    xs = [torch.rand(3, requires_grad=True).clone() for _ in range(count)]
    if not leaves:
        xs[1] = xs[1].detach()
    start = xs[-1].grad_fn._sequence_nr()
    call(xs)
    nodes = [x.grad_fn for x in xs]
    elements = [None if n is None else n._sequence_nr() - start for n in nodes]
    kept = [getattr(n, "_saved_self", None) for n in nodes]
    clones = [None if k is None else k.grad_fn._sequence_nr() - start for k in kept]
    after = torch.rand(1, requires_grad=True).mul(2).grad_fn._sequence_nr() - start
    return elements, clones, after


def _needing_grad(value):
    return [torch.full((3,), value, requires_grad=True) for _ in range(3)]


_CALLS = {
    "clamp_min_ number": lambda xs: torch._foreach_clamp_min_(xs, 0.5),
    "clamp_max_ numbers": lambda xs: torch._foreach_clamp_max_(xs, [0.1, 0.5, 0.9]),
    "clamp_min_ list": lambda xs: torch._foreach_clamp_min_(xs, [torch.full((3,), 0.5)] * 3),
    "maximum_ list": lambda xs: torch._foreach_maximum_(xs, _needing_grad(0.5)),
    "minimum_ list": lambda xs: torch._foreach_minimum_(xs, [torch.full((3,), 0.5)] * 3),
    "pow_ number": lambda xs: torch._foreach_pow_(xs, 2.0),
    "pow_ numbers": lambda xs: torch._foreach_pow_(xs, [2.0, 3.0, 1.0]),
    "pow_ list": lambda xs: torch._foreach_pow_(xs, [torch.full((3,), 2.0)] * 3),
    "mul_ list": lambda xs: torch._foreach_mul_(xs, _needing_grad(2.0)),
    "div_ list": lambda xs: torch._foreach_div_(xs, _needing_grad(2.0)),
    "lerp_ list": lambda xs: torch._foreach_lerp_(xs, _needing_grad(1.0), _needing_grad(0.5)),
    "sin_": torch._foreach_sin_,
    "log1p_": torch._foreach_log1p_,
}


@pytest.mark.parametrize("call", _CALLS.values(), ids=_CALLS.keys())
def test_the_element_nodes_come_before_the_clones(call):
    assert _numbers(call) == ([1, 2, 3], [4, 5, 6], 7)


def test_a_tensor_that_records_nothing_takes_no_number():
    elements, clones, after = _numbers(torch._foreach_sin_, leaves=False)
    assert (elements, clones, after) == ([1, None, 2], [3, None, 4], 5)


def test_nodes_that_keep_no_clone_are_numbered_one_after_another():
    assert _numbers(torch._foreach_neg_) == ([1, 2, 3], [None] * 3, 4)
    assert _numbers(lambda xs: torch._foreach_mul_(xs, 2.0)) == ([1, 2, 3], [None] * 3, 4)


def test_the_engine_runs_the_later_numbered_element_first():
    order = []
    xs = [torch.rand(2, requires_grad=True).clone() for _ in range(3)]
    torch._foreach_sin_(xs)
    for i, x in enumerate(xs):
        x.grad_fn.register_hook(lambda grad_in, grad_out, i=i: order.append(("sin", i)))
        before = x.grad_fn.next_functions[0][0]
        before.register_hook(lambda grad_in, grad_out, i=i: order.append(("clone", i)))
    sum(x.sum() for x in xs).backward()
    assert order == [("sin", 2), ("sin", 1), ("sin", 0), ("clone", 2), ("clone", 1),
                     ("clone", 0)]


class _Passing(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def test_under_a_mode_the_elements_are_numbered_first_too():
    with _Passing():
        numbers = _numbers(torch._foreach_sin_, count=2)
    assert numbers == ([1, 2], [3, 4], 5)
