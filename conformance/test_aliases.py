"""Black-box tests: the other names torch gives tensors' methods (greater, multiply,
subtract...), positive, is_nonzero, sum_to_size, H, mH, adjoint, put and the dtype
properties, and the softmaxes' backward functions. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

# alias: (the method it names, the node a float result records, or None for none)
ALIASES = {
    "greater": ("gt", None), "greater_equal": ("ge", None), "less": ("lt", None),
    "less_equal": ("le", None), "not_equal": ("ne", None), "multiply": ("mul", "MulBackward0"),
    "subtract": ("sub", "SubBackward0"),
}
COMPARED_IN_PLACE = {"greater": "GtBackward1", "greater_equal": "GeBackward1",
                     "less": "LtBackward1", "less_equal": "LeBackward1",
                     "not_equal": "NeBackward1"}


def _leaf():
    return torch.tensor([1.0, 2.0, 3.0], requires_grad=True)


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_an_alias_computes_and_records_what_its_method_does(alias):
    method, node = ALIASES[alias]
    other = torch.tensor([2.0, 2.0, 2.0])
    for by_alias, by_method in ((getattr(_leaf(), alias)(other), getattr(_leaf(), method)(other)),
                                (getattr(torch, alias)(_leaf(), 2), getattr(_leaf(), method)(2))):
        assert by_alias.tolist() == by_method.tolist() and by_alias.dtype == by_method.dtype
        assert (by_alias.grad_fn and by_alias.grad_fn.name()) == node
    written = _leaf() * 1
    version = written._version
    assert getattr(written, alias + "_")(other) is written
    assert written.tolist() == getattr(_leaf() * 1, method + "_")(other).tolist()
    assert written._version == version + 1
    assert written.grad_fn.name() == COMPARED_IN_PLACE.get(alias, node)


def test_subtract_takes_alpha_by_position_or_name():
    assert _leaf().subtract(1, 3).tolist() == [-2.0, -1.0, 0.0]
    assert torch.subtract(_leaf(), torch.tensor([2.0]), alpha=2).tolist() == [-3.0, -2.0, -1.0]


def test_aliases_refuse_arguments_in_their_own_names():
    with raises(TypeError, "greater() received an invalid combination of arguments - got (str),"
                           " but expected one of:\n * (Tensor other)\n      didn't match because "
                           "some of the arguments have invalid types: (!str!)\n * (Number other)"
                           "\n      didn't match because some of the arguments have invalid "
                           "types: (!str!)\n"):
        _leaf().greater("a")
    with raises(TypeError, "multiply() received an invalid combination of arguments - got "
                           "(Tensor), but expected one of:\n * (Tensor input, Tensor other, *, "
                           "Tensor out = None)\n * (Tensor input, Number other)\n"):
        torch.multiply(_leaf())


def test_positive_is_the_tensor_and_refuses_bool():
    x = _leaf()
    assert x.positive() is x and torch.positive(x) is x
    with raises(RuntimeError, "The `+` operator, on a bool tensor is not supported."):
        torch.tensor([True]).positive()
    with raises(TypeError, "positive(): argument 'input' (position 1) must be Tensor, not int"):
        torch.positive(1)


def test_is_nonzero_is_the_truth_of_one_element():
    assert not torch.tensor([0.0]).is_nonzero() and torch.is_nonzero(torch.tensor(2))
    assert torch.tensor(float("nan")).is_nonzero()
    with raises(RuntimeError, "Boolean value of Tensor with more than one value is ambiguous"):
        torch.ones(2).is_nonzero()
    with raises(RuntimeError, "Boolean value of Tensor with no values is ambiguous"):
        torch.is_nonzero(torch.ones(0))


def test_sum_to_size_sums_back_to_a_broadcast_shape():
    x = torch.ones(2, 3, requires_grad=True)
    assert x.sum_to_size(2, 3) is x
    kept = x.sum_to_size((1, 3))
    assert kept.tolist() == [[2.0, 2.0, 2.0]] and kept.grad_fn.name() == "SumBackward1"
    dropped = x.sum_to_size([3])
    assert dropped.tolist() == [2.0, 2.0, 2.0] and dropped.grad_fn.name() == "ViewBackward0"
    assert torch.ones(2, 1, 3).sum_to_size(1, 3).tolist() == [[2.0, 2.0, 2.0]]
    with raises(RuntimeError, "size {[3, 2]} is not expandable to size {[2, 3]}."):
        x.sum_to_size(3, 2)
    with raises(RuntimeError, "size {[4]} is not expandable to size {[2, 3]}."):
        x.sum_to_size(4)
    with raises(TypeError, "sum_to_size(): argument 'size' (position 1) must be tuple of ints, "
                           "not str"):
        x.sum_to_size("a")


def test_the_transposes_of_the_last_two_dims():
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    for t in (x.H, x.mH, x.adjoint(), torch.adjoint(x)):
        assert t.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
        assert t.grad_fn.name() == "TransposeBackward0"
    assert torch.ones(4, 2, 3).mH.shape == (4, 3, 2)
    with raises(RuntimeError, "tensor.H is only supported on matrices (2-D tensors). Got 1-D "
                              "tensor."):
        torch.ones(3).H
    with raises(RuntimeError, "tensor.H is only supported on matrices (2-D tensors). Got 3-D "
                              "tensor. For batches of matrices, consider using tensor.mH"):
        torch.ones(4, 2, 3).H
    with raises(RuntimeError, "tensor.mH is only supported on matrices or batches of matrices. "
                              "Got 1-D tensor."):
        torch.ones(3).mH
    with raises(RuntimeError, "tensor.adjoint() is only supported on matrices or batches of "
                              "matrices. Got 1-D tensor."):
        torch.adjoint(torch.ones(3))
