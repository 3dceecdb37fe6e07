"""Black-box tests: trace's gradient under a dispatch mode makes its zeros and the places of
the diagonal with zeros and arange, named as torch's formula names them, copysign's zero
gradient for the sign is made first and only when wanted, and mv's gradient views the
incoming gradient as a column of its own length. The gradients are torch's. The same
assertions run on torch.
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


@pytest.mark.parametrize("wanted", [(True, True), (True, False), (False, True)])
def test_copysigns_zeros_come_first_and_only_when_wanted(wanted):
    x = torch.tensor([1.0, -2.0, 0.0], dtype=F64, requires_grad=wanted[0])
    other = torch.tensor([-1.0, 2.0, 3.0], dtype=F64, requires_grad=wanted[1])
    y = torch.copysign(x, other)
    with Calls() as mode:
        grads = torch.autograd.grad(y.sum(), [t for t in (x, other) if t.requires_grad])
    names = [s[0] for s in mode.seen if s[0] != "aten.detach.default"]
    zeros = ("aten.zeros.default", ([3],), {"dtype": F64, "layout": torch.strided,
                                            "device": CPU})
    assert (zeros in mode.seen) == wanted[1]
    if wanted == (True, True):
        assert names.index("aten.zeros.default") < names.index("aten.div.Tensor")
    assert torch.equal(grads[-1], torch.zeros(3, dtype=F64) if wanted[1] else torch.tensor(
        [-1.0, -1.0, 0.0], dtype=F64))


@pytest.mark.parametrize("make, sizes, seen", [
    (lambda: torch.ones(2, 3, dtype=F64).t(), (-1, 2), [("aten.view.default", ("T", [3, 2]), {})]),
    (lambda: torch.ones(4, 3, dtype=F64)[::2], (2, 1, -1),
     [("aten.view.default", ("T", [2, 1, 3]), {})]),
    (lambda: torch.ones(2, 3, dtype=F64), (-1,), [("aten.view.default", ("T", [-1]), {})]),
    (lambda: torch.ones(2, 3, dtype=F64).t(), (-1,),
     [("aten.clone.default", ("T",), {"memory_format": torch.contiguous_format}),
      ("aten._unsafe_view.default", ("T", [6]), {})]),
])
def test_a_reshape_shows_a_view_with_its_sizes_or_the_copy(make, sizes, seen):
    x = make()
    with Calls() as mode:
        y = x.reshape(*sizes)
    assert mode.seen == seen
    assert torch.equal(y, x.contiguous().view(y.shape))


def test_bilinears_trilinear_goes_by_position():
    x = (torch.arange(6, dtype=F64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()
    weight = torch.ones(1, 3, 3, dtype=F64)
    with Calls() as mode:
        torch.nn.functional.bilinear(x, x, weight).sum().backward()
    assert mode.seen[:3] == [("aten.view.default", ("T", [2, 3]), {})] * 2 + [
        ("aten._trilinear.default", ("T", "T", "T", [1, 3], [0], [1, 2], [2, 3]), {})]
    func, given, named = mode.kept[2]
    assert func(*given, **named).shape == (2, 1)


def test_nansums_gradient_takes_the_mask_first():
    x = torch.tensor([[1.0, float("nan"), 2.0]], dtype=F64, requires_grad=True)
    y = x.nansum()
    with Calls() as mode:
        y.backward()
    names = [s[0] for s in mode.seen]
    assert names[names.index("aten.isnan.default"):][:4] == [
        "aten.isnan.default", "aten.logical_not.default", "aten.expand.default",
        "aten.mul.Tensor"]
    assert torch.equal(x.grad, torch.tensor([[1.0, 0.0, 1.0]], dtype=F64))


def test_soft_margin_loss_expands_no_target_of_the_inputs_shape():
    x = torch.ones(2, 3, dtype=F64, requires_grad=True)
    target = torch.ones(2, 3, dtype=F64)
    with Calls() as mode:
        torch.nn.functional.soft_margin_loss(x, target)
    assert [s[0] for s in mode.seen] == ["aten.soft_margin_loss.default"]


def test_a_formulas_product_by_a_number_in_place_is_mul_scalar():
    x = (torch.arange(6, dtype=F64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()
    q, r = torch.linalg.qr(x.t())
    with Calls() as mode:
        r.sum().backward()
    assert ("aten.mul_.Scalar", ("T", 0.5), {}) in mode.seen


def test_nan_to_nums_gradient_takes_isfinites_steps():
    x = torch.tensor([1.0, float("inf"), float("nan")], dtype=F64, requires_grad=True)
    y = torch.nan_to_num(x)
    with Calls() as mode:
        y.sum().backward()
    names = [s[0] for s in mode.seen]
    assert names[names.index("aten.abs.default"):][:4] == [
        "aten.abs.default", "aten.ne.Scalar", "aten.eq.Tensor", "aten.mul.Tensor"]
    assert torch.equal(x.grad, torch.tensor([1.0, 0.0, 0.0], dtype=F64))
