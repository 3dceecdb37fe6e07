"""Custom torch.autograd.Function: the node, ctx and saved tensors."""

import pytest
import torch

from conformance._support import UNUSED, raises


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        assert not torch.is_grad_enabled()
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        assert not torch.is_grad_enabled()
        (y,) = ctx.saved_tensors
        return grad * y


# F160
def test_node_name_hooks_and_gradient():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t.detach(),
                                                  lambda t: t):
        y = Exp.apply(x)
    assert packed[0] is y and type(y.grad_fn).__name__ == "ExpBackward"
    assert y.grad_fn.name() == "ExpBackward"
    assert isinstance(y.grad_fn, torch.autograd.graph.Node)
    assert isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction)
    y.sum().backward()
    assert (x.grad - x.exp()).abs().max().item() < 1e-6


def test_save_for_backward_refuses_numbers():
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

    with pytest.raises(TypeError, match="^save_for_backward can only save variables, but "
                       "argument 1 is of type int$"):
        Bad.apply(torch.ones(2, requires_grad=True))


class Product(torch.autograd.Function):
    """x * y, with a backward that cannot be differentiated again."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        assert not torch.is_grad_enabled()
        x, y = ctx.saved_tensors
        return grad * y, grad * x


ONCE = "trying to differentiate twice a function that was marked with @once_differentiable"


def _product_gradients(create_graph, grad_requires_grad=True, **kwargs):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    out = Product.apply(x, y)
    # squaring makes the gradient reaching Product depend on x and y
    loss = (out * out).sum() if grad_requires_grad else out.sum()
    return x, y, torch.autograd.grad(loss, (x, y), create_graph=create_graph, **kwargs)


def test_once_differentiable_hides_gradients_behind_an_error_node():
    x, y, (gx, gy) = _product_gradients(create_graph=True)
    assert gx.tolist() == [18.0, 64.0] and gy.tolist() == [6.0, 32.0]
    node = gx.grad_fn
    assert gy.grad_fn is node and (gx.output_nr, gy.output_nr) == (0, 1)
    assert type(node).__name__ == "Error" and node.name() == "torch::autograd::Error"
    assert isinstance(node, torch.autograd.graph.Node)
    assert gx.requires_grad and not gx.is_leaf and repr(gx).endswith("grad_fn=<Error>)")
    assert node._sequence_nr() == 2**64 - 1 and len(node._input_metadata) == 2
    # the edges lead to stand-in leaves holding the gradients, not to x and y
    leaves = [edge[0].variable for edge in node.next_functions]
    assert [type(edge[0]).__name__ for edge in node.next_functions] == ["AccumulateGrad"] * 2
    assert leaves[0].is_leaf and leaves[0].requires_grad and leaves[0] is not x
    assert leaves[0].tolist() == gx.tolist()


def test_differentiating_through_once_differentiable_fails():
    _, _, (gx, _) = _product_gradients(create_graph=True)
    with raises(RuntimeError, ONCE):
        gx.sum().backward()
    x, _, (gx, _) = _product_gradients(create_graph=True)
    with raises(RuntimeError, ONCE):
        (gx * 3 + x).sum().backward()
    # x is not behind the Error node: its gradient was never recorded there
    x, _, (gx, _) = _product_gradients(create_graph=True)
    with raises(RuntimeError, UNUSED.format(0)):
        torch.autograd.grad(gx.sum(), x)


def test_once_differentiable_without_create_graph_or_differentiable_grads():
    for create_graph, grad_requires_grad in ((False, True), (True, False)):
        _, _, (gx, gy) = _product_gradients(create_graph, grad_requires_grad)
        assert gx.grad_fn is None and not gx.requires_grad and gy.grad_fn is None


def test_once_differentiable_keeps_missing_gradients_and_arity():
    @torch.autograd.function.once_differentiable
    def backward(results, grad):  # what it returns is up to its first argument
        return results(grad)

    grad = torch.ones(2, requires_grad=True)
    gx, gy = backward(lambda g: (g * 2, None), grad)
    assert gy is None and gx.grad_fn.next_functions[1] == (None, 0)
    assert len(gx.grad_fn._input_metadata) == 2
    single = backward(lambda g: (g * 2,), grad)
    assert isinstance(single, torch.Tensor) and type(single.grad_fn).__name__ == "Error"
    assert backward(lambda g: None, grad) is None
    with torch.no_grad():
        assert backward(lambda g: (g * 2,), grad)[0].grad_fn is None


def test_outputs_that_are_no_tensors_count_and_get_none():
    seen = []

    class Mixed(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 3, x * 3, "s"

        @staticmethod
        def backward(ctx, *grads):
            seen.append([None if g is None else tuple(g.shape) for g in grads])
            return grads[0] * 2 + grads[2] * 3

    x = torch.ones(2, requires_grad=True)
    a, number, b, text = Mixed.apply(x)
    assert (number, text, a.output_nr, b.output_nr) == (3, "s", 0, 2)
    assert b.grad_fn is a.grad_fn and len(a.grad_fn._input_metadata) == 4
    (a.sum() + b.sum()).backward()
    assert seen == [[(2,), None, (2,), None]]  # materialized for tensors only
    assert x.grad.tolist() == [5.0, 5.0]


CUSTOM_VIEW = (
    "Output 0 of {} is a view and is being modified inplace. This view was created inside a "
    "custom Function (or because an input was returned as-is) and the autograd logic to handle "
    "view+inplace would override the custom backward associated with the custom Function, "
    "leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning "
    "the output of the custom Function.")


def test_views_a_function_returns_refuse_in_place_writes():
    class Same(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    class Row(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[0]

        @staticmethod
        def backward(ctx, g):
            return torch.ones(2, 3) * g

    x = torch.ones(2, 3, requires_grad=True)
    same = Same.apply(x * 1)
    with raises(RuntimeError, CUSTOM_VIEW.format("Same")):
        same.mul_(2)
    row = Row.apply(x * 1)
    with raises(RuntimeError, CUSTOM_VIEW.format("Row")):
        row.mul_(2)
    plain = Same.apply(torch.ones(2))  # nothing recorded: nothing to protect
    plain.mul_(2)
    assert plain.tolist() == [2.0, 2.0]


def test_function_classes_are_made_by_function_meta():
    meta = torch.autograd.function.FunctionMeta
    assert type(torch.autograd.Function) is meta and type(Exp) is meta
    assert torch.autograd.Function._backward_cls.__name__ == "FunctionBackward"
    assert Exp._backward_cls.__name__ == "ExpBackward"
    assert Exp._backward_cls is not torch.autograd.Function._backward_cls
    assert repr(Exp.apply) == f"<bound method Function.apply of {Exp!r}>"
    assert Exp.apply.__name__ == "apply" and Exp.apply.__qualname__ == "Function.apply"


class _ClearsEarly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 1

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        assert ctx.maybe_clear_saved_tensors() is None
        ctx.left = len(ctx._raw_saved_tensors) if ctx.kept else None
        return g * x


def test_maybe_clear_saved_tensors_lets_them_go_unless_the_graph_is_kept():
    a = torch.tensor([2.0], requires_grad=True)
    y = _ClearsEarly.apply(a)
    y.grad_fn.kept = True
    y.backward(retain_graph=True)  # kept: the second backward still reads them
    assert y.grad_fn.left == 1
    y.grad_fn.kept = False
    y.backward()
    assert a.grad.tolist() == [4.0]
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn.saved_tensors
    z = _ClearsEarly.apply(a)
    assert z.grad_fn.maybe_clear_saved_tensors() is None  # outside a backward: kept
    assert z.grad_fn.saved_tensors[0] is a
    with pytest.raises(TypeError, match=r"maybe_clear_saved_tensors\(\) takes no arguments "
                                        r"\(1 given\)"):
        z.grad_fn.maybe_clear_saved_tensors(1)
