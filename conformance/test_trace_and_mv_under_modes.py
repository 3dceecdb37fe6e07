"""Black-box tests: trace's gradient under a dispatch mode makes its zeros and the places of
the diagonal with zeros and arange, named as torch's formula names them, and mv's gradient
views the incoming gradient as a column of its own length. The gradients are torch's. The
same assertions run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode

F64 = torch.float64
CPU = torch.device("cpu")

Calls = calling_mode()


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2), (0, 2)])
def test_traces_gradient_uses_zeros_and_arange(shape):
    x = (torch.arange(6, dtype=F64)[:shape[0] * shape[1]].reshape(shape) + 1).requires_grad_()
    with Calls() as mode:
        x.trace().backward()
    rows, cols = shape
    options = {"layout": torch.strided, "device": CPU}
    assert mode.seen[2:5] == [
        ("aten.zeros.default", ([rows * cols],), {"dtype": F64, **options}),
        ("aten.arange.start_step", (0, min(rows, cols) * (cols + 1), cols + 1),
         {"dtype": torch.int64, **options}),
        ("aten.index_fill.int_Tensor", ("T", 0, "T", "T"), {})]
    assert torch.equal(x.grad, torch.eye(rows, cols, dtype=F64))


def test_traces_gradient_called_again():
    x = torch.ones(2, 3, dtype=F64, requires_grad=True)
    with Calls() as mode:
        x.trace().backward()
    func, given, named = mode.kept[mode.seen.index(
        ("aten.arange.start_step", (0, 8, 4), {"dtype": torch.int64, "layout": torch.strided,
                                               "device": CPU}))]
    assert func(*given, **named).tolist() == [0, 4]


def test_mvs_gradient_views_a_column_of_its_length():
    x = torch.arange(6, dtype=F64).reshape(2, 3).requires_grad_()
    with Calls() as mode:
        (x @ torch.ones(3, dtype=F64)).sum().backward()
    assert ("aten.view.default", ("T", [2, 1]), {}) in mode.seen
    assert torch.equal(x.grad, torch.ones(2, 3, dtype=F64))
