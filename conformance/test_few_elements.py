"""Tensors of one element, or too few for their statistic.

A variance with no degrees of freedom left has an infinite (or ``nan``)
gradient, which torch makes with a ``where`` of two Python floats: a tensor of
the default dtype, which the engine casts back to the input's dtype. A vector
of one element counts as dense, so its copies keep its stride.
"""

import warnings

import pytest
import torch

from conformance._support import unique_preorder

STD_GRAPH = ["MulBackward0", "MaskedFillBackward0", "DivBackward0", "MulBackward1",
             "StdBackward0", "AccumulateGrad"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "degrees of freedom is <= 0"
        yield


@pytest.mark.parametrize("values", [[0.5], []])
def test_a_double_std_without_degrees_of_freedom_is_cast_back(values):
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(x.std(), x, create_graph=True)
    assert g.dtype == torch.float64
    assert unique_preorder(g.grad_fn) == ["ToCopyBackward0", *STD_GRAPH]
    mul = g.grad_fn.next_functions[0][0]
    assert mul._saved_other.dtype == torch.float32  # the where of two floats
    assert [str(v) for v in g.tolist()] == ["nan"] * len(values)


def test_a_float_std_without_degrees_of_freedom_needs_no_cast():
    x = torch.tensor([0.5], requires_grad=True)
    (g,) = torch.autograd.grad(x.std(), x, create_graph=True)
    assert unique_preorder(g.grad_fn) == STD_GRAPH


def test_a_variance_without_degrees_of_freedom_has_a_constant_gradient():
    x = torch.tensor([0.5, 0.7], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(x.var(correction=2), x, create_graph=True)
    assert g.grad_fn is None and g.dtype == torch.float64
    assert g.tolist() == [float("inf"), float("inf")]


@pytest.mark.parametrize("make, strides", [
    (lambda: torch.arange(10.0)[::5][:1], (5,)),
    (lambda: torch.zeros(()).expand(1), (0,)),
])
def test_flipping_one_element_keeps_its_stride(make, strides):
    assert make().flip(0).stride() == strides


def test_a_flipped_one_element_leaf_copies_its_zero_strided_gradient():
    x = torch.ones(1, dtype=torch.float64, requires_grad=True)
    x.flip(0).sum().backward()
    assert (x.grad.stride(), x.grad._version) == ((1,), 1)


@pytest.mark.parametrize("reduce, node", [
    (lambda x: x.prod(dtype=torch.float64), "ProdBackward0"),
    (lambda x: x.prod(1, dtype=torch.float64), "ProdBackward1"),
    (lambda x: x.sum(dtype=torch.float64), "SumBackward0"),
    (lambda x: x.sum(1, dtype=torch.float64), "SumBackward1"),
])
def test_a_reduction_in_another_dtype_is_one_node_and_its_gradient_a_fresh_cast(reduce, node):
    x = (torch.arange(6.0).reshape(2, 3) * 0.3 + 0.5).requires_grad_()
    y = reduce(x)
    assert y.dtype == torch.float64
    assert unique_preorder(y.grad_fn) == [node, "AccumulateGrad"]
    (g,) = torch.autograd.grad(y.sum(), x, retain_graph=True)
    assert g.dtype == torch.float32 and g.stride() == (3, 1)
    y.sum().backward()
    assert x.grad._version == 0  # taken over: the cast is a fresh tensor


def test_a_float16_product_in_another_dtype_is_not_rounded_back():
    x = torch.tensor([1.5, 2.25, 3.0], dtype=torch.float16)
    y = x.prod(dtype=torch.float64)
    assert y.dtype == torch.float64 and y.item() == 10.125


@pytest.mark.parametrize("shape, strides", [((0, 3), (3, 1)), ((1,), (1,))])
def test_a_float16_logsigmoid_leaf_copies_its_expanded_gradient(shape, strides):
    x = torch.ones(*shape, dtype=torch.float16, requires_grad=True)
    torch.nn.functional.logsigmoid(x).sum().backward()
    assert (x.grad.stride(), x.grad._version) == (strides, 1)


def test_a_second_backward_through_a_zero_gradient_reaches_the_svd_input():
    x = (torch.arange(6.0, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()
    u = torch.linalg.svd(x, full_matrices=False)[0]  # square: (u * u).sum() is constant
    (g,) = torch.autograd.grad((u * u).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.abs().max().item() < 1e-12


def test_zeros_that_came_to_svd_are_a_gradient_nan_at_repeated_values():
    x = torch.eye(3, dtype=torch.float64).requires_grad_()
    u, s, _ = torch.linalg.svd(x)
    (s.sum() + 0 * u.sum()).backward()
    assert x.grad.isnan().any()
