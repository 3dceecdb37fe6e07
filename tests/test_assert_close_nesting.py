"""assert_close walks nested inputs with its own stack: depth is no limit."""

import pytest

import refgrad


def _nested(depth: int, leaf):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def test_deep_nesting_compares_and_names_the_path():
    refgrad.testing.assert_close(_nested(5000, refgrad.ones(2)), _nested(5000, refgrad.ones(2)))
    with pytest.raises(AssertionError) as caught:
        refgrad.testing.assert_close(_nested(3000, 1), _nested(3000, 2))
    assert str(caught.value).endswith("The failure occurred for item " + "[0]" * 3000)


def test_items_are_compared_in_order_and_the_first_failure_is_raised():
    with pytest.raises(AssertionError, match=r"item \[1\]\[0\]\Z"):
        refgrad.testing.assert_close([1, [2, 3], 4], [1, [5, 6], 7])
