"""multi_margin_loss's gradient at a sample's own class is zero minus the violated margins'
shares, so a sample with no violated margin has +0.0 there, as torch's kernel leaves it. The same
assertions run on torch."""

import pytest
import torch
import torch.nn.functional as F


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("weighted", [False, True])
def test_a_sample_without_violations_has_a_positive_zero_gradient(p, weighted):
    x = torch.tensor([[5.0, 0.0, 0.0], [0.0, 0.5, 0.2]], requires_grad=True)
    weight = torch.tensor([1.0, 2.0, 0.5]) if weighted else None
    loss = F.multi_margin_loss(x, torch.tensor([0, 1]), p=p, weight=weight)
    g, = torch.autograd.grad(loss, x)
    assert g[0].tolist() == [0.0, 0.0, 0.0]
    assert all(str(v) == "0.0" for v in g[0].tolist())  # not -0.0
    assert g[1, 1].item() < 0 and g[1, 0].item() > 0
