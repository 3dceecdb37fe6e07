"""Elementwise results over pieces cut along an inner dimension (a recurrent cell's gates)
come out row-major, and writes into such pieces leave their neighbours alone."""

import pytest
import torch


def _gates(shape, dim):
    whole = torch.arange(float(torch.Size(shape).numel())).reshape(shape)
    return whole, whole.chunk(3, dim)


@pytest.mark.parametrize("shape,dim,strides", [
    ((2, 5, 48), 2, (80, 16, 1)),
    ((4, 6, 8, 8), 1, (128, 64, 8, 1)),
    ((3, 12), 1, (4, 1)),
])
def test_results_over_pieces_are_row_major(shape, dim, strides):
    _, (first, second, _) = _gates(shape, dim)
    assert not first.is_contiguous()
    assert (first + second).stride() == strides
    assert first.sigmoid().stride() == strides
    assert (first * 2).stride() == strides
    assert torch.where(first > 3, first, second).stride() == strides


def test_a_size_one_dimension_and_a_transpose_keep_torchs_order():
    _, (first, second, _) = _gates((1, 48), 1)
    assert (first + second).stride() == (16, 1)
    assert (first.t() + second.t()).stride() == (1, 1)
    columns = torch.arange(60.0).reshape(6, 10)
    assert (columns[:3, 1:4].t() + columns[:3, :3]).stride() == (1, 3)
    assert (columns[::2, ::3] + 1).stride() == (4, 1)


@pytest.mark.parametrize("write", ["add_", "mul_", "sub_", "div_"])
def test_a_write_into_one_gate_leaves_the_others(write):
    whole, (first, second, third) = _gates((5, 48), 1)
    before = whole.clone()
    expected = getattr(torch, write[:-1])(second, third)
    getattr(second, write)(third)
    assert torch.equal(second, expected)
    assert torch.equal(whole[:, :16], before[:, :16])
    assert torch.equal(whole[:, 32:], before[:, 32:])
    assert whole._version == 1 and third._version == 1


def test_a_gru_cell_writes_its_gates_in_place_and_records_them():
    torch.manual_seed(0)
    cell = torch.nn.GRUCell(4, 6)
    hx = torch.zeros(3, 6, requires_grad=True)
    out = cell(torch.ones(3, 4), hx)
    assert out.grad_fn.name() == "AddBackward0"
    assert out.shape == (3, 6) and out.stride() == (6, 1)
    out.sum().backward()
    assert hx.grad.shape == (3, 6)
