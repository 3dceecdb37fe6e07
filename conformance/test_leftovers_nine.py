"""Black-box tests: the functions torch.nn.functional shares with torch are torch's own
objects, seen as one by handlers and refused in one set of words. The same assertions run
on torch.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

SHARED = ["bilinear", "celu_", "hardshrink", "pdist", "selu_"]


def test_every_name_f_shares_with_torch_is_the_same_object():
    shared = sorted(name for name in dir(F) if not name.startswith("__") and hasattr(torch, name)
                    and callable(getattr(F, name)) and getattr(F, name) is getattr(torch, name))
    assert set(SHARED) <= set(shared)
    assert "relu_" in shared and "conv2d" in shared and "relu" not in shared


@pytest.mark.parametrize("name", SHARED)
def test_f_holds_torchs_function(name):
    assert getattr(F, name) is getattr(torch, name)
    assert {getattr(torch, name): 1}[getattr(F, name)] == 1


class Seen:
    """A tensor-like whose handler says which function it was handed."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func


@pytest.mark.parametrize("name", ["celu_", "hardshrink", "pdist", "selu_"])
def test_a_handler_is_handed_torchs_function_through_f(name):
    torch.overrides.get_ignored_functions()  # a plain tensor-like needs the protocol on
    assert getattr(F, name)(Seen()) is getattr(torch, name)


def test_bilinear_through_f_hands_torchs_function():
    torch.overrides.get_ignored_functions()
    seen = Seen()
    assert F.bilinear(seen, seen, seen) is torch.bilinear


def test_an_unknown_keyword_reads_as_the_missing_input_through_f():
    with raises(TypeError, "hardshrink(): argument 'input' must be Tensor, not int"):
        F.hardshrink(x=1)



NO_STRIDES = "sym_strides() called on an undefined Tensor"
NO_MASK = ("masked_fill_ only supports boolean masks, but got mask with dtype nullptr "
           "(uninitialized)")
TOO_FEW = ('ntensor >= 3 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
           'cpu/IndexKernelUtils.h":8, please report a bug to PyTorch. ')


@pytest.mark.parametrize("shape", [(3,), (2, 3)])
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_with_no_indices_fails_torchs_writing_loop(shape, accumulate):
    x = torch.zeros(2, 3)
    with raises(RuntimeError, TOO_FEW):
        x.index_put_([], torch.ones(shape), accumulate=accumulate)
    assert x.eq(0).all()
    x[()] = torch.ones(shape)  # assigning through an empty index still writes
    assert x.eq(1).all()


def test_index_put_with_no_indices_checks_shape_dtype_and_autograd_first():
    with raises(RuntimeError, NO_STRIDES):
        torch.zeros(2, 3).index_put_((), torch.tensor(1))  # before the dtype check
    with raises(RuntimeError, "shape mismatch: value tensor of shape [1, 1, 3] cannot be "
                              "broadcast to indexing result of shape [2, 3]"):
        torch.zeros(2, 3).index_put_([], torch.ones(1, 1, 3), accumulate=True)
    with raises(RuntimeError, "Index put requires the source and destination dtypes match, "
                              "got Float for the destination and Long for the source."):
        torch.zeros(2, 3).index_put_([], torch.ones(3, dtype=torch.int64))
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        torch.zeros(2, 3, requires_grad=True).index_put_([], torch.ones(3))


def test_index_put_with_no_indices_and_one_value_takes_the_maskless_fill():
    with raises(RuntimeError, NO_STRIDES):
        torch.zeros(2, 3).index_put_([], torch.ones(1))
    with raises(RuntimeError, NO_MASK):
        torch.zeros(()).index_put_([], torch.ones(1))
    with raises(RuntimeError, TOO_FEW):
        torch.zeros(2, 3).index_put_([], torch.tensor(1.), accumulate=True)


def test_index_put_out_of_place_with_no_indices_fails_as_well():
    with raises(RuntimeError, TOO_FEW):
        torch.index_put(torch.zeros(2, 3, requires_grad=True), (), torch.ones(3))
    with raises(RuntimeError, NO_MASK):
        torch.index_put(torch.zeros(()), [], torch.ones(()))
