"""How torch.nn.functional reads its arguments: counts, names, shapes and kernel sizes."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

X = torch.ones(2, 3)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: F.gelu(X, "tanh"), "gelu() takes 1 positional argument but 2 were given"),
    (lambda: F.gelu(), 'gelu() missing 1 required positional arguments: "input"'),
    (lambda: F.gelu(tensor=X), 'gelu() missing 1 required positional arguments: "input"'),
    (lambda: F.one_hot(tensor=torch.tensor([1]), num_classes=3),
     'one_hot() missing 1 required positional arguments: "input"'),
    (lambda: F.logsigmoid(X, 1), "log_sigmoid() takes 1 positional argument but 2 were given"),
    (lambda: F.logsigmoid(X, foo=1), "log_sigmoid() got an unexpected keyword argument 'foo'"),
    (lambda: F.linear(), 'linear() missing 2 required positional argument: "input", "weight"'),
    (lambda: F.linear(X, foo=1), 'linear() missing 1 required positional arguments: "weight"'),
    (lambda: F.linear(X, X, None, 1), "linear() takes from 2 to 3 positional arguments but 4 "
     "were given"),
    (lambda: F.softplus(X, beta=1, input=X), "softplus() got multiple values for argument "
     "'input'"),
    (lambda: F.threshold(X, 0.5), "_threshold() missing 1 required positional argument: "
     "'value'"),
], ids=["gelu-positional", "gelu-none", "gelu-keyword", "one_hot", "logsigmoid-count",
        "logsigmoid-keyword", "linear-none", "linear-keyword", "linear-count",
        "softplus-twice", "threshold"])
def test_argument_counts(call, message):
    with raises(TypeError, message):
        call()


def test_gelu_takes_approximate_by_keyword():
    assert F.gelu(X, approximate="tanh").shape == X.shape
    assert F.threshold.__name__ == "_threshold"


@pytest.mark.parametrize(("shape", "tail"), [
    (torch.tensor([3]), "(position 2) must be tuple of ints, not Tensor"),
    (range(3, 4), "(position 2) must be tuple of ints, not range"),
    (np.array([3]), "(position 2) must be tuple of ints, not numpy.ndarray"),
    (None, "(position 2) must be tuple of ints, not NoneType"),
    ((3.0,), "(position 2) must be tuple of ints, but found element of type float at pos 0"),
    ((True,), "(position 2) must be tuple of ints, but found element of type bool at pos 0"),
    ([3, 2.0], 'failed to unpack the object at pos 2 with error "type must be tuple of ints,'
     'but got float"'),
], ids=["tensor", "range", "array", "none", "float", "bool", "second"])
@pytest.mark.parametrize("name", ["layer_norm", "rms_norm"])
def test_normalized_shape_is_a_tuple_of_ints(name, shape, tail):
    with raises(TypeError, f"{name}(): argument 'normalized_shape' {tail}"):
        getattr(F, name)(X, shape)


@pytest.mark.parametrize("shape", [[3], (3,), torch.Size([3]), (torch.tensor(3),)])
def test_normalized_shapes_taken(shape):
    assert torch.equal(F.layer_norm(X, shape), F.layer_norm(X, (3,)))


@pytest.mark.parametrize(("x", "size", "shown"), [
    (torch.ones(1, 2, 2), 0, "kH: 0 kW: 1"), (torch.ones(1, 2, 2), -1, "kH: -1 kW: 1"),
    (torch.ones(1, 2, 2, 2), 0, "kT: 0 kH: 1 kW: 1")])
def test_local_response_norm_refuses_a_size_not_positive(x, size, shown):
    with raises(RuntimeError, f"kernel size should be greater than zero, but got {shown}"):
        F.local_response_norm(x, size)


def test_avg_pool_refuses_a_negative_kernel_as_not_positive():
    with raises(RuntimeError, "kernel size should be greater than zero, but got kH: -1 kW: 1"):
        F.avg_pool2d(torch.ones(1, 1, 3, 3), (-1, 1))
