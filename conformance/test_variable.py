"""torch.autograd.Variable, as old programs call it: a detached leaf, never a wrapper."""

import warnings

import pytest
import torch
from torch.autograd import Variable

from conformance._support import raises

VOLATILE = ("volatile was removed and now has no effect. Use `with torch.no_grad():` "
            "instead.")


def test_a_variable_is_the_tensor_detached_and_made_a_leaf():
    t = torch.ones(2)
    v = Variable(t)
    assert type(v) is torch.Tensor and v is not t and not v.requires_grad and v.is_leaf
    v.add_(1)
    assert t.tolist() == [2.0, 2.0] and t._version == 1  # values and versions shared
    x = torch.ones(2, requires_grad=True) * 2
    w = Variable(x, requires_grad=True)
    assert w.is_leaf and w.requires_grad and w.grad_fn is None
    (w * 3).sum().backward()
    assert w.grad.tolist() == [3.0, 3.0] and x.grad_fn is not None
    assert not Variable(x).requires_grad
    empty = Variable()
    assert empty.shape == (0,) and empty.dtype == torch.float32
    assert Variable(None, requires_grad=True).requires_grad
    assert isinstance(t, Variable) and not isinstance(3, Variable)


def test_volatile_only_warns():
    t = torch.ones(2)
    with pytest.warns(UserWarning) as caught:
        v = Variable(t, volatile=True)
    assert [str(w.message) for w in caught] == [VOLATILE] and caught[0].filename == __file__
    assert not v.requires_grad
    with pytest.warns(UserWarning), raises(ValueError, "Variable can't be volatile and "
                                                       "require_grad at the same time!"):
        Variable(t, True, True)


@pytest.mark.parametrize("args, kwargs, kind, message", [
    ((3,), {}, TypeError, "Variable data has to be a tensor, but got int"),
    (([1.0],), {}, TypeError, "Variable data has to be a tensor, but got list"),
    ((None,), {"foo": 1}, TypeError, "'foo' is an invalid keyword argument for this function"),
    ((None, True), {"requires_grad": True}, TypeError,
     "argument for function given by name ('requires_grad') and position (2)"),
    ((None, -1), {}, OverflowError, "unsigned byte integer is less than minimum"),
    ((None, 300), {}, OverflowError, "unsigned byte integer is greater than maximum"),
    ((None, 2.5), {}, TypeError, "'float' object cannot be interpreted as an integer"),
    ((None, 1, 0, None, None, 5), {}, TypeError, "function takes at most 5 arguments (6 given)"),
    ((None, 1, 0, None, None), {"requires_grad": 1}, TypeError,
     "function takes at most 5 arguments (6 given)"),
    ((3,), {"_grad_fn": 3}, TypeError, "_grad_fn has to be a Function object or None, but got int"),
    ((None,), {"name": 3}, TypeError, "argument 5 must be str or None, not int"),
])
def test_arguments_are_read_as_torch_reads_them(args, kwargs, kind, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(kind, message):
            Variable(*args, **kwargs)


def test_only_floating_variables_require_grad():
    with raises(RuntimeError, "Only Tensors of floating point and complex dtype can require "
                              "gradients"):
        Variable(torch.ones(2, dtype=torch.long), requires_grad=True)
    assert Variable(torch.ones(2, dtype=torch.long)).dtype == torch.int64
