"""A custom Function's arguments: keywords are inputs, and what setup_context may save."""

import pytest
import torch

from conformance._support import raises


class Weighted(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w=None, k=5):
        ctx.seen = (ctx.needs_input_grad, k)
        return x * (2.0 if w is None else w)

    @staticmethod
    def backward(ctx, g):
        return (g * 2, g * 3, None)[:len(ctx.needs_input_grad)]


def test_a_keyword_tensor_gets_an_edge_and_a_gradient():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([4.0, 5.0], requires_grad=True)
    y = Weighted.apply(x, w=w)
    assert y.grad_fn.seen == ((True, True), 5)
    assert [f.variable for f, _ in y.grad_fn.next_functions] == [x, w]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0] and w.grad.tolist() == [3.0, 3.0]


def test_keywords_take_the_positions_of_their_names_not_the_order_given():
    x = torch.ones(2, requires_grad=True)
    y = Weighted.apply(w=torch.ones(2), x=x)
    assert y.grad_fn.seen == ((True, False), 5)  # x first; k's default is no input
    y = Weighted.apply(x=x, k=1, w=torch.ones(2))
    assert y.grad_fn.seen == ((True, False, False), 1)


def test_the_input_given_by_keyword_alone_still_records():
    x = torch.ones(2, requires_grad=True)
    y = Weighted.apply(x=x)
    assert y.requires_grad and y.grad_fn.seen == ((True,), 5)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_a_number_given_by_keyword_needs_its_gradient_slot():
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k=1.0):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.ones(2, requires_grad=True)
    Scale.apply(x).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    y = Scale.apply(x, k=2.0)
    assert y.tolist() == [2.0, 2.0]
    with raises(RuntimeError, "function ScaleBackward returned an incorrect number of "
                "gradients (expected 2, got 1)"):
        y.sum().backward()


@pytest.mark.parametrize("call, message", [
    (lambda x: Weighted.apply(x, q=1), "forward() got an unexpected keyword argument 'q'"),
    (lambda x: Weighted.apply(x, ctx=1), "forward() got an unexpected keyword argument 'ctx'"),
    (lambda x: Weighted.apply(x, x=x), "forward() got multiple values for argument 'x'"),
    (lambda x: Weighted.apply(x, q=1, x=x), "forward() got an unexpected keyword argument 'q'"),
    (lambda x: Weighted.apply(x, k=2, x=x), "forward() got multiple values for argument 'x'"),
    (lambda x: Weighted.apply(x, k=2), "forward() missing required argument: 'w' (position 1)"),
    (lambda x: Weighted.apply(k=x), "forward() missing required argument: 'x' (position 0)"),
])
def test_keywords_torch_refuses_before_forward_runs(call, message):
    x = torch.ones(2, requires_grad=True)
    with raises(TypeError, message):
        call(x)


def test_a_keyword_only_parameter_of_a_ctx_forward_cannot_be_given():
    class Only(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, *, k=2):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.ones(2, requires_grad=True)
    assert Only.apply(x).tolist() == [2.0, 2.0]  # its default is used
    with raises(TypeError, "forward() got an unexpected keyword argument 'k'"):
        Only.apply(x, k=3)


def test_keywords_reach_jvp_as_inputs():
    import torch.autograd.forward_ad as fwAD

    class Mul(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w=None):
            return x * w

        @staticmethod
        def jvp(ctx, tx, tw):
            return tx * 2 + tw

        @staticmethod
        def backward(ctx, g):
            return g, g

    with fwAD.dual_level():
        x = fwAD.make_dual(torch.ones(2), torch.ones(2))
        w = fwAD.make_dual(torch.ones(2), torch.full((2,), 5.0))
        assert fwAD.unpack_dual(Mul.apply(x, w=w)).tangent.tolist() == [7.0, 7.0]


class KeywordOnly(torch.autograd.Function):
    @staticmethod
    def forward(x, k=2, *, m=3):
        return x * k * m

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g * 6, None


@pytest.mark.parametrize("kwargs", [{}, {"m": 4}])
def test_setup_context_style_refuses_a_keyword_only_parameter(kwargs):
    with raises(TypeError, "forward() got an unexpected keyword argument 'm'"):
        KeywordOnly.apply(torch.ones(2, requires_grad=True), **kwargs)


def test_setup_context_sees_defaults_and_keywords_bound_by_position():
    class Bound(torch.autograd.Function):
        @staticmethod
        def forward(x, w, k=2):
            return x * w * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.seen = (len(inputs), inputs[2], ctx.needs_input_grad)

        @staticmethod
        def backward(ctx, g):
            return g, g, None

    x, w = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    y = Bound.apply(w=w, x=x)
    assert y.grad_fn.seen == (3, 2, (True, True, False))


AS_IS = ("An input that has been returned as-is as output is being saved for backward. This "
         "is not supported if you override setup_context. You should return and save a view "
         "of the input instead, e.g. with x.view_as(x) or setup ctx inside the forward "
         "function itself.")


def _returning_input(save, forward=lambda x: x, mark=None):
    def setup_context(ctx, inputs, output):
        if mark:
            getattr(ctx, mark)(output)
        ctx.save_for_backward(*save(inputs, output))

    return type("Same", (torch.autograd.Function,), {
        "forward": staticmethod(forward), "setup_context": staticmethod(setup_context),
        "backward": staticmethod(lambda ctx, *g: g[0]),
    })


@pytest.mark.parametrize("requires_grad", [True, False])
@pytest.mark.parametrize("save", [lambda i, o: (o,), lambda i, o: (None, i[0])])
def test_saving_an_input_returned_as_is_in_setup_context_is_refused(save, requires_grad):
    y = torch.ones(2, requires_grad=True) * 1 if requires_grad else torch.ones(2)
    with raises(RuntimeError, AS_IS):
        _returning_input(save).apply(y)
    assert y.grad_fn is None or y.grad_fn.name() == "MulBackward0"  # history left alone
    assert y._version == 0


def test_an_input_returned_as_is_among_several_outputs_is_refused_when_saved():
    Pair = _returning_input(lambda i, o: (i[0],), forward=lambda x: (x, x * 2))
    with raises(RuntimeError, AS_IS):
        Pair.apply(torch.ones(2, requires_grad=True))


def test_saving_an_input_returned_as_is_is_accepted_where_no_view_is_made():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():  # comes back detached
        assert not _returning_input(lambda i, o: (o,)).apply(x).requires_grad
    plain = _returning_input(lambda i, o: (o,), mark="mark_non_differentiable").apply(x)
    assert not plain.requires_grad

    def written(x):
        return x.add_(1)

    y = _returning_input(lambda i, o: (o,), forward=written, mark="mark_dirty").apply(x * 1)
    assert y.grad_fn.name() == "SameBackward"
    view = _returning_input(lambda i, o: (o,), forward=lambda x: x.view_as(x)).apply(x)
    assert view.grad_fn.name() == "SameBackward"


def test_a_ctx_forward_may_save_an_input_it_returns():
    class Same(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    Same.apply(x).sum().backward()
    assert x.grad.tolist() == [1.0, 2.0]
