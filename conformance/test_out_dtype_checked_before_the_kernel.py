"""An elementwise op checks that out (or self, in place) can hold its result's dtype, and
resizes out, before its kernel refuses that dtype: the cast or "Found dtype" error comes
first, not the kernel's NotImplementedError. The bitwise ops, gcd and lcm, which take only
integers, refuse only an out that requires grad. The same assertions run on torch."""

import warnings

import pytest
import torch

from conformance._support import raises

CAST = "result type {} can't be cast to the desired output type {}"
FOUND = "Found dtype {} but expected {}"
BINARY = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
          "bitwise_right_shift", "gcd", "lcm"]


def _floats():
    return torch.tensor([1.0, 2.0])


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("out_dtype, word", [(torch.int64, "Long"), (torch.bool, "Bool"),
                                             (torch.uint8, "Byte")])
def test_a_float_result_into_an_integer_out(name, out_dtype, word):
    out = torch.zeros(2, dtype=out_dtype)
    ints = torch.tensor([1, 2])
    with raises(RuntimeError, CAST.format("Float", word)):
        getattr(torch, name)(ints, _floats(), out=out)
    with raises(RuntimeError, CAST.format("Float", word)):
        getattr(torch, name)(_floats(), ints, out=out)
    assert out.tolist() == [0, 0]


@pytest.mark.parametrize("name", BINARY[:5])
def test_a_float_number_into_an_integer_out(name):
    with raises(RuntimeError, CAST.format("Float", "Long")):
        getattr(torch, name)(torch.tensor([1, 2]), 2.5, out=torch.zeros(2, dtype=torch.int64))


@pytest.mark.parametrize("name, x, word", [
    ("bitwise_not", torch.tensor([1.0], dtype=torch.float16), "Half"),
    ("abs", torch.tensor([True]), "Bool"), ("floor", torch.tensor([True]), "Bool"),
    ("frac", torch.tensor([1]), "Long")])
def test_an_exact_out_of_another_dtype(name, x, word):
    out_dtype = torch.float64 if word == "Long" else torch.int64
    out_word = "Double" if word == "Long" else "Long"
    with raises(RuntimeError, FOUND.format(out_word, word)):
        getattr(torch, name)(x, out=torch.zeros(1, dtype=out_dtype))


@pytest.mark.parametrize("name", ["hypot_", "igamma_", "igammac_", "nextafter_"])
@pytest.mark.parametrize("other_dtype, word", [(torch.uint8, "Byte"), (torch.int64, "Long")])
def test_in_place_into_a_bool_tensor(name, other_dtype, word):
    x = torch.tensor([True, False])
    with raises(RuntimeError, CAST.format(word, "Bool")):
        getattr(x, name)(torch.tensor([1, 0], dtype=other_dtype))
    assert x.tolist() == [True, False]


def test_the_kernel_still_refuses_once_out_takes_the_dtype():
    out = torch.zeros(1, dtype=torch.bool)
    with pytest.warns(UserWarning, match="had shape \\[1\\], which does not match the required "
                                         "output shape \\[2\\]"):
        with raises(NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"):
            torch.abs(torch.tensor([True, False]), out=out)
    assert out.shape == (2,)  # resized before the kernel refused


@pytest.mark.parametrize("out_dtype, warned", [(torch.float32, 1), (torch.float64, 2)])
def test_out_is_resized_once_or_twice_before_the_kernel_refuses(out_dtype, warned):
    out = torch.zeros(3, dtype=out_dtype)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with raises(NotImplementedError, "\"bitwise_and_cpu\" not implemented for 'Float'"):
            torch.bitwise_and(_floats(), 1, out=out)
    assert len(seen) == warned and out.shape == (2,)


@pytest.mark.parametrize("name", BINARY)
def test_only_an_out_that_requires_grad_is_refused_for_grad(name):
    leaf = _floats().requires_grad_()
    with raises(RuntimeError, CAST.format("Float", "Long")):
        getattr(torch, name)(leaf, torch.tensor([1, 2]), out=torch.zeros(2, dtype=torch.int64))
    with raises(RuntimeError, f"aten::{name}(): functions with out=... arguments don't support "
                              "automatic differentiation, but one of the arguments requires grad."):
        getattr(torch, name)(torch.tensor([1, 2]), torch.tensor([1, 2]),
                             out=torch.zeros(2, requires_grad=True))
