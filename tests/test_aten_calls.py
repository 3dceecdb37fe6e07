"""refgrad's own side of calling an op by its ATen name: the operators it has no function
for are refused by name, and a call finds the function of the operator's name."""

import pytest

import refgrad as torch
from refgrad._aten_calls import run_aten

aten = torch.ops.aten


def test_an_operator_without_a_function_is_refused_by_name():
    aten.threshold_backward.default.last_handed = None  # as if no mode had been shown it
    with pytest.raises(RuntimeError, match=r"^refgrad cannot run aten\.threshold_backward "):
        aten.threshold_backward.default(torch.ones(2), torch.ones(2), 0.0)
    with pytest.raises(RuntimeError, match=r"aten\.no_such_op by its name"):
        aten.no_such_op(torch.ones(2))


def test_the_packet_and_the_overload_run_the_same_function():
    a = torch.arange(4.0).reshape(2, 2)
    assert torch.equal(aten.mm(a, a), aten.mm.default(a, a))
    assert torch.equal(run_aten("mm", None, (a, a), {}), a @ a)


def test_linalg_and_special_names_reach_their_modules():
    a = torch.tensor([3.0, 4.0])
    assert aten.linalg_vector_norm.default(a).item() == 5.0
    assert torch.equal(aten.special_expit.default(a), torch.special.expit(a))


def test_the_scalar_overloads_record_the_rows_of_a_number():
    x = torch.ones(2, requires_grad=True)
    names = [type(aten.mul.Scalar(x, 2.0).grad_fn).__name__,
             type(aten.mul.Tensor(x, 2.0).grad_fn).__name__]
    assert names == ["MulBackward1", "MulBackward0"]
