"""TorchFunctionMode: a per-thread stack of objects that see every public call first."""

import threading

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from conformance._support import raises


class Names(TorchFunctionMode):
    def __init__(self, label="m"):
        self.label, self.seen = label, []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.seen.append((torch.overrides.resolve_name(func), kwargs))
        return func(*args, **(kwargs or {}))


class Declines(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return NotImplemented


def test_a_mode_sees_functions_methods_operators_and_properties():
    x = torch.tensor([1.0, 2.0])
    with Names() as mode:
        torch.add(x, 1, alpha=2)
        x + 1
        x.sin()
        F.relu(x)
        x.shape
        torch.ones(2)
        x.grad = None
        x.grad
    assert [n for n, _ in mode.seen] == [
        "torch.add", "torch.Tensor.add", "torch.Tensor.sin", "torch.nn.functional.relu",
        "torch.Tensor.shape.__get__", "torch.ones", "torch.Tensor.grad.__set__",
        "torch.Tensor.grad.__get__"]
    assert mode.seen[0][1] == {"alpha": 2} and mode.seen[1][1] is None


def test_the_stack_is_pushed_popped_and_restored_after_an_error():
    outer, inner = Names("outer"), Names("inner")
    with outer:
        with inner:
            assert torch.overrides._get_current_function_mode_stack() == [outer, inner]
            torch.ones(1).sin()
        try:
            with inner:
                raise ValueError("inside")
        except ValueError:
            pass
        assert torch.overrides._get_current_function_mode_stack() == [outer]
    assert torch.overrides._get_current_function_mode_stack() == []
    names = [n for n, _ in inner.seen]
    assert names == ["torch.ones", "torch.Tensor.sin"] == [n for n, _ in outer.seen[:2]]


def test_the_stack_belongs_to_its_thread():
    found = []
    with Names():
        thread = threading.Thread(
            target=lambda: found.append(len(torch.overrides._get_current_function_mode_stack())))
        thread.start()
        thread.join()
        assert len(torch.overrides._get_current_function_mode_stack()) == 1
    assert found == [0]


class Subclass(torch.Tensor):
    order = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.order.append("subclass")
        return NotImplemented


def test_a_mode_comes_before_a_subclass_and_both_may_decline():
    s = torch.ones(1).as_subclass(Subclass)
    mode = Declines()
    with mode:
        with raises(TypeError, "Multiple dispatch failed for 'torch.add'; all "
                    "__torch_function__ handlers returned NotImplemented:\n\n"
                    f"  - mode object {mode!r}\n  - tensor subclass {Subclass!r}\n\n"
                    "For more information, try re-running with TORCH_LOGS=not_implemented"):
            torch.add(s, 1)
    assert Subclass.order == ["subclass"]


def test_disable_torch_function_silences_modes_but_not_disable_subclass():
    with Names() as mode:
        with torch._C.DisableTorchFunction():
            torch.ones(1)
        with torch._C.DisableTorchFunctionSubclass():
            torch.zeros(1)
    assert [n for n, _ in mode.seen] == ["torch.zeros"]
