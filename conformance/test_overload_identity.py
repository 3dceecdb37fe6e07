"""A mode's func is the overload's one object: `func is torch.ops.aten.mm.default` holds."""

import torch
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten


class Seen(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.funcs = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.funcs.append(func)
        return func(*args, **(kwargs or {}))


def test_overloads_and_packets_are_one_object_each():
    assert aten.mm.default is aten.mm.default and aten.mm is aten.mm
    assert aten.sum.dim_IntList is not aten.sum.default
    assert aten.mm.default.overloadpacket is aten.mm


def test_each_nested_mode_is_shown_the_same_object():
    x = torch.ones(2, 2, requires_grad=True)
    with Seen() as outer, Seen() as inner:
        y = torch.mm(x, x)
    assert outer.funcs == inner.funcs == [aten.mm.default]
    assert outer.funcs[0] is aten.mm.default and inner.funcs[0] is aten.mm.default
    assert type(y.grad_fn).__name__ == "MmBackward0"


def test_a_mode_can_choose_by_identity():
    class Tripled(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if func is aten.mul.Tensor:
                return func(args[0], args[1] * 3)
            return func(*args, **(kwargs or {}))

    x = torch.tensor([1.0, 2.0])
    with Tripled():
        assert (x * x).tolist() == [3.0, 12.0]
        assert (x + x).tolist() == [2.0, 4.0]


def test_a_kept_func_runs_its_op_after_the_mode_returned():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
    with Seen() as mode:
        x.sum(0)
        torch.nn.functional.mse_loss(x, x * 0, reduction="sum")
    summed, loss = mode.funcs[0], mode.funcs[-1]
    assert summed is aten.sum.dim_IntList and summed(x, [1]).tolist() == [3.0, 7.0]
    assert loss is aten.mse_loss.default
    assert loss(x, x * 0, 2).item() == 30.0  # 2: the reduction "sum", as torch's schema reads it
