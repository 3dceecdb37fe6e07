"""The log-softmax gradient's kernel rounds once: where its two terms cancel, the sign
of what is left is the fused product's.

Differentiated twice, a ``cross_entropy`` with probabilities as its target hands the
log-softmax a gradient whose rows sum to one, so ``g - exp(y) * sum(g)`` is rounding
noise; torch computes it with one fused multiply-add.
"""

import math
from fractions import Fraction

import torch
import torch.nn.functional as F


def _transposed_leaf():
    values = torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4
    return values.requires_grad_()


def test_soft_target_cross_entropy_second_gradient_signs():
    x = _transposed_leaf()
    target = (torch.arange(6, dtype=torch.float64).reshape(2, 3) * 0.3 + 0.2).softmax(1)
    loss = F.cross_entropy(x, target)
    (g,) = torch.autograd.grad(loss * loss, x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    values = gg.flatten().tolist()
    assert [math.copysign(1.0, v) for v in values] == [-1.0, -1.0, -1.0, 1.0, -1.0, 1.0]
    assert all(0 < abs(v) < 1e-15 for v in values)


def _exactly(g, e, s):
    """``g - e * s`` rounded once."""
    return float(Fraction(g) - Fraction(e) * Fraction(s))


def test_log_softmax_backward_data_rounds_once():
    # a row of a log-softmax's result, and a gradient that sums to about one: the two
    # terms nearly cancel, and a rounded product would lose what is left
    y = torch.tensor([[float.fromhex(h) for h in (
        "-0x1.7a0e49632b874p+0", "-0x1.23040bf287b03p+0", "-0x1.97f39d03c7b25p-1")]],
        dtype=torch.float64)
    g = torch.tensor([[float.fromhex(h) for h in (
        "0x1.f457a05eb9c50p-3", "0x1.5f7a3379d49dep-2", "0x1.edcea82487d3dp-2")]],
        dtype=torch.float64)
    out = torch._log_softmax_backward_data(g, y, 1, torch.float64)
    total = g.sum(1, keepdim=True).item()
    weights = y.exp()[0].tolist()
    fused = [_exactly(a, e, total) for a, e in zip(g[0].tolist(), weights)]
    assert out[0].tolist() == fused
    assert out[0].tolist() != (g - y.exp() * total)[0].tolist()
