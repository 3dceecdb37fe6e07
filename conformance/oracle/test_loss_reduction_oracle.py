"""Oracle test: reduced losses are torch's to the last bit.

torch reduces most losses with its own mean and sum, and a few (nll_loss,
nll_loss2d, multi_margin_loss, multilabel_margin_loss) in loops of their own
kernels; each order shows in the last bit. The losses below are computed from
the same arrays on refgrad and on real torch and must agree exactly, and for
the losses torch reduces with its mean and sum, a reduced loss must be the
mean or sum of the unreduced one, on both libraries.
"""

import numpy as np
import pytest
import torch

import refgrad

SIZES = [1, 7, 100, 3000]
DTYPES = [np.float16, np.float32, np.float64]
CLASSES = 5


def _arrays(size, dtype, seed):
    """Inputs, targets and weights for the losses, the same for both libraries."""
    rng = np.random.default_rng(seed)
    return {
        "x": rng.standard_normal((size, CLASSES)).astype(dtype),
        "y": rng.standard_normal((size, CLASSES)).astype(dtype),
        "p": (rng.random((size, CLASSES)) * 0.98 + 0.01).astype(dtype),
        "classes": rng.integers(0, CLASSES, size),
        "ignored": np.where(rng.random(size) < 0.2, -100, rng.integers(0, CLASSES, size)),
        "listed": rng.integers(-1, CLASSES, (size, CLASSES)),
        "weight": rng.random(CLASSES).astype(dtype),
        "image": rng.standard_normal((2, CLASSES, size, 3)).astype(dtype),
        "pixels": rng.integers(0, CLASSES, (2, size, 3)),
    }


def _on(lib, arrays):
    return {k: lib.tensor(v) for k, v in arrays.items()}


EXACT = {  # name: (loss, dtypes torch's CPU kernels take)
    "mse": (lambda F, t, r: F.mse_loss(t["x"], t["y"], reduction=r), DTYPES),
    "l1": (lambda F, t, r: F.l1_loss(t["x"], t["y"], reduction=r), DTYPES),
    "smooth_l1": (lambda F, t, r: F.smooth_l1_loss(t["x"], t["y"], beta=0.5, reduction=r),
                  DTYPES),
    "huber": (lambda F, t, r: F.huber_loss(t["x"], t["y"], delta=0.7, reduction=r), DTYPES),
    "nll": (lambda F, t, r: F.nll_loss(t["x"], t["classes"], reduction=r), DTYPES),
    "nll_weighted": (lambda F, t, r: F.nll_loss(t["x"], t["ignored"], weight=t["weight"],
                                                reduction=r), DTYPES),
    "nll_ignoring": (lambda F, t, r: F.nll_loss(t["x"], t["ignored"], reduction=r), DTYPES),
    "nll2d": (lambda F, t, r: F.nll_loss(t["image"], t["pixels"], weight=t["weight"],
                                         reduction=r), DTYPES),
    "multi_margin": (lambda F, t, r: F.multi_margin_loss(t["x"], t["classes"], reduction=r),
                     DTYPES[1:]),
    "multi_margin_squared": (lambda F, t, r: F.multi_margin_loss(
        t["x"], t["classes"], p=2, margin=0.5, weight=t["weight"], reduction=r), DTYPES[1:]),
    "multilabel_margin": (lambda F, t, r: F.multilabel_margin_loss(t["x"], t["listed"],
                                                                   reduction=r), DTYPES[1:]),
}


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("name", "dtype"), [(name, dtype) for name, (_, dtypes) in
                                             sorted(EXACT.items()) for dtype in dtypes])
def test_losses_agree_to_the_bit(name, dtype, size, reduction):
    loss = EXACT[name][0]
    arrays = _arrays(size, dtype, seed=size)
    ours = loss(refgrad.nn.functional, _on(refgrad, arrays), reduction).numpy()
    theirs = loss(torch.nn.functional, _on(torch, arrays), reduction).numpy()
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    assert np.array_equal(ours, theirs, equal_nan=True)


def test_a_single_sample_and_an_empty_batch():
    for lib in (refgrad, torch):
        F = lib.nn.functional
        x = lib.tensor([0.25, -1.5, 2.0])
        assert F.multilabel_margin_loss(x, lib.tensor([2, 0, -1]), reduction="none").dim() == 0
    for reduction in ("mean", "sum"):
        got = [lib.nn.functional.nll_loss(lib.zeros(0, 3), lib.zeros(0, dtype=lib.int64),
                                          reduction=reduction).item()
               for lib in (refgrad, torch)]
        assert np.array_equal(got[0], got[1], equal_nan=True)


REDUCED_BY_MEAN_AND_SUM = {
    "bce": lambda F, t, r: F.binary_cross_entropy(t["p"], t["p"].flip(0), reduction=r),
    "bce_weighted": lambda F, t, r: F.binary_cross_entropy(t["p"], t["p"].flip(0),
                                                           weight=t["weight"], reduction=r),
    "bce_with_logits": lambda F, t, r: F.binary_cross_entropy_with_logits(t["x"], t["p"],
                                                                          reduction=r),
    "soft_margin": lambda F, t, r: F.soft_margin_loss(t["x"], t["y"].sign(), reduction=r),
    "kl_div": lambda F, t, r: F.kl_div(t["x"], t["p"], reduction=r),
    "poisson_nll": lambda F, t, r: F.poisson_nll_loss(t["x"], t["p"], reduction=r),
    "hinge_embedding": lambda F, t, r: F.hinge_embedding_loss(t["x"], t["y"].sign(),
                                                              reduction=r),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(REDUCED_BY_MEAN_AND_SUM))
@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides the total loss")
def test_reduced_is_the_mean_or_sum_of_unreduced(name, dtype, size):
    loss = REDUCED_BY_MEAN_AND_SUM[name]
    arrays = _arrays(size, dtype, seed=size + 1)
    for lib in (refgrad, torch):
        t = _on(lib, arrays)
        F = lib.nn.functional
        each = loss(F, t, "none")
        assert np.array_equal(loss(F, t, "mean").numpy(), each.mean().numpy(), equal_nan=True)
        assert np.array_equal(loss(F, t, "sum").numpy(), each.sum().numpy(), equal_nan=True)
