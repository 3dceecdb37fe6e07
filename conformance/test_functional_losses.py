"""Black-box tests: the losses of torch.nn.functional: values, gradients, nodes, reductions,
warnings and refusals. Expected values are worked out here in Python floats.
"""

import math
import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import first_edges, raises

X = [0.5, -1.0, 2.0, 0.25]
EPSILON = 9.999999960041972e-13  # 1e-12 as a float32: the guard of binary_cross_entropy's gradient
Y = [1.0, -1.5, -0.5, 0.25]


def _pair(dtype=torch.float64):
    return (torch.tensor(X, dtype=dtype, requires_grad=True),
            torch.tensor(Y, dtype=dtype, requires_grad=True))


def _huber(d, delta):
    return 0.5 * d * d if abs(d) < delta else delta * (abs(d) - 0.5 * delta)


def _huber_slope(d, delta):
    return max(-delta, min(delta, d))


ELEMENTWISE = {  # name: (call, loss of d = x - y, its derivative, node)
    "mse_loss": (F.mse_loss, lambda d: d * d, lambda d: 2 * d, "MseLossBackward0"),
    "l1_loss": (F.l1_loss, abs, lambda d: math.copysign(1.0, d) if d else 0.0, None),
    "huber_loss": (lambda x, y, reduction: F.huber_loss(x, y, reduction, delta=0.75),
                   lambda d: _huber(d, 0.75), lambda d: _huber_slope(d, 0.75),
                   "HuberLossBackward0"),
    "smooth_l1_loss": (lambda x, y, reduction: F.smooth_l1_loss(x, y, reduction=reduction,
                                                                 beta=0.75),
                       lambda d: _huber(d, 0.75) / 0.75, lambda d: _huber_slope(d, 0.75) / 0.75,
                       "SmoothL1LossBackward0"),
}
NODES_OF_L1 = {"none": ["AbsBackward0", "SubBackward0"],
               "mean": ["MeanBackward0", "AbsBackward0", "SubBackward0"],
               "sum": ["SumBackward0", "AbsBackward0", "SubBackward0"]}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_elementwise_losses(name, reduction, dtype):
    call, loss, slope, node = ELEMENTWISE[name]
    x, y = _pair(getattr(torch, dtype))
    out = call(x, y, reduction=reduction)
    each = [loss(a - b) for a, b in zip(X, Y)]
    expected = {"none": each, "mean": sum(each) / 4, "sum": sum(each)}[reduction]
    tol = 1e-12 if dtype == "float64" else 1e-6
    assert out.dtype is x.dtype
    assert (out.tolist() if reduction == "none" else out.item()) == pytest.approx(
        expected, rel=tol)
    assert first_edges(out) == ([node] if node else NODES_OF_L1[reduction])
    out.sum().backward()
    scale = 0.25 if reduction == "mean" else 1.0
    grads = [scale * slope(a - b) for a, b in zip(X, Y)]
    assert x.grad.tolist() == pytest.approx(grads, rel=tol)
    assert y.grad.tolist() == pytest.approx([-g for g in grads], rel=tol)


def test_what_the_loss_nodes_keep():
    x, y = _pair()
    node = F.mse_loss(x, y, reduction="sum").grad_fn
    assert node._saved_reduction == 2 and node._saved_self is x and node._saved_target is y
    node = F.huber_loss(x, y, reduction="none", delta=0.5).grad_fn
    assert (node._saved_reduction, node._saved_delta) == (0, 0.5)
    assert F.smooth_l1_loss(x, y, beta=2.0).grad_fn._saved_beta == 2.0
    p = torch.tensor([0.25, 0.5], requires_grad=True)
    node = F.binary_cross_entropy(p, torch.tensor([1.0, 0.0])).grad_fn
    assert type(node).__name__ == "BinaryCrossEntropyBackward0" and node._saved_weight is None
    assert node._saved_reduction == 1


def test_the_deprecated_arguments_still_choose_the_reduction():
    x, y = _pair()
    for size_average, reduce, reduction in [(False, None, "sum"), (None, False, "none"),
                                            (True, True, "mean")]:
        with pytest.warns(UserWarning, match=f"^size_average and reduce args will be "
                                             f"deprecated, please use reduction='{reduction}' "
                                             "instead.$"):
            out = F.mse_loss(x, y, size_average=size_average, reduce=reduce)
        assert torch.equal(out, F.mse_loss(x, y, reduction=reduction))


