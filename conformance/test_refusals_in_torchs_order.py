"""Invalid calls refused with the exception torch raises first: size() and stride() read a
tensor dim only when it is a 0-d integer one; F.pad reads its amounts before its mode;
F.margin_ranking_loss misses its target in Python's words; F.instance_norm checks the spatial
size before its arguments; a tensor of several elements given for inplace, return_indices or
padding_idx is an ambiguous truth value; Tensor.unflatten asks whether sizes is empty first.
The same assertions run on torch."""

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
    (lambda: X.unflatten(X, X), RuntimeError, AMBIGUOUS),
    (lambda: X.unflatten(0, torch.tensor([2, 1])), RuntimeError, AMBIGUOUS),
    (lambda: X.unflatten(0, ()), RuntimeError, "unflatten: sizes must be non-empty"),
])
def test_the_first_refusal_is_torchs(call, kind, message):
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
