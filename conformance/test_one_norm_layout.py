"""The 1-norm over some dims is a contiguous tensor of its own, as the other norms are."""

import torch


def test_one_norm_over_a_dim_is_contiguous():
    x = torch.arange(6.0).view(2, 3)
    assert x.norm(1, -1).stride() == (1,)
    assert torch.linalg.vector_norm(x, 1, 1).is_contiguous()
    assert torch.arange(6.0).view(3, 2).t().norm(1, 0).stride() == (1,)
    assert torch.arange(24.0).view(2, 3, 4).norm(1, (0, 2)).stride() == (1,)
    assert x.norm(1, -1).tolist() == [3.0, 12.0]
