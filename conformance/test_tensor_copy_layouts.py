"""Black-box tests: torch.tensor's copy of an expanded tensor or a broadcast array is laid
out as torch's preserve_format lays out a copy of a source that repeats elements."""

import warnings

import numpy as np
import pytest
import torch


def _expanded():
    return torch.zeros(3).expand(2, 3)


@pytest.mark.parametrize(("make", "strides"), [
    (_expanded, (3, 1)),
    (lambda: torch.zeros(3, 1).expand(3, 4), (4, 1)),
    (lambda: torch.zeros(1, 3, 1, 1).expand(2, 3, 4, 4), (48, 16, 4, 1)),
    (lambda: torch.zeros(2, 1, 4, 3).expand(2, 3, 4, 3).permute(0, 3, 1, 2), (36, 1, 3, 9)),
    (lambda: np.broadcast_to(np.arange(3.0), (2, 3)), (3, 1)),
    (lambda: np.arange(12.0).reshape(3, 4).T[::2], (1, 2)),  # no repeats: its order kept
])
def test_copy_strides(make, strides):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the advice to clone a tensor instead
        t = torch.tensor(make())
    assert t.stride() == strides


def test_copy_values():
    t = torch.tensor(np.broadcast_to(np.arange(3.0), (2, 3)))
    assert t.tolist() == [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]] and t.is_contiguous()
