"""Oracle test: the training chapter's network, trained on refgrad and on torch.

Both runs start from the same NumPy-made data and weights (``tensor(array)`` in
each library) and take 50 SGD steps in float64. The losses must agree to 1e-9
at every step: not bit for bit, since torch's matrix products may sum in
another order than NumPy's, but far closer than any wrong gradient would allow.
"""

import sys
from pathlib import Path

import pytest
import torch

import refgrad

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "book" / "chapters"))
import _training  # noqa: E402


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_refgrad_and_torch_have_the_same_loss_at_every_step(seed):
    ours = _training.train(refgrad, steps=50, seed=seed)
    theirs = _training.train(torch, steps=50, seed=seed)
    assert len(ours) == len(theirs) == 50
    for step, (mine, oracle) in enumerate(zip(ours, theirs)):
        assert abs(mine - oracle) <= 1e-9, f"step {step}: refgrad {mine!r}, torch {oracle!r}"
    assert theirs[-1] < theirs[0]
