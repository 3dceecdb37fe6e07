"""Reading a node's raw saved values without a backward: unpack(), data, unpack_hook."""

import re

import pytest
import torch

from conformance._support import FREED, leaf, raises

DETACHED_IN_PLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead"
)
MODIFIED = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [torch.FloatTensor [2]]{} is at version 1; expected version 0 instead. Hint: "
    "enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
REPR = r"<torch\._C\._autograd\.SavedTensor object at 0x[0-9a-f]+>"


def test_a_saved_input_unpacks_and_reads_as_itself():
    a = leaf(1.0, 2.0)
    y = a.exp() * a
    raw = y.grad_fn._raw_saved_other
    assert raw.unpack() is a and raw.data is a and raw.unpack_hook is None
    assert re.fullmatch(REPR, repr(raw))
    y.sum().backward(retain_graph=True)
    assert raw.unpack() is a and raw.data is a


def test_a_saved_output_reads_as_data_but_does_not_unpack_without_its_node():
    a = leaf(1.0, 2.0)
    e = a.exp()
    raw = e.grad_fn._raw_saved_result
    data = raw.data
    assert data.tolist() == e.tolist()
    assert (data.requires_grad, data.grad_fn, data._version) == (False, None, 0)
    with raises(RuntimeError, DETACHED_IN_PLACE):
        raw.unpack()
    with torch.no_grad():
        e.add_(1)
    assert raw.data._version == 1 and raw.data.tolist() == e.tolist()  # the same storage
    with raises(RuntimeError, DETACHED_IN_PLACE):  # refused before the version is compared
        raw.unpack()


def test_unpack_compares_versions_as_backward_does():
    a = leaf(1.0, 2.0)
    k = a.clone()
    y = k * a
    k.add_(1)
    with raises(RuntimeError, MODIFIED.format(", which is output 0 of Add,")):
        y.grad_fn._raw_saved_self.unpack()
    assert y.grad_fn._raw_saved_other.unpack() is a
    with torch.no_grad():
        a.add_(1)
    with raises(RuntimeError, MODIFIED.format("")):
        y.grad_fn._raw_saved_other.unpack()
    assert y.grad_fn._raw_saved_self.data is k  # data reads without any check


def test_freed_values_read_as_none_and_refuse_to_unpack():
    a = leaf(1.0, 2.0)
    y = a * a
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(lambda t: "packed", lambda p: torch.ones(2))
    y.sum().backward()
    assert (raw.data, raw.unpack_hook) == (None, None)
    with raises(RuntimeError, FREED):
        raw.unpack()
    e = a.exp()
    e.sum().backward()
    with raises(RuntimeError, FREED):  # freed is said before the missing node
        e.grad_fn._raw_saved_result.unpack()


def test_hooked_values_show_what_pack_returned():
    a = leaf(1.0, 1.0)
    y = a * a
    unpack_hook = lambda p: torch.ones(2) * 3  # noqa: E731
    y.grad_fn._raw_saved_self.register_hooks(lambda t: "packed", unpack_hook)
    raw = y.grad_fn._raw_saved_self
    assert raw.data == "packed" and raw.unpack_hook is unpack_hook
    got = raw.unpack()
    assert got.tolist() == [3.0, 3.0] and got.requires_grad and got.is_leaf
    with torch.autograd.graph.saved_tensors_hooks(lambda t: ("p", t), lambda p: p[1]):
        b = leaf(1.0, 2.0)
        c = b.exp()
        d = c * b
    assert d.grad_fn._raw_saved_self.data[1] is c
    assert d.grad_fn._raw_saved_self.unpack().grad_fn is c.grad_fn
    assert d.grad_fn._raw_saved_self.unpack() is not c  # a new tensor, c's identity put back
    with raises(RuntimeError, DETACHED_IN_PLACE):
        c.grad_fn._raw_saved_result.unpack()


def test_unpack_takes_no_arguments():
    raw = (leaf(1.0) * leaf(2.0)).grad_fn._raw_saved_self
    head = ("unpack(): incompatible function arguments. The following argument types are "
            "supported:\n    1. (self: torch._C._autograd.SavedTensor) -> torch.Tensor\n\n"
            f"Invoked with: {raw!r}")
    with raises(TypeError, head + ", 1"):
        raw.unpack(1)
    with raises(TypeError, head + "; kwargs: x=1"):
        raw.unpack(x=1)


