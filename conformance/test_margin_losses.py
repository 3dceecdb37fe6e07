"""Black-box tests: the distances and margin losses torch composes from other operations:
values worked out here, the nodes of their graphs, gradients against central differences,
reductions, the legacy arguments' warning and the refusals.
"""

import math
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import first_edges, graph_nodes, matrix_leaf, numeric_gradient, raises

A = [[0.5, -1.0, 2.0], [0.25, 0.75, -0.5]]
B = [[1.0, 0.5, -1.5], [-0.25, 1.0, 0.5]]
C = [[-0.5, 1.5, 1.0], [0.5, -0.75, 0.25]]
LABELS = [1.0, -1.0]


def _cos(u, v):
    dot = sum(a * b for a, b in zip(u, v))
    return dot / math.sqrt((sum(a * a for a in u) + 1e-12) * (sum(b * b for b in v) + 1e-12))


def _distance(u, v, p=2.0, eps=1e-6):
    return sum(abs(a - b + eps) ** p for a, b in zip(u, v)) ** (1 / p)


def _check_gradient(call, values, index=0):
    """The gradient of call(*leaves).sum() for the leaf ``index`` against central differences."""
    leaves = [matrix_leaf(v) for v in values]
    call(*leaves).sum().backward()

    def f(a):
        args = [torch.tensor(v, dtype=torch.float64) for v in values]
        args[index] = torch.tensor(a.tolist(), dtype=torch.float64)
        return call(*args).sum().item()

    expected = numeric_gradient(f, np.array(values[index]))
    assert np.allclose(np.array(leaves[index].grad.tolist()), expected, atol=1e-6)


def test_the_distances_are_torchs_own():
    x, y = matrix_leaf(A), matrix_leaf(B)
    assert F.cosine_similarity(x, y).tolist() == pytest.approx(
        [_cos(u, v) for u, v in zip(A, B)], rel=1e-12)
    assert F.pairwise_distance(x, y).tolist() == pytest.approx(
        [_distance(u, v) for u, v in zip(A, B)], rel=1e-12)
    assert first_edges(F.pairwise_distance(x, y)) == ["NormBackward1", "AddBackward1",
                                                      "SubBackward0"]
    assert F.pdist(x).tolist() == pytest.approx([math.dist(A[0], A[1])], rel=1e-12)
    assert type(F.pdist(x).grad_fn).__name__ == "PdistBackward0"


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cosine_embedding_loss(reduction):
    x, y = matrix_leaf(A), matrix_leaf(B)
    target = torch.tensor(LABELS, dtype=torch.float64)
    out = F.cosine_embedding_loss(x, y, target, margin=-0.5, reduction=reduction)
    each = [1 - _cos(A[0], B[0]), max(0.0, _cos(A[1], B[1]) + 0.5)]
    expected = {"none": each, "mean": sum(each) / 2, "sum": sum(each)}[reduction]
    assert (out.tolist() if reduction == "none" else out.item()) == pytest.approx(expected)
    top = {"none": [], "mean": ["MeanBackward0"], "sum": ["SumBackward0"]}[reduction]
    assert first_edges(out) == top + ["AddBackward0", "WhereBackward0", "SubBackward0"]
    nodes = [n for _, n in graph_nodes(out)]
    assert nodes.count("SqrtBackward0") == 2 and nodes.count("AddBackward1") == 4
    assert "ClampMinBackward0" in nodes and "SubBackward1" in nodes
    for index in (0, 1):
        _check_gradient(lambda a, b: F.cosine_embedding_loss(
            a, b, torch.tensor(LABELS, dtype=torch.float64), margin=-0.5), [A, B], index)


def test_cosine_embedding_loss_of_one_pair_and_other_labels():
    x, y = torch.tensor(A[0]), torch.tensor(B[0])
    assert F.cosine_embedding_loss(x, y, torch.tensor(1.0)).item() == pytest.approx(
        1 - _cos(A[0], B[0]), rel=1e-6)
    # a label neither 1 nor -1 counts nothing
    out = F.cosine_embedding_loss(torch.tensor(A), torch.tensor(B), torch.tensor([0.0, 2.0]))
    assert out.item() == 0.0


