"""Black-box tests: the in-place activations under a dispatch mode. Each write shows
torch's op (elu_ for selu_, no doubled underscore) and its numbers by position, up to the
last not at its default; the clone autograd keeps is made only where the node saves self;
two modes see one clone and then the write; a write autograd refuses reaches no mode.
The same assertions run on torch."""

import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()
F = torch.nn.functional
SELU = (1.6732632423543772, 1.0507009873554805)

WRITES = {
    "elu": (lambda y: F.elu(y, 0.5, inplace=True), [("aten.elu_.default", ("T", 0.5))]),
    "elu_default": (lambda y: F.elu(y, inplace=True), [("aten.elu_.default", ("T", 1.0))]),
    "elu_int": (lambda y: F.elu(y, 1, inplace=True), [("aten.elu_.default", ("T",))]),
    "elu_": (lambda y: F.elu_(y, 2.0), [("aten.elu_.default", ("T", 2.0))]),
    "selu": (lambda y: F.selu(y, inplace=True), [("aten.elu_.default", ("T", *SELU))]),
    "selu_": (lambda y: torch.selu_(y), [("aten.elu_.default", ("T", *SELU))]),
    "celu": (lambda y: F.celu(y, 2.0, inplace=True), [("aten.celu_.default", ("T", 2.0))]),
    "celu_": (lambda y: torch.celu_(y), [("aten.celu_.default", ("T",))]),
    "leaky": (lambda y: F.leaky_relu(y, 0.2, inplace=True),
              [("aten.leaky_relu_.default", ("T", 0.2))]),
    "leaky_": (lambda y: F.leaky_relu_(y), [("aten.leaky_relu_.default", ("T",))]),
    "threshold_": (lambda y: F.threshold_(y, 1.5, 0.0),
                   [("aten.clone.default", ("T",)), ("aten.threshold_.default", ("T", 1.5, 0.0))]),
    "hardtanh_": (lambda y: F.hardtanh_(y, -2.0, 2.0),
                  [("aten.clone.default", ("T",)), ("aten.hardtanh_.default", ("T", -2.0, 2.0))]),
    "hardtanh_default": (lambda y: F.hardtanh_(y),
                         [("aten.clone.default", ("T",)),
                          ("aten.hardtanh_.default", ("T",))]),
    "hardtanh_int": (lambda y: F.hardtanh_(y, -2, 2),
                     [("aten.clone.default", ("T",)), ("aten.hardtanh_.default", ("T", -2, 2))]),
    "elu_int_alpha": (lambda y: F.elu_(y, 2), [("aten.elu_.default", ("T", 2))]),
    "elu_default_": (lambda y: F.elu_(y), [("aten.elu_.default", ("T",))]),
    "relu6": (lambda y: F.relu6(y, inplace=True),
              [("aten.clone.default", ("T",)), ("aten.hardtanh_.default", ("T", 0, 6))]),
    "silu": (lambda y: F.silu(y, inplace=True),
             [("aten.clone.default", ("T",)), ("aten.silu_.default", ("T",))]),
    "hardswish": (lambda y: F.hardswish(y, inplace=True),
                  [("aten.clone.default", ("T",)), ("aten.hardswish_.default", ("T",))]),
}


@pytest.mark.parametrize("name", list(WRITES))
def test_an_activation_written_in_place_shows_torchs_op(name):
    write, expected = WRITES[name]
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x * 1
    with Calls() as mode:
        write(y)
    seen = [(f, a) for f, a, _ in mode.seen if f != "aten.detach.default"]
    assert seen == expected
    y.sum().backward()
    assert x.grad is not None


def test_a_shown_write_made_again_by_the_mode_keeps_its_numbers():
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    plain = F.elu(x * 1, 0.5)
    y = x * 1
    with Calls():
        F.elu(y, 0.5, inplace=True)
    assert y.tolist() == plain.tolist()
    assert type(y.grad_fn).__name__ == "EluBackward1"


def _two_modes_seen(write):
    seen = []

    def tagged(tag):
        class Tagged(Calls):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                seen.append(f"{tag}:{func}")
                return func(*args, **(kwargs or {}))
        return Tagged()

    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with tagged("outer"), tagged("inner"):
        write(x)
    return seen


def test_two_modes_see_one_clone_then_the_write():
    seen = _two_modes_seen(lambda x: (x * 1).sin_())
    assert seen == ["inner:aten.mul.Tensor", "outer:aten.mul.Tensor",
                    "inner:aten.clone.default", "outer:aten.clone.default",
                    "inner:aten.sin_.default", "outer:aten.sin_.default"]


def test_two_modes_see_a_write_that_keeps_no_clone_once_each():
    seen = _two_modes_seen(lambda x: (x * 1).mul_(2))
    assert seen[2:] == ["inner:aten.mul_.Tensor", "outer:aten.mul_.Tensor"]


LEAF_WRITES = {
    "sin_": lambda leaf: leaf.sin_(),
    "mul_": lambda leaf: leaf.mul_(2),
    "relu": lambda leaf: F.relu(leaf, inplace=True),
    "elu": lambda leaf: F.elu(leaf, inplace=True),
    "fill_": lambda leaf: leaf.fill_(1.0),
    "zero_": lambda leaf: leaf.zero_(),
    "uniform_": lambda leaf: leaf.uniform_(),
    "copy_": lambda leaf: leaf.copy_(leaf),
}


@pytest.mark.parametrize("name", list(LEAF_WRITES))
def test_a_leaf_written_in_place_is_refused_before_a_mode_sees_it(name):
    leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with Calls() as mode, pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        LEAF_WRITES[name](leaf)
    assert mode.seen == []
    assert leaf._version == 0


def test_a_leaf_written_without_grad_reaches_the_mode():
    leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with Calls() as mode, torch.no_grad():
        leaf.mul_(2)
    assert [f for f, _, _ in mode.seen] == ["aten.mul_.Tensor"]
    assert leaf.tolist() == [2.0, 4.0, 6.0]
