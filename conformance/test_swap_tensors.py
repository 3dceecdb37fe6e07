"""Black-box tests: torch.utils.swap_tensors exchanges all two tensors hold but their identity,
and refuses where something else still holds one of them. The same assertions run on torch.
"""

import weakref

import pytest
import torch
from torch import nn

from conformance._support import raises

POISONED = (
    "Trying to execute AccumulateGrad node that was poisoned by swap_tensors this can happen "
    "when you try to run backward on a tensor that was swapped. For a module m with "
    "`torch.__future__.set_swap_module_params_on_conversion(True)` you should not change the "
    "device or dtype of the module (e.g. `m.cpu()` or `m.half()`) between running forward and "
    "backward. To resolve this, please only change the device/dtype before running forward "
    "(or after both forward and backward)."
)
NO_EDGE = "It is not possible to get the gradient edge for a Tensor that does not require gradients"


def uses(name, count):
    return (f"Expected use_count of {name} to be 1 or 2 with an AccumulateGrad node but got "
            f"{count} make sure you are not holding references to the tensor in other places.")


class Slotted(nn.Parameter):
    __slots__ = ("x",)


class OtherSlotted(nn.Parameter):
    __slots__ = ("x",)


class Tagged(nn.Parameter):
    pass


def test_contents_move_and_identity_stays():
    a = torch.ones(2, requires_grad=True)
    a.grad = torch.full((2,), 3.0)
    b = torch.arange(3)
    b.add_(1)
    held = [a, b]
    torch.utils.swap_tensors(a, b)
    assert held[0] is a and held[1] is b
    assert a.tolist() == [1, 2, 3] and a.dtype == torch.int64 and not a.requires_grad
    assert a.grad is None and a._version == 1
    assert b.tolist() == [1.0, 1.0] and b.requires_grad and b.grad.tolist() == [3.0, 3.0]
    assert b._version == 0 and b.is_leaf


def test_class_slots_and_attributes_move():
    p, q = nn.Parameter(torch.ones(2)), torch.zeros(2)
    torch.utils.swap_tensors(p, q)
    assert type(p) is torch.Tensor and type(q) is nn.Parameter and q.requires_grad
    s, o = Slotted(torch.ones(1)), OtherSlotted(torch.zeros(1))
    s.x = 5
    torch.utils.swap_tensors(s, o)
    assert type(s) is OtherSlotted and type(o) is Slotted and o.x == 5 and not hasattr(s, "x")
    t, u = Tagged(torch.ones(1)), Tagged(torch.zeros(1))
    t.tag, u.other = "t", 1
    torch.utils.swap_tensors(t, u)
    assert t.__dict__ == {"other": 1} and u.__dict__ == {"tag": "t"}


def test_hooks_and_grad_fn_move():
    calls = []
    a = torch.ones(2, requires_grad=True)
    a.register_hook(lambda g: calls.append("a's hook"))
    b = torch.zeros(2, requires_grad=True)
    torch.utils.swap_tensors(a, b)
    a.sum().backward()
    assert calls == []
    b.sum().backward()
    assert calls == ["a's hook"]
    x = torch.ones(2, requires_grad=True)
    y, z = x * 2, torch.zeros(2)
    torch.utils.swap_tensors(y, z)
    assert y.grad_fn is None and z.grad_fn.name() == "MulBackward0"


def test_a_swapped_view_is_still_a_view():
    base = torch.ones(4)
    view, other = base[:2], torch.zeros(2)
    torch.utils.swap_tensors(view, other)
    other[0] = 7.0
    assert base.tolist() == [7.0, 1.0, 1.0, 1.0] and other._base is base
    assert view._base is None and view.tolist() == [0.0, 0.0]
    left, right = base[:2], base[2:]
    torch.utils.swap_tensors(left, right)
    left[0] = 5.0
    base.mul_(2)
    assert base.tolist() == [14.0, 2.0, 10.0, 2.0]
    assert left.tolist() == [10.0, 2.0] and right.tolist() == [14.0, 2.0]


def test_an_accumulate_grad_node_is_poisoned():
    x = torch.ones(2, requires_grad=True)
    y = (x * 2).sum()
    torch.utils.swap_tensors(x, torch.zeros(2, requires_grad=True))
    with raises(RuntimeError, POISONED):
        y.backward()


def test_weak_references_and_slots_are_refused():
    a, b = torch.ones(2), torch.zeros(2)
    ref = weakref.ref(a)
    with raises(RuntimeError, "Cannot swap t1 because it has weakref associated with it"):
        torch.utils.swap_tensors(a, b)
    with raises(RuntimeError, "Cannot swap t2 because it has weakref associated with it"):
        torch.utils.swap_tensors(b, a)
    assert ref() is a and a.tolist() == [1.0, 1.0]
    with raises(RuntimeError, "Cannot swap t1 and t2 if they have different slots"):
        torch.utils.swap_tensors(Slotted(torch.ones(1)), nn.Parameter(torch.ones(1)))
    with raises(AttributeError, "'int' object has no attribute '_use_count'"):
        torch.utils.swap_tensors(torch.ones(1), 3)


@pytest.mark.parametrize("case", ["base", "saved", "grad"])
def test_a_tensor_held_elsewhere_without_grad_has_no_edge(case):
    t = torch.ones(4)
    keep = []
    if case == "base":
        keep.append(t[:2])
    elif case == "saved":
        keep.append((torch.ones(4, requires_grad=True) * t).sum())
    else:
        owner = torch.ones(4, requires_grad=True)
        owner.grad = t
        keep.append(owner)
    with raises(RuntimeError, NO_EDGE):
        torch.utils.swap_tensors(t, torch.zeros(4))
    assert t.tolist() == [1.0] * 4


def test_too_many_uses_are_counted():
    v = torch.ones(4, requires_grad=True)
    view = v[:2]
    with raises(RuntimeError, uses("t1", 3)):
        torch.utils.swap_tensors(v, torch.zeros(4))
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    with raises(RuntimeError, uses("t2", 4)):
        torch.utils.swap_tensors(torch.zeros(2), x)
    assert view.tolist() == [1.0, 1.0] and y.item() == 2.0
