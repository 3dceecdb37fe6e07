"""A custom Function's marks, what its backward may return, and how it is called.

Every message and value here was read from torch 2.13; the same assertions run on torch.
"""

import re
import warnings

import pytest
import torch

from conformance._support import CUSTOM_VIEW, MULTI_VIEW, raises

NOT_RETURNED = (
    "Some elements marked as dirty during the forward method were not returned as output. "
    "The inputs that are modified inplace must all be outputs of the Function."
)
DIRTY_LEAF = "a leaf Variable that requires grad has been used in an in-place operation."


def dirty(returned):
    """A Function that triples its first argument in place, marks it, returns ``returned``."""

    class Triple(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            x.mul_(3)
            ctx.mark_dirty(x)
            return returned(x, y)

        @staticmethod
        def backward(ctx, *grads):
            return grads[0] * 3, None

    return Triple


def test_a_dirty_leaf_that_requires_grad_is_refused_after_the_write():
    a = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, DIRTY_LEAF):
        dirty(lambda x, y: x).apply(a, torch.ones(2))
    assert a.tolist() == [3.0, 3.0] and a._version == 2
    assert a.is_leaf and a.grad_fn is None


def test_a_dirty_input_that_requires_grad_comes_back_detached_under_no_grad():
    a = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        r = dirty(lambda x, y: x).apply(a, torch.ones(2))
    assert r is not a and not r.requires_grad and r._version == a._version == 2
    assert r.data_ptr() == a.data_ptr()
    b = torch.ones(2)
    assert dirty(lambda x, y: x).apply(b, torch.ones(2)) is b


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("grad_mode", [False, True])
def test_every_dirty_input_must_be_returned(requires_grad, grad_mode):
    x = torch.ones(2, requires_grad=requires_grad).clone()
    with torch.set_grad_enabled(grad_mode), raises(RuntimeError, NOT_RETURNED):
        dirty(lambda x, y: x * y).apply(x, torch.ones(2))
    assert x._version == 2


def test_the_leaf_check_comes_before_the_returned_check():
    a = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, DIRTY_LEAF):
        dirty(lambda x, y: x).apply(a, torch.ones(2).clone())


