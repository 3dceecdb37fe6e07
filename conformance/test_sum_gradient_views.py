"""The gradient a sum hands back is a view of the incoming gradient, as torch's
expand makes it: hooks on the summed leaf see its base, its zero strides, its
shared version counter, and its refusals. The same assertions run on torch."""

import pytest
import torch


def _seen_by_hook(x, loss_of):
    seen = []
    x.register_hook(lambda g: seen.append(g) and None)
    loss_of(x).backward()
    return seen[0]


def test_a_whole_sums_gradient_is_an_expanded_view_of_the_incoming_one():
    x = torch.ones(2, 3, requires_grad=True)
    g = _seen_by_hook(x, lambda x: x.sum() * 3)
    assert g._is_view() and g._base.shape == () and g._base.item() == 3.0
    assert g.stride() == (0, 0) and g.shape == (2, 3)
    assert g._version == g._base._version == 0
    assert not g.requires_grad and g.grad_fn is None
    assert x.grad.stride() == (3, 1) and x.grad._version == 1


def test_a_write_to_the_incoming_gradient_shows_through_the_view():
    x = torch.ones(4, requires_grad=True)
    g = _seen_by_hook(x, lambda x: x.sum() * 2)
    g._base.mul_(5)
    assert g._version == g._base._version == 1
    assert g.tolist() == [10.0] * 4
    assert x.grad.tolist() == [2.0] * 4  # the copy the leaf took


def test_a_write_into_the_expanded_gradient_is_refused():
    x = torch.ones(4, requires_grad=True)
    errors = []

    def hook(g):
        try:
            g.add_(1)
        except RuntimeError as error:
            errors.append(str(error).split(".")[0])

    x.register_hook(hook)
    x.sum().backward()
    assert errors == ["unsupported operation: more than one element of the written-to "
                      "tensor refers to a single memory location"]


def test_a_sum_over_dimensions_expands_the_unsqueezed_gradient():
    x = torch.ones(2, 3, requires_grad=True)
    g = _seen_by_hook(x, lambda x: (x.sum(1) * torch.tensor([1.0, 2.0])).sum())
    assert g.stride() == (1, 0) and g._base.shape == (2,)
    assert g.tolist() == [[1.0] * 3, [2.0] * 3]


@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_an_empty_leaf_gets_an_empty_gradient(shape):
    x = torch.ones(shape, requires_grad=True)
    g = _seen_by_hook(x, lambda x: x.sum())
    assert g.shape == shape and g._is_view() and x.grad.shape == shape


def test_under_create_graph_the_expand_is_recorded():
    x = torch.ones(3, requires_grad=True)
    seed = torch.tensor(2.0, requires_grad=True)
    (gx,) = torch.autograd.grad(x.sum(), x, seed, create_graph=True)
    assert gx.grad_fn.name() == "ExpandBackward0" and gx._base is seed
