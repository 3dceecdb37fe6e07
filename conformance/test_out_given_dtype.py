"""Black-box tests: a reduction given dtype= writes only into an out of that dtype, and out= is
taken only by the forms of a function that list it. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

F64 = torch.float64
EXPECTED = "Expected out tensor to have dtype double, but got {} instead"
PROVIDED = "nansum: provided dtype must match dtype of result. Got {} and Double."
NANMEAN_INTEGERS = ("nanmean(): integral types and 'Bool' are not supported for nanmean, even "
                    "for empty tensors.")
OUT_DTYPES = [(torch.float32, "float", "Float"), (torch.int64, "long int", "Long")]


@pytest.mark.parametrize("out_dtype, c_name, _", OUT_DTYPES)
@pytest.mark.parametrize("name", ["sum", "mean", "prod", "cumsum", "cumprod"])
def test_an_out_of_another_dtype_than_the_given_one_is_refused(name, out_dtype, c_name, _):
    out = torch.zeros(5, dtype=out_dtype)
    with raises(RuntimeError, EXPECTED.format(c_name)):
        getattr(torch, name)(torch.ones(2, 3), 1, dtype=F64, out=out)
    assert out.shape == (5,) and out._version == 0  # neither resized nor written


@pytest.mark.parametrize("out_dtype, _, legacy", OUT_DTYPES)
@pytest.mark.parametrize("name", ["nansum", "nanmean"])
def test_nansum_and_nanmean_refuse_it_in_their_words(name, out_dtype, _, legacy):
    with raises(RuntimeError, PROVIDED.format(legacy)):
        getattr(torch, name)(torch.ones(2, 3), 1, dtype=F64, out=torch.zeros(0, dtype=out_dtype))


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "cumsum", "cumprod", "nanmean"])
def test_a_dimension_out_of_range_is_reported_first(name):
    message = "Dimension out of range (expected to be in range of [-2, 1], but got 5)"
    with raises(IndexError, message):
        getattr(torch, name)(torch.ones(2, 3), 5, dtype=F64, out=torch.zeros(0))


def test_nansum_of_floats_checks_the_dtype_before_the_dimension():
    with raises(RuntimeError, PROVIDED.format("Float")):
        torch.nansum(torch.ones(2, 3), 5, dtype=F64, out=torch.zeros(0))


def test_nansum_of_integers_is_sum():
    with raises(RuntimeError, EXPECTED.format("float")):
        torch.nansum(torch.ones(2, 3, dtype=torch.int64), 1, dtype=F64, out=torch.zeros(0))


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool])
def test_nanmean_with_out_refuses_integers_before_anything(dtype):
    out = torch.zeros(0, requires_grad=True)
    with raises(RuntimeError, NANMEAN_INTEGERS):
        torch.nanmean(torch.ones(2, 3, dtype=dtype), 7, out=out)


@pytest.mark.parametrize("name", ["sum", "mean", "cumsum"])
def test_the_dtype_is_refused_before_a_shared_out(name):
    out = torch.zeros(1).expand(6)
    with raises(RuntimeError, EXPECTED.format("float")):
        getattr(torch, name)(torch.ones(6), 0, dtype=F64, out=out)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_refuses_the_dtype_before_a_shared_out(name):
    out = torch.zeros(1, dtype=F64).expand(6)
    with raises(RuntimeError, "Expected out tensor to have dtype float, but got double instead"):
        getattr(torch, name)(torch.ones(6), 0, out=out)


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "nansum", "cumsum", "softmax"])
def test_an_out_of_the_given_dtype_is_written(name):
    out = torch.zeros(0, dtype=F64)
    result = getattr(torch, name)(torch.ones(2, 3), 1, dtype=F64, out=out)
    assert result is out and out.dtype == F64 and out.shape[0] == 2


@pytest.mark.parametrize("call, message", [
    ("torch.sum(x, keepdim=True, out=o)", 'sum() missing 1 required positional arguments: "dim"'),
    ("torch.sum(x, dtype=torch.float32, out=o)",
     'sum() missing 1 required positional arguments: "dim"'),
    ("torch.prod(x, dtype=torch.float32, out=o)",
     'prod() missing 1 required positional arguments: "dim"'),
    ("torch.median(x, out=o)", 'median() missing 1 required positional arguments: "dim"'),
    ("torch.nanmedian(x, out=o)", 'nanmedian() missing 1 required positional arguments: "dim"'),
])
def test_out_without_a_dim_is_refused_where_no_such_form_takes_it(call, message):
    o = torch.zeros(())
    with raises(TypeError, message):
        eval(call, {"torch": torch, "x": torch.ones(2, 3), "o": o})
    assert o._version == 0


@pytest.mark.parametrize("name", ["sum", "prod"])
def test_out_alone_fits_neither_form(name):
    with pytest.raises(TypeError) as error:
        getattr(torch, name)(torch.ones(2, 3), out=torch.zeros(()))
    first = str(error.value).splitlines()[0]
    assert first == (f"{name}() received an invalid combination of arguments - got (Tensor, "
                     "out=Tensor), but expected one of:")


@pytest.mark.parametrize("call", ["torch.mean(x, out=o)", "torch.nansum(x, out=o)",
                                  "torch.std(x, out=o)", "torch.amax(x, out=o)",
                                  "torch.sum(x, dim=None, out=o)"])
def test_the_forms_that_take_out_without_a_dim_still_do(call):
    o = torch.zeros(())
    assert eval(call, {"torch": torch, "x": torch.ones(2, 3), "o": o}) is o
    assert o._version == 1
