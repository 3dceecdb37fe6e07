"""A Python number a node keeps, read raw: a SavedTensor of that very class, whose unpack
hook's tensor is what backward then uses, and which is freed with the rest of the node."""

import pytest
import torch

from conformance._support import FREED, leaf, raises

SavedTensor = torch._C._autograd.SavedTensor
NUMBERS = {
    "float times": lambda a: a * 2.5,
    "int times": lambda a: 3 * a,
    "bool times": lambda a: a * True,
    "divided by an int": lambda a: a / 4,
    "divided by a float": lambda a: a / 0.5,
}


@pytest.mark.parametrize("make", NUMBERS.values(), ids=list(NUMBERS))
def test_a_number_read_raw_is_a_saved_tensor_itself(make):
    y = make(leaf(1.0, -2.0, 3.0))
    raw = y.grad_fn._raw_saved_other
    assert type(raw) is SavedTensor and type(raw).__name__ == "SavedTensor"
    assert type(raw) is type(y.grad_fn._raw_saved_self)
    assert repr(raw) == f"<torch._C._autograd.SavedTensor object at {id(raw):#x}>"
    assert y.grad_fn._raw_saved_other is raw


@pytest.mark.parametrize("make", NUMBERS.values(), ids=list(NUMBERS))
def test_read_raw_the_number_still_serves_backward(make):
    a, b = leaf(1.0, -2.0, 3.0), leaf(1.0, -2.0, 3.0)
    y = make(a)
    y.grad_fn._raw_saved_other  # noqa: B018 - read raw first
    shown = y.grad_fn._saved_other
    y.sum().backward()
    make(b).sum().backward()
    assert torch.equal(a.grad, b.grad)
    assert shown.dim() == 0 and shown.dtype == make(b).grad_fn._saved_other.dtype


@pytest.mark.parametrize("given", [torch.ones(3), torch.tensor([1.0, 2.0, 4.0]),
                                   torch.tensor(4, dtype=torch.int32),
                                   torch.tensor([1.0, 2.0, 4.0], dtype=torch.float64)],
                         ids=["ones", "a vector", "an int32 0-d", "a double vector"])
def test_the_unpack_hooks_tensor_is_what_backward_uses(given):
    a = leaf(1.0, -2.0, 3.0)
    y = a / 2
    y.grad_fn._raw_saved_other.register_hooks(lambda t: t, lambda p: given)
    (grad,) = torch.autograd.grad(y.sum(), a)
    assert grad.dtype == torch.float32
    assert torch.equal(grad, (torch.ones(3) / given).to(torch.float32))


def test_an_unpack_hooks_tensor_of_the_wrong_shape_fails_in_the_formula():
    a = leaf(1.0, -2.0, 3.0)
    y = a * 2.5
    y.grad_fn._raw_saved_other.register_hooks(lambda t: t, lambda p: torch.tensor([1.0, 2.0]))
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) "
                              "at non-singleton dimension 0"):
        y.sum().backward()


SAVED_WITHOUT_GRAD = {
    "a number": lambda a, plain: (a * 2.5, "_saved_other", "_raw_saved_other"),
    "an input": lambda a, plain: (plain * a, "_saved_self", "_raw_saved_self"),
}


@pytest.mark.parametrize("make", SAVED_WITHOUT_GRAD.values(), ids=list(SAVED_WITHOUT_GRAD))
def test_an_unpack_hooks_tensor_that_requires_grad_comes_back_detached(make):
    given = torch.tensor([5.0, 6.0, 7.0], requires_grad=True)
    with torch.no_grad():
        given.add_(1)
    y, shown, raw = make(leaf(1.0, -2.0, 3.0), torch.tensor([1.0, -2.0, 3.0]))
    getattr(y.grad_fn, raw).register_hooks(lambda t: t, lambda p: given)
    seen = getattr(y.grad_fn, shown)
    assert seen is not given and not seen.requires_grad and seen.is_leaf
    assert seen._version == 1 and seen._base is None
    with torch.no_grad():
        given.add_(1)
    assert seen._version == 2 and seen.tolist() == [7.0, 8.0, 9.0]  # the same data


def test_a_number_read_raw_after_the_backward_is_freed():
    a = leaf(1.0, -2.0, 3.0)
    y = a * 2.5
    y.sum().backward()
    raw = y.grad_fn._raw_saved_other
    assert type(raw) is SavedTensor and raw.data is None and raw.unpack_hook is None
    for read in (raw.unpack, lambda: y.grad_fn._saved_other, lambda: y.sum().backward()):
        with raises(RuntimeError, FREED):
            read()


def test_a_number_read_raw_before_the_backward_is_freed_by_it():
    a = leaf(1.0, -2.0, 3.0)
    y = a * 2.5
    raw = y.grad_fn._raw_saved_other
    y.sum().backward()
    assert y.grad_fn._raw_saved_other is raw and raw.data is None and raw.unpack_hook is None
    for read in (raw.unpack, lambda: y.grad_fn._saved_other, lambda: y.sum().backward()):
        with raises(RuntimeError, FREED):
            read()


def test_a_number_keeps_its_hooks_across_a_retained_backward():
    a = leaf(1.0, -2.0, 3.0)
    y = a * 2.5
    y.sum().backward(retain_graph=True)
    unpacked = []
    y.grad_fn._raw_saved_other.register_hooks(lambda t: t * 2,
                                              lambda p: unpacked.append(p) or p)
    a.grad = None
    y.sum().backward()
    assert a.grad.tolist() == [5.0, 5.0, 5.0] and len(unpacked) == 1
