"""embedding_bag's graph as torch records it: EmbeddingBagBackward0 with an edge for the
weight and one for per_sample_weights, and, under create_graph=True, the per-sample weights'
gradient as a NotImplemented node whose edges go only to inputs that require grad.
The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

INDICES = torch.tensor([0, 2, 1, 4, 3, 1])
OFFSETS = torch.tensor([0, 2])


def names(node):
    return [None if n is None else n.name() for n, _ in node.next_functions]


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_without_sample_weights(mode):
    weight = torch.randn(5, 3, requires_grad=True)
    out = F.embedding_bag(INDICES, weight, OFFSETS, mode=mode)
    assert out.grad_fn.name() == "EmbeddingBagBackward0"
    assert names(out.grad_fn) == ["torch::autograd::AccumulateGrad", None]


def test_with_sample_weights():
    weight = torch.randn(5, 3, requires_grad=True)
    leaf = torch.rand(6, requires_grad=True)
    out = F.embedding_bag(INDICES, weight, OFFSETS, mode="sum", per_sample_weights=leaf * 2)
    assert names(out.grad_fn) == ["torch::autograd::AccumulateGrad", "MulBackward0"]
    assert names(out.grad_fn.next_functions[1][0]) == ["torch::autograd::AccumulateGrad", None]


@pytest.mark.parametrize("weight_grad,output_grad,expected", [
    (True, False, 1), (False, True, 1), (True, True, 2)])
def test_sample_weight_gradient_edges(weight_grad, output_grad, expected):
    weight = torch.randn(5, 3, requires_grad=weight_grad)
    samples = torch.rand(6, requires_grad=True)
    out = F.embedding_bag(INDICES, weight, OFFSETS, mode="sum", per_sample_weights=samples)
    grad_out = torch.ones(2, 3, requires_grad=output_grad)
    g, = torch.autograd.grad(out, [samples], grad_out, create_graph=True)
    node = g.grad_fn
    assert node.name() == "torch::autograd::NotImplemented"
    assert names(node) == ["torch::autograd::AccumulateGrad"] * expected
    wanted = [t for t, keep in ((weight, weight_grad), (grad_out, output_grad)) if keep]
    assert {id(n.variable) for n, _ in node.next_functions} == {id(t) for t in wanted}


def test_weight_gradient_edges():
    weight = torch.randn(5, 3, requires_grad=True)
    samples = torch.rand(6, requires_grad=True)
    out = F.embedding_bag(INDICES, weight, OFFSETS, mode="sum", per_sample_weights=samples)
    g, = torch.autograd.grad(out.sum(), [weight], create_graph=True)
    assert g.grad_fn.name() == "EmbeddingBagBackwardBackward0"
    assert names(g.grad_fn) == [None, "torch::autograd::AccumulateGrad"]


@pytest.mark.parametrize("mode", ["mean", "max"])
def test_sample_weights_only_for_sum(mode):
    weight = torch.randn(5, 3, requires_grad=True)
    message = f"only supported for mode='sum' \\(got mode='{mode}'\\)"
    with pytest.raises(NotImplementedError, match=message):
        F.embedding_bag(INDICES, weight, OFFSETS, mode=mode, per_sample_weights=torch.rand(6))
