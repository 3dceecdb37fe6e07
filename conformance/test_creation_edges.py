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


UNPACK = "{}(): argument 'size' failed to unpack the object at pos {} with error \"type must be " \
         "tuple of ints,but got {}\""


@pytest.mark.parametrize("name", ["ones", "empty", "zeros", "rand", "randn"])
@pytest.mark.parametrize("args, message", [
    ((2, 3.0), UNPACK.format("{}", 2, "float")),
    (((2, 3.0),), UNPACK.format("{}", 2, "float")),
    ((2, 3, "a"), UNPACK.format("{}", 3, "str")),
    (([2, 3, None],), UNPACK.format("{}", 3, "NoneType")),
    (((2, torch.tensor(1.5)),), UNPACK.format("{}", 2, "Tensor")),
    (((2.0, 3),), "{}(): argument 'size' (position 1) must be tuple of ints, but found element of "
                  "type float at pos 0"),
    (((True, 2),), "{}(): argument 'size' (position 1) must be tuple of ints, but found element of "
                   "type bool at pos 0"),
    (("a",), "{}(): argument 'size' (position 1) must be tuple of ints, not str"),
])
def test_sizes_that_are_not_ints(name, args, message):
    with raises(TypeError, message.format(name)):
        getattr(torch, name)(*args)


@pytest.mark.parametrize("name", ["ones", "empty", "zeros"])
def test_a_first_size_that_is_not_an_int_makes_the_rest_too_many(name):
    with raises(TypeError, f"{name}() takes 1 positional argument but 2 were given"):
        getattr(torch, name)((2, 3), (1, 2))


def test_a_bool_after_the_first_size_is_one():
    assert torch.ones(2, True).shape == (2, 1)
    assert torch.zeros((2, True)).shape == (2, 1)


def test_negative_sizes():
    with raises(RuntimeError, "zeros: Dimension size must be non-negative."):
        torch.zeros(2, -1)
    with raises(RuntimeError, "Trying to create tensor with negative dimension -2: [-2, -1]"):
        torch.ones(-2, -1)


LAYOUTS = [
    (lambda: torch.arange(6.0).reshape(2, 3).t(), (1, 3)),  # dense: its own strides
    (lambda: torch.zeros(2, 3, 4).permute(1, 2, 0), (4, 1, 12)),
    (lambda: torch.zeros(4, 5)[:, ::2], (3, 1)),  # not dense: inferred, here row-major
    (lambda: torch.zeros(2, 3, 4).transpose(0, 2)[1], (1, 3)),  # not dense, column-major
    (lambda: torch.zeros(2, 3)[:, None].expand(2, 4, 3), (12, 3, 1)),  # a 0 stride decides none
    (lambda: torch.zeros(0, 3).t(), (1, 3)),
]


@pytest.mark.parametrize("make, strides", LAYOUTS)
@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like", "rand_like",
                                  "randn_like"])
def test_a_like_factory_keeps_the_layout(make, strides, name):
    x = make()
    out = getattr(torch, name)(x)
    assert out.shape == x.shape and out.stride() == strides
    assert torch.full_like(x, 7).stride() == strides


def test_rand_like_draws_along_the_memory():
    x = torch.arange(6.0).reshape(2, 3).t()
    drawn = torch.rand_like(x, generator=torch.Generator().manual_seed(0))
    plain = torch.rand(6, generator=torch.Generator().manual_seed(0))
    assert drawn.t().flatten().tolist() == plain.tolist()


def test_randn_like_draws_one_at_a_time_into_a_storage_that_is_not_row_major():
    x = torch.zeros(2, 3, 4).permute(1, 2, 0)  # 24 numbers: more than one batch of sixteen
    drawn = torch.randn_like(x, generator=torch.Generator().manual_seed(3))
    assert drawn.stride() == (4, 1, 12)
    small = torch.randn(2, generator=torch.Generator().manual_seed(3))  # one at a time, too
    assert drawn.permute(2, 0, 1).flatten()[:2].tolist() == small.tolist()


@pytest.mark.parametrize("args, lower, upper", [
    ((3, 3), [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]], [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]),
    ((2, 3, 1), [[0, 0, 1, 1, 1], [0, 1, 0, 1, 2]], [[0, 0, 1], [1, 2, 2]]),
    ((3, 2, -1), [[1, 2, 2], [0, 0, 1]], [[0, 0, 1, 1, 2], [0, 1, 0, 1, 1]]),
    ((0, 3), [[], []], [[], []]),
])
def test_triangle_indices(args, lower, upper):
    assert torch.tril_indices(*args).tolist() == lower
    assert torch.triu_indices(*args).tolist() == upper
    assert torch.tril_indices(*args).dtype == torch.int64
    assert torch.triu_indices(*args, dtype=torch.int32).dtype == torch.int32


@pytest.mark.parametrize("call, kind, message", [
    (lambda: torch.tril_indices(3, 3, dtype=torch.float32), NotImplementedError,
     "\"tril_indices\" not implemented for 'Float'"),
    (lambda: torch.triu_indices(2, 3, dtype=torch.int16), NotImplementedError,
     "\"triu_indices\" not implemented for 'Short'"),
    (lambda: torch.tril_indices(-1, 3), RuntimeError, "row must be non-negative, got-1"),
    (lambda: torch.triu_indices(3, -2), RuntimeError, "col must be non-negative, got-2"),
    (lambda: torch.tril_indices(3.0, 3), TypeError,
     "tril_indices(): argument 'row' (position 1) must be int, not float"),
    (lambda: torch.tril_indices(3), TypeError,
     'tril_indices() missing 1 required positional arguments: "col"'),
    (lambda: torch.triu_indices(3, 3, requires_grad=True), RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
])
def test_triangle_indices_refuse(call, kind, message):
    with raises(kind, message):
        call()
