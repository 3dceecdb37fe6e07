"""Strides of empty views: a stepped slice of an empty dim, an empty cut of an expanded one."""

import pytest
import torch


@pytest.mark.parametrize(("make", "strides"), [
    (lambda: torch.zeros(3, 0)[:, ::2], (1, 2)),
    (lambda: torch.zeros(0, 3)[::2], (6, 1)),
    (lambda: torch.zeros(0)[::2], (2,)),
    (lambda: torch.zeros(2, 0, 3)[::2, ::3, ::5], (6, 9, 5)),
    (lambda: torch.zeros(1).expand(2)[2:], (0,)),
    (lambda: torch.zeros(1).expand(0), (0,)),
    (lambda: torch.zeros(1, 1).expand(3, 3)[3:, 1:], (0, 0)),
    (lambda: torch.zeros(1, 1, 2).expand(3, 0, 2).select(2, 0), (0, 0)),
    (lambda: torch.zeros(1, 1).expand(3, 3).diagonal(5), (0,)),
])
def test_empty_view_strides(make, strides):
    assert make().stride() == strides


def test_empty_pieces_of_an_expanded_tensor_keep_zero_strides():
    pieces = torch.zeros(1).expand(2).split([2, 0])
    assert [p.stride() for p in pieces] == [(0,), (0,)]
    assert pieces[1].unsqueeze(0).stride() == (0, 0)
    assert pieces[1].clone().stride() == (0,)


def test_views_and_copies_of_a_stepped_empty_slice_follow():
    x = torch.zeros(0, 3)[::2]
    assert x.t().stride() == (1, 6)
    assert x.flip(0).stride() == (6, 1)
    assert x.clone().stride() == (6, 1)
    assert x.rot90().stride() == (1, 6)


def test_empty_diagonal_starts_where_its_input_does():
    d = torch.zeros(2, 2).diagonal(2)
    assert d.shape == (0,) and d.storage_offset() == 0


def test_empty_turn_starts_at_its_own_memory():
    x = torch.zeros(2, 0, 3).narrow(0, 1, 1)
    assert x.rot90(1, (0, 2)).storage_offset() == 0


def test_roll_of_an_empty_vector_keeps_its_stride():
    assert torch.zeros(0)[::2].roll(1).stride() == (2,)


def test_grad_of_an_empty_leaf_with_stepped_strides():
    x = torch.zeros(0, 3)[::2].detach().requires_grad_()
    x.sum().backward()
    assert x.grad.stride() == (6, 1)


def test_an_empty_view_in_its_own_shape_keeps_its_strides():
    x = torch.zeros(0)[::2]
    assert x.view(-1).stride() == (2,)
    assert x.reshape(-1).stride() == (2,)
    assert torch.zeros(0, 3)[::2].view(0, 3).stride() == (6, 1)
    assert torch.zeros(0, 3)[::2].view(3, 0).stride() == (1, 1)


def test_row_major_kernels_allocate_an_empty_result():
    assert torch.zeros(0)[::2].repeat(2).stride() == (1,)
    assert torch.zeros(1).expand(2)[2:].tile(2).stride() == (1,)
    assert torch.zeros(3, 0)[:, ::2].tril().stride() == (1, 1)
