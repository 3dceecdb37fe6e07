"""A call given out= that misses an argument is refused for it, in the words of torch's
parser, before out= is refused for a tensor that requires grad and before ger warns that it
is deprecated. The same assertions run on torch."""

import warnings

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize(("name", "missing"), [
    ("add", '1 required positional arguments: "other"'),
    ("sub", '1 required positional arguments: "other"'),
    ("mul", '1 required positional arguments: "other"'),
    ("div", '1 required positional arguments: "other"'),
    ("outer", '1 required positional arguments: "vec2"'),
    ("ger", '1 required positional arguments: "vec2"'),
    ("cummax", '1 required positional arguments: "dim"'),
    ("cummin", '1 required positional arguments: "dim"'),
    ("cholesky_solve", '1 required positional arguments: "input2"'),
    ("ormqr", '2 required positional argument: "input2", "input3"'),
])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_the_missing_argument_is_named_first(name, missing, requires_grad):
    x = torch.ones(2, requires_grad=requires_grad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # ger does not warn first
        with raises(TypeError, f"{name}() missing {missing}"):
            getattr(torch, name)(x, out=torch.empty(0))


def test_out_is_still_refused_for_a_call_that_binds():
    x = torch.ones(2, requires_grad=True)
    with raises(RuntimeError, "add(): functions with out=... arguments don't support automatic "
                "differentiation, but one of the arguments requires grad."):
        torch.add(x, x, out=torch.empty(2))
    out = torch.empty(2, 2)
    assert torch.outer(x.detach(), x.detach(), out=out) is out
    values, indices = torch.cummax(torch.tensor([1.0, 3.0, 2.0]), 0,
                                   out=(torch.empty(3), torch.empty(3, dtype=torch.long)))
    assert values.tolist() == [1.0, 3.0, 3.0] and indices.tolist() == [0, 1, 1]
    with pytest.warns(UserWarning, match="torch.ger is deprecated"):
        torch.ger(x.detach(), x.detach(), out=out)
