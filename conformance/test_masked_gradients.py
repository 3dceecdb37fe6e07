"""masked_select's and masked_scatter's gradients, and the nodes they record.

masked_select's gradient is a masked_scatter into zeros; masked_scatter's gradient for
its source is masked_scatter_backward, an operation of its own that differentiates
back into a masked_scatter.
"""

import numpy as np
import pytest
import torch

MASK = [[True, False, True], [False, True, True]]
X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]


def _leaf(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def test_the_source_gradient_node_shows_only_the_mask():
    x, source = _leaf(X), _leaf([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    mask = torch.tensor(MASK)
    incoming = _leaf([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]])
    _, g = torch.autograd.grad(x.masked_scatter(mask, source), (x, source), incoming,
                               create_graph=True)
    node = g.grad_fn
    assert node.name() == "MaskedScatterBackwardBackward0"
    assert sorted(n for n in dir(node) if n.startswith("_saved")) == ["_saved_mask"]
    assert torch.equal(node._saved_mask, mask)
    assert node.next_functions[0][0].variable is incoming
    # the mask's picks in row order, then zeros for the source elements left unused
    assert g.tolist() == [10.0, 30.0, 50.0, 60.0, 0.0, 0.0, 0.0]


def test_the_source_gradient_takes_the_sources_shape_through_a_broadcast_mask():
    x, source = _leaf(X), _leaf([[1.0, 2.0], [3.0, 4.0]])
    mask = torch.tensor([[True], [False]])
    incoming = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64)
    _, g = torch.autograd.grad(x.masked_scatter(mask, source), (x, source), incoming)
    assert g.tolist() == [[1.0, 2.0], [3.0, 0.0]]


def test_its_gradient_scatters_back_into_zeros():
    x, source = _leaf(X), _leaf([1.0, 2.0, 3.0, 4.0, 5.0])
    mask = torch.tensor(MASK)
    incoming = _leaf([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]])
    _, g = torch.autograd.grad(x.masked_scatter(mask, source), (x, source), incoming,
                               create_graph=True)
    h = _leaf([1.0, -1.0, 2.0, -2.0, 3.0])
    (back,) = torch.autograd.grad(g, incoming, h, create_graph=True)
    assert back.grad_fn.name() == "MaskedScatterBackward0"
    assert back.grad_fn.next_functions[0] == (None, 0)  # the zeros
    assert back.grad_fn.next_functions[1][0].variable is h
    assert back.tolist() == [[1.0, 0.0, -1.0], [0.0, 2.0, -2.0]]


def test_masked_select_puts_its_gradient_back_with_masked_scatter():
    x = _leaf([1.0, -2.0, 3.0])
    mask = torch.tensor([[True, False, True], [False, True, False]])
    incoming = _leaf([5.0, 6.0, 7.0])
    (g,) = torch.autograd.grad(x.masked_select(mask), x, incoming, create_graph=True)
    # zeros of the broadcast shape take the gradient; the engine sums them to x's shape,
    # keeping the summed dim, then views the result without it
    view = g.grad_fn
    total = view.next_functions[0][0]
    assert (view.name(), total.name()) == ("ViewBackward0", "SumBackward1")
    assert total.next_functions[0][0].name() == "MaskedScatterBackward0"
    assert g.tolist() == [5.0, 7.0, 6.0]


@pytest.mark.parametrize("size", [4, 6, 9])
def test_derivatives_of_every_order(size):
    mask = torch.tensor(MASK)
    x = _leaf(X)
    source = _leaf(np.linspace(-1.0, 1.0, size).tolist())
    incoming = _leaf([[0.5, 1.5, -1.0], [2.0, -0.5, 0.25]])

    def first(x, source, incoming):
        return torch.autograd.grad(x.masked_scatter(mask, source), (x, source), incoming,
                                   create_graph=True)

    assert torch.autograd.gradcheck(first, (x, source, incoming))
    assert torch.autograd.gradgradcheck(first, (x, source, incoming))
    assert torch.autograd.gradgradcheck(lambda x, g: torch.autograd.grad(
        x.masked_select(mask), x, g, create_graph=True)[0], (x, _leaf([1.0, -2.0, 3.0, 0.5])))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_every_order_keeps_the_dtype(dtype):
    dtype = getattr(torch, dtype)
    x, source = _leaf(X, dtype), _leaf([1.0, 2.0, 3.0, 4.0, 5.0], dtype)
    incoming = _leaf([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]], dtype)
    _, g = torch.autograd.grad(x.masked_scatter(torch.tensor(MASK), source), (x, source),
                               incoming, create_graph=True)
    (back,) = torch.autograd.grad(g, incoming, torch.ones(5, dtype=dtype))
    assert g.dtype == back.dtype == dtype
    assert g.tolist() == [10.0, 30.0, 50.0, 60.0, 0.0]
