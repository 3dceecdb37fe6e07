"""Black-box tests: how the size factories take their size, and torch's errors without one.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

_OPTIONS = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False")


@pytest.mark.parametrize("name", ["ones", "zeros", "empty", "rand", "randn"])
def test_the_size_comes_by_position_or_by_name(name):
    factory = getattr(torch, name)
    assert factory(2, 3).shape == factory((2, 3)).shape == factory([2, 3]).shape == (2, 3)
    assert factory(size=(2, 3)).shape == (2, 3)
    assert factory(()).shape == factory(size=[]).shape == ()


@pytest.mark.parametrize("name", ["ones", "zeros", "empty"])
def test_a_size_given_twice_is_refused(name):
    with raises(TypeError, f"{name}() got multiple values for argument 'size'"):
        getattr(torch, name)(2, size=(2,))


@pytest.mark.parametrize("name", ["ones", "zeros", "empty"])
def test_no_size_at_all_is_refused(name):
    factory = getattr(torch, name)
    for kwargs in ({}, {"dtype": torch.float64}, {"requires_grad": True}):
        with raises(TypeError, f'{name}() missing 1 required positional arguments: "size"'):
            factory(**kwargs)


@pytest.mark.parametrize("name", ["rand", "randn"])
def test_a_draw_with_nothing_lists_both_signatures(name):
    factory = getattr(torch, name)
    with raises(TypeError, (
            f"{name}() received an invalid combination of arguments - got (), but expected "
            f"one of:\n * (tuple of ints size, *, torch.Generator generator, Tensor out = None, "
            f"{_OPTIONS})\n * (tuple of ints size, *, Tensor out = None, {_OPTIONS})\n")):
        factory()
    with raises(TypeError, f'{name}() missing 1 required positional arguments: "size"'):
        factory(dtype=torch.float64)
    with raises(TypeError, (
            f"{name}() received an invalid combination of arguments - got (int, int, "
            f"dtype=torch.dtype, size=tuple), but expected one of:\n * (tuple of ints size, *, "
            f"torch.Generator generator, Tensor out = None, {_OPTIONS})\n * (tuple of ints "
            f"size, *, Tensor out = None, {_OPTIONS})\n")):
        factory(2, 3, size=(2,), dtype=torch.float64)
