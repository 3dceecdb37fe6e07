"""When a node lets go of its saved values, and what backward() and grad() refuse."""

import collections

import numpy as np
import pytest
import torch
from torch.autograd.graph import GradientEdge

from conformance._support import FREED, leaf, raises


def test_a_post_hook_can_read_the_nodes_saved_values():
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    m = a * b
    seen = []
    m.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        m.grad_fn._saved_self.tolist()))
    m.sum().backward()
    assert seen == [[1.0, 2.0]]
    with raises(RuntimeError, FREED):
        m.grad_fn._saved_self  # noqa: B018 - released once the post-hook has run


def test_a_backward_stopped_by_a_post_hook_can_run_again():
    x = leaf(1.0, 2.0)
    k = x.exp() * 2
    failures = [ValueError("once")]

    def flaky(grad_inputs, grad_outputs):
        if failures:
            raise failures.pop()

    k.grad_fn.register_hook(flaky)
    with pytest.raises(ValueError, match="once"):
        k.sum().backward()
    k.sum().backward()  # nothing was freed by the failed call
    assert torch.allclose(x.grad, 2 * x.detach().exp())
    with raises(RuntimeError, FREED):
        k.sum().backward()


def test_a_backward_stopped_by_a_wrong_gradient_can_run_again():
    wrong = [True]

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return torch.ones(3) if wrong.pop() else grad * x

    a = leaf(1.0, 2.0)
    out = Scale.apply(a)
    with pytest.raises(RuntimeError, match="returned an invalid gradient at index 0"):
        out.sum().backward()
    wrong.append(False)
    out.sum().backward()
    assert a.grad.tolist() == [1.0, 2.0]


NOT_A_NODE = "GradientEdge's first object must be an autograd.graph.Node but got {}"


@pytest.mark.parametrize("node, name", [(None, "NoneType"), ("x", "str"), (3, "int"),
                                        (np.ones(1), "numpy.ndarray")])
def test_an_input_edge_needs_a_node(node, name):
    a = leaf(1.0, 2.0)
    out = (a * 2 * 3).sum()
    with raises(RuntimeError, NOT_A_NODE.format(name)):
        torch.autograd.grad(out, GradientEdge(node, 0), retain_graph=True)
    with raises(RuntimeError, NOT_A_NODE.format(name)):
        out.backward(inputs=[GradientEdge(node, 0)])
    assert a.grad is None


@pytest.mark.parametrize("output_nr, name", [(0.0, "float"), (None, "NoneType"), ("0", "str")])
def test_an_input_edges_output_nr_must_be_an_integer(output_nr, name):
    a = leaf(1.0, 2.0)
    m = a * 2
    out = (m * 3).sum()
    message = f"'{name}' object cannot be interpreted as an integer"
    with raises(TypeError, message):
        torch.autograd.grad(out, GradientEdge(m.grad_fn, output_nr), retain_graph=True)
    with raises(TypeError, message):
        out.backward(inputs=[GradientEdge(m.grad_fn, output_nr)])
    with raises(ValueError, "Overflow when unpacking long long"):
        torch.autograd.grad(out, GradientEdge(m.grad_fn, 2**70), retain_graph=True)


def test_an_input_edges_output_nr_may_be_anything_read_as_an_integer():
    a = leaf(1.0, 2.0)
    m = a * 2
    out = (m * 3).sum()
    (g,) = torch.autograd.grad(out, GradientEdge(m.grad_fn, torch.tensor(0)))
    assert g.tolist() == [3.0, 3.0]


@pytest.mark.parametrize("node, name", [(None, "NoneType"), (3, "int")])
def test_an_output_edge_is_read_through_its_nodes_metadata(node, name):
    a = leaf(1.0, 2.0)
    message = f"'{name}' object has no attribute '_input_metadata'"
    with raises(AttributeError, message):
        torch.autograd.grad(GradientEdge(node, 0), a, torch.ones(2))
    with raises(AttributeError, message):
        torch.autograd.backward(GradientEdge(node, 0), torch.ones(2))


def test_none_for_outputs_or_inputs_is_iterated_and_refused():
    a = leaf(1.0, 2.0)
    out = (a * 2).sum()
    for call in (lambda: torch.autograd.grad(out, None, retain_graph=True),
                 lambda: torch.autograd.grad(None, a),
                 lambda: torch.autograd.backward(None)):
        with raises(TypeError, "'NoneType' object is not iterable"):
            call()
    out.backward(inputs=None)  # backward's inputs=None means every leaf
    assert a.grad.tolist() == [2.0, 2.0]


@pytest.mark.parametrize("value, name", [
    (np.ones(2), "numpy.ndarray"), (torch.Size([1]), "torch.Size"),
    (collections.OrderedDict(), "collections.OrderedDict"),
])
def test_a_refused_input_is_named_by_its_c_type_name(value, name):
    out = (leaf(1.0) * 2).sum()
    with raises(RuntimeError, f"all inputs have to be Tensors or GradientEdges, but got {name}"):
        torch.autograd.grad(out, [value])
