"""Black-box tests: uniform_ refuses bounds its dtype cannot hold, and draws nothing."""

import math

import pytest
import torch

from conformance._support import raises

_WIDTH = ("uniform_ expects to-from <= std::numeric_limits<{}>::max(), but found to={} and "
          "from={} which result in to-from to exceed the limit")


@pytest.mark.parametrize(("low", "high", "dtype", "message"), [
    (0, math.inf, torch.float32, "to is out of bounds for float"),
    (math.nan, 1, torch.float32, "from is out of bounds for float"),
    (-math.inf, 0, torch.float32, "from is out of bounds for float"),
    (0, 1e39, torch.float32, "to is out of bounds for float"),
    (1, math.nan, torch.float64, "to is out of bounds for double"),
    (-7e4, 0, torch.float16, "from is out of bounds for c10::Half"),
    (-3e38, 3e38, torch.float32, _WIDTH.format("Float", "3e+38", "-3e+38")),
    (-6e4, 6e4, torch.float16, _WIDTH.format("Half", "60000", "-60000")),
    (-32768, 32767, torch.float16, _WIDTH.format("Half", "32767", "-32768")),
    (-1.5e308, 1e308, torch.float64, _WIDTH.format("Double", "1e+308", "-1.5e+308")),
    (2, 1, torch.float32, "uniform_ expects to return a [from, to) range, but found from=2 > "
                          "to=1"),
])
@pytest.mark.parametrize("n", [2, 0])
def test_uniform_refuses_bounds_before_drawing(low, high, dtype, message, n):
    torch.manual_seed(0)
    with raises(RuntimeError, message):
        torch.empty(n, dtype=dtype).uniform_(low, high)
    assert torch.rand(1).item() == 0.49625658988952637  # nothing drawn


def test_widths_a_dtype_holds_are_drawn_from():
    torch.manual_seed(0)
    drawn = torch.empty(500, dtype=torch.float16).uniform_(-32752, 32752)
    assert bool((drawn >= -32752).all()) and bool((drawn < 32752).all())
    assert torch.empty(3, dtype=torch.float16).uniform_(0, 65504).isfinite().all()


def test_an_integer_tensor_is_refused_for_its_dtype_whatever_the_bounds():
    for n in (2, 0):
        with raises(NotImplementedError, "\"check_uniform_bounds\" not implemented for 'Long'"):
            torch.zeros(n, dtype=torch.int64).uniform_(2, 1)