def test_marks_that_are_no_tensors_are_refused_when_forward_returns():
    seen = []

    class Marks(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(3)
            ctx.mark_non_differentiable(x, "a")
            seen.append("forward returned")
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    with raises(RuntimeError, "mark_non_differentiable only accepts variable arguments, "
                "but got "):
        Marks.apply(torch.ones(2))
    assert seen == ["forward returned"]

    class Dirty(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x, 3)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    with raises(RuntimeError, "mark_dirty can only accept variables, but argument "):
        Dirty.apply(torch.ones(2, requires_grad=True).clone())


def test_marking_a_tensor_that_was_no_input_warns_only_when_recorded():
    class Fresh(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            z = x * 2
            ctx.mark_dirty(z)
            return z

        @staticmethod
        def backward(ctx, g):
            return g

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = Fresh.apply(torch.ones(2, requires_grad=True))
        Fresh.apply(torch.ones(2))
    assert [str(w.message).split(" (Triggered")[0] for w in caught] == [
        "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that "
        "have been mutated should be passed to ctx.mark_dirty()."
    ]
    assert r.grad_fn.name() == "FreshBackward" and r._version == 1


def test_a_dirty_view_rewrites_its_base_history():
    a = torch.arange(4.0, requires_grad=True)
    b = a * 1
    v = b[1:3]
    r = dirty(lambda x, y: x).apply(v, None)
    assert r is v and b._version == v._version == 2
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert v.grad_fn.next_functions[0][0].name() == "torch::autograd::CopySlices"
    assert b.grad_fn.name() == "torch::autograd::CopySlices"
    assert b.tolist() == [0.0, 3.0, 6.0, 3.0]
    (b * torch.arange(4.0)).sum().backward()
    assert a.grad.tolist() == [0.0, 3.0, 6.0, 3.0]


def test_a_dirty_view_needs_a_single_output():
    b = torch.ones(4, requires_grad=True) * 1
    with raises(RuntimeError, "If your Function modifies inplace an input that is a view of "
                "another Tensor, your Function cannot return more than one Tensor. This is not "
                "supported by the current autograd engine. You should either make sure the "
                "input is not a view (using .clone() for example) or make your Function only "
                "return one Tensor (potentially splitting it into two Functions: one doing the "
                "inplace that returns a single Tensor and a second one that does the other "
                "operations). You can ask on the forum https://discuss.pytorch.org/ if you need "
                "help to do this change."):
        dirty(lambda x, y: (x * 1, x)).apply(b[:2], None)


def test_a_dirty_view_of_a_leaf_is_refused():
    a = torch.ones(4, requires_grad=True)
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in "
                "an in-place operation."):
        dirty(lambda x, y: x).apply(a[:2], None)


def test_other_views_and_retained_grads_follow_a_dirty_output():
    a = torch.arange(4.0, requires_grad=True)
    b = a * 1
    b.retain_grad()
    w = b[2:]
    dirty(lambda x, y: x).apply(b, None)
    assert b.grad_fn.name() == "TripleBackward"
    assert w.grad_fn.next_functions[0][0] is b.grad_fn
    b.sum().backward()
    assert b.grad.tolist() == [1.0] * 4 and a.grad.tolist() == [3.0] * 4


def test_a_saved_output_of_a_function_names_the_function_when_modified():
    b = torch.arange(4.0, requires_grad=True) * 1
    dirty(lambda x, y: x).apply(b, None)
    c = b * b
    with torch.no_grad():
        b.add_(1)
    with raises(RuntimeError, "one of the variables needed for gradient computation has been "
                "modified by an inplace operation: [torch.FloatTensor [4]], which is output 0 "
                "of Triple, is at version 3; expected version 2 instead. Hint: enable anomaly "
                "detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."):
        c.sum().backward()


def gradients(returned):
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return returned(g)

    a = torch.ones(2, requires_grad=True)
    Scale.apply(a, 2, torch.ones(2)).sum().backward()
    return a.grad


@pytest.mark.parametrize("returned, message", [
    (lambda g: (5, 5, None), "expected Variable or None (got int)"),
    (lambda g: (g, None, "x"), "expected Variable or None (got str)"),
    (lambda g: (g, g, 5), "function ScaleBackward returned a gradient different than None at "
     "position 2, but the corresponding forward input was not a Variable"),
    (lambda g: (None, 3.0, None), "function ScaleBackward returned a gradient different than "
     "None at position 2, but the corresponding forward input was not a Variable"),
])
def test_backward_results_are_checked_position_by_position(returned, message):
    with raises(RuntimeError, message):
        gradients(returned)


def test_backward_may_return_none_for_an_argument_that_is_no_tensor():
    assert gradients(lambda g: (g * 2, None, None)).tolist() == [2.0, 2.0]


class Scaled(torch.autograd.Function):
    @staticmethod
    def forward(x, k=2):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.inputs = inputs

    @staticmethod
    def backward(ctx, g):
        return g * ctx.inputs[1], None


@pytest.mark.parametrize("call, k", [
    (lambda a: Scaled.apply(a), 2),
    (lambda a: Scaled.apply(a, 5), 5),
    (lambda a: Scaled.apply(a, k=3), 3),
])
def test_setup_context_sees_the_arguments_bound_with_defaults(call, k):
    a = torch.ones(2, requires_grad=True)
    y = call(a)
    assert y.grad_fn.inputs == (a, k) and y.grad_fn.needs_input_grad == (True, False)
    y.sum().backward()
    assert a.grad.tolist() == [k, k]


def test_setup_context_arguments_that_do_not_bind():
    a = torch.ones(2, requires_grad=True)
    with raises(TypeError, "got an unexpected keyword argument 'z'"):
        Scaled.apply(a, z=4)
    with raises(TypeError, "missing a required argument: 'x'"):
        Scaled.apply()
    with raises(TypeError, "too many positional arguments"):
        Scaled.apply(a, 1, 2)


def test_a_function_is_not_meant_to_be_instantiated_or_called():
    with pytest.warns(DeprecationWarning) as caught:
        f = Scaled()
    assert str(caught[0].message) == (
        f"{Scaled} should not be instantiated. Methods on autograd functions are all static, "
        "so you should invoke them on the class itself. Instantiating an autograd function "
        "will raise an error in a future version of PyTorch."
    )
    with raises(RuntimeError, "Legacy autograd function with non-static forward method is "
                "deprecated. Please use new-style autograd function with static forward "
                "method. (Example: "
                "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"):
        f(torch.ones(2))


def test_a_function_node_shows_as_an_instance_of_a_python_class():
    node = Scaled.apply(torch.ones(2, requires_grad=True)).grad_fn
    assert re.fullmatch(rf"<{re.escape(type(node).__module__)}\.ScaledBackward object at "
                        r"0x[0-9a-f]+>", repr(node))
    assert type(node).__module__.endswith(".autograd.function")


def test_vjp_is_another_name_for_backward():
    class Doubled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 5

    a = torch.ones(2, requires_grad=True)
    Doubled.apply(a).sum().backward()
    assert a.grad.tolist() == [5.0, 5.0]
    assert Doubled.apply(a).grad_fn.apply(torch.ones(2)).tolist() == [5.0, 5.0]  # called directly


def test_a_function_may_not_define_both_backward_and_vjp():
    class Both(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 5

        @staticmethod
        def backward(ctx, g):
            return g * 7

    a = torch.ones(2, requires_grad=True)
    y = Both.apply(a)
    with raises(RuntimeError, "Implementing both 'backward' and 'vjp' for a custom Function is "
                "not allowed. You should only implement one of them."):
        y.sum().backward()
    assert a.grad is None
    with raises(RuntimeError, "Implementing both 'backward' and 'vjp' for a custom Function is "
                "not allowed. You should only implement one of them."):
        y.grad_fn.apply(torch.ones(2))  # called directly


def views_out(returned, nondiff=lambda outs: ()):
    class Views(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            outs = returned(x)
            ctx.mark_non_differentiable(*nondiff(outs))
            return outs

        @staticmethod
        def backward(ctx, *grads):
            return None

    return Views.apply(torch.ones(4, requires_grad=True) * 1)




@pytest.mark.parametrize("returned, nondiff, which, why", [
    (lambda x: (x[:2], x * 2), lambda outs: (), 0, MULTI_VIEW),
    (lambda x: (x[:2], x[2:]), lambda outs: (), 1, MULTI_VIEW),
    (lambda x: (x, x * 2), lambda outs: (), 0, MULTI_VIEW),
    (lambda x: (x[:2], x * 2), lambda outs: (outs[1],), 0, CUSTOM_VIEW),
    (lambda x: (x[:2], x.long()), lambda outs: (), 0, CUSTOM_VIEW),
    (lambda x: (x[:2], 3), lambda outs: (), 0, CUSTOM_VIEW),
])
def test_views_among_several_differentiable_outputs_are_multi_output_views(
        returned, nondiff, which, why):
    view = views_out(returned, nondiff)[which]
    with raises(RuntimeError, f"Output {which} of Views is a view and is being modified "
                f"inplace. {why}"):
        view.add_(1)


def test_a_multi_output_view_refuses_its_grad_fn_after_its_base_is_written():
    view, _ = views_out(lambda x: (x[:2], x * 2))
    with torch.no_grad():
        view._base.add_(1)
    with raises(RuntimeError, "Output 0 of Views is a view and its base or another view of "
                f"its base has been modified inplace. {MULTI_VIEW}"):
        view.grad_fn


def test_a_function_node_cannot_be_called():
    node = Scaled.apply(torch.ones(2, requires_grad=True)).grad_fn
    with raises(TypeError, "'ScaledBackward' object is not callable"):
        node(torch.ones(2))


class MarkOnly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g, None


def test_marking_an_inference_tensor_dirty_outside_inference_mode_is_refused():
    with torch.inference_mode():
        x = torch.ones(2)
    with pytest.raises(RuntimeError, match=r"\AInplace update to inference tensor outside "
                       r"InferenceMode is not allowed\."):
        MarkOnly.apply(x, torch.ones(2, requires_grad=True))
    with torch.inference_mode():
        assert MarkOnly.apply(x, torch.ones(2)) is x


def test_the_marks_are_read_once_and_cleared():
    seen = []

    class Marked(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append((ctx.to_save, ctx.dirty_tensors, ctx.non_differentiable,
                         hasattr(ctx, "materialize_grads")))
            ctx.save_for_backward(x)
            ctx.mark_non_differentiable()
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen.append((ctx.to_save, ctx.dirty_tensors, ctx.non_differentiable))
            return g

    a = torch.ones(2, requires_grad=True)
    node = Marked.apply(a).grad_fn
    assert (node.to_save, node.dirty_tensors, node.non_differentiable) == (None, None, None)
    with pytest.warns(DeprecationWarning, match=r"\A'saved_variables' is deprecated; use "
                      r"'saved_tensors'\Z"):
        assert node.saved_variables[0] is a
    Marked.apply(a).sum().backward()
    assert seen[0] == (None, None, None, False) and seen[-1] == (None, None, None)


def test_a_dirty_output_drops_its_retained_grad_an_in_place_op_keeps_it():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    v = a * 2
    v.retain_grad()
    v.sum().backward(retain_graph=True)
    v.mul_(1)
    assert v.grad.tolist() == [1.0, 1.0]
    assert dirty(lambda x, y: x).apply(v, torch.ones(2)) is v
    assert v.grad is None and v.retains_grad
    v.sum().backward()
    assert v.grad.tolist() == [1.0, 1.0] and a.grad.tolist() == [8.0, 8.0]


def test_a_dirty_tensor_keeps_its_grad_only_where_autograd_records_nothing():
    c = torch.tensor([3.0, 4.0])
    c.grad = torch.full((2,), 9.0)
    with torch.no_grad():
        dirty(lambda x, y: x).apply(c, torch.ones(2, requires_grad=True))
    dirty(lambda x, y: x).apply(c, torch.ones(2))
    assert c.grad.tolist() == [9.0, 9.0]
    r = dirty(lambda x, y: x).apply(c, torch.ones(2, requires_grad=True))
    assert r is c and type(c.grad_fn).__name__ == "TripleBackward"
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert c.grad is None


def test_a_dirty_view_drops_its_retained_grad_and_its_base_keeps_its_own():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    base = a * 2
    base.retain_grad()
    v = base[:1]
    v.retain_grad()
    (base.sum() + v.sum()).backward(retain_graph=True)
    dirty(lambda x, y: x).apply(v, torch.ones(1))
    assert v.grad is None and base.grad.tolist() == [2.0, 1.0]
