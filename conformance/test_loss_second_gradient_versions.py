"""The second derivative of mse, huber and smooth L1 losses divides by the element count in
place for a mean, so the gradient it gives comes out with its version counter at 1."""

import pytest
import torch
import torch.nn.functional as F

LOSSES = {
    "mse": lambda a, b, reduction: F.mse_loss(a, b, reduction=reduction),
    "huber": lambda a, b, reduction: F.huber_loss(a, b, reduction=reduction, delta=0.7),
    "smooth_l1": lambda a, b, reduction: F.smooth_l1_loss(a, b, reduction=reduction, beta=0.5),
}


def _second_gradients(loss, reduction):
    x = torch.tensor([[0.1, 0.9, -0.4], [1.5, 0.2, 0.3]], requires_grad=True)
    y = torch.tensor([[0.3, 0.2, -0.1], [0.1, 0.25, 0.0]], requires_grad=True)
    first = torch.autograd.grad(LOSSES[loss](x, y, reduction).sum(), (x, y), create_graph=True)
    return torch.autograd.grad(first[0].sum(), (x, y))


@pytest.mark.parametrize("loss", sorted(LOSSES))
@pytest.mark.parametrize(("reduction", "versions"), [
    ("mean", (1, 0)),  # the input's share divided in place; the target's is its negation
    ("sum", (0, 0)),
    ("none", (0, 0)),
])
def test_versions_of_the_second_gradients(loss, reduction, versions):
    gx, gy = _second_gradients(loss, reduction)
    assert (gx._version, gy._version) == versions
    assert torch.equal(gx, -gy)


def test_the_values_are_the_constant_slope_over_the_count():
    gx, _ = _second_gradients("mse", "mean")
    assert torch.equal(gx, torch.full((2, 3), 2 / 6))


def test_a_broadcast_integer_target_keeps_the_count_of_the_result():
    target = torch.rand(2, 3).requires_grad_(True)
    with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[2, 3\]\)\)"):
        loss = F.smooth_l1_loss(torch.tensor(2), target)
    first = torch.autograd.grad(loss, target, create_graph=True)[0]
    second = torch.autograd.grad(first.sum(), target)[0]
    assert (first._version, second._version) == (0, 1)
