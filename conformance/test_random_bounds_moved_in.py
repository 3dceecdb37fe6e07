"""Black-box tests: randint and random_ on a floating dtype draw between bounds it holds.

torch moves each bound in to a number the dtype holds before it draws, so such a draw is
the int64 draw between the moved bounds: the same numbers, not only the same numbers
rounded.
"""

import warnings

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize(("dtype", "low", "high", "moved_low", "moved_high"), [
    (torch.float32, 0, 2**25, 0, 2**25 - 2),
    (torch.float32, 0, 2**24 + 4, 0, 2**24 + 2),
    (torch.float32, 0, 2**24 + 2, 0, 2**24 + 2),
    (torch.float32, 0, 2**31, 0, 2**31 - 128),
    (torch.float32, -2**25 - 7, 2**25 + 9, -2**25 - 4, 2**25 + 9),
    (torch.float16, 0, 5000, 0, 4996),
    (torch.float16, 0, 65504, 0, 65472),
    (torch.float16, -5001, 5001, -5001, 5001),
])
def test_a_floating_draw_is_the_integer_draw_between_the_moved_bounds(
        dtype, low, high, moved_low, moved_high):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # past 2**digits: torch's precision warning
        torch.manual_seed(0)
        drawn = torch.randint(low, high, (50,), dtype=dtype)
        after = torch.get_rng_state()
        torch.manual_seed(0)
        filled = torch.empty(50, dtype=dtype).random_(low, high)
    torch.manual_seed(0)
    expected = torch.randint(moved_low, moved_high, (50,)).to(dtype)
    assert torch.equal(after, torch.get_rng_state())
    assert drawn.tolist() == expected.tolist()
    assert filled.tolist() == expected.tolist()


def test_bounds_that_meet_once_moved_are_refused_in_their_moved_form():
    message = ("random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, "
               "but got from={} >= to={}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises(RuntimeError, message.format(4999, 4996)):
            torch.empty(2, dtype=torch.float16).random_(4999, 5000)
        with raises(RuntimeError, message.format(4100, 4098)):
            torch.randint(4097, 4098, (2,), dtype=torch.float16)
