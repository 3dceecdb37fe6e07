"""Invalid calls refused with the exception torch raises first: size() and stride() read a
tensor dim only when it is a 0-d integer one; F.pad reads its amounts before its mode;
F.margin_ranking_loss misses its target in Python's words; F.instance_norm checks the spatial
size before its arguments; a tensor of several elements given for inplace, return_indices or
padding_idx is an ambiguous truth value; F.celu_ reads its alpha as a number;
Tensor.unflatten asks whether sizes is empty first;
exponential_ checks its rate, kthvalue its k and prelu its dtypes before anything else, and
take_along_dim without a dim leaves its index to gather; nuclear_norm reads one int dim as two
of it; addbmm reads its result's sizes off the batches first. The same assertions run on
torch."""

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

X = torch.arange(6.0).reshape(2, 3)
AMBIGUOUS = "Boolean value of Tensor with more than one value is ambiguous"


@pytest.mark.parametrize("method", ["size", "stride"])
@pytest.mark.parametrize(("dim", "where"), [
    (X, " (position 1)"), (torch.tensor([1]), " (position 1)"),
    (torch.tensor(1.0), " (position 1)"), (torch.tensor(True), " (position 1)")])
def test_a_dim_tensor_must_be_a_0d_integer(method, dim, where):
    with raises(TypeError, f"{method}(): argument 'dim'{where} must be int, not Tensor"):
        getattr(X, method)(dim)
    with raises(TypeError, f"{method}(): argument 'dim' must be int, not Tensor"):
        getattr(X, method)(dim=dim)


@pytest.mark.parametrize("method", ["size", "stride"])
@pytest.mark.parametrize("dim", [np.array(1), np.array([1, 2]), np.float64(1)])
def test_numpy_arrays_and_floats_are_no_dim(method, dim):
    with raises(TypeError, f"{method}(): argument 'dim' (position 1) must be int, not "
                f"{type(dim).__module__}.{type(dim).__name__}"):
        getattr(X, method)(dim)


