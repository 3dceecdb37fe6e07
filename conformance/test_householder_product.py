"""torch.linalg.householder_product, torch.orgqr and Tensor.orgqr: values, layouts, the
checks in torch's order, out=, and the gradient graphs, node for node (chapter 16ra)."""

import warnings

import numpy as np
import pytest
import torch

from conformance._householder_expected import EXPECTED
from conformance._support import distinct_values, unique_preorder


def _reference(a, tau):
    """The product of the reflectors I - tau_i v_i v_iᵀ, its first n columns, in NumPy."""
    a, tau = np.asarray(a.tolist()), np.asarray(tau.tolist())
    m, n = a.shape
    q = np.eye(m)
    for i in range(tau.shape[0]):
        v = np.concatenate([np.zeros(i), [1.0], a[i + 1:, i]])
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q[:, :n]


def _case(shape, k):
    return distinct_values(*shape) - 0.5, distinct_values(*shape[:-2], k) * 0.5


@pytest.mark.parametrize("shape,k", [((4, 3), 3), ((4, 3), 2), ((3, 3), 3), ((5, 2), 0),
                                     ((1, 1), 1)])
def test_values_are_the_product_of_the_reflectors(shape, k):
    a, tau = _case(shape, k)
    for found in (torch.linalg.householder_product(a, tau), torch.orgqr(a, tau), a.orgqr(tau)):
        np.testing.assert_allclose(np.asarray(found.tolist()), _reference(a, tau), rtol=1e-12,
                                   atol=1e-14)


