"""Creation at the edges: integer ranges counted exactly, bounds that are not finite."""

import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize("start, end, step, expected", [
    (0, 4, 2, [0, 2]),
    (0, 5, 2, [0, 2, 4]),
    (10, 0, -3, [10, 7, 4, 1]),
    (-7, 7, 7, [-7, 0]),
    (0, 2**40, 2**39, [0, 2**39]),
    (0, 2**60 + 1, 2**59, [0, 2**59, 2**60]),
])
def test_an_integer_range_stops_before_its_end(start, end, step, expected):
    assert torch.arange(start, end, step).tolist() == expected


@pytest.mark.parametrize("args, message", [
    ((float("inf"),), "unsupported range: 0 -> inf"),
    ((0, float("nan")), "unsupported range: 0 -> nan"),
    ((float("-inf"), 0), "unsupported range: -inf -> 0"),
    ((1.5, float("inf"), 1.0), "unsupported range: 1.5 -> inf"),
    ((1e20, float("inf")), "unsupported range: 1e+20 -> inf"),
    ((0.0, 5.0, float("nan")), "step must be nonzero"),
])
def test_a_range_with_a_bound_that_is_not_finite_is_refused(args, message):
    with raises(RuntimeError, message):
        torch.arange(*args)
