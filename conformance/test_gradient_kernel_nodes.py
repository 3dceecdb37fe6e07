"""What the nodes of the gradient kernels keep and show, and what surrounds them.

The class margin losses' NotImplemented nodes (their edges, their name, nothing saved);
embedding_dense_backward's node, its own gradient and its tangent; _trilinear's node and
bilinear's checks; and the versions binary_cross_entropy_with_logits leaves on its
gradients, which torch writes in place step by step. test_gradient_kernels.py checks
their graphs, layouts and values.
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

from conformance._support import raises
from conformance.test_gradient_kernels import CASES, digest, graph, leaf

D = torch.float64
MARGINS = {
    "multi_margin_loss_backward": lambda x: F.multi_margin_loss(x, torch.tensor([0, 2]), p=2),
    "multilabel_margin_loss_backward": lambda x: F.multilabel_margin_loss(
        x, torch.tensor([[0, -1, 1], [2, 1, -1]])),
}


@pytest.mark.parametrize("kernel", list(MARGINS))
@pytest.mark.parametrize("graded", [False, True])
def test_class_margin_gradients_are_not_implemented_nodes(kernel, graded):
    x = leaf(D)
    loss = MARGINS[kernel](x)
    incoming = torch.ones_like(loss).requires_grad_(graded)
    (g,) = torch.autograd.grad(loss, x, incoming, create_graph=True)
    node = g.grad_fn
    assert type(node).__name__ == "NotImplemented"
    assert node.name() == "torch::autograd::NotImplemented"
    edges = [type(child).__name__ for child, _ in node.next_functions]
    assert edges == ["AccumulateGrad", "AccumulateGrad"][:1 + graded]
    assert [n for n in dir(node) if n.startswith("_saved")] == []
    with raises(RuntimeError, f"derivative for aten::{kernel} is not implemented"):
        g.sum().backward()


@pytest.mark.parametrize(("padding_idx", "shown"), [(None, 2**64 - 1), (1, 1), (-1, 3)])
def test_embedding_dense_backward_keeps_indices_and_padding_idx(padding_idx, shown):
    indices = torch.tensor([[1, 0, 1], [3, 1, 1]])
    weight = torch.arange(8, dtype=D).reshape(4, 2).requires_grad_()
    rows = F.embedding(indices, weight, padding_idx=padding_idx, scale_grad_by_freq=True)
    (g,) = torch.autograd.grad((rows * rows).sum(), weight, create_graph=True)
    node = g.grad_fn
    assert type(node).__name__ == "EmbeddingDenseBackwardBackward0"
    assert node._saved_indices.tolist() == indices.tolist()
    assert node._saved_padding_idx == shown
    assert sorted(n for n in dir(node) if n.startswith("_saved")) == [
        "_saved_indices", "_saved_padding_idx"]


@pytest.mark.parametrize(("options", "nodes", "version", "values"), [
    ({}, "ViewB0 IndexSelectB0 AccumulateGrad", 0, [3, 4, 1, 2, 3, 4, 5, 6, 3, 4, 3, 4]),
    ({"padding_idx": 1}, "ViewB0 MaskedFillB0 IndexSelectB0 AccumulateGrad", 1,
     [0, 0, 1, 2, 0, 0, 5, 6, 0, 0, 0, 0]),
    ({"scale_grad_by_freq": True}, "ViewB0 IndexSelectB0 AccumulateGrad", 0,
     [3, 4, 1, 2, 3, 4, 5, 6, 3, 4, 3, 4]),  # torch's: not scaled by the frequencies
])
def test_embedding_gradient_of_the_gradient(options, nodes, version, values):
    weight = torch.arange(8, dtype=D).reshape(4, 2).requires_grad_()
    indices = torch.tensor([[1, 0, 1], [2, 1, 1]])
    incoming = (torch.arange(12, dtype=D).reshape(2, 3, 2) * 0.37).requires_grad_()
    (g,) = torch.autograd.grad(F.embedding(indices, weight, **options), weight, incoming,
                               create_graph=True)
    v = (torch.arange(8, dtype=D).reshape(4, 2) + 1).requires_grad_()
    (back,) = torch.autograd.grad(g, incoming, v, create_graph=True)
    assert (graph(back), back.stride(), back._version) == (nodes, (6, 2, 1), version)
    assert back.flatten().tolist() == values


@pytest.mark.parametrize(("dtype", "bits"), [(torch.float64, "2dbdc79d55e6"),
                                             (torch.float32, "aa43ba608bdd")])
def test_embedding_scaled_gradient_to_the_bit(dtype, bits):
    weight = torch.zeros(6, 5, dtype=dtype, requires_grad=True)
    indices = (torch.arange(35).reshape(7, 5) * 7 % 11) % 6
    rows = F.embedding(indices, weight, padding_idx=4, scale_grad_by_freq=True)
    rows.backward((torch.arange(175, dtype=dtype).reshape(7, 5, 5) * 0.37) % 1 - 0.5)
    assert digest(weight.grad) == bits  # each scaled row added with one rounding


def test_embedding_gradient_tangent_is_scaled():
    weight = torch.arange(8, dtype=D).reshape(4, 2).requires_grad_()
    incoming = torch.arange(12, dtype=D).reshape(2, 3, 2) * 0.3
    with fwAD.dual_level():
        dual = fwAD.make_dual(incoming, torch.ones_like(incoming))
        (g,) = torch.autograd.grad(
            F.embedding(torch.tensor([[1, 0, 1], [2, 1, 1]]), weight, padding_idx=2,
                        scale_grad_by_freq=True), weight, dual, create_graph=True)
        assert fwAD.unpack_dual(g).tangent.flatten().tolist() == [1, 1, 1, 1, 0, 0, 0, 0]


def test_trilinear_node_keeps_its_inputs_and_dimensions():
    x1 = torch.ones(2, 3, dtype=D, requires_grad=True)
    x2 = torch.ones(2, 4, dtype=D)
    out = F.bilinear(x1, x2, torch.ones(5, 3, 4, dtype=D, requires_grad=True))
    node = out.grad_fn.next_functions[0][0]
    assert type(node).__name__ == "TrilinearBackward0"
    assert (node._saved_expand1, node._saved_expand2, node._saved_expand3,
            node._saved_sumdim) == ((1, 3), (0,), (1, 2), (2, 3))
    assert [tuple(getattr(node, f"_saved_i{k}").shape) for k in (1, 2, 3)] == [
        (2, 3), (5, 3, 4), (2, 4)]
    assert not hasattr(node, "_saved_unroll_dim")


def ones(*shape, dtype=torch.float32):
    return torch.ones(shape, dtype=dtype)


@pytest.mark.parametrize(("arguments", "kind", "message"), [
    ((ones(2, 3), ones(2, 4, dtype=D), ones(5, 3, 4)), RuntimeError,
     "All tensors must have the same dtype, got input1: float, input2: double, weight: float"),
    ((ones(2, 3), ones(2, 4), ones(5, 3, 4), ones(5, dtype=D)), RuntimeError,
     "All tensors must have the same dtype, got input1: float, input2: float, weight: float, "
     "bias: double"),
    ((ones(2, 3), ones(2, 1, 4), ones(5, 3, 4)), RuntimeError,
     "bilinear(): input dimensions do not match: got 2 and 3"),
    ((ones(2, 3), ones(3, 4), ones(5, 3, 4)), RuntimeError,
     "bilinear(): input batch dimensions do not match at dim 0: got 2 and 3"),
    ((ones(2, 2), ones(2, 4), ones(5, 3, 4)), RuntimeError,
     "bilinear(): input1 size does not match weight size: got 2 but expected 3"),
    ((ones(2, 3), ones(2, 3), ones(5, 3, 4)), RuntimeError,
     "bilinear(): input2 size does not match weight size: got 3 but expected 4"),
    ((ones(2, 3), ones(2, 4), ones(5, 3, 4), ones(4)), RuntimeError,
     "bilinear(): bias size does not match weight size: got 4 but expected 5"),
    ((ones(), ones(), ones(5, 3, 4)), IndexError,
     "Dimension specified as -1 but tensor has no dimensions"),
    ((ones(2, 3), ones(2, 4), ones(5, 3, 4), ones()), IndexError,
     "Dimension specified as 0 but tensor has no dimensions"),
])
def test_bilinear_refusals(arguments, kind, message):
    with raises(kind, message):
        F.bilinear(*arguments)


def test_bilinear_of_one_sample_and_of_none():
    assert F.bilinear(ones(3), ones(4), ones(5, 3, 4)).tolist() == [12.0] * 5
    empty = F.bilinear(ones(0, 3), ones(0, 4), ones(5, 3, 4))
    assert (tuple(empty.shape), empty.stride()) == ((0, 5), (5, 1))


# (weight, pos_weight, reduction): ((x's gradient's strides and version, the target's) under
# create_graph=True, then the same of x.grad and target.grad after a plain backward())
BCE_VERSIONS = {
    (False, False, 'mean'): (((1, 2), 1, (1, 2), 1), ((1, 2), 3, (3, 1), 1)),
    (False, False, 'sum'): (((1, 2), 0, (1, 2), 0), ((1, 2), 2, (3, 1), 1)),
    (False, False, 'none'): (((1, 2), 0, (1, 2), 0), ((1, 2), 2, (3, 1), 1)),
    (False, True, 'mean'): (((3, 1), 1, (3, 1), 3), ((1, 2), 1, (3, 1), 3)),
    (False, True, 'sum'): (((3, 1), 0, (3, 1), 2), ((1, 2), 1, (3, 1), 2)),
    (False, True, 'none'): (((3, 1), 0, (3, 1), 2), ((1, 2), 1, (3, 1), 2)),
    (True, False, 'mean'): (((1, 2), 1, (1, 2), 2), ((1, 2), 4, (3, 1), 1)),
    (True, False, 'sum'): (((1, 2), 0, (1, 2), 1), ((1, 2), 3, (3, 1), 1)),
    (True, False, 'none'): (((1, 2), 0, (1, 2), 1), ((1, 2), 3, (3, 1), 1)),
    (True, True, 'mean'): (((3, 1), 1, (3, 1), 4), ((1, 2), 1, (3, 1), 4)),
    (True, True, 'sum'): (((3, 1), 0, (3, 1), 3), ((1, 2), 1, (3, 1), 3)),
    (True, True, 'none'): (((3, 1), 0, (3, 1), 3), ((1, 2), 1, (3, 1), 3)),
}


def _bce_gradients(weighted, positive, reduction, create_graph):
    x = leaf(D)
    target = (torch.arange(6, dtype=D).reshape(2, 3) * 0.1).requires_grad_()
    loss = F.binary_cross_entropy_with_logits(
        x, target, torch.full((3,), 1.5, dtype=D) if weighted else None, reduction=reduction,
        pos_weight=torch.tensor([0.5, 2.0, 1.0], dtype=D) if positive else None)
    if create_graph:
        return torch.autograd.grad((loss * loss).sum(), (x, target), create_graph=True)
    loss.sum().backward()
    return x.grad, target.grad


@pytest.mark.parametrize("case", list(BCE_VERSIONS))
def test_bce_with_logits_gradient_versions(case):
    found = tuple(tuple(v for g in _bce_gradients(*case, graph) for v in (g.stride(), g._version))
                  for graph in (True, False))
    assert found == BCE_VERSIONS[case]


# torch's: g.sum() and the second derivative weighted by 1..6, in float64 then float32; the
# sigmoid they go through rounds its last bits its own way, so these are checked to rounding
BCE_NUMBERS = {
    'bce_logits': (0.844552330439, 2.522290919695, 0.844552338123, 2.522291183472),
    'bce_logits_sum': (30.403883895815, 90.802473109005, 30.403881072998, 90.802467346191),
    'bce_logits_weights': (1.492876460196, 4.553440660733, 1.492876410484, 4.553441047668),
    'bce_logits_weight_none': (11.195314093301, 32.842852569201, 11.195314407349,
                               32.842849731445),
}


@pytest.mark.parametrize("name", list(BCE_NUMBERS))
def test_bce_with_logits_values(name):
    found = []
    for dtype in (torch.float64, torch.float32):
        x = leaf(dtype)
        y = CASES[name](x)
        (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        (second,) = torch.autograd.grad(g.sum(), x)
        found += [g.detach().sum().item(),
                  (second * torch.arange(1, 7, dtype=dtype).reshape(2, 3)).sum().item()]
    wanted = BCE_NUMBERS[name]
    assert found[:2] == pytest.approx(wanted[:2], rel=1e-13)
    assert found[2:] == pytest.approx(wanted[2:], rel=1e-6)
