"""F.ctc_loss, torch.ctc_loss and nn.CTCLoss against torch.

Each case computes the losses and the gradient of their sum on fixed log
probabilities, and summarizes the graph, the values and the layouts; the
summaries and the refusals were taken from torch 2.13
(conformance/_ctc_loss_expected.py). Floats are compared to a relative 1e-12 in
float64 (NumPy's exp and log may differ from the C library's in the last place)
and 1e-5 in float32.
"""

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from conformance._ctc_loss_expected import ERRORS, SUMMARIES
from conformance._support import node_names


def _log_probs(steps=6, batch=4, classes=5, dtype=torch.float64):
    base = torch.arange(steps * batch * classes, dtype=dtype).reshape(steps, batch, classes)
    return ((base * 0.37) % 1.0 * 3).log_softmax(2).detach().requires_grad_()


PADDED = torch.tensor([[1, 2, 2], [3, 1, 0], [1, 1, 1], [4, 4, 2]])


def _summary(run, dtype=torch.float64):
    lp = _log_probs(dtype=dtype)
    loss = run(lp)
    (g,) = torch.autograd.grad(loss.sum(), lp, create_graph=True)
    return {"graph": node_names(loss.grad_fn), "shape": list(loss.shape),
            "loss": loss.flatten().tolist(), "g_graph": node_names(g.grad_fn)[:4],
            "g": g.flatten().tolist(), "g_stride": list(g.stride()), "dtype": str(g.dtype)}


CASES = {
    "none": lambda lp: F.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, 2, 3, 0], reduction="none"),
    "mean": lambda lp: F.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, 2, 3, 0]),
    "sum": lambda lp: F.ctc_loss(lp, PADDED, [6, 6, 6, 6], [3, 2, 3, 3], reduction="sum"),
    "empty_lengths": lambda lp: F.ctc_loss(lp, PADDED, [6, 0, 2, 6], [3, 0, 2, 3],
                                           reduction="none"),
    "impossible": lambda lp: F.ctc_loss(lp, PADDED, [6, 4, 1, 5], [3, 2, 2, 2],
                                        reduction="none"),
    "zero_infinity": lambda lp: F.ctc_loss(lp, PADDED, [6, 4, 1, 5], [3, 2, 2, 2],
                                           zero_infinity=True),
    "blank_last": lambda lp: F.ctc_loss(lp, PADDED, [6, 5, 4, 3], [2, 2, 1, 1], blank=4,
                                        reduction="none"),
    "concatenated": lambda lp: F.ctc_loss(lp, PADDED.flatten()[:8], [6, 4, 3, 5],
                                          [3, 2, 3, 0], reduction="none"),
    "int32_tensor_lengths": lambda lp: F.ctc_loss(lp, PADDED.int(), torch.tensor([6, 4, 3, 5]),
                                                  torch.tensor([3, 2, 3, 0])),
    "unbatched": lambda lp: F.ctc_loss(lp[:, 1], PADDED[1, :2], [6], [2], reduction="none"),
    "unbatched_mean": lambda lp: F.ctc_loss(lp[:, 0], PADDED[0], [5], [3]),
    "torch_namespace": lambda lp: torch.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, 2, 3, 0], 0, 2,
                                                 False),
    "module": lambda lp: nn.CTCLoss(blank=0, reduction="sum")(lp, PADDED, [6, 4, 3, 5],
                                                              [3, 2, 3, 0]),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_losses_and_gradients_match_torch(name, dtype):
    got = _summary(CASES[name], dtype)
    expected = SUMMARIES[f"{name}-{dtype}"]
    floats = ("loss", "g")
    assert {k: v for k, v in got.items() if k not in floats} == {
        k: v for k, v in expected.items() if k not in floats}
    rel = 1e-12 if dtype == torch.float64 else 1e-5
    for k in floats:
        assert got[k] == pytest.approx(expected[k], rel=rel, abs=rel, nan_ok=True), k


