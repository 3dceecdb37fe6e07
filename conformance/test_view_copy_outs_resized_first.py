"""The copies of views given an out= of another shape and dtype resize it, with torch's
warning, before they refuse its dtype, as torch's kernels do. The same assertions run on
torch."""

import warnings

import pytest
import torch

from conformance._support import raises

X = torch.arange(6.0).reshape(2, 3)
REFUSED = "Expected out tensor to have dtype float, but got long int instead"


@pytest.mark.parametrize(("call", "shape"), [
    (lambda out: torch.t_copy(X, out=out), [3, 2]),
    (lambda out: torch.diagonal_copy(X, out=out), [2]),
    (lambda out: torch.permute_copy(X, (1, 0), out=out), [3, 2]),
    (lambda out: torch.transpose_copy(X, 0, 1, out=out), [3, 2]),
    (lambda out: torch.expand_copy(X, (2, 2, 3), out=out), [2, 2, 3]),
    (lambda out: torch.view_copy(X, (3, 2), out=out), [3, 2]),
    (lambda out: torch.unsqueeze_copy(X, 0, out=out), [1, 2, 3]),
])
def test_out_is_resized_then_refused(call, shape):
    out = torch.empty(2, 3, dtype=torch.int64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with raises(RuntimeError, REFUSED):
            call(out)
    assert len(caught) == 1 and caught[0].category is UserWarning
    assert str(caught[0].message).startswith(
        f"An output with one or more elements was resized since it had shape [2, 3], which "
        f"does not match the required output shape {shape}.")
    assert list(out.shape) == shape


def test_an_out_of_the_right_shape_is_refused_without_a_warning():
    out = torch.empty(3, 2, dtype=torch.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(RuntimeError, REFUSED):
            torch.t_copy(X, out=out)
