"""Black-box tests: nll_loss and cross_entropy of torch.nn.functional: values, gradients,
the nodes they record, ignore_index, weights, label smoothing and refusals.
"""

import math

import pytest
import torch
import torch.nn.functional as F

from conformance._support import first_edges, raises

ROWS = [[0.5, -1.0, 2.0], [0.25, 0.0, -0.5], [1.5, 1.0, -2.0]]
W = [2.0, 0.5, 1.0]


def _log_softmax(row):
    top = max(row)
    total = math.log(sum(math.exp(v - top) for v in row)) + top
    return [v - total for v in row]


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_nll_loss_with_weights_and_an_ignored_sample(reduction):
    x = torch.tensor(ROWS, dtype=torch.float64, requires_grad=True)
    target = torch.tensor([2, 1, 0])
    out = F.nll_loss(x, target, weight=torch.tensor(W, dtype=torch.float64), ignore_index=1,
                     reduction=reduction)
    each = [-ROWS[0][2] * W[2], 0.0, -ROWS[2][0] * W[0]]
    expected = {"none": each, "sum": sum(each), "mean": sum(each) / (W[2] + W[0])}[reduction]
    assert (out.tolist() if reduction == "none" else out.item()) == pytest.approx(expected)
    node = out.grad_fn
    assert type(node).__name__ == "NllLossBackward0"
    assert node._saved_target is target and node._saved_ignore_index == 1
    assert node._saved_reduction == {"none": 0, "mean": 1, "sum": 2}[reduction]
    assert node._saved_weight.tolist() == W and node._saved_self is x
    out.sum().backward()
    scale = 1 / (W[2] + W[0]) if reduction == "mean" else 1.0
    assert x.grad.flatten().tolist() == pytest.approx(
        [0, 0, -W[2] * scale, 0, 0, 0, -W[0] * scale, 0, 0])
    assert all(math.copysign(1.0, v) == 1.0 for v in x.grad.flatten().tolist() if v == 0)


def test_nll_loss_defaults_and_a_single_sample():
    x = torch.tensor(ROWS, requires_grad=True)
    out = F.nll_loss(x, torch.tensor([0, 2, 1]))
    assert out.item() == pytest.approx(-(0.5 - 0.5 + 1.0) / 3)
    assert out.grad_fn._saved_ignore_index == 2**64 - 100  # -100, shown unsigned
    assert out.grad_fn._saved_weight is None
    one = F.nll_loss(x[0], torch.tensor(2))
    assert one.shape == () and one.item() == -2.0
    assert F.nll_loss(x[0], torch.tensor([1]), reduction="none").tolist() == 1.0
    assert F.nll_loss(x, torch.tensor([0, 2, 1], dtype=torch.uint8)).item() == out.item()


def test_every_sample_ignored():
    x = torch.tensor(ROWS, requires_grad=True)
    target = torch.tensor([1, 1, 1])
    mean = F.nll_loss(x, target, ignore_index=1)
    assert math.isnan(mean.item())
    assert F.nll_loss(x, target, ignore_index=1, reduction="sum").item() == 0.0
    mean.backward()
    assert x.grad.tolist() == [[0.0] * 3] * 3


def test_images_record_nll_loss2d():
    x = torch.arange(24.0).view(2, 3, 2, 2).requires_grad_()
    target = torch.tensor([[[0, 1], [2, 0]], [[1, 1], [2, -100]]])
    out = F.nll_loss(x, target, reduction="none")
    assert type(out.grad_fn).__name__ == "NllLoss2DBackward0" and out.shape == (2, 2, 2)
    assert out.tolist() == [[[-0.0, -5.0], [-10.0, -3.0]], [[-16.0, -17.0], [-22.0, 0.0]]]
    flat = F.nll_loss(x[:, :, 0], target[:, 0], reduction="none")
    assert first_edges(flat) == ["ViewBackward0", "NllLoss2DBackward0", "ViewBackward0",
                                 "CloneBackward0", "SelectBackward0"]
    assert flat.tolist() == [[-0.0, -5.0], [-16.0, -17.0]]
    total = F.nll_loss(x, target)
    assert total.item() == pytest.approx(-(0 + 5 + 10 + 3 + 16 + 17 + 22) / 7)
    total.backward()
    assert x.grad[0, :, 0, 1].tolist() == pytest.approx([0.0, -1 / 7, 0.0])
    assert x.grad[1, :, 1, 1].tolist() == [0.0, 0.0, 0.0]


