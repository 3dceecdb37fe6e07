"""Black-box tests: soft_margin_loss, multilabel_soft_margin_loss, poisson_nll_loss,
gaussian_nll_loss, multi_margin_loss and multilabel_margin_loss: values worked out here, nodes
and what they keep, gradients against central differences, and torch's refusals.
"""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import first_edges, matrix_leaf, numeric_gradient, raises, saved_names

X = [[0.5, -1.0, 2.0, 0.25], [0.75, -0.5, -1.75, 1.0], [-0.25, 1.5, 0.625, -2.0]]
SIGNS = [[1.0, -1.0, -1.0, 1.0], [-1.0, 1.0, 1.0, 1.0], [1.0, 1.0, -1.0, -1.0]]
CLASSES = [0, 3, 1]
LISTED = [[0, 3, -1, 1], [1, -1, 0, 0], [2, 1, 0, 3]]


def _reduce(each, reduction):
    flat = [v for row in each for v in row] if isinstance(each[0], list) else each
    return {"none": flat, "mean": sum(flat) / len(flat), "sum": sum(flat)}[reduction]


def _got(out, reduction):
    return out.reshape(-1).tolist() if reduction == "none" else out.item()


def _gradient_matches(call, values=X):
    x = matrix_leaf(values)
    call(x).sum().backward()
    expected = numeric_gradient(
        lambda a: call(torch.tensor(a.tolist(), dtype=torch.float64)).sum().item(),
        np.array(values))
    assert np.allclose(np.array(x.grad.tolist()), expected, atol=1e-6)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_soft_margin_loss(reduction):
    x, y = matrix_leaf(X), torch.tensor(SIGNS, dtype=torch.float64)
    out = F.soft_margin_loss(x, y, reduction=reduction)
    each = [[math.log1p(math.exp(-a * b)) for a, b in zip(r, s)] for r, s in zip(X, SIGNS)]
    assert _got(out, reduction) == pytest.approx(_reduce(each, reduction), rel=1e-12)
    node = out.grad_fn
    assert type(node).__name__ == "SoftMarginLossBackward0"
    assert saved_names(node) == ["_saved_reduction", "_saved_self", "_saved_target"]
    assert node._saved_reduction == {"none": 0, "mean": 1, "sum": 2}[reduction]
    _gradient_matches(lambda a: F.soft_margin_loss(a, y, reduction=reduction))


def test_soft_margin_loss_broadcasts_its_target_and_refuses_the_rest():
    x = torch.tensor(X, dtype=torch.float64)
    row = torch.tensor(SIGNS[0], dtype=torch.float64)
    assert F.soft_margin_loss(x, row).item() == pytest.approx(
        F.soft_margin_loss(x, row.expand(3, 4)).item(), rel=1e-12)
    with raises(RuntimeError, "output with shape [4] doesn't match the broadcast shape [3, 4]"):
        F.soft_margin_loss(x[0], torch.ones(3, 4, dtype=torch.float64))
    with raises(RuntimeError, "The size of tensor a (4) must match the size of tensor b (5) at "
                "non-singleton dimension 1"):
        F.soft_margin_loss(x, torch.ones(5, dtype=torch.float64))
    with raises(RuntimeError, "The function 'soft_margin_loss' is not differentiable with "
                "respect to argument 'target'. This input cannot have requires_grad True."):
        F.soft_margin_loss(x, matrix_leaf(SIGNS))
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        F.soft_margin_loss(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long))


def test_multilabel_soft_margin_loss():
    x = matrix_leaf(X)
    y = torch.tensor([[1.0 if s > 0 else 0.0 for s in r] for r in SIGNS], dtype=torch.float64)
    w = torch.tensor([1.0, 2.0, 0.5, 1.5], dtype=torch.float64)
    out = F.multilabel_soft_margin_loss(x, y, weight=w, reduction="none")

    def log_sigmoid(v):
        return -math.log1p(math.exp(-v))

    each = [sum(-wk * (t * log_sigmoid(a) + (1 - t) * log_sigmoid(-a))
                for a, t, wk in zip(r, tr, w.tolist())) / 4 for r, tr in zip(X, y.tolist())]
    assert out.tolist() == pytest.approx(each, rel=1e-12)
    assert first_edges(out) == ["DivBackward0", "SumBackward1", "MulBackward0", "NegBackward0",
                                "AddBackward0", "MulBackward0"]
    _gradient_matches(lambda a: F.multilabel_soft_margin_loss(a, y, reduction="sum"))
    with raises(ValueError, "bogus is not valid"):
        F.multilabel_soft_margin_loss(x, y, reduction="bogus")


