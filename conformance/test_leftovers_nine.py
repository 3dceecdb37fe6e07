"""Black-box tests: the functions torch.nn.functional shares with torch are torch's own
objects, seen as one by handlers and refused in one set of words. The same assertions run
on torch.
"""

import warnings

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


TRIGGERED = " (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/{}.)"
A = torch.eye(3) + 0.1


@pytest.mark.parametrize("call, ending", [
    (lambda: torch.zeros(3, 2).index_reduce(0, torch.tensor([0]), torch.ones(1, 2), "prod"),
     "TensorAdvancedIndexing.cpp:1523"),
    (lambda: torch.zeros(3, 2).scatter_(0, torch.tensor([[0, 1]]), torch.ones(1, 2),
                                        reduce="add"), "TensorAdvancedIndexing.cpp:225"),
    (lambda: torch.cholesky(A @ A.T), "BatchLinearAlgebra.cpp:1765"),
    (lambda: torch.triangular_solve(torch.ones(3, 1), torch.eye(3)),
     "BatchLinearAlgebra.cpp:2273"),
    (lambda: torch.qr(A), "BatchLinearAlgebra.cpp:2505"),
    (lambda: torch.lu(A), "BatchLinearAlgebra.cpp:2073"),
    (lambda: torch.lu_solve(torch.ones(3, 1), *torch.linalg.lu_factor(A)),
     "BatchLinearAlgebra.cpp:2230"),
])
def test_a_kernels_warning_ends_with_the_place_that_raised_it(warn_always, call, ending):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert [w.category for w in caught] == [UserWarning]
    assert str(caught[0].message).endswith(TRIGGERED.format(ending))


def test_lu_solves_warning_names_the_programs_line(warn_always):
    LU, pivots = torch.linalg.lu_factor(A)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.lu_solve(torch.ones(3, 1), LU, pivots)
        torch.ones(3, 1).lu_solve(LU, pivots)
    assert [w.filename for w in caught] == [__file__] * 2


@pytest.mark.parametrize("name", ["abs_", "relu_", "clamp_", "celu_", "selu_", "sigmoid_"])
def test_in_place_functions_of_torch_are_not_listed_as_overridable(name):
    function = getattr(torch, name)
    listed = torch.overrides.get_overridable_functions()
    assert function not in listed[torch]
    assert function not in torch.overrides.get_testing_overrides()
    if hasattr(torch.Tensor, name):
        assert getattr(torch.Tensor, name) in listed[torch.Tensor]
    torch.overrides.get_ignored_functions()
    assert function(Seen()) is function  # a handler is asked all the same


@pytest.mark.parametrize("name", ["hardshrink", "pdist", "bilinear", "conv2d", "gelu", "linear",
                                  "softplus", "logsigmoid", "scaled_dot_product_attention"])
def test_a_function_f_holds_is_listed_under_f(name):
    listed = torch.overrides.get_overridable_functions()
    assert getattr(F, name) in listed[F]
    assert torch.nn not in listed