def test_cosine_embedding_loss_refusals():
    x = torch.tensor(A)
    with raises(RuntimeError, "0D target tensor expects 1D input tensors, but found inputs with "
                "sizes [2, 3] and [2, 3]."):
        F.cosine_embedding_loss(x, x, torch.tensor(1.0))
    with raises(RuntimeError, "1D target tensor expects 2D input tensors, but found inputs with "
                "sizes [3] and [3]."):
        F.cosine_embedding_loss(x[0], x[0], torch.ones(1))
    with raises(RuntimeError, "0D or 1D target tensor expected, multi-target not supported"):
        F.cosine_embedding_loss(x, x, torch.ones(2, 1))
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at "
                "non-singleton dimension 0"):
        F.cosine_embedding_loss(x, x, torch.ones(3))
    with raises(ValueError, "bogus is not a valid value for reduction"):
        F.cosine_embedding_loss(x, x, torch.ones(2), reduction="bogus")


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_margin_ranking_loss(reduction):
    x, y = matrix_leaf(A[0]), matrix_leaf(B[0])
    target = torch.tensor([1.0, -1.0, 1.0], dtype=torch.float64)
    out = F.margin_ranking_loss(x, y, target, margin=0.25, reduction=reduction)
    each = [max(0.0, -t * (a - b) + 0.25) for a, b, t in zip(A[0], B[0], [1, -1, 1])]
    expected = {"none": each, "mean": sum(each) / 3, "sum": sum(each)}[reduction]
    assert (out.tolist() if reduction == "none" else out.item()) == pytest.approx(expected)
    top = {"none": [], "mean": ["MeanBackward0"], "sum": ["SumBackward0"]}[reduction]
    assert first_edges(out) == top + ["ClampMinBackward0", "AddBackward1", "MulBackward0"]
    for index in (0, 1):
        _check_gradient(lambda a, b: F.margin_ranking_loss(a, b, target, 0.25), [A[0], B[0]],
                        index)


def test_margin_ranking_loss_refusals_and_integers():
    with raises(RuntimeError, "margin_ranking_loss : All input tensors should have same "
                "dimension but got sizes: input1: torch.Size([3]), input2: torch.Size([3]), "
                "target: torch.Size([]) "):
        F.margin_ranking_loss(torch.ones(3), torch.ones(3), torch.tensor(1.0))
    out = F.margin_ranking_loss(torch.tensor([1, 2]), torch.tensor([2, 1]), torch.tensor([1, -1]))
    assert out.dtype is torch.float32 and out.item() == 1.0


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_hinge_embedding_loss(reduction):
    x = matrix_leaf(A)
    target = torch.tensor([1.0, -1.0, 0.0], dtype=torch.float64)
    out = F.hinge_embedding_loss(x, target, margin=0.5, reduction=reduction)
    each = [[a * (t != -1) + max(0.0, 0.5 - a) * (t != 1) for a, t in zip(row, [1, -1, 0])]
            for row in A]
    flat = [v for row in each for v in row]
    expected = {"none": flat, "mean": sum(flat) / 6, "sum": sum(flat)}[reduction]
    got = out.reshape(-1).tolist() if reduction == "none" else out.item()
    assert got == pytest.approx(expected)
    assert tuple(out.shape) == ((2, 3) if reduction == "none" else ())
    top = {"none": [], "mean": ["MeanBackward0"], "sum": ["SumBackward0"]}[reduction]
    assert first_edges(out) == top + ["AddBackward0", "WhereBackward0", "ClampMinBackward0",
                                      "SubBackward0"]
    _check_gradient(lambda a: F.hinge_embedding_loss(a, target, margin=0.5), [A])