@pytest.mark.parametrize("log_input, full", [(True, False), (False, False), (False, True)])
def test_poisson_nll_loss(log_input, full):
    counts = [[0.0, 1.0, 3.0, 2.0], [5.0, 0.5, 1.0, 4.0], [2.0, 0.0, 7.0, 1.5]]
    values = [[abs(v) + 0.1 for v in r] for r in X] if not log_input else X
    x, y = matrix_leaf(values), torch.tensor(counts, dtype=torch.float64)
    out = F.poisson_nll_loss(x, y, log_input=log_input, full=full, reduction="none")

    def one(a, t):
        loss = math.exp(a) - t * a if log_input else a - t * math.log(a + 1e-8)
        if full and t > 1:
            loss += t * math.log(t) - t + 0.5 * math.log(2 * math.pi * t)
        return loss

    each = [one(a, t) for r, tr in zip(values, counts) for a, t in zip(r, tr)]
    assert out.reshape(-1).tolist() == pytest.approx(each, rel=1e-12)
    chain = ["ExpBackward0"] if log_input else []
    assert first_edges(out) == (["AddBackward0"] if full else []) + ["SubBackward0"] + chain
    _gradient_matches(lambda a: F.poisson_nll_loss(a, y, log_input, full), values)


def test_gaussian_nll_loss():
    x, target = matrix_leaf(X), matrix_leaf(SIGNS)
    var = matrix_leaf([[0.5, 1.0, 2.0, 1e-8]] * 3)
    out = F.gaussian_nll_loss(x, target, var, full=True, reduction="none")
    each = [0.5 * (math.log(max(v, 1e-6)) + (a - t) ** 2 / max(v, 1e-6)) + 0.5 * math.log(
        2 * math.pi) for r, tr in zip(X, SIGNS) for a, t, v in zip(r, tr, [0.5, 1.0, 2.0, 1e-8])]
    assert out.reshape(-1).tolist() == pytest.approx(each, rel=1e-12)
    assert first_edges(out) == ["AddBackward0", "MulBackward0", "AddBackward0", "LogBackward0",
                                "CloneBackward0"]
    out.sum().backward()
    assert var.grad[0].tolist()[:3] == pytest.approx(
        [0.5 * (1 / v - (a - t) ** 2 / v ** 2) for a, t, v in zip(X[0], SIGNS[0], [0.5, 1, 2])])
    shared = F.gaussian_nll_loss(x, target, torch.ones(3, dtype=torch.float64))
    assert shared.item() == pytest.approx(F.gaussian_nll_loss(x, target, 1.0).item())


def test_gaussian_nll_loss_refusals():
    x = torch.tensor(X)
    with raises(ValueError, "var has negative entry/entries"):
        F.gaussian_nll_loss(x, x, -1.0)
    with raises(ValueError, "var has negative entry/entries"):
        F.gaussian_nll_loss(x, x, -torch.ones(3, 4))
    with raises(ValueError, "var is of incorrect size"):
        F.gaussian_nll_loss(x, x, torch.ones(2, 4))
    with raises(ValueError, "x is not valid"):
        F.gaussian_nll_loss(x, x, torch.ones(3, 4), reduction="x")


def _multi_margin(p, margin, weight):
    each = []
    for row, y in zip(X, CLASSES):
        terms = [max(0.0, margin - row[y] + v) ** p for j, v in enumerate(row) if j != y]
        each.append(sum(terms) * (weight[y] if weight else 1.0) / len(row))
    return each


@pytest.mark.parametrize("p, margin, weight", [(1, 1.0, None), (2, 0.5, [1.0, 2.0, 3.0, 4.0])])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_multi_margin_loss(p, margin, weight, reduction):
    x, target = matrix_leaf(X), torch.tensor(CLASSES)
    w = None if weight is None else torch.tensor(weight, dtype=torch.float64)
    out = F.multi_margin_loss(x, target, p, margin, w, reduction=reduction)
    assert _got(out, reduction) == pytest.approx(
        _reduce(_multi_margin(p, margin, weight), reduction), rel=1e-12)
    node = out.grad_fn
    assert type(node).__name__ == "MultiMarginLossBackward0"
    assert saved_names(node) == ["_saved_margin", "_saved_p", "_saved_reduction", "_saved_self",
                                 "_saved_target", "_saved_weight"]
    assert (node._saved_p, node._saved_margin) == (p, margin)
    _gradient_matches(lambda a: F.multi_margin_loss(a, target, p, margin, w, reduction=reduction))


def test_multi_margin_loss_of_one_sample():
    out = F.multi_margin_loss(torch.tensor(X[0]), torch.tensor(2), reduction="none")
    expected = sum(max(0.0, 1 - X[0][2] + v) for j, v in enumerate(X[0]) if j != 2) / 4
    assert out.shape == () and out.item() == pytest.approx(expected, rel=1e-6)
    one = F.multi_margin_loss(torch.tensor(X[0]), torch.tensor([2]), reduction="none")
    assert one.shape == (1,)


