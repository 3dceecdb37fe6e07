"""take's gradient is put: the incoming gradient added into zeros at the places read."""

import pytest
import torch

X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]
INDEX = [[0, 4], [4, -1]]


def _leaf(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def test_the_gradient_is_a_put_into_zeros():
    x, index = _leaf(X), torch.tensor(INDEX)
    incoming = _leaf([[1.0, 2.0], [3.0, 4.0]])
    (g,) = torch.autograd.grad(x.take(index), x, incoming, create_graph=True)
    node = g.grad_fn
    assert node.name() == "PutBackward0"
    assert node.next_functions[0] == (None, 0)  # the zeros
    assert node.next_functions[1][0].variable is incoming
    assert sorted(n for n in dir(node) if n.startswith("_saved")) == [
        "_saved_accumulate", "_saved_index", "_saved_source"]
    assert node._saved_accumulate is True
    assert torch.equal(node._saved_index, index) and node._saved_source is incoming
    # position 4 was read twice: its gradient is the sum of both
    assert g.tolist() == [[1.0, 0.0, 0.0], [0.0, 5.0, 4.0]]


def test_its_gradient_reads_back_with_take():
    x, index = _leaf(X), torch.tensor(INDEX)
    incoming = _leaf([[1.0, 2.0], [3.0, 4.0]])
    (g,) = torch.autograd.grad(x.take(index), x, incoming, create_graph=True)
    h = _leaf([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]])
    (back,) = torch.autograd.grad(g, incoming, h, create_graph=True)
    view = back.grad_fn
    assert view.name() == "ViewBackward0"
    assert view.next_functions[0][0].name() == "TakeBackward0"
    assert back.tolist() == [[10.0, 50.0], [50.0, 60.0]]


def test_derivatives_of_every_order():
    x, index = _leaf(X), torch.tensor(INDEX)
    incoming = _leaf([[1.0, -2.0], [0.5, 4.0]])
    first = lambda x, g: torch.autograd.grad(x.take(index), x, g, create_graph=True)[0]  # noqa: E731
    assert torch.autograd.gradcheck(first, (x, incoming))
    assert torch.autograd.gradgradcheck(first, (x, incoming))


def test_a_0d_tensor():
    x, incoming = _leaf(1.5), _leaf([2.0, 3.0])
    (g,) = torch.autograd.grad(x.take(torch.tensor([0, -1])), x, incoming, create_graph=True)
    assert g.shape == () and g.item() == 5.0 and g.grad_fn.name() == "PutBackward0"


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_every_order_keeps_the_dtype(dtype):
    dtype = getattr(torch, dtype)
    x, incoming = _leaf(X, dtype), _leaf([[1.0, 2.0], [3.0, 4.0]], dtype)
    (g,) = torch.autograd.grad(x.take(torch.tensor(INDEX)), x, incoming, create_graph=True)
    (back,) = torch.autograd.grad(g, incoming, torch.ones(2, 3, dtype=dtype))
    assert g.dtype == back.dtype == dtype
    assert back.tolist() == [[1.0, 1.0], [1.0, 1.0]]