def test_hinge_embedding_loss_of_integers_keeps_their_dtype():
    out = F.hinge_embedding_loss(torch.tensor([1, 2]), torch.tensor([1, -1]), reduction="none")
    assert out.dtype is torch.int64 and out.tolist() == [1, 0]
    with raises(RuntimeError, "mean(): could not infer output dtype. Input dtype must be either "
                "a floating point or complex dtype. Got: Long"):
        F.hinge_embedding_loss(torch.tensor([1, 2]), torch.tensor([1, -1]))


@pytest.mark.parametrize("swap", [False, True])
def test_triplet_margin_loss(swap):
    a, p, n = matrix_leaf(A), matrix_leaf(B), matrix_leaf(C)
    out = F.triplet_margin_loss(a, p, n, margin=1.5, p=1.5, swap=swap, reduction="none")
    each = []
    for u, v, w in zip(A, B, C):
        negative = _distance(u, w, 1.5)
        if swap:
            negative = min(negative, _distance(v, w, 1.5))
        each.append(max(0.0, 1.5 + _distance(u, v, 1.5) - negative))
    assert out.tolist() == pytest.approx(each, rel=1e-12)
    assert first_edges(out) == ["ClampMinBackward0", "SubBackward0", "AddBackward1",
                                "NormBackward1", "AddBackward1", "SubBackward0"]
    for index in (0, 1, 2):
        _check_gradient(lambda x, y, z: F.triplet_margin_loss(x, y, z, 1.5, 1.5, swap=swap),
                        [A, B, C], index)


def test_triplet_margin_with_distance_loss():
    a, p, n = matrix_leaf(A), matrix_leaf(B), matrix_leaf(C)
    out = F.triplet_margin_with_distance_loss(a, p, n, margin=2.0, reduction="sum")
    each = [max(0.0, 2.0 + _distance(u, v) - _distance(u, w)) for u, v, w in zip(A, B, C)]
    assert out.item() == pytest.approx(sum(each), rel=1e-12)
    assert first_edges(out) == ["SumBackward0", "ClampMinBackward0", "SubBackward0",
                                "AddBackward0", "NormBackward1", "AddBackward1", "SubBackward0"]

    def l1(x, y):
        return (x - y).abs().sum(-1)

    out = F.triplet_margin_with_distance_loss(a, p, n, distance_function=l1, swap=True,
                                              reduction="none")
    each = [max(0.0, 1.0 + sum(abs(x - y) for x, y in zip(u, v))
                - min(sum(abs(x - y) for x, y in zip(u, w)), sum(abs(x - y) for x, y in zip(v, w))))
            for u, v, w in zip(A, B, C)]
    assert out.tolist() == pytest.approx(each, rel=1e-12)


@pytest.mark.parametrize("call", [F.triplet_margin_loss, F.triplet_margin_with_distance_loss])
def test_triplet_refusals(call):
    x = torch.tensor(A)
    with raises(ValueError, "margin must be greater than 0, got 0"):
        call(x, x, x, margin=0)
    with raises(RuntimeError, "The anchor, positive, and negative tensors are expected to have "
                "the same number of dimensions, but got: anchor 2D, positive 1D, and negative "
                "2D inputs"):
        call(x, x[0], x)
    with raises(ValueError, "x is not a valid value for reduction"):
        call(x, x, x, reduction="x")


@pytest.mark.parametrize("call", [
    lambda **k: F.cosine_embedding_loss(torch.tensor(A), torch.tensor(B), torch.ones(2), **k),
    lambda **k: F.margin_ranking_loss(torch.ones(2), torch.zeros(2), torch.ones(2), **k),
    lambda **k: F.hinge_embedding_loss(torch.tensor(A), torch.ones(3), **k),
    lambda **k: F.triplet_margin_loss(torch.tensor(A), torch.tensor(B), torch.tensor(C), **k),
])
def test_the_legacy_arguments_warn_and_choose_the_reduction(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        legacy = call(size_average=False)
    assert [str(w.message) for w in caught] == [
        "size_average and reduce args will be deprecated, please use reduction='sum' instead."]
    assert legacy.item() == pytest.approx(call(reduction="sum").item())
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert call(reduce=False).shape == call(reduction="none").shape
