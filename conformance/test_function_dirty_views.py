"""Views inside a custom Function whose input is written in place and marked dirty.

Every message and value here was read from torch 2.13; the same assertions run on torch.
"""

import pytest
import torch

from conformance._support import CUSTOM_VIEW, MULTI_VIEW, raises

NO_GRAD_VIEW = "A view was created in no_grad mode and {} modified inplace with grad mode enabled. "
INDIRECT = "its base or another view of its base has been"


def doubling(returned, view=lambda x: x[:1], before=True, non_differentiable=False):
    """A Function that doubles its input in place, marks it dirty, and returns
    ``returned(x, v)``, ``v`` a view of the input made before the write or after it."""

    class VD(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v = view(x) if before else None
            x.mul_(2)
            ctx.mark_dirty(x)
            v = v if before else view(x)
            if non_differentiable:
                ctx.mark_non_differentiable(v)
            return returned(x, v)

        @staticmethod
        def backward(ctx, gv, gx, *rest):
            g = gx.clone()
            g[:1] += gv[:1]
            return g * 2

    return VD


class WithSetupContext(torch.autograd.Function):
    @staticmethod
    def forward(x):
        v = x[:1]
        x.mul_(2)
        return v, x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_dirty(inputs[0])

    @staticmethod
    def backward(ctx, gv, gx):
        g = gx.clone()
        g[:1] += gv
        return g * 2


@pytest.mark.parametrize("fn, name, grad", [
    (doubling(lambda x, v: (v, x, x * 2 + 1)), "VDBackward", [22.0, 2.0]),
    (doubling(lambda x, v: (v, x)), "VDBackward", [22.0, 2.0]),
    (doubling(lambda x, v: (v, x), before=False), "VDBackward", [22.0, 2.0]),
    (doubling(lambda x, v: (v, x), view=lambda x: x.view_as(x)), "VDBackward", [22.0, 2.0]),
    (WithSetupContext, "WithSetupContextBackward", [22.0, 2.0]),
])
def test_a_view_made_before_its_base_was_marked_dirty_carries_the_node(fn, name, grad):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    outputs = fn.apply(a.clone())
    v = outputs[0]
    assert type(v.grad_fn).__name__ == name
    assert (v.is_leaf, v.requires_grad, v.output_nr, v._version) == (False, True, 0, 2)
    assert v._base is outputs[1]
    (v.sum() * 10 + outputs[1].sum()).backward()
    assert a.grad.tolist() == grad


def test_such_a_view_refuses_its_grad_fn_once_its_base_is_written_again():
    v, x = doubling(lambda x, v: (v, x)).apply(torch.tensor([1.0, 2.0], requires_grad=True) * 1)
    x.mul_(3)
    with raises(RuntimeError, f"Output 0 of VD is a view and {INDIRECT} modified inplace. "
                f"{MULTI_VIEW}"):
        v.grad_fn


def test_such_a_view_refuses_a_write():
    v, _ = doubling(lambda x, v: (v, x)).apply(torch.tensor([1.0, 2.0], requires_grad=True) * 1)
    message = f"Output 0 of VD is a view and is being modified inplace. {MULTI_VIEW}"
    with raises(RuntimeError, message):
        v.add_(1)


@pytest.mark.parametrize("before", [True, False])
@pytest.mark.parametrize("returned, why", [
    (lambda x, v: (v, x), CUSTOM_VIEW),
    (lambda x, v: (v, x, x * 2), MULTI_VIEW),
])
def test_a_non_differentiable_view_of_a_dirty_input_refuses_its_grad_fn(before, returned, why):
    fn = doubling(returned, before=before, non_differentiable=True)
    v = fn.apply(torch.tensor([1.0, 2.0], requires_grad=True) * 1)[0]
    assert v.requires_grad
    message = NO_GRAD_VIEW.format(INDIRECT) + why
    with raises(RuntimeError, message):
        v.grad_fn
    with raises(RuntimeError, message):
        v.is_leaf
    with raises(RuntimeError, NO_GRAD_VIEW.format("is being") + why):
        v.add_(1)


class SavesItsView(torch.autograd.Function):
    """Doubles its first input in place; returns it, its view and the second input doubled."""

    @staticmethod
    def forward(ctx, x, y, save):
        x.mul_(2)
        ctx.mark_dirty(x)
        v = x[1:]
        ctx.mark_non_differentiable(v)
        if save:
            ctx.save_for_backward(v)
        return x, v, y * 2

    @staticmethod
    def backward(ctx, gx, gv, gy):
        ctx.saved_tensors
        return gx * 2, gy * 2, None


@pytest.mark.parametrize("save", [False, True])
def test_a_view_of_an_input_without_grad_goes_out_of_date_when_the_input_takes_the_node(save):
    # the input did not require grad when it was written: it does once it is dirty
    x, y = torch.tensor([5.0, 6.0]), torch.ones(2, requires_grad=True) * 1
    x, v, z = SavesItsView.apply(x, y, save)
    assert x.requires_grad and v.requires_grad
    message = NO_GRAD_VIEW.format(INDIRECT) + MULTI_VIEW
    with raises(RuntimeError, message):
        v.grad_fn
    if save:  # saved, it is refused where backward unpacks it
        with raises(RuntimeError, message):
            (x.sum() + z.sum()).backward()


def dirty_view_function(returned_dtype=None, none=False, save=False):
    class D(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            if save:
                ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, g):
            seen.append(g)
            if save:
                seen.extend(ctx.saved_tensors)
            return None if none else (g * 2).to(returned_dtype or g.dtype)

    seen = []
    return D, seen


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16, torch.int64])
def test_a_dirty_view_takes_back_a_gradient_of_another_dtype_cast(dtype):
    fn, seen = dirty_view_function(dtype)
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a.clone()
    fn.apply(b[1:])
    b.sum().backward()
    assert a.grad.tolist() == [1.0, 2.0, 2.0] and a.grad.dtype == torch.float32
    assert not seen[0]._is_view()  # backward is handed the window as a tensor of its own


