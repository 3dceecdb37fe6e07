"""A size= given as None is refused as no tuple of ints, where a size not given at all is
missing; and ldexp's kernel resizes a tensor made like its input, with the out= warning."""

import warnings

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("make, name", [
    (lambda: torch.ones(size=None), "ones"), (lambda: torch.zeros(size=None), "zeros"),
    (lambda: torch.empty(size=None), "empty"), (lambda: torch.randn(size=None), "randn"),
    (lambda: torch.zeros(2).new_ones(size=None), "new_ones"),
])
def test_size_none_is_no_tuple_of_ints(make, name):
    with raises(TypeError, f"{name}(): argument 'size' must be tuple of ints, not NoneType"):
        make()


@pytest.mark.parametrize("make, name", [
    (lambda: torch.ones(), "ones"), (lambda: torch.zeros(2).new_zeros(), "new_zeros"),
])
def test_no_size_at_all_is_missing(make, name):
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "size"'):
        make()


_RESIZED = ("An output with one or more elements was resized since it had shape {}, which does "
            "not match the required output shape {}.")


@pytest.mark.parametrize("base, exponent, shapes", [
    (torch.tensor([1.0]), torch.tensor([1, 2]), ([1], [2])),
    (torch.tensor(1.0), torch.tensor([1, 2]), ([], [2])),
    (torch.tensor([[1.0]]), torch.tensor([1, 2]), ([1, 1], [1, 2])),
])
def test_ldexp_resizes_a_tensor_made_like_its_input(base, exponent, shapes):
    with pytest.warns(UserWarning) as record:
        out = torch.ldexp(base, exponent)
    assert [str(w.message)[:len(_RESIZED.format(*shapes))] for w in record] == [
        _RESIZED.format(*shapes)]
    assert out.tolist() == torch.ldexp(base.expand(out.shape), exponent).tolist()


def test_ldexp_of_an_input_already_of_the_result_shape_warns_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.ldexp(torch.tensor([1.0, 1.0]), torch.tensor([1])).tolist() == [2.0, 2.0]
        assert torch.ldexp(torch.empty(0), torch.tensor([1, 2])[:0]).tolist() == []
