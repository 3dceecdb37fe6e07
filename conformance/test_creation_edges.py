"""Creation at the edges: integer ranges counted exactly, bounds that are not finite."""

import numpy as np
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


@pytest.mark.parametrize("data, dtype, kind, message", [
    (np.float32(1.5), torch.int32, TypeError, "'numpy.float32' object cannot be interpreted as "
                                              "an integer"),
    ([np.float16(1.5), 2], torch.bool, TypeError, "'numpy.float16' object cannot be interpreted "
                                                  "as an integer"),
    ([np.bool_(True)], torch.uint8, TypeError, "'numpy.bool' object cannot be interpreted as an "
                                               "integer"),
    ([1, np.bool_(True)], None, TypeError, "'numpy.bool' object cannot be interpreted as an "
                                           "integer"),
    ([1, None], torch.int64, TypeError, "'NoneType' object cannot be interpreted as an integer"),
    ([1, None], torch.float64, TypeError, "must be real number, not NoneType"),
    (None, torch.float16, TypeError, "must be real number, not NoneType"),
    ([1, [2]], torch.float64, TypeError, "must be real number, not list"),
    ([1, [2]], torch.int32, TypeError, "'list' object cannot be interpreted as an integer"),
    ([1, 1j], torch.float32, TypeError, "must be real number, not complex"),
    ("a", torch.float32, TypeError, "new(): invalid data type 'str'"),
    ("a", None, TypeError, "new(): invalid data type 'str'"),
    ([1, "a"], torch.bool, TypeError, "'str' object cannot be interpreted as an integer"),
    ([1, "a"], None, TypeError, "new(): invalid data type 'str'"),
    (["a", 1], torch.int64, ValueError, "too many dimensions 'str'"),
    ([["a"]], None, ValueError, "too many dimensions 'str'"),
])
def test_an_element_the_dtype_cannot_take(data, dtype, kind, message):
    with raises(kind, message):
        torch.tensor(data, dtype=dtype)


@pytest.mark.parametrize("data, dtype, expected", [
    ([np.float32(1.5), 2], torch.float64, [1.5, 2.0]),
    ([np.bool_(True), 0], torch.bool, [True, False]),
    ([np.int8(-3), 2.7], torch.int64, [-3, 2]),
    ([1j, 0], torch.bool, [True, False]),
    ([np.float64(1.5)], torch.int32, [1]),
])
def test_elements_the_dtype_takes(data, dtype, expected):
    assert torch.tensor(data, dtype=dtype).tolist() == expected