def test_a_target_of_another_size_is_broadcast_with_a_warning():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = torch.tensor([1.0, 0.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = F.mse_loss(x, y, reduction="sum")
    assert [str(w.message) for w in caught] == [
        "Using a target size (torch.Size([2])) that is different to the input size "
        "(torch.Size([2, 2])). This will likely lead to incorrect results due to broadcasting. "
        "Please ensure they have the same size."]
    assert out.item() == 0 + 4 + 4 + 16
    out.backward()
    assert y.grad.tolist() == [-4.0, -12.0]
    with pytest.warns(UserWarning, match="^Using a target size"):
        with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) "
                                  "at non-singleton dimension 1"):
            F.mse_loss(x, torch.ones(3))


def test_weighted_losses_are_compositions():
    x, y = _pair()
    w = torch.tensor([1.0, 2.0, 0.0, 0.5], dtype=torch.float64)
    out = F.mse_loss(x, y, weight=w)
    assert type(out.grad_fn).__name__ == "DivBackward0"
    each = [(a - b) ** 2 * c for a, b, c in zip(X, Y, [1.0, 2.0, 0.0, 0.5])]
    assert out.item() == pytest.approx(sum(each) / 3.5)
    assert F.huber_loss(x, y, weight=w).item() == pytest.approx(
        sum(_huber(a - b, 1.0) * c for a, b, c in zip(X, Y, [1.0, 2.0, 0.0, 0.5])) / 4)
    with raises(ValueError, "Weights and input must have the same size."):
        F.l1_loss(x, y, weight=w[:2])


def test_refusals_of_the_elementwise_losses():
    x, y = _pair()
    with raises(ValueError, "avg is not a valid value for reduction"):
        F.mse_loss(x, y, reduction="avg")
    with raises(RuntimeError, "smooth_l1_loss does not support negative values for beta."):
        F.smooth_l1_loss(x, y, beta=-1.0)
    with raises(RuntimeError, "huber_loss does not support non-positive values for delta."):
        F.huber_loss(x, y, delta=0.0)
    with raises(NotImplementedError, "\"mse_cpu\" not implemented for 'Long'"):
        F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3]))
    assert F.mse_loss(x.float(), y.double()).dtype is torch.float64
    assert first_edges(F.smooth_l1_loss(x, y, beta=0.0)) == NODES_OF_L1["mean"]


def test_binary_cross_entropy():
    p = torch.tensor([0.0, 0.3, 1.0, 0.8], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([0.2, 0.5, 0.9, 1.0], dtype=torch.float64, requires_grad=True)
    out = F.binary_cross_entropy(p, t, reduction="none")

    def term(v):
        return max(math.log(v), -100) if v > 0 else -100.0

    expected = [-(b * term(a) + (1 - b) * term(1 - a)) for a, b in zip(p.tolist(), t.tolist())]
    assert out.tolist() == pytest.approx(expected, rel=1e-12)
    out.sum().backward()
    assert p.grad.tolist() == pytest.approx(
        [(a - b) / max(a * (1 - a), EPSILON) for a, b in zip(p.tolist(), t.tolist())], rel=1e-12)
    assert t.grad[0].item() == math.inf and t.grad[2].item() == -math.inf
    assert t.grad[1].item() == pytest.approx(math.log(0.7) - math.log(0.3))
    w = torch.tensor([2.0, 0.5], dtype=torch.float64)
    weighted = F.binary_cross_entropy(p.view(2, 2), t.view(2, 2).detach(), weight=w,
                                      reduction="sum")
    assert weighted.item() == pytest.approx(
        sum(e * c for e, c in zip(expected, [2.0, 0.5, 2.0, 0.5])))
    with raises(RuntimeError, "all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))
    with raises(ValueError, "Using a target size (torch.Size([1])) that is different to the "
                            "input size (torch.Size([2])) is deprecated. Please ensure they "
                            "have the same size."):
        F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1.0]))
    with raises(RuntimeError, "The function 'binary_cross_entropy' is not differentiable with "
                              "respect to argument 'weight'. This input cannot have "
                              "requires_grad True."):
        F.binary_cross_entropy(p, t, weight=torch.ones(4, dtype=torch.float64,
                                                       requires_grad=True))


def _log_sigmoid(v):
    return min(v, 0.0) - math.log1p(math.exp(-abs(v)))


