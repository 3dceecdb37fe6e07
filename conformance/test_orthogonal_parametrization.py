"""parametrizations.orthogonal: matrix_exp, cayley and householder maps."""

import pytest
import torch
from torch.nn.utils import parametrizations as PZ

from conformance._support import raises


def orthonormal(Q):
    small = min(Q.shape[-2:])
    gram = Q.mT @ Q if Q.shape[-2] >= Q.shape[-1] else Q @ Q.mT
    return torch.allclose(gram, torch.eye(small, dtype=Q.dtype), atol=1e-6)


@pytest.mark.parametrize("trivial", [True, False])
@pytest.mark.parametrize("orthogonal_map", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("shape", [(3, 3), (3, 5), (5, 3)])
def test_each_map_gives_an_orthonormal_weight(shape, orthogonal_map, trivial):
    torch.manual_seed(0)
    m = torch.nn.Linear(*shape).double()
    PZ.orthogonal(m, orthogonal_map=orthogonal_map, use_trivialization=trivial)
    assert orthonormal(m.weight) and m.weight.shape == (shape[1], shape[0])
    keys = ["bias", "parametrizations.weight.original"]
    assert list(m.state_dict()) == keys + (["parametrizations.weight.0.base"] if trivial else [])
    m.weight.sum().backward()
    assert m.parametrizations.weight.original.grad.shape == (shape[1], shape[0])


def test_the_default_map_and_the_nodes():
    torch.manual_seed(0)
    square = PZ.orthogonal(torch.nn.Linear(3, 3).double(), use_trivialization=False)
    assert square.weight.grad_fn.name() == "LinalgMatrixExpBackward0"
    tall = PZ.orthogonal(torch.nn.Linear(3, 5).double(), use_trivialization=False)
    assert tall.weight.grad_fn.name() == "MulBackward0"  # householder's signs
    assert PZ.orthogonal(torch.nn.Linear(3, 3)).weight.grad_fn.name() == "MmBackward0"


def test_trivialization_keeps_the_weight_in_base_and_starts_at_minus_identity():
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 3).double()
    with torch.no_grad():
        m.weight.copy_(torch.linalg.qr(m.weight)[0])
    w = m.weight.detach().clone()
    PZ.orthogonal(m)
    assert torch.equal(m.parametrizations.weight[0].base, w)
    assert torch.equal(m.parametrizations.weight.original.detach(), -torch.eye(3, dtype=w.dtype))
    assert torch.allclose(m.weight, w)


def test_assigning_without_trivialization():
    torch.manual_seed(0)
    q = torch.linalg.qr(torch.randn(5, 3, dtype=torch.double))[0]
    m = PZ.orthogonal(torch.nn.Linear(3, 5).double(), orthogonal_map="householder",
                      use_trivialization=False)
    m.weight = q
    assert torch.allclose(m.weight, q)
    e = PZ.orthogonal(torch.nn.Linear(3, 3), use_trivialization=False)
    with raises(NotImplementedError, "It is not possible to assign to the matrix exponential or "
                "the Cayley parametrizations when use_trivialization=False."):
        e.weight = torch.eye(3)


def test_refusals():
    with raises(ValueError, 'orthogonal_map has to be one of "matrix_exp", "cayley", '
                '"householder". Got: foo'):
        PZ.orthogonal(torch.nn.Linear(2, 2), orthogonal_map="foo")
    with raises(ValueError, "Expected a matrix or batch of matrices. Got a tensor of 1 "
                "dimensions."):
        PZ.orthogonal(torch.nn.BatchNorm1d(2))
    m = PZ.orthogonal(torch.nn.Linear(3, 3))
    with raises(ValueError, "Expected a matrix or batch of matrices of shape torch.Size([3, 3])."
                " Got a tensor of shape torch.Size([2, 2])."):
        m.weight = torch.ones(2, 2)