def test_nll_loss_refusals():
    x = torch.tensor(ROWS)
    with raises(IndexError, "Target 3 is out of bounds."):
        F.nll_loss(x, torch.tensor([0, 3, 1]))
    with raises(IndexError, "Target -1 is out of bounds."):
        F.nll_loss(x, torch.tensor([0, -1, 1]))
    with raises(RuntimeError, "expected target dtype to be Long or Byte, but got Float"):
        F.nll_loss(x, torch.tensor([0.0, 1.0, 1.0]))
    with raises(RuntimeError, "expected target dtype to be Long or Byte, but got Int"):
        F.nll_loss(x, torch.tensor([0, 1, 1], dtype=torch.int32))
    with raises(ValueError, "Expected input batch_size (3) to match target batch_size (2)."):
        F.nll_loss(x, torch.tensor([0, 1]))
    with raises(ValueError, "Expected 1 or more dimensions (got 0)"):
        F.nll_loss(torch.tensor(1.0), torch.tensor(0))
    with raises(ValueError, "For 1D input, 1D target must have size 1, but got target size: 2"):
        F.nll_loss(x[0], torch.tensor([0, 1]))
    with raises(RuntimeError, "0D or 1D target tensor expected, multi-target not supported"):
        F.nll_loss(x, torch.zeros(3, 2, dtype=torch.long))
    with raises(RuntimeError, "weight tensor should be defined either for all 3 classes or no "
                              "classes but got weight tensor of shape: [2]"):
        F.nll_loss(x, torch.tensor([0, 1, 1]), weight=torch.ones(2))
    with raises(RuntimeError, "The function 'nll_loss_forward' is not differentiable with "
                              "respect to argument 'weight'. This input cannot have "
                              "requires_grad True."):
        F.nll_loss(x, torch.tensor([0, 1, 1]), weight=torch.ones(3, requires_grad=True))
    with raises(NotImplementedError, "\"nll_loss_out_frame\" not implemented for 'Long'"):
        F.nll_loss(x.long(), torch.tensor([0, 1, 1]))
    with raises(RuntimeError, "Expected target size [2, 4], got [2, 5]"):
        F.nll_loss(torch.ones(2, 3, 4), torch.zeros(2, 5, dtype=torch.long))
    with raises(RuntimeError, "only batches of spatial targets supported (3D tensors) but got "
                              "targets of dimension: 2"):
        F.nll_loss(torch.ones(2, 3, 4, 5), torch.zeros(2, 4, dtype=torch.long))
    with raises(RuntimeError, "size mismatch (got input: [2, 3, 4, 5] , target: [2, 4, 6]"):
        F.nll_loss(torch.ones(2, 3, 4, 5), torch.zeros(2, 4, 6, dtype=torch.long))


def test_cross_entropy_with_class_indices():
    x = torch.tensor(ROWS, dtype=torch.float64, requires_grad=True)
    out = F.cross_entropy(x, torch.tensor([2, 0, 1]))
    assert first_edges(out) == ["NllLossBackward0", "LogSoftmaxBackward0"]
    logs = [_log_softmax(r) for r in ROWS]
    assert out.item() == pytest.approx(-(logs[0][2] + logs[1][0] + logs[2][1]) / 3)
    out.backward()
    soft = [[math.exp(v) for v in row] for row in logs]
    assert x.grad.flatten().tolist() == pytest.approx(
        [(s - (k == t)) / 3 for row, t in zip(soft, [2, 0, 1]) for k, s in enumerate(row)])


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cross_entropy_with_label_smoothing(weighted, reduction):
    x = torch.tensor(ROWS, dtype=torch.float64, requires_grad=True)
    weight = torch.tensor(W, dtype=torch.float64) if weighted else None
    w = W if weighted else [1.0] * 3
    out = F.cross_entropy(x, torch.tensor([2, -100, 1]), weight=weight, label_smoothing=0.3,
                          reduction=reduction)
    assert type(out.grad_fn).__name__ == "AddBackward0"
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == ["MulBackward1"] * 2
    logs = [_log_softmax(r) for r in ROWS]
    nll = [-logs[0][2] * w[2], 0.0, -logs[2][1] * w[1]]
    smooth = [-sum(v * c for v, c in zip(logs[i], w)) if i != 1 else 0.0 for i in range(3)]
    if reduction == "none":
        expected = [0.7 * a + 0.1 * b for a, b in zip(nll, smooth)]
    elif reduction == "sum":
        expected = 0.7 * sum(nll) + 0.1 * sum(smooth)
    else:
        counted = w[2] + w[1]
        expected = 0.7 * sum(nll) / counted + 0.1 * sum(smooth) / counted
    assert (out.tolist() if reduction == "none" else out.item()) == pytest.approx(expected)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cross_entropy_with_class_probabilities(reduction):
    x = torch.tensor(ROWS, dtype=torch.float64, requires_grad=True)
    probabilities = [[0.5, 0.25, 0.25], [0.0, 1.0, 0.0], [0.1, 0.2, 0.7]]
    out = F.cross_entropy(x, torch.tensor(probabilities, dtype=torch.float64),
                          weight=torch.tensor(W, dtype=torch.float64), label_smoothing=0.3,
                          reduction=reduction)
    logs = [_log_softmax(r) for r in ROWS]
    each = [-sum((0.7 * p + 0.1) * v * c for p, v, c in zip(ps, row, W))
            for ps, row in zip(probabilities, logs)]
    expected = {"none": each, "sum": sum(each), "mean": sum(each) / 3}[reduction]
    assert (out.tolist() if reduction == "none" else out.item()) == pytest.approx(expected)
    nodes = {"none": ["NegBackward0", "SumBackward1"], "sum": ["NegBackward0", "SumBackward0"],
             "mean": ["DivBackward1", "NegBackward0", "SumBackward0"]}[reduction]
    assert first_edges(out) == nodes + ["MulBackward0", "MulBackward0", "LogSoftmaxBackward0"]


def test_cross_entropy_refusals():
    x = torch.tensor(ROWS)
    with raises(RuntimeError, "label_smoothing must be between 0.0 and 1.0. Got: 1.5"):
        F.cross_entropy(x, torch.tensor([0, 1, 2]), label_smoothing=1.5)
    with raises(RuntimeError, "ignore_index is not supported for floating point target"):
        F.cross_entropy(x, torch.ones(3, 3), ignore_index=1)
    with raises(RuntimeError, "Expected floating point type for target with class "
                              "probabilities, got Long"):
        F.cross_entropy(x, torch.ones(3, 3, dtype=torch.long))
    with raises(RuntimeError, "0D or 1D target tensor expected, multi-target not supported"):
        F.cross_entropy(x, torch.ones(3, 4))