def test_binary_cross_entropy_with_logits():
    x = torch.tensor([[-30.0, 0.5], [2.0, 40.0]], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([[1.0, 0.25], [0.0, 0.75]], dtype=torch.float64, requires_grad=True)
    pw = torch.tensor([2.0, 0.5], dtype=torch.float64)
    out = F.binary_cross_entropy_with_logits(x, t, pos_weight=pw, reduction="none")
    assert type(out.grad_fn).__name__ == "BinaryCrossEntropyWithLogitsBackward0"
    assert out.grad_fn._saved_pos_weight is pw and out.grad_fn._saved_weight is None
    xs, ts = sum(x.tolist(), []), sum(t.tolist(), [])
    ws = [2.0, 0.5, 2.0, 0.5]
    expected = [-(w * b * _log_sigmoid(a) + (1 - b) * _log_sigmoid(-a))
                for a, b, w in zip(xs, ts, ws)]
    assert sum(out.tolist(), []) == pytest.approx(expected, rel=1e-12)
    out.sum().backward()
    sig = [1 / (1 + math.exp(-a)) for a in xs]
    assert sum(x.grad.tolist(), []) == pytest.approx(
        [(w * b + 1 - b) * s - w * b for s, b, w in zip(sig, ts, ws)], rel=1e-12)
    assert sum(t.grad.tolist(), []) == pytest.approx(
        [_log_sigmoid(-a) - w * _log_sigmoid(a) for a, w in zip(xs, ws)], rel=1e-12)
    plain = F.binary_cross_entropy_with_logits(x, t)
    assert plain.item() == pytest.approx(
        sum(-(b * _log_sigmoid(a) + (1 - b) * _log_sigmoid(-a)) for a, b in zip(xs, ts)) / 4)
    with raises(ValueError, "Target size (torch.Size([1])) must be the same as input size "
                            "(torch.Size([2]))"):
        F.binary_cross_entropy_with_logits(torch.ones(2), torch.ones(1))
    with raises(RuntimeError, "The function 'binary_cross_entropy_with_logits' is not "
                              "differentiable with respect to argument 'pos_weight'. This "
                              "input cannot have requires_grad True."):
        F.binary_cross_entropy_with_logits(x, t, pos_weight=pw.clone().requires_grad_())


def test_kl_div():
    x = torch.tensor([[-1.0, -0.5], [-2.0, -0.1]], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([[0.25, 0.0], [0.5, 0.5]], dtype=torch.float64)
    each = [b * math.log(b) - b * a if b else 0.0
            for a, b in zip(sum(x.tolist(), []), sum(t.tolist(), []))]
    with pytest.warns(UserWarning, match="^reduction: 'mean' divides the total loss by both "
                                         "the batch size and the support size.'batchmean'"):
        mean = F.kl_div(x, t)
    assert mean.item() == pytest.approx(sum(each) / 4)
    assert first_edges(mean) == ["MeanBackward0", "SubBackward0"]  # xlogy(t, t) needs none
    assert type(mean.grad_fn.next_functions[0][0].next_functions[1][0]).__name__ == \
        "MulBackward0"
    batch = F.kl_div(x, t, reduction="batchmean")
    assert batch.item() == pytest.approx(sum(each) / 2)
    assert first_edges(batch)[:2] == ["DivBackward0", "SumBackward0"]
    batch.backward()
    assert x.grad.tolist() == [[-0.125, -0.0], [-0.25, -0.25]]
    logged = F.kl_div(x, t.clamp_min(0.1).log(), reduction="sum", log_target=True)
    assert logged.item() == pytest.approx(sum(
        b * (math.log(b) - a) for a, b in zip(sum(x.tolist(), []), [0.25, 0.1, 0.5, 0.5])))
    assert first_edges(logged) == ["SumBackward0", "MulBackward0"]  # exp(target) needs none
    with raises(ValueError, "avg is not a valid value for reduction"):
        F.kl_div(x, t, reduction="avg")


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_soft_margin_loss_of_nothing_warns_of_nothing(reduction):
    x = torch.ones(0, dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss = F.soft_margin_loss(x, torch.ones(0, dtype=torch.float64), reduction=reduction)
        loss.sum().backward()
    assert loss.shape == ((0,) if reduction == "none" else ())
    if reduction == "mean":
        assert math.isnan(loss.item())
    assert x.grad.shape == (0,)