def test_a_batch_is_each_matrix_product():
    a, tau = _case((2, 4, 3), 2)
    found = torch.linalg.householder_product(a, tau)
    for i in range(2):
        np.testing.assert_allclose(np.asarray(found[i].tolist()), _reference(a[i], tau[i]),
                                   rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("shape,k,strides", [
    ((4, 3), 3, (1, 4)), ((4, 3), 1, (1, 4)), ((2, 4, 3), 3, (12, 1, 4)), ((4, 0), 0, (1, 4)),
    ((0, 4, 3), 3, (12, 1, 4)), ((3, 3), 3, (1, 3))])
def test_results_are_laid_out_by_columns(shape, k, strides):
    a, tau = torch.zeros(shape, dtype=torch.float64), torch.zeros(*shape[:-2], k)
    assert torch.linalg.householder_product(a, tau.double()).stride() == strides


_SAID = "torch.linalg.householder_product: "
ERRORS = [  # (input, tau, exception, message), each first in torch's order of checks
    ((3,), (2,), "int", RuntimeError, "input must have at least 2 dimensions."),
    ((3, 4), (2, 2), "int", RuntimeError,
     "input.shape[-2] must be greater than or equal to input.shape[-1]"),
    ((4, 3), (2, 2), "double", RuntimeError,
     "Expected tau to have one dimension less than input, but got tau.ndim equal to 2 and "
     "input.ndim is equal to 2"),
    ((4, 3), (4,), "double", RuntimeError,
     "input.shape[-1] must be greater than or equal to tau.shape[-1]"),
    ((2, 4, 3), (3, 4), "float", RuntimeError,
     "input.shape[-1] must be greater than or equal to tau.shape[-1]"),
    ((2, 4, 3), (3, 3), "double", RuntimeError,
     "Expected batch dimensions of tau to be equal to input.shape[:-2], but got [3]"),
    ((2, 3, 4, 3), (2, 2, 3), "float", RuntimeError,
     "Expected batch dimensions of tau to be equal to input.shape[:-2], but got [2, 2]"),
    ((4, 3), (3,), "double", RuntimeError, "tau dtype Double does not match input dtype Float"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_in_torch_order_and_words(case):
    a_shape, tau_shape, tau_dtype, kind, message = ERRORS[case]
    a, tau = torch.zeros(a_shape), getattr(torch.zeros(tau_shape), tau_dtype)()
    for f in (torch.linalg.householder_product, torch.orgqr, torch.Tensor.orgqr):
        with pytest.raises(kind) as found:
            f(a, tau)
        assert str(found.value) == _SAID + message


@pytest.mark.parametrize("dtype,name", [(torch.int32, "Int"), (torch.float16, "Half"),
                                        (torch.bool, "Bool")])
def test_the_kernel_refuses_other_dtypes_last(dtype, name):
    with pytest.raises(NotImplementedError, match=f"^\"orgqr_cpu\" not implemented for '{name}'$"):
        torch.linalg.householder_product(torch.zeros(4, 3, dtype=dtype),
                                         torch.zeros(3, dtype=dtype))
    with pytest.raises(RuntimeError, match="^" + _SAID + "tau dtype Float does not match input "
                       "dtype Int$"):
        torch.linalg.householder_product(torch.zeros(4, 3, dtype=torch.int32), torch.zeros(3))


def test_the_node_and_what_it_saves():
    a, tau = _case((4, 3), 2)
    a.requires_grad_(), tau.requires_grad_()
    for y in (torch.linalg.householder_product(a, tau), torch.orgqr(a, tau), a.orgqr(tau)):
        node = y.grad_fn
        assert type(node).__name__ == "LinalgHouseholderProductBackward0"
        assert node._saved_input is a and node._saved_tau is tau
        assert node._saved_result.equal(y)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_gradient_graphs_layouts_and_versions(name):
    shape, k = {"square": ((3, 3), 3), "tall": ((4, 3), 3), "fewer": ((4, 3), 2),
                "batched": ((2, 3, 2), 2)}[name]
    graph_a, graph_tau, strides_a, strides_tau, sums, leaf = EXPECTED[name]
    a, tau = (t.requires_grad_() for t in _case(shape, k))
    y = torch.linalg.householder_product(a, tau)
    ga, gt = torch.autograd.grad((y * y).sum(), (a, tau), create_graph=True)
    for g, graph in ((ga, graph_a), (gt, graph_tau)):
        assert " ".join(n.replace("Backward0", "") for n in unique_preorder(g.grad_fn)) == graph
    assert (ga.stride(), gt.stride()) == (strides_a, strides_tau)
    second = torch.autograd.grad(ga.sum() + gt.sum(), (a, tau))
    found = (ga.sum().item(), gt.sum().item(), second[0].sum().item(), second[1].sum().item())
    np.testing.assert_allclose(found, sums, rtol=1e-9, atol=1e-10)
    a2, tau2 = (t.detach().clone().requires_grad_() for t in (a, tau))
    torch.linalg.householder_product(a2, tau2).sum().backward()
    assert (a2.grad.stride(), a2.grad._version, tau2.grad.stride(), tau2.grad._version) == leaf


def test_gradients_are_the_derivatives():
    a, tau = _case((4, 3), 2)
    a.requires_grad_(), tau.requires_grad_()
    assert torch.autograd.gradcheck(torch.linalg.householder_product, (a, tau))
    assert torch.autograd.gradgradcheck(torch.linalg.householder_product, (a, tau))


def test_an_empty_tau_gives_no_gradient():
    a, tau = torch.ones(3, 2, dtype=torch.float64, requires_grad=True), torch.zeros(
        0, dtype=torch.float64, requires_grad=True)
    torch.linalg.householder_product(a, tau).sum().backward()
    assert a.grad is None and tau.grad is None


def _written(out, f=torch.linalg.householder_product):
    a, tau = _case((4, 3), 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = f(a, tau, out=out)
    assert found is out
    np.testing.assert_allclose(np.asarray(out.tolist()), _reference(a, tau), rtol=1e-6)
    return out.stride(), out._version, len(caught)


def test_out_laid_out_by_columns_only_when_it_was_empty():
    assert _written(torch.empty(0, dtype=torch.float64)) == ((1, 4), 1, 0)
    assert _written(torch.empty(0, dtype=torch.float64), torch.orgqr) == ((1, 4), 1, 0)
    assert _written(torch.empty(2, 2, dtype=torch.float64)) == ((3, 1), 1, 1)
    assert _written(torch.empty(3, 4, dtype=torch.float64).t()) == ((1, 4), 1, 0)
    assert _written(torch.empty(4, 3)) == ((3, 1), 1, 0)  # a float out takes the cast


def test_out_refusals():
    a, tau = _case((4, 3), 3)
    with pytest.raises(RuntimeError, match=r"^torch\.linalg\.householder_product: Expected "
                       "result to be safely castable from Double dtype, but got result with "
                       "dtype Int$"):
        torch.linalg.householder_product(a, tau, out=torch.empty(0, dtype=torch.int32))
    with pytest.raises(RuntimeError, match=r"^linalg_householder_product\(\): functions with "
                       "out=\\.\\.\\. arguments don't support automatic differentiation"):
        torch.orgqr(a.requires_grad_(), tau, out=torch.empty(0, dtype=torch.float64))


def test_orgqr_keeps_its_own_argument_names():
    a, tau = _case((4, 3), 3)
    expected = _reference(a, tau)
    for found in (torch.orgqr(input=a, input2=tau), a.orgqr(input2=tau),
                  torch.linalg.householder_product(input=a, tau=tau)):
        np.testing.assert_allclose(np.asarray(found.tolist()), expected, rtol=1e-12)
    with pytest.raises(TypeError, match=r"^orgqr\(\): argument 'out' must be Tensor, not int$"):
        torch.orgqr(a, tau, out=1)
    with pytest.raises(TypeError, match=r"^linalg_householder_product\(\): argument 'out' must "
                       "be Tensor, not int$"):
        torch.linalg.householder_product(a, tau, out=1)
