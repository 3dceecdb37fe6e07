"""Two gradients for one input, summed under a profile: torch's engine adds the second into the
first in place (``aten::add_``) when it can, out of place (``aten::add``) otherwise, in the
``evaluate_function`` of the node that delivers the second."""

import pytest
import torch
from torch.autograd.profiler import profile


def _sums(program):
    x = torch.ones(3, requires_grad=True)
    with profile() as prof:
        program(x)
    found = [(e.name, e.cpu_parent.name.split(": ")[1]) for e in prof.function_events
             if e.name in ("aten::add", "aten::add_") and e.cpu_parent is not None
             and e.cpu_parent.name.startswith("autograd::engine")]
    return found, x


def _twice(y, first, second):
    (first(y) + second(y)).sum().backward()


CASES = [
    ("two_fresh", lambda x: (x.exp().sin() + x.exp().cos()).sum().backward(),
     [("aten::add_", "ExpBackward0")]),
    ("one_result_used_twice", lambda x: _twice(x.exp(), torch.sin, torch.cos),
     [("aten::add_", "SinBackward0")]),
    ("the_same_gradient_twice", lambda x: _twice(x.exp(), lambda t: t, lambda t: t),
     [("aten::add", "AddBackward0")]),
    ("into_a_leaf", lambda x: (x * 2 + x * 3).sum().backward(), [("aten::add_", "MulBackward0")]),
    ("a_leaf_added_to_itself", lambda x: (x + x).sum().backward(),
     [("aten::add", "AddBackward0")]),
    ("an_expanded_gradient_second", lambda x: (lambda y: (y.sum() + (y * 2).sum()).backward())(
        x.exp()), [("aten::add_", "SumBackward0")]),
    ("an_expanded_gradient_first", lambda x: (lambda y: ((y * 2).sum() + y.sum()).backward())(
        x.exp()), [("aten::add", "MulBackward0")]),
    ("two_expanded_gradients", lambda x: (lambda y: (y.sum() + y.sum()).backward())(x.exp()),
     [("aten::add", "SumBackward0")]),
    ("with_create_graph", lambda x: torch.autograd.grad((x.sin() * x.cos()).sum(), x,
                                                       create_graph=True),
     [("aten::add", "SinBackward0")]),
    ("one_node_twice", lambda x: (x * x).sum().backward(), [("aten::add_", "MulBackward0")]),
    ("three_gradients", lambda x: (x.sin() + x.cos() + x.exp()).sum().backward(),
     [("aten::add_", "CosBackward0"), ("aten::add_", "SinBackward0")]),
    ("viewed_gradients", lambda x: (x.view(3) * 2 + x.view(3) * 3).sum().backward(),
     [("aten::add", "ViewBackward0")]),
    ("under_a_hook", lambda x: (lambda y: (y.register_hook(lambda g: g), _twice(
        y, torch.sin, torch.cos)))(x.exp()), [("aten::add_", "SinBackward0")]),
    ("with_retain_grad", lambda x: (lambda y: (y.retain_grad(), _twice(
        y, torch.sin, torch.cos)))(x.exp()), [("aten::add_", "SinBackward0")]),
]


@pytest.mark.parametrize("program, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_how_two_gradients_are_summed(program, expected):
    assert _sums(program)[0] == expected


def test_a_sum_in_place_counts_a_write():
    found, x = _sums(lambda x: (x * 2 + x * 3).sum().backward())
    assert found == [("aten::add_", "MulBackward0")]
    assert x.grad.tolist() == [5.0, 5.0, 5.0]
    assert x.grad._version == 1


def test_the_gradients_are_the_same_as_without_a_profile():
    def program(x):
        y = x.exp()
        (y.sin() * 2 + y.cos() * 3 + y * y).sum().backward()

    _, profiled = _sums(program)
    plain = torch.ones(3, requires_grad=True)
    program(plain)
    assert profiled.grad.tolist() == plain.grad.tolist()
    assert profiled.grad._version == plain.grad._version


def test_under_a_users_mode_the_sum_is_out_of_place():
    from torch.utils._python_dispatch import TorchDispatchMode

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    def program(x):
        with Seen():
            (x * 2 + x * 3).sum().backward()

    found, x = _sums(program)
    assert found == [("aten::add", "MulBackward0")]
    assert x.grad._version == 0
