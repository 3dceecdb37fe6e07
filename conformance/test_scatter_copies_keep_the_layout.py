"""select_scatter, slice_scatter and diagonal_scatter return a copy laid out as their input
is, as torch's do: the same strides and storage offset over a copy of the whole storage; an
expanded input is copied densely. The same assertions run on torch."""

import pytest
import torch


def _layout(t):
    return tuple(t.stride()), t.storage_offset(), t.untyped_storage().nbytes()


def _inputs():
    return {
        "transposed": torch.arange(6.0).reshape(2, 3).t(),
        "every_other_column": torch.arange(12.0).reshape(3, 4)[:, ::2],
        "further_on": torch.arange(12.0)[2:8].reshape(2, 3),
        "permuted": torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1),
    }


def _writes(x):
    return {
        "slice": lambda: x.slice_scatter(torch.zeros_like(x.narrow(0, 0, 1)), 0, 0, 1),
        "select": lambda: x.select_scatter(torch.zeros_like(x.select(1, 0)), 1, 0),
        "diagonal": lambda: x.diagonal_scatter(torch.zeros_like(x.diagonal())),
    }


@pytest.mark.parametrize("name", ["transposed", "every_other_column", "further_on", "permuted"])
@pytest.mark.parametrize("kind", ["slice", "select", "diagonal"])
def test_the_copy_keeps_the_inputs_layout(name, kind):
    x = _inputs()[name]
    before = x.tolist()
    out = _writes(x)[kind]()
    assert _layout(out) == _layout(x)
    assert out.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    assert x.tolist() == before
    piece = {"slice": out.narrow(0, 0, 1), "select": out.select(1, 0),
             "diagonal": out.diagonal()}[kind]
    assert not piece.any()
    assert out.sum().item() == x.sum().item() - {"slice": x.narrow(0, 0, 1),
                                                 "select": x.select(1, 0),
                                                 "diagonal": x.diagonal()}[kind].sum().item()


def test_an_expanded_input_is_copied_densely():
    out = torch.ones(3, 1).expand(3, 2).t().select_scatter(torch.zeros(3), 0, 1)
    assert (out.stride(), out.storage_offset()) == ((3, 1), 0)
    assert out.tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]


def test_a_storage_of_another_dtype_is_read_as_the_inputs():
    x = torch.arange(12.0).view(torch.int32)[2:6]
    out = x.select_scatter(torch.tensor(7, dtype=torch.int32), 0, 0)
    assert _layout(out) == _layout(x)
    assert out.tolist() == [7] + x.tolist()[1:]


def test_the_gradients_are_unchanged():
    x = torch.arange(6.0).reshape(3, 2).t().requires_grad_()
    src = torch.zeros(2, requires_grad=True)
    out = torch.select_scatter(x, src, 1, 1)
    assert out.stride() == x.stride()
    assert type(out.grad_fn).__name__ == "SelectScatterBackward0"
    out.backward(torch.arange(6.0).reshape(2, 3))
    assert x.grad.tolist() == [[0.0, 0.0, 2.0], [3.0, 0.0, 5.0]]
    assert src.grad.tolist() == [1.0, 4.0]
