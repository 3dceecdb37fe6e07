"""Black-box tests: writes into a view whose elements share memory (``y[:1].expand(3)``).

One value everywhere, or a masked or indexed write, goes through even when autograd records
it, and the backward pass refuses where it would write the base's gradient back through the
shared window; every other write is refused at once. The same assertions run on torch.
"""

import warnings

import pytest
import torch

from conformance._support import raises

OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a "
           "single memory location. Please clone() the tensor before performing the operation.")
LEAF_VIEW = "a view of a leaf Variable that requires grad is being used in an in-place operation."
MASK = [True, False, True]
WEIGHTS = [1.0, 10.0, 100.0]

WRITES_THAT_GO_THROUGH = {
    "zero_": (lambda v, x: v.zero_(), 0.0),
    "fill_": (lambda v, x: v.fill_(2.0), 2.0),
    "masked_fill_": (lambda v, x: v.masked_fill_(torch.tensor(MASK), 3.0), 3.0),
    "index_fill_": (lambda v, x: v.index_fill_(0, torch.tensor([0]), 3.0), 3.0),
    "index_put_": (lambda v, x: v.index_put_((torch.tensor([0]),), x[1:2] * 1), 2.0),
    "x[index] = v": (lambda v, x: v.__setitem__(torch.tensor([0]), x.sum()), 6.0),
    "x[mask] = 5": (lambda v, x: v.__setitem__(torch.tensor(MASK), 5.0), 5.0),
}
WRITES_REFUSED_AT_ONCE = {
    "fill_ with a 0-d tensor": lambda v, x: v.fill_(x.sum()),
    "copy_": lambda v, x: v.copy_(x),
    "add_": lambda v, x: v.add_(1),
    "mul_": lambda v, x: v.mul_(x),
    "normal_": lambda v, x: v.normal_(),
    "bernoulli_": lambda v, x: v.bernoulli_(0.5),
    "x[...] = 3": lambda v, x: v.__setitem__(Ellipsis, 3.0),
    "x[...] = x.sum()": lambda v, x: v.__setitem__(Ellipsis, x.sum()),
}


def _shared_window():
    x = torch.arange(1.0, 4.0, requires_grad=True)
    y = x * 1
    return x, y, y[:1].expand(3)


@pytest.mark.parametrize("name", list(WRITES_THAT_GO_THROUGH))
def test_a_recorded_write_of_one_value_goes_through_and_backward_refuses(name):
    write, value = WRITES_THAT_GO_THROUGH[name]
    x, y, v = _shared_window()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Use of .* on expanded tensors is deprecated")
        write(v, x)
    assert y.tolist() == [value, 2.0, 3.0]
    assert (y._version, v._version) == (1, 1)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    with raises(RuntimeError, OVERLAP):
        (v * torch.tensor(WEIGHTS)).sum().backward()
    assert x.grad is None


@pytest.mark.parametrize("name", list(WRITES_REFUSED_AT_ONCE))
@pytest.mark.parametrize("grad", [True, False])
def test_other_writes_are_refused_at_once_with_or_without_grad(name, grad):
    x, y, v = _shared_window()
    with torch.set_grad_enabled(grad), raises(RuntimeError, OVERLAP):
        WRITES_REFUSED_AT_ONCE[name](v, x)
    assert y.tolist() == [1.0, 2.0, 3.0] and y._version == 0
    assert y.grad_fn.name() == "MulBackward0"


def test_a_write_under_no_grad_records_nothing_and_backward_runs():
    x, y, v = _shared_window()
    with torch.no_grad():
        v.zero_()
    assert y.grad_fn.name() == "MulBackward0" and y._version == 1
    (v * torch.tensor(WEIGHTS)).sum().backward()
    assert x.grad.tolist() == [111.0, 0.0, 0.0]


def test_a_base_that_requires_nothing_still_gives_the_value_its_gradient():
    # the window's gradient is summed over its repeated elements, as torch's copy reads it
    x = torch.arange(1.0, 4.0, requires_grad=True)
    base = torch.zeros(1)
    v = base.expand(3)
    with pytest.warns(UserWarning, match="Use of masked_fill_ on expanded tensors"):
        v.masked_fill_(torch.tensor(MASK), x.sum())
    assert base.tolist() == [6.0] and base._version == 1
    (v * torch.tensor(WEIGHTS)).sum().backward()
    assert x.grad.tolist() == [222.0, 222.0, 222.0]


def test_grad_asking_only_for_the_value_runs_and_for_the_base_refuses():
    def build():
        x = torch.arange(1.0, 4.0, requires_grad=True)
        z = torch.ones(1, requires_grad=True)
        v = (z * 1).expand(3)
        with pytest.warns(UserWarning, match="Use of masked_fill_ on expanded tensors"):
            v.masked_fill_(torch.tensor(MASK), x.sum())
        return x, z, (v * torch.tensor(WEIGHTS)).sum()

    x, z, out = build()
    (gx,) = torch.autograd.grad(out, [x])
    assert gx.tolist() == [222.0, 222.0, 222.0]
    x, z, out = build()
    with raises(RuntimeError, OVERLAP):
        torch.autograd.grad(out, [z])


def test_a_view_of_another_part_of_the_base_meets_the_refusal_too():
    z = torch.ones(2, requires_grad=True)
    y = z * 1
    y[:1].expand(3).zero_()
    with raises(RuntimeError, OVERLAP):
        (y[1:] * 5).sum().backward()


def test_a_view_of_a_leaf_is_refused_before_any_warning():
    leaf = torch.zeros(1, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(RuntimeError, LEAF_VIEW):
            leaf.expand(3).masked_fill_(torch.tensor(MASK), 1.0)
    assert leaf._version == 0