@pytest.mark.parametrize("method", ["size", "stride"])
def test_a_0d_integer_dim_is_read_as_its_int(method):
    expected = getattr(X, method)(1)
    assert getattr(X, method)(torch.tensor(1)) == expected
    assert getattr(X, method)(np.int64(1)) == expected
    assert getattr(X, method)(dim=torch.tensor(-1)) == expected


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda: F.pad(X, X, X), TypeError,
     "pad(): argument 'pad' (position 2) must be tuple of ints, not Tensor"),
    (lambda: F.pad(X, (1, 1), X), TypeError,
     "pad(): argument 'mode' (position 3) must be str, not Tensor"),
    (lambda: F.pad(X, (1, 1), mode=3), TypeError,
     "pad(): argument 'mode' (position 3) must be str, not int"),
    (lambda: F.pad(X, (1, 1), None), TypeError,
     "pad(): argument 'mode' (position 3) must be str, not NoneType"),
    (lambda: F.pad(X, (1, 1), "foo"), NotImplementedError, "Unrecognised padding mode foo"),
    (lambda: F.margin_ranking_loss(X, 1), TypeError,
     "margin_ranking_loss() missing 1 required positional argument: 'target'"),
    (lambda: F.instance_norm(X, 1), ValueError,
     "Expected more than 1 spatial element when training, got input size torch.Size([2, 3])"),
    (lambda: F.celu(X, X, X), RuntimeError, AMBIGUOUS),
    (lambda: F.elu(X, X, X), RuntimeError, AMBIGUOUS),
    (lambda: F.leaky_relu(X, X, X), RuntimeError, AMBIGUOUS),
    (lambda: F.embedding(X, X, X), RuntimeError, AMBIGUOUS),
    (lambda: F.adaptive_max_pool1d(X[None], X, X), RuntimeError, AMBIGUOUS),
    (lambda: F.adaptive_max_pool2d(X[None], X, X), RuntimeError, AMBIGUOUS),
    (lambda: X.unflatten(X, X), RuntimeError, AMBIGUOUS),
    (lambda: X.unflatten(0, torch.tensor([2, 1])), RuntimeError, AMBIGUOUS),
    (lambda: X.unflatten(0, ()), RuntimeError, "unflatten: sizes must be non-empty"),
    (lambda: F.celu_(X, X), TypeError,
     "celu_(): argument 'alpha' (position 2) must be Number, not Tensor"),
    (lambda: F.celu_(X, "a"), TypeError,
     "celu_(): argument 'alpha' (position 2) must be Number, not str"),
    (lambda: torch.tensor([True]).exponential_(0), RuntimeError,
     "exponential_ expects lambda > 0.0, but found lambda=0"),
    (lambda: torch.tensor([1]).exponential_(-0.5), RuntimeError,
     "exponential_ expects lambda > 0.0, but found lambda=-0.5"),
    (lambda: torch.tensor([True, False]).kthvalue(0), RuntimeError,
     "kthvalue(): selected number k out of range for dimension 0"),
    (lambda: torch.tensor([True]).kthvalue(1), NotImplementedError,
     "\"kthvalue_cpu\" not implemented for 'Bool'"),
    (lambda: F.prelu(torch.ones(2, 3), torch.tensor([0, 2])), RuntimeError,
     "prelu: Type promoting not supported. Got Float and Long"),
    (lambda: F.prelu(torch.ones(()), torch.ones(2, dtype=torch.int64)), RuntimeError,
     "prelu: Type promoting not supported. Got Float and Long"),
    (lambda: F.prelu(torch.ones(2, 3), torch.tensor([0.0, 2])), RuntimeError,
     "Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 and "
     "channel size = 3."),
    (lambda: torch.take_along_dim(X, X), RuntimeError,
     "gather(): Expected dtype int32/int64 for index"),
    (lambda: torch.take_along_dim(X, X, 1), RuntimeError,
     "torch.take_along_dim(): dtype of indices should be Long but got Float"),
])
def test_the_first_refusal_is_torchs(call, kind, message):
    with raises(kind, message):
        call()


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda: torch.nuclear_norm(X, 1), RuntimeError,
     "linalg.matrix_norm: dims must be different. Got (1, 1)"),
    (lambda: torch.nuclear_norm(X, 1, out=torch.empty(())), RuntimeError,
     "linalg.matrix_norm: dims must be different. Got (1, 1)"),
    (lambda: torch.addbmm(X, X, X), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: X.clone().addbmm_(X, X), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: torch.addbmm(X, torch.ones(3), torch.ones(2, 3, 4)), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: torch.addbmm(X, torch.ones(2, 3), torch.ones(2, 3, 4)), RuntimeError,
     "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
     "dimension 1.  Target sizes: [3, 4].  Tensor sizes: [2, 3]"),
])
def test_sizes_are_read_as_torch_reads_them(call, kind, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nuclear_norm's deprecation
        with raises(kind, message):
            call()


def test_the_calls_that_fit_still_run():
    assert F.pad(X, (1, 1), "constant", torch.tensor(2.0)).shape == (2, 5)
    assert F.pad(X, [1, 1], "constant", 2).sum().item() == X.sum().item() + 8
    assert X.unflatten(1, (3, 1)).shape == (2, 3, 1)
    x = torch.arange(24.0).reshape(2, 3, 4)
    assert F.instance_norm(x, torch.zeros(3), torch.ones(3), momentum=torch.tensor(0.5)).shape \
        == (2, 3, 4)
    assert F.margin_ranking_loss(X, X, torch.ones(2, 3)).item() == 0.0
    picked = torch.take_along_dim(X, torch.tensor([5, 0], dtype=torch.int32))
    assert picked.tolist() == [5.0, 0.0]
    assert torch.take_along_dim(torch.zeros(0, 3), torch.zeros(0, 3)).shape == (0,)
    assert torch.addbmm(torch.ones(4), torch.ones(2, 2, 3), torch.ones(2, 3, 4)).shape == (2, 4)
    pooled = F.adaptive_max_pool2d_with_indices(X[None], 2, False)
    assert isinstance(pooled, tuple) and len(pooled) == 2