def test_what_the_node_keeps():
    lp = _log_probs()
    loss = F.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, 2, 3, 0], reduction="none", blank=0)
    node = loss.grad_fn
    assert sorted(a for a in dir(node) if "saved" in a) == [
        "_raw_saved_log_probs", "_raw_saved_result0", "_raw_saved_result1",
        "_raw_saved_targets", "_saved_blank", "_saved_input_lengths", "_saved_log_probs",
        "_saved_result0", "_saved_result1", "_saved_target_lengths", "_saved_targets",
        "_saved_zero_infinity"]
    assert (node._saved_input_lengths, node._saved_target_lengths, node._saved_blank,
            node._saved_zero_infinity) == ((6, 4, 3, 5), (3, 2, 3, 0), 0, False)
    assert node._saved_log_probs is lp and node._saved_targets.tolist() == PADDED.tolist()
    assert node._saved_result0.tolist() == loss.tolist()
    alpha = node._saved_result1
    assert alpha.shape == (4, 6, 7) and not alpha.requires_grad
    # within each element's steps and places, torch's forward variables
    assert alpha[0, :, :7].flatten().tolist()[:14] == pytest.approx(
        SUMMARIES["alpha"], rel=1e-12)
    (g,) = torch.autograd.grad(loss.sum(), lp, create_graph=True)
    assert node_names(g.grad_fn) == ["torch::autograd::NotImplemented",
                                     "torch::autograd::AccumulateGrad",
                                     "CtcLossBackward0", "torch::autograd::AccumulateGrad"]
    assert [a for a in dir(g.grad_fn) if "saved" in a] == []
    with pytest.raises(RuntimeError,
                       match="^derivative for aten::_ctc_loss_backward is not implemented$"):
        g.sum().backward()
    assert repr(nn.CTCLoss()) == "CTCLoss()"
    module = nn.CTCLoss(blank=2, reduction="none", zero_infinity=True)
    assert (module.blank, module.reduction, module.zero_infinity) == (2, "none", True)


def _bad():
    lp = _log_probs()
    return {
        "half": lambda: F.ctc_loss(lp.half(), PADDED, [6, 4, 3, 5], [3, 2, 2, 2]),
        "targets_short": lambda: F.ctc_loss(lp, PADDED[:, :2], [6, 4, 3, 5], [3, 2, 2, 2]),
        "targets_rows": lambda: F.ctc_loss(lp, PADDED[:3], [6, 4, 3, 5], [3, 2, 2, 2]),
        "targets_3d": lambda: F.ctc_loss(lp, PADDED[None], [6, 4, 3, 5], [3, 2, 2, 2]),
        "concatenated_size": lambda: F.ctc_loss(lp, PADDED.flatten(), [6, 4, 3, 5], [3, 2, 2, 2]),
        "input_lengths_count": lambda: F.ctc_loss(lp, PADDED, [6, 4, 3], [3, 2, 2, 2]),
        "target_lengths_count": lambda: F.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, 2, 2]),
        "input_too_long": lambda: F.ctc_loss(lp, PADDED, [7, 4, 3, 5], [3, 2, 2, 2]),
        "input_negative": lambda: F.ctc_loss(lp, PADDED, [6, -1, 3, 5], [3, 2, 2, 2]),
        "target_negative": lambda: F.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, -1, 2, 2]),
        "blank_high": lambda: F.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, 2, 2, 2], blank=5),
        "blank_negative": lambda: F.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, 2, 2, 2], blank=-1),
        "unbatched_lengths": lambda: F.ctc_loss(lp[0], PADDED, [6, 4, 3, 5], [3, 2, 2, 2]),
        "reduction": lambda: F.ctc_loss(lp, PADDED, [6, 4, 3, 5], [3, 2, 2, 2], reduction="x"),
        "forward_ad": _dual_ctc,
    }


def _dual_ctc():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        lp = _log_probs().detach()
        dual = fwAD.make_dual(lp, torch.ones_like(lp))
        return F.ctc_loss(dual, PADDED, [6, 4, 3, 5], [3, 2, 2, 2])


@pytest.mark.parametrize("name", sorted(_bad()))
def test_refusals_match_torch(name):
    try:
        _bad()[name]()
    except Exception as e:  # noqa: BLE001 - the kind and the words are what is compared
        assert [type(e).__name__, str(e)] == ERRORS[name]
    else:
        raise AssertionError(f"{name} was not refused")
