"""Functions under vmap whose rules' functions show in gradients and refusals: chapter
19ih_functions_under_vmap_four."""


import numpy as np
import pytest
import torch

from conformance._vmap_refusals import refused

INVALID = ("Function ScatterBackward0 returned an invalid gradient at index 1 - got {} but "
           "expected shape compatible with {}")


def counted(*shape):
    return torch.arange(float(np.prod(shape))).reshape(shape)


@pytest.mark.parametrize(("in_dims", "source", "want"), [
    (0, (3, 5), 4.0), (0, (3, 1), 20.0), ((0, None), (5,), 12.0), ((0, None), (1,), 60.0),
    ((None, 0), (3, 5), 4.0), ((None, 0), (3, 1), 20.0)])
def test_select_scatter_under_vmap_passes_its_decomposition_s_gradient(in_dims, source, want):
    a = counted(3, 4, 5).requires_grad_()
    b = torch.ones(*source, requires_grad=True)
    found = torch.vmap(lambda a, b: torch.select_scatter(a, b, 0, 1), in_dims=in_dims)(
        a if in_dims != (None, 0) else a[0], b)
    found.sum().backward()
    assert b.grad.eq(want).all()
    assert a.grad.sum().item() == 45.0


def test_select_scatter_s_decomposition_weighs_the_selected_piece_once_per_copy():
    b = torch.ones(3, 1, requires_grad=True)
    found = torch.vmap(lambda a, b: torch.select_scatter(a, b, 0, 1))(counted(3, 4, 5), b)
    (found * counted(3, 4, 5)).sum().backward()
    assert b.grad.view(-1).tolist() == [140.0, 540.0, 940.0]


def test_select_scatter_gradient_is_the_decomposition_s_where_autograd_sees_the_rule():
    def f(b):
        return torch.vmap(lambda a, b: torch.select_scatter(a, b, 0, 1))(counted(3, 4, 5), b)

    assert torch.func.vjp(f, torch.ones(3, 5))[1](torch.ones(3, 4, 5))[0].eq(4.0).all()
    assert torch.func.grad(lambda b: f(b).sum())(torch.ones(3, 5)).eq(4.0).all()
    inner = torch.func.grad(lambda a, b: torch.select_scatter(a, b, 0, 1).sum(), argnums=1)
    assert torch.vmap(inner)(counted(3, 4, 5), torch.ones(3, 5)).eq(1.0).all()
    assert torch.func.jvp(f, (torch.ones(3, 5),), (torch.ones(3, 5),))[1].sum().item() == 15.0


@pytest.mark.parametrize(("function", "in_dims", "shapes", "got", "want"), [
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), 0, ((3, 4), (3, 3)), [3, 2], [3, 3]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (0, None), ((3, 4), (3,)), [3, 2],
     [3, 3]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (None, 0), ((4,), (3, 3)), [3, 2],
     [3, 3]),
    (lambda a, b: torch.slice_scatter(a, b, 1, 1, 3), 0, ((3, 4, 5), (3, 4, 6)), [3, 4, 2],
     [3, 4, 6]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 0, 4, 2), 0, ((3, 4, 5), (3, 3, 5)),
     [3, 2, 5], [3, 3, 5])])
def test_slice_scatter_of_a_larger_source_under_vmap_has_no_gradient(function, in_dims, shapes,
                                                                     got, want):
    a, b = (torch.zeros(*s, requires_grad=True) for s in shapes)
    found = torch.vmap(function, in_dims=in_dims)(a, b)
    refused(RuntimeError, INVALID.format(got, want), lambda: found.sum().backward())
    assert a.grad is None and b.grad is None


def test_nested_slice_scatters_of_a_larger_source_print_every_batch_but_carry_tangents():
    a, b = torch.zeros(2, 3, 4), torch.ones(2, 3, 3, requires_grad=True)
    found = torch.vmap(torch.vmap(lambda a, b: torch.slice_scatter(a, b, 0, 1, 3)))(a, b)
    refused(RuntimeError, INVALID.format([2, 3, 2], [2, 3, 3]), lambda: found.sum().backward())
    tangent = torch.func.jvp(lambda b: torch.vmap(lambda a, b: torch.slice_scatter(
        a, b, 0, 1, 3))(torch.zeros(3, 4), b), (torch.ones(3, 3),), (torch.ones(3, 3),))[1]
    assert tangent.tolist() == [[0.0, 1.0, 1.0, 0.0]] * 3


def test_scatter_tangent_keeps_one_write_where_an_index_repeats():
    index = torch.tensor([[1, 1], [0, 2]])
    found = torch.func.jvp(lambda s: torch.zeros(2, 3).scatter(1, index, s),
                           (torch.ones(2, 2),), (torch.arange(4.0).view(2, 2) + 1,))[1]
    assert found.tolist() == [[0.0, 2.0, 0.0], [3.0, 0.0, 4.0]]
    found = torch.func.jvp(lambda s: torch.zeros(3).scatter(0, torch.tensor([1, 1]), s),
                           (torch.ones(2),), (torch.ones(2),))[1]
    assert found.tolist() == [0.0, 1.0, 0.0]
