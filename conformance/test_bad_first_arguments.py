"""A one-tensor function given a string, None or a list first: torch's TypeError, by name."""

import pytest
import torch

from conformance._support import raises

# (function, the name torch gives its first parameter)
FIRST = [(name, "input") for name in (
    "absolute", "argsort", "argwhere", "bincount", "broadcast_to", "celu", "corrcoef", "cov",
    "det", "diag", "diag_embed", "diagflat", "diff", "fliplr", "flipud", "hardshrink", "histc",
    "inverse", "is_floating_point", "ldexp_", "logdet", "matrix_exp", "msort", "negative",
    "nonzero", "numel", "pdist", "pinverse", "rand_like", "randn_like", "ravel", "rot90", "selu",
    "slogdet", "sort", "square", "svd", "t", "trace", "tril", "triu", "unique",
    "unique_consecutive")]
FIRST += [("cumulative_trapezoid", "y"), ("trapezoid", "y"), ("trapz", "y"),
          ("where", "condition")]
BAD = [("a", "str"), (None, "NoneType"), ([1.0, 2.0], "list")]


@pytest.mark.parametrize("value, kind", BAD)
@pytest.mark.parametrize("name, first", FIRST)
def test_a_first_argument_that_is_not_a_tensor(name, first, value, kind):
    said = "_unique2" if name == "unique" else name  # the op torch.unique calls
    with raises(TypeError, f"{said}(): argument '{first}' (position 1) must be Tensor, "
                           f"not {kind}"):
        getattr(torch, name)(value)


@pytest.mark.parametrize("name, call, expected", [
    ("tril", lambda f: f(torch.ones(2, 2), 1).tolist(), [[1.0, 1.0], [1.0, 1.0]]),
    ("sort", lambda f: f(torch.tensor([2.0, 1.0]))[0].tolist(), [1.0, 2.0]),
    ("where", lambda f: f(torch.tensor([True, False]), 1.0, 0.0).tolist(), [1.0, 0.0]),
    ("trace", lambda f: f(torch.eye(3)).item(), 3.0),
])
def test_a_tensor_first_still_works(name, call, expected):
    assert call(getattr(torch, name)) == expected


def test_a_failure_with_a_tensor_first_keeps_its_own_error():
    with raises(RuntimeError, "linalg.inv: A must be batches of square matrices, "
                              "but they are 2 by 3 matrices"):
        torch.inverse(torch.ones(2, 3))
