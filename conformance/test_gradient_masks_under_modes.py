"""Black-box tests: the gradients of layer_norm and batch_norm are handed the output mask
torch's are (which of the three gradients the backward pass wants), and pairwise_distance's
norm reaches a dispatch mode as norm.ScalarOpt_dim with a float p. The same assertions run
on torch.
"""

import pytest
import torch

from conformance._support import calling_mode

F = torch.nn.functional
F64 = torch.float64

Calls = calling_mode()


def _inputs():
    x = torch.arange(6, dtype=F64).reshape(2, 3).requires_grad_()
    w = torch.ones(3, dtype=F64).requires_grad_()
    return x, w, torch.zeros(3, dtype=F64).requires_grad_()


def _running():
    return torch.zeros(3, dtype=F64), torch.ones(3, dtype=F64)


_LN = "aten.native_layer_norm_backward.default"
_BN = "aten.native_batch_norm_backward.default"
CASES = [
    (lambda x, w, b: F.layer_norm(x, (3,)).sum().backward(),
     (_LN, ("T", "T", [3], "T", "T", None, None, [True, False, False]), {})),
    (lambda x, w, b: F.layer_norm(x, (3,), w).sum().backward(),
     (_LN, ("T", "T", [3], "T", "T", "T", None, [True, True, False]), {})),
    (lambda x, w, b: torch.autograd.grad(F.layer_norm(x, (3,), w, b).sum(), x),
     (_LN, ("T", "T", [3], "T", "T", "T", "T", [True, False, False]), {})),
    (lambda x, w, b: F.layer_norm(x.detach(), (3,), w, b).sum().backward(),
     (_LN, ("T", "T", [3], "T", "T", "T", "T", [False, True, True]), {})),
    (lambda x, w, b: F.batch_norm(x, None, None, training=True).sum().backward(),
     (_BN, ("T", "T", None, None, None, "T", "T", True, 1e-05, [True, False, False]), {})),
    (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True).sum().backward(),
     (_BN, ("T", "T", "T", None, None, "T", "T", True, 1e-05, [True, True, True]), {})),
    (lambda x, w, b: F.batch_norm(x, *_running(), w, training=False).sum().backward(),
     (_BN, ("T", "T", "T", "T", "T", "T", "T", False, 1e-05, [True, True, False]), {})),
    (lambda x, w, b: F.pairwise_distance(x, x + 1),
     ("aten.norm.ScalarOpt_dim", ("T", 2.0, [1]), {})),
    (lambda x, w, b: F.pairwise_distance(x, x + 1, 3, keepdim=True),
     ("aten.norm.ScalarOpt_dim", ("T", 3.0, [1], True), {})),
    (lambda x, w, b: F.triplet_margin_loss(x, x + 1, x * 2),
     ("aten.norm.ScalarOpt_dim", ("T", 2.0, [1]), {})),
]


@pytest.mark.parametrize("call, entry", CASES)
def test_a_mode_sees_torchs_arguments(call, entry):
    with Calls() as mode:
        call(*_inputs())
    assert entry in mode.seen


@pytest.mark.parametrize("call, entry", CASES[:7])
def test_the_gradient_called_again_gives_the_same_gradients(call, entry):
    with Calls() as mode:
        call(*_inputs())
    func, given, named = mode.kept[mode.seen.index(entry)]
    wanted = given[-1].index(True)  # a gradient the mask asks for
    first, again = func(*given, **named)[wanted], func(*given, **named)[wanted]
    assert torch.equal(first, again) and first.shape == (given[1].shape, (3,), (3,))[wanted]


def test_the_saved_p_is_a_float():
    x, _, _ = _inputs()
    assert repr(F.pairwise_distance(x, x + 1, 3).grad_fn._saved_p) == "3.0"
