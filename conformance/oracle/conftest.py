"""Fixtures the oracle files share."""

import pytest
import torch

import refgrad


@pytest.fixture(params=[1, 2, 3], ids=lambda n: f"{n}threads")
def both_threads(request):
    """The same thread count in torch and refgrad; each library's own count put back."""
    before = torch.get_num_threads(), refgrad.get_num_threads()
    torch.set_num_threads(request.param)
    refgrad.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before[0])
    refgrad.set_num_threads(before[1])
