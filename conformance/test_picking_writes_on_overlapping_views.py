"""Writes that pick elements of a view whose windows share memory (no stride 0).

Only the picked elements are written; the unpicked ones that share a memory
location with a picked one do not put their old values back.
"""

import pytest
import torch


def _windows():
    b = torch.arange(6.0)
    return b, b.as_strided((3, 2), (1, 1))  # rows [0, 1], [1, 2], [2, 3]


ROW0 = torch.tensor([0])
MASK_ROW0 = torch.tensor([[True, True], [False, False], [False, False]])

WRITES = {
    "index_put_": lambda v: v.index_put_((ROW0,), torch.tensor(9.0)),
    "index_put_accumulate": lambda v: v.index_put_((ROW0,), torch.tensor(9.0), accumulate=True),
    "setitem_index": lambda v: v.__setitem__((ROW0,), torch.tensor(9.0)),
    "setitem_mask": lambda v: v.__setitem__(torch.tensor([True, False, False]), 9.0),
    "masked_fill_": lambda v: v.masked_fill_(MASK_ROW0, 9.0),
    "masked_scatter_": lambda v: v.masked_scatter_(MASK_ROW0, torch.tensor([9.0, 8.0])),
    "index_fill_": lambda v: v.index_fill_(0, ROW0, 9.0),
    "index_copy_": lambda v: v.index_copy_(0, ROW0, torch.tensor([[9.0, 8.0]])),
    "index_add_": lambda v: v.index_add_(0, ROW0, torch.tensor([[9.0, 8.0]])),
    "scatter_": lambda v: v.scatter_(0, torch.tensor([[0, 0]]), torch.tensor([[9.0, 8.0]])),
    "scatter_add_": lambda v: v.scatter_add_(0, torch.tensor([[0, 0]]), torch.tensor([[9.0, 8.0]])),
    "put_": lambda v: v.put_(torch.tensor([0, 1]), torch.tensor([9.0, 8.0])),
    "where_out": lambda v: torch.where(MASK_ROW0, torch.tensor(9.0), v, out=v),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_row_picked_in_an_overlapping_view_keeps_what_was_written(name):
    b, v = _windows()
    expected = v.clone()
    WRITES[name](expected)  # the same write where no two elements share memory
    WRITES[name](v)
    assert v[0].tolist() == expected[0].tolist()
    assert b[2:].tolist() == [2.0, 3.0, 4.0, 5.0]  # memory no picked element reads
    assert v._version == 1


def test_masked_fill_of_unfold_windows_writes_only_the_picked_corners():
    b = torch.arange(4.0)
    b.unfold(0, 2, 1).masked_fill_(torch.tensor([[True, False], [False, False], [False, True]]),
                                   -1.0)
    assert b.tolist() == [-1.0, 1.0, 2.0, -1.0]


def test_index_put_on_an_overlapping_view_of_a_tensor_that_requires_grad():
    a = torch.arange(4.0, requires_grad=True)
    b = a * 1
    v = b.as_strided((2, 2), (1, 1))
    v.index_put_((ROW0,), torch.tensor(9.0))
    assert b.tolist() == [9.0, 9.0, 2.0, 3.0]
    assert type(b.grad_fn).__name__ == "CopySlices"


def test_signed_zero_and_nan_left_alone_where_unpicked():
    b = torch.tensor([0.0, -0.0, float("nan"), 1.0])
    v = b.as_strided((2, 2), (1, 1))
    v.index_put_((torch.tensor([1]),), torch.tensor(-0.0))  # writes b[1] and b[2]
    assert str(b[0].item()) == "0.0" and str(b[1].item()) == "-0.0"
    assert str(b[2].item()) == "-0.0" and b[3].item() == 1.0


def test_elementwise_write_of_a_row_of_windows_matches_a_plain_row():
    b = torch.arange(6, dtype=torch.int16)
    v = b.as_strided((3, 2), (2, 1))  # no overlap: every write lands once
    v[torch.tensor([True, False, True])] = 7
    assert b.tolist() == [7, 7, 2, 3, 7, 7]