def test_multi_margin_loss_refusals():
    x, t = torch.tensor(X, dtype=torch.float64), torch.tensor(CLASSES)
    with raises(ValueError, "only p == 1 and p == 2 supported"):
        F.multi_margin_loss(x, t, p=3)
    with raises(ValueError, "weight must be one-dimensional"):
        F.multi_margin_loss(x, t, weight=torch.ones(2, 2))
    with raises(RuntimeError, "Expected non-empty vector or matrix with optional 0-dim batch "
                "size, but got: [1, 3, 4]"):
        F.multi_margin_loss(x[None], t)
    with raises(RuntimeError, "multi_margin_loss: target tensor should be 1-D with size equal to "
                "the number of input samples (batch size). Expected target size [3], but got "
                "[2]. Input has shape [3, 4]."):
        F.multi_margin_loss(x, t[:2])
    with raises(RuntimeError, "inconsistent weight size, expected 4 but got [3]"):
        F.multi_margin_loss(x, t, weight=torch.ones(3, dtype=torch.float64))
    with raises(RuntimeError, "expected scalar type Long but found Double"):
        F.multi_margin_loss(x, t.double())
    with raises(RuntimeError, "expected scalar type Double but found Float"):
        F.multi_margin_loss(x, t, weight=torch.ones(4))
    with raises(RuntimeError, "target out of range"):
        F.multi_margin_loss(x, torch.tensor([0, 4, 1]))
    with raises(NotImplementedError, "\"multi_margin_loss_cpu_kernel\" not implemented for "
                "'Long'"):
        F.multi_margin_loss(torch.ones(3, 4, dtype=torch.long), t)
    with raises(RuntimeError, "The function 'multi_margin_loss' is not differentiable with "
                "respect to argument 'weight'. This input cannot have requires_grad True."):
        F.multi_margin_loss(x, t, weight=matrix_leaf([1.0, 1.0, 1.0, 1.0]))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_multilabel_margin_loss(reduction):
    x, target = matrix_leaf(X), torch.tensor(LISTED)
    out = F.multilabel_margin_loss(x, target, reduction=reduction)
    each = []
    for row, listed in zip(X, LISTED):
        listed = listed[:listed.index(-1)] if -1 in listed else listed
        others = [k for k in range(4) if k not in listed]
        each.append(sum(max(0.0, 1 - row[j] + row[k]) for j in listed for k in others) / 4)
    assert _got(out, reduction) == pytest.approx(_reduce(each, reduction), rel=1e-12)
    node = out.grad_fn
    assert type(node).__name__ == "MultilabelMarginLossBackward0"
    assert saved_names(node) == ["_saved_is_target", "_saved_reduction", "_saved_self",
                                 "_saved_target"]
    assert node._saved_is_target.tolist() == [[1, 0, 0, 1], [0, 1, 0, 0], [1, 1, 1, 1]]
    assert node._saved_is_target.dtype is torch.float64
    _gradient_matches(lambda a: F.multilabel_margin_loss(a, target, reduction=reduction))


def test_multilabel_margin_loss_refusals():
    x = torch.tensor(X, dtype=torch.float64)
    with raises(RuntimeError, "inconsistent target size: [4] for input of size: [3, 4]"):
        F.multilabel_margin_loss(x, torch.tensor(LISTED[0]))
    with raises(RuntimeError, "argument #2 'target' is out of range"):
        F.multilabel_margin_loss(x, torch.tensor([[0, -1, 5, 1]] * 3))
    with raises(RuntimeError, "argument #2 'target' is out of range"):
        F.multilabel_margin_loss(x, torch.tensor([[0, -2, -1, 1]] * 3))
    with raises(RuntimeError, "expected scalar type Long but found Float"):
        F.multilabel_margin_loss(x, torch.zeros(3, 4))
    with raises(NotImplementedError, "\"multilabel_margin_loss_forward_out_frame\" not "
                "implemented for 'Long'"):
        F.multilabel_margin_loss(torch.ones(3, 4, dtype=torch.long), torch.zeros(3, 4).long())


@pytest.mark.parametrize("call", [
    lambda x: F.multi_margin_loss(x, torch.tensor(CLASSES)),
    lambda x: F.multilabel_margin_loss(x, torch.tensor(LISTED)),
])
def test_the_class_margins_have_no_forward_formula(call):
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor(X, dtype=torch.float64),
                              torch.ones(3, 4, dtype=torch.float64))
        with pytest.raises(NotImplementedError, match="^Trying to use forward AD with multi"):
            call(dual)
