"""kron's last view, as torch's: refused where the blocks cannot be merged without a copy."""

import pytest
import torch

from conformance._support import raises

VIEW = ("view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
A = torch.arange(9.0).reshape(3, 3)
B = torch.arange(6.0).reshape(3, 2)


@pytest.mark.parametrize("call", [
    lambda: torch.kron(A.mT, B), lambda: torch.kron(A, B.mT),
    lambda: torch.kron(A.mT, torch.arange(3.0)),
    lambda: torch.kron(torch.arange(18.0).reshape(2, 3, 3).mT, torch.arange(12.0).reshape(2, 3, 2)),
    lambda: torch.kron(A.mT.requires_grad_(), B),
])
def test_blocks_laid_out_across_each_other_are_refused(call):
    with raises(RuntimeError, VIEW):
        call()


def test_layouts_that_merge_pass():
    assert torch.kron(A.mT, B.mT).stride() == (1, 6)
    assert torch.kron(A, torch.arange(12.0).reshape(3, 4)[:, ::2]).stride() == (6, 1)
    assert torch.kron(A.mT, torch.ones(1, 1)).stride() == (1, 3)


def test_out_takes_any_layout():
    out = torch.empty(0)
    torch.kron(A.mT, B, out=out)
    assert out.shape == (9, 6) and out[1, 0].item() == A[0, 0].item() * B[1, 0].item()
