"""Black-box tests: torch.Size added to a NumPy array, and a custom node's materialize_grads,
a flag that is set and never read. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch

from conformance._support import raises


def test_a_size_plus_an_array_is_numpys_elementwise_sum():
    size = torch.Size([2, 3])
    total = size + np.array([1, 2])
    assert isinstance(total, np.ndarray) and total.tolist() == [3, 5]
    assert (np.array([1, 2]) + size).tolist() == [3, 5]
    assert (size + np.array(5)).tolist() == [7, 8]
    assert (size + np.array([1.5])).tolist() == [3.5, 4.5]


def test_a_size_still_concatenates_tuples_and_refuses_the_rest():
    size = torch.Size([2, 3])
    assert size + (1,) == (2, 3, 1) and type(size + (1,)) is torch.Size
    assert (1,) + size == (1, 2, 3) and type((1,) + size) is torch.Size
    with raises(TypeError, "can only concatenate tuple (not list) to torch.Size"):
        size + [1]
    with raises(TypeError, "can only concatenate tuple (not str) to torch.Size"):
        size + "ab"


class _TwoOutputs(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, flag):
        if flag is not None:
            ctx.materialize_grads = flag
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, first, second):
        _TwoOutputs.seen = second
        return first, None


@pytest.mark.parametrize("flag, unused", [(False, None), (None, [0.0]), (True, [0.0])])
def test_materialize_grads_set_as_an_attribute_in_forward(flag, unused):
    x = torch.ones(1, requires_grad=True)
    first, _ = _TwoOutputs.apply(x, flag)
    first.sum().backward()
    seen = _TwoOutputs.seen
    assert (seen if seen is None else seen.tolist()) == unused


def test_a_nodes_materialize_grads_is_set_but_never_read():
    x = torch.ones(1, requires_grad=True)
    first, _ = _TwoOutputs.apply(x, None)
    node = first.grad_fn
    with raises(AttributeError, "attribute 'materialize_grads' of 'torch._C._FunctionBase' "
                "objects is not readable"):
        node.materialize_grads
    node.materialize_grads = False
    first.sum().backward()
    assert _TwoOutputs.seen is None


@pytest.mark.parametrize("value", [1, 0, "yes"])
def test_materialize_grads_takes_a_bool_and_nothing_else(value):
    message = ("set_materialize_grads received an invalid combination of arguments - got (), "
               "but expected (bool)")
    x = torch.ones(1, requires_grad=True)
    with raises(TypeError, message):
        _TwoOutputs.apply(x, value)
    first, _ = _TwoOutputs.apply(x, None)
    with raises(TypeError, message):
        first.grad_fn.set_materialize_grads(value)
    with raises(TypeError, message):
        first.grad_fn.materialize_grads = value
    first.sum().backward()
    assert _TwoOutputs.seen.tolist() == [0.0]  # still materialized
