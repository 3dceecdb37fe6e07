"""Casts torch refuses in words of their own: mean of all elements into an integer out is
refused as mean.dtype_out before out is resized, and the function torch.ldexp_ refuses an
integer self as the method does. The same assertions run on torch."""

import warnings

import torch

from conformance._support import raises

X = torch.arange(6.0).reshape(2, 3)


def test_mean_of_all_elements_refuses_before_resizing():
    out = torch.empty(2, 3, dtype=torch.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with raises(RuntimeError, "mean.dtype_out(): input types can't be cast to the desired "
                    "output type Long"):
            torch.mean(X, out=out)
    assert out.shape == (2, 3)


def test_mean_along_a_dim_keeps_its_own_order():
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        torch.mean(X, 0, out=torch.empty(3, dtype=torch.int64))
    out = torch.empty(2, 3, dtype=torch.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert torch.mean(X, out=out).item() == 2.5
    assert len(caught) == 1 and "resized" in str(caught[0].message)


def test_the_function_ldexp_refuses_as_the_method():
    message = "ldexp can't be cast to the desired output type Long"
    with raises(RuntimeError, message):
        torch.ldexp_(torch.tensor([1]), torch.tensor([1]))
    with raises(RuntimeError, message):
        torch.tensor([1]).ldexp_(torch.tensor([1]))
    x = torch.tensor([1.0, 2.0])
    assert torch.ldexp_(x, torch.tensor([1, 2])) is x and x.tolist() == [2.0, 8.0]
