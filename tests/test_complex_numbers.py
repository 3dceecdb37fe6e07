"""refgrad's complex numbers: the parts it does its own way (eager conj, the refusals of rows
not yet made complex-correct, complex forms of rows kept apart from the real rows)."""

import numpy as np
import pytest

import refgrad as torch
from refgrad._C import _functions
from refgrad._ops.arithmetic import MUL
from refgrad._ops.complex_gradients import conjugating
from refgrad._ops.complex_rows import (
    AS_WRITTEN,
    CONJUGATED,
    TORCH_REFUSES,
    has_complex,
    has_unusual,
)
from refgrad._ops.op_nodes import node_class


def test_conj_is_eager():
    z = torch.tensor([1 + 2j])
    c = z.conj()
    assert not c.is_conj() and c._base is None and c.resolve_conj() is c
    c.add_(1)
    assert z.tolist() == [1 + 2j]  # torch's lazy conj would have written through


def test_a_row_not_made_complex_correct_refuses_by_name():
    with pytest.raises(NotImplementedError, match="^refgrad does not yet compute logcumsumexp "
                                                  "on complex tensors as torch does$"):
        torch.logcumsumexp(torch.tensor([1j, 2j]), 0)


def test_complex32_is_refused_by_name():
    with pytest.raises(NotImplementedError, match="no complex32"):
        torch.float16.to_complex()
    with pytest.raises(NotImplementedError, match="no complex32"):
        torch.ones(2, dtype=torch.float16) * 1j


def test_the_complex_form_keeps_the_real_row_and_its_node_class():
    form = conjugating(MUL)
    assert form is conjugating(MUL) and form is not MUL and form.name == MUL.name
    assert MUL.node == "MulBackward0" and node_class(MUL).op is MUL
    assert node_class(form).__name__ == "MulBackward0" and node_class(form).op is form
    assert _functions.MulBackward0 is node_class(MUL)
    assert not any("(complex)" in name for name in vars(_functions))


def test_real_operands_run_the_real_row():
    x = torch.ones(2, requires_grad=True)
    assert type((x * x).grad_fn) is node_class(MUL)
    z = torch.ones(2, dtype=torch.complex64, requires_grad=True)
    assert type((z * z).grad_fn) is node_class(conjugating(MUL))


def test_which_arrays_are_unusual():
    import ml_dtypes

    assert not has_unusual([np.ones(2), np.ones(2, np.float32), 3.0, None])
    assert has_unusual([np.ones(2), np.ones(2, ml_dtypes.bfloat16)])
    assert has_unusual([[np.ones(2), np.ones(2, np.complex64)]])
    assert has_complex([np.ones(2, np.complex128)]) and not has_complex([np.ones(2)])


def test_the_lists_do_not_overlap():
    assert not (AS_WRITTEN & CONJUGATED) and not (set(TORCH_REFUSES) & (AS_WRITTEN | CONJUGATED))


def test_the_gradients_left_for_complex_linear_algebra_refuse_by_name():
    singular = torch.tensor([[1 + 1j, 1 + 1j], [2j, 2j]], requires_grad=True)
    det = torch.linalg.det(singular)
    with pytest.raises(NotImplementedError, match="gradient of linalg_det of a singular"):
        det.backward(torch.ones_like(det))
    U, S, Vh = torch.linalg.svd(torch.eye(2, dtype=torch.cfloat).requires_grad_())
    with pytest.raises(NotImplementedError, match="linalg_svd's singular vectors"):
        U.abs().sum().backward()
    values, vectors = torch.linalg.eigh(torch.eye(2, dtype=torch.cdouble).requires_grad_())
    with pytest.raises(NotImplementedError, match="linalg_eigh's eigenvectors"):
        vectors.abs().sum().backward()