def test_register_hooks_takes_two_callables_by_position():
    out = leaf(1.0) * leaf(2.0)  # kept: torch's raw value does not keep its node alive
    raw = out.grad_fn._raw_saved_self
    head = ("register_hooks(): incompatible function arguments. The following argument types "
            "are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
            "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
            f"Invoked with: {raw!r}")
    with raises(TypeError, head + f", {print!r}"):
        raw.register_hooks(print)
    with raises(TypeError, head):
        raw.register_hooks()
    with raises(TypeError, head + f", {print!r}, {print!r}, {print!r}"):
        raw.register_hooks(print, print, print)
    with raises(TypeError, head + f"; kwargs: pack_hook={print!r}, unpack_hook={print!r}"):
        raw.register_hooks(pack_hook=print, unpack_hook=print)
    with raises(TypeError, head + f", {print!r}; kwargs: unpack_hook={print!r}"):
        raw.register_hooks(print, unpack_hook=print)
    raw.register_hooks(lambda t: t, lambda t: t)  # the refusals left no hooks behind
    out.backward()


def test_a_value_not_kept_is_an_empty_saved_tensor():
    x = leaf(1.0, 2.0, 3.0, 4.0, 5.0, 6.0).reshape(2, 3)
    y = torch.nn.functional.batch_norm(x, torch.zeros(3), torch.ones(3), training=True)
    raw = y.grad_fn._raw_saved_weight
    assert type(raw) is torch.autograd.SavedTensor and re.fullmatch(REPR, repr(raw))
    assert (raw.unpack(), raw.data, raw.unpack_hook) == (None, None, None)
    with raises(RuntimeError, "Calling register_hooks on a saved tensor with value None is "
                "forbidden"):
        raw.register_hooks(print, print)
    y.sum().backward()
    assert (raw.unpack(), raw.data, raw.unpack_hook) == (None, None, None)


def test_a_saved_input_detached_in_place_is_refused_where_torch_refuses_it():
    a = leaf(1.0, 2.0)
    b = a * 2
    y = b.pow(2)
    b.detach_()
    with raises(RuntimeError, DETACHED_IN_PLACE):
        y.grad_fn._raw_saved_self.unpack()
    assert y.grad_fn._saved_self.tolist() == [2.0, 4.0]  # the getter hands its node over
    assert y.grad_fn._raw_saved_self.data is b
    with raises(RuntimeError, DETACHED_IN_PLACE):
        y.sum().backward()
    c = a * 3
    e = c.exp()
    c.detach_()
    e.sum().backward()  # exp keeps its result, not the detached input
    assert a.grad is not None


def test_a_detached_input_is_refused_before_its_version_and_not_when_hooks_kept_it():
    a = leaf(1.0, 2.0)
    b = a * 3
    y = b * a
    with torch.no_grad():
        b.add_(1)
    b.detach_()
    with raises(RuntimeError, DETACHED_IN_PLACE):
        y.sum().backward()
    c = a * 3
    z = c * a
    z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    c.detach_()
    assert z.grad_fn._raw_saved_self.unpack().grad_fn is not None
    z.sum().backward()


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(y)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y, None


def test_a_custom_function_reads_a_detached_input_as_it_was():
    a = leaf(1.0, 2.0)
    b = a * 3
    out = Scale.apply(a, b)
    b.detach_()
    assert [t.tolist() for t in out.grad_fn.saved_tensors] == [[3.0, 6.0]]
    out.sum().backward()
    assert a.grad.tolist() == [3.0, 6.0]


def test_saved_values_are_torch_c_autograd_saved_tensors_made_by_nodes_alone():
    raw = torch.tensor([1.0], requires_grad=True).sin().grad_fn._raw_saved_self
    assert isinstance(raw, torch._C._autograd.SavedTensor)
    assert type(raw).__name__ == "SavedTensor"
    with pytest.raises(RuntimeError, match="Trying to create a SavedTensor object from Python "
                                           "is forbidden."):
        torch._C._autograd.SavedTensor()