def test_a_window_given_no_gradient_leaves_the_base_without_one():
    fn, _ = dirty_view_function(none=True)
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 1
    y = fn.apply(b[1:])
    assert b.grad_fn.name() == "torch::autograd::CopySlices"
    assert torch.autograd.grad(b.sum(), a, allow_unused=True) == (None,)
    b = a * 1
    y = fn.apply(b[1:])
    assert torch.autograd.grad(y.sum(), a, allow_unused=True) == (None,)


def test_a_saved_dirty_view_is_saved_as_the_output_of_the_node():
    fn, seen = dirty_view_function(save=True)
    a = torch.ones(3, requires_grad=True)
    b = a.clone()
    out = fn.apply(b[:2])
    assert out.grad_fn.name() == "AsStridedBackward0"
    b.sum().backward()
    saved = seen[1]
    assert (saved.grad_fn.name(), saved.output_nr, saved._base) == ("DBackward", 0, None)
    assert a.grad.tolist() == [2.0, 2.0, 1.0]


def test_a_saved_dirty_view_written_again_names_the_node():
    fn, _ = dirty_view_function(save=True)
    a = torch.ones(3, requires_grad=True)
    b = a.clone()
    out = fn.apply(b[:2])
    out.mul_(3)
    with raises(RuntimeError, "one of the variables needed for gradient computation has been "
                "modified by an inplace operation: [torch.FloatTensor [2]], which is output 0 "
                "of D, is at version 3; expected version 2 instead. Hint: enable anomaly "
                "detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."):
        b.sum().backward()


def test_the_gradient_through_a_write_to_a_view_of_an_output_is_no_view():
    seen = []

    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen.append(g)
            return g * 2

    a = torch.ones(2, requires_grad=True)
    out = Twice.apply(a)
    out[:1].mul_(5)
    out.sum().backward()
    assert seen[0].tolist() == [5.0, 1.0] and not seen[0]._is_view()
    assert a.grad.tolist() == [10.0, 2.0]


def test_a_view_made_before_an_unmarked_write_carries_the_node():
    class K(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v = x[:1]
            x.mul_(2)
            return v

        @staticmethod
        def backward(ctx, g):
            return torch.cat([g, torch.zeros(1)]) * 5

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    v = K.apply(a.clone())
    assert (v.grad_fn.name(), v._version) == ("KBackward", 1)
    v.sum().backward()
    assert a.grad.tolist() == [5.0, 0.0]
