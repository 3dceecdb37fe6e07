"""addr_: the rank-one update written in place, with torch's factors, dtypes and checks."""

import pytest
import torch

from conformance._support import raises

U, V = [1.0, 2.0], [3.0, 4.0, 5.0]


def test_beta_and_alpha_scale_the_matrix_and_the_outer_product():
    m = torch.ones(2, 3)
    out = m.addr_(torch.tensor(U), torch.tensor(V), beta=0.5, alpha=-1)
    assert out is m and m._version == 1
    assert m.tolist() == [[0.5 - u * v for v in V] for u in U]


def test_a_zero_beta_drops_the_matrix_nan_included():
    m = torch.full((2, 3), float("nan"))
    assert m.addr_(torch.tensor(U), torch.tensor(V), beta=0).tolist() == [
        [u * v for v in V] for u in U]


def test_the_result_is_cast_back_to_the_matrix_dtype():
    m = torch.ones(2, 3)
    m.addr_(torch.tensor(U, dtype=torch.float64), torch.tensor(V, dtype=torch.float64))
    assert m.dtype == torch.float32 and m.tolist() == [[1 + u * v for v in V] for u in U]
    n = torch.ones(2, 3, dtype=torch.int64)
    n.addr_(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), beta=2, alpha=3)
    assert n.tolist() == [[2 + 3 * u * v for v in (3, 4, 5)] for u in (1, 2)]


def test_the_node_and_its_gradients():
    u = torch.tensor(U, requires_grad=True)
    m = torch.ones(2, 3, requires_grad=True)
    y = m.clone().addr_(u, torch.tensor(V), beta=2, alpha=3)
    assert type(y.grad_fn).__name__ == "AddrBackward0"
    assert (y.grad_fn._saved_beta, y.grad_fn._saved_alpha) == (2, 3)
    y.sum().backward()
    assert m.grad.tolist() == [[2.0] * 3] * 2
    assert u.grad.tolist() == [3 * sum(V)] * 2


@pytest.mark.parametrize("call, kind, message", [
    (lambda u, v: torch.ones(3).addr_(u, v), RuntimeError,
     "2D tensor expected, got 1D tensor for input"),
    (lambda u, v: torch.ones(1, 3).addr_(u, v), RuntimeError,
     "size mismatch, input: [1, 3], v1: [2], v2: [3]"),
    (lambda u, v: torch.ones(3).addr_(u[None], v), RuntimeError,
     "addr: Expected 1-D argument vec1, but got 2-D"),
    (lambda u, v: torch.ones(2, 3, dtype=torch.int64).addr_(u, v), RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
    (lambda u, v: torch.ones(2, 3, dtype=torch.int64).addr_(u.long(), v.long(), alpha=1.5),
     RuntimeError, "For integral input tensors, argument alpha must not be a floating point "
     "number."),
    (lambda u, v: torch.ones(2, 3, dtype=torch.bool).addr_(u.bool(), v.bool(), beta=0.5),
     RuntimeError, "For integral input tensors, argument beta must not be a floating point "
     "number."),
    (lambda u, v: torch.ones(2, 3).addr_(u, v, alpha=True), RuntimeError,
     "Boolean alpha only supported for Boolean results."),
    (lambda u, v: torch.ones(2, 3).addr_(u, v, beta="x"), TypeError,
     "addr_(): argument 'beta' must be Number, not str"),
    (lambda u, v: torch.ones(2, 3, requires_grad=True).addr_(u, v), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    (lambda u, v: torch.ones(1, 3).expand(2, 3).addr_(u, v), RuntimeError,
     "unsupported operation: more than one element of the written-to tensor refers to a "
     "single memory location. Please clone() the tensor before performing the operation.")])
def test_refusals(call, kind, message):
    with raises(kind, message):
        call(torch.tensor(U), torch.tensor(V))


def test_boolean_factors_for_a_boolean_result():
    m = torch.zeros(2, 3, dtype=torch.bool)
    m.addr_(torch.tensor([True, False]), torch.tensor([True, True, False]), beta=False,
            alpha=True)
    assert m.tolist() == [[True, True, False], [False, False, False]]


def test_float_factors_are_refused_by_the_result_dtype_not_the_input():
    m = torch.addr(torch.ones(2, 3, dtype=torch.int64), torch.ones(2), torch.ones(3), beta=1.5)
    assert m.dtype == torch.float32 and m.tolist() == [[2.5] * 3] * 2
    n = torch.addr(torch.ones(2, 3), torch.ones(2, dtype=torch.int64),
                   torch.ones(3, dtype=torch.int64), beta=1.5)
    assert n.dtype == torch.float32 and n.tolist() == [[2.5] * 3] * 2
