"""Functions under vmap whose operators a grad inside records, and refusals in torch's
words: chapter 19ii_functions_under_vmap_five."""


import pytest
import torch

from conformance._vmap_refusals import refused

INVALID = ("Function SliceScatterBackward0 returned an invalid gradient at index 1 - got {} but "
           "expected shape compatible with {}")


@pytest.mark.parametrize(("function", "in_dims", "shapes", "got", "want"), [
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), 0, ((3, 4), (3, 3)), [2], [3]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (0, None), ((3, 4), (3,)), [2], [3]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 1, 3), (None, 0), ((4,), (3, 3)), [2], [3]),
    (lambda a, b: torch.slice_scatter(a, b, 1, 1, 3), 0, ((3, 4, 5), (3, 4, 6)), [4, 2],
     [4, 6]),
    (lambda a, b: torch.slice_scatter(a, b, 0, 0, 4, 2), 0, ((3, 4, 5), (3, 3, 5)), [2, 5],
     [3, 5])])
def test_a_grad_inside_vmap_records_slice_scatter_of_a_larger_source_whole(function, in_dims,
                                                                           shapes, got, want):
    inner = torch.func.grad(lambda a, b: function(a, b).sum(), argnums=1)
    a, b = (torch.zeros(*s) for s in shapes)
    refused(RuntimeError, INVALID.format(got, want), lambda: torch.vmap(inner, in_dims=in_dims)(
        a, b))


def test_a_grad_inside_vmap_writes_the_leading_part_and_refuses_only_the_source():
    def f(a, b):
        out = torch.slice_scatter(a, b, 0, 1, 3)
        return (out * torch.arange(4.0)).sum(), out

    a, b = torch.zeros(3, 4), torch.arange(9.0).view(3, 3)
    found, written = torch.vmap(torch.func.grad(f, has_aux=True))(a, b)
    assert found.tolist() == [[0.0, 0.0, 0.0, 3.0]] * 3
    assert written.tolist() == [[0.0, 0.0, 1.0, 0.0], [0.0, 3.0, 4.0, 0.0], [0.0, 6.0, 7.0, 0.0]]
    both = torch.func.grad(f, argnums=(0, 1), has_aux=True)
    refused(RuntimeError, INVALID.format([2], [3]), lambda: torch.vmap(both)(a, b))


@pytest.mark.parametrize(("in_dims", "shapes"), [
    ((0, None), ((3, 4), (3, 3))), (0, ((3, 4), (3, 2, 2))), (0, ((3, 4), (3, 1, 3))),
    ((None, 0), ((4,), (3, 1, 2)))])
def test_slice_scatter_under_vmap_refuses_a_source_of_more_dimensions_as_scatter(in_dims,
                                                                                  shapes):
    a, b = (torch.zeros(*s) for s in shapes)
    refused(RuntimeError, "Index tensor must have the same number of dimensions as src tensor",
            lambda: torch.vmap(lambda a, b: torch.slice_scatter(a, b, 0, 1, 3),
                               in_dims=in_dims)(a, b))
