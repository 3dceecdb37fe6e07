"""torch.ctc_loss called without a reduction returns the unreduced losses, as torch's does
(its parser reads the written default as 0); F.ctc_loss still averages. The same assertions
run on torch."""

import pytest
import torch
import torch.nn.functional as F


def _log_probs(batch):
    base = torch.arange(4 * batch * 3, dtype=torch.float64).reshape(4, batch, 3)
    return ((base * 0.37) % 1.0 * 3).log_softmax(2)


@pytest.mark.parametrize("lengths", [
    ([4, 3], [2, 1]), (torch.tensor([4, 3]), torch.tensor([2, 1]))])
def test_an_omitted_reduction_means_none(lengths):
    lp = _log_probs(2).requires_grad_()
    targets = torch.tensor([[1, 2], [1, 1]])
    loss = torch.ctc_loss(lp, targets, *lengths)
    unreduced = torch.ctc_loss(lp, targets, *lengths, reduction=0)
    assert loss.shape == (2,)
    assert loss.tolist() == unreduced.tolist()
    assert type(loss.grad_fn).__name__ == "CtcLossBackward0"
    averaged = F.ctc_loss(lp, targets, *lengths)
    assert averaged.dim() == 0
    assert averaged.item() == pytest.approx((loss / torch.tensor([2.0, 1.0])).mean().item())


def test_the_explicit_reductions_still_reduce():
    lp = _log_probs(1)
    targets = torch.tensor([[1, 2]])
    none = torch.ctc_loss(lp, targets, [4], [2])
    assert torch.ctc_loss(lp, targets, [4], [2], 0, 2).item() == none.item()
    assert torch.ctc_loss(lp, targets, [4], [2], 0, 1).item() == pytest.approx(none.item() / 2)


def test_an_unbatched_input_gives_a_0d_loss_with_0d_lengths():
    lp = _log_probs(1)[:, 0]
    targets = torch.tensor([1, 2])
    listed = torch.ctc_loss(lp, targets, [4], [2])
    as_tensors = torch.ctc_loss(lp, targets, torch.tensor(4), torch.tensor(2))
    assert listed.shape == as_tensors.shape == ()
    batched = torch.ctc_loss(lp[:, None], targets[None], [4], [2])
    assert listed.item() == as_tensors.item() == batched.item()
