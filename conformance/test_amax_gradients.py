"""What amax's and amin's gradients record: the reduced dims restored by a reshape.

torch's formula views the incoming gradient back to the input's rank, even when
nothing was reduced, and shares it among ties with a bool mask and an int64 count.
"""

import pytest
import torch

X = [[1.0, 3.0, 3.0], [-2.0, 0.5, -2.0]]


def _gradient(out, x, incoming):
    (g,) = torch.autograd.grad(out, x, incoming, create_graph=True)
    return g


@pytest.mark.parametrize("name", ["amax", "amin"])
def test_ties_are_counted_in_int64_and_masked_with_bools(name):
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    incoming = torch.tensor([2.0, 4.0], dtype=torch.float64, requires_grad=True)
    g = _gradient(getattr(x, name)(1), x, incoming)
    mul = g.grad_fn
    div = mul.next_functions[0][0]
    assert (mul.name(), div.name()) == ("MulBackward0", "DivBackward0")
    assert mul._saved_other.dtype == torch.bool and div._saved_other.dtype == torch.int64
    assert div._saved_other.tolist() == ([[2], [1]] if name == "amax" else [[1], [2]])
    view = div.next_functions[0][0]
    assert view.name() == "ViewBackward0" and view._saved_self_sym_sizes == (2,)
    assert g.tolist() == ([[0.0, 1.0, 1.0], [0.0, 4.0, 0.0]] if name == "amax"
                          else [[2.0, 0.0, 0.0], [2.0, 0.0, 2.0]])


@pytest.mark.parametrize("dim", [(), 0, -1])
def test_a_0d_tensor_is_viewed_and_summed_back_as_torch_does(dim):
    x = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
    incoming = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
    g = _gradient(x.amax(dim), x, incoming)
    assert g.shape == () and g.item() == 3.0
    if dim == ():  # nothing reduced: the view keeps the shape
        assert g.grad_fn.name() == "MulBackward0"
        return
    # a 0-d tensor reduced along its dim gets that dim back: a share of shape (1,),
    # which the engine sums down to the input's shape
    total = g.grad_fn
    assert total.name() == "SumBackward0" and total._saved_self_sym_sizes == (1,)
    view = total.next_functions[0][0].next_functions[0][0].next_functions[0][0]
    assert view.name() == "ViewBackward0" and view._saved_self_sym_sizes == ()


def test_a_view_even_over_every_dim_of_a_vector():
    x = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
    g = _gradient(x.amin(()), x, torch.tensor(6.0, requires_grad=True))
    assert g.grad_fn.next_functions[0][0].next_functions[0][0].name() == "ViewBackward0"
    assert g.tolist() == [6.0, 0.0, 0.0]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_the_gradient_keeps_the_dtype(dtype):
    dtype = getattr(torch, dtype)
    x = torch.tensor(X, dtype=dtype, requires_grad=True)
    g = _gradient(x.amax(), x, torch.tensor(1.0, dtype=dtype, requires_grad=True))
    assert g.dtype == dtype and g.tolist() == [[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]]


def test_derivatives_of_every_order():
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], dtype=torch.float64,
                     requires_grad=True)
    g = torch.tensor([0.75, -2.0], dtype=torch.float64, requires_grad=True)
    first = lambda x, g: _gradient(x.amax(1), x, g)  # noqa: E731
    assert torch.autograd.gradcheck(first, (x, g))
    assert torch.autograd.gradgradcheck(first, (x, g))
