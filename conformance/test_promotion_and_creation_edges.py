"""Promotion and creation at the edges: silent overflow, ends that must fit the dtype."""

import math
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises
from conformance._warned import always_warned


def _silently(make):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        return make()


def test_an_operand_cast_that_overflows_is_silent():
    half = _silently(lambda: torch.zeros(1, dtype=torch.float16) + torch.tensor(1e5))
    assert half.dtype == torch.float16 and half.tolist() == [math.inf]
    single = _silently(lambda: torch.tensor([1.0]) + torch.tensor(1e39, dtype=torch.float64))
    assert single.dtype == torch.float32 and single.tolist() == [math.inf]


@pytest.mark.parametrize("end", [math.inf, math.nan])
def test_linspace_to_a_non_finite_end_is_nan_silently(end):
    points = _silently(lambda: torch.linspace(0, end, 3))
    assert all(math.isnan(p) for p in points.tolist())


def test_logspace_past_float16_is_inf_silently():
    assert _silently(lambda: torch.logspace(0, 10, 3, dtype=torch.float16)).tolist() == [
        1.0, math.inf, math.inf]


@pytest.mark.parametrize("make, name", [
    (lambda: torch.linspace(1e5, 0, 3, dtype=torch.float16), "c10::Half"),
    (lambda: torch.linspace(0, 7e4, 3, dtype=torch.float16), "c10::Half"),
    (lambda: torch.linspace(0, 300, 3, dtype=torch.uint8), "uint8_t"),
    (lambda: torch.linspace(0, -200, 3, dtype=torch.int8), "int8_t"),
    (lambda: torch.linspace(0, 1e39, 3), "float"),
    (lambda: torch.linspace(torch.tensor(300.0), 0, 3, dtype=torch.uint8), "uint8_t"),
    (lambda: torch.logspace(0, 1e5, 2, dtype=torch.float16), "c10::Half"),
])
def test_linspace_ends_must_fit_the_dtype(make, name):
    with raises(RuntimeError, f"value cannot be converted to type {name} without overflow"):
        make()


def test_linspace_counts_its_steps_before_its_ends():
    with raises(RuntimeError, "number of steps must be non-negative"):
        torch.linspace(0, 300, -1, dtype=torch.uint8)


def test_linspace_from_a_negative_start_into_uint8_wraps():
    assert torch.linspace(-200, 0, 3, dtype=torch.uint8).tolist() == [56, 28, 0]


_FORMS = (" * (Tensor tensor, Tensor other)\n * (Number scalar, Tensor tensor)\n"
          " * (Tensor tensor, Number other)\n * (Number scalar1, Number scalar2)\n")


@pytest.mark.parametrize("args, got", [((), "()"), ((1,), "(int)"), ((1, 2, 3), "(int, int, int)")])
def test_result_type_takes_two_operands(args, got):
    with raises(TypeError, "result_type() received an invalid combination of arguments - got "
                           f"{got}, but expected one of:\n{_FORMS}"):
        torch.result_type(*args)


def test_result_type_refuses_what_is_neither_tensor_nor_number():
    t = torch.ones(1, dtype=torch.int32)
    why = "      didn't match because some of the arguments have invalid types: "
    with raises(TypeError, "result_type() received an invalid combination of arguments - got "
                           "(Tensor, str), but expected one of:\n"
                           f" * (Tensor tensor, Tensor other)\n{why}(Tensor, !str!)\n"
                           f" * (Number scalar, Tensor tensor)\n{why}(!Tensor!, !str!)\n"
                           f" * (Tensor tensor, Number other)\n{why}(Tensor, !str!)\n"
                           f" * (Number scalar1, Number scalar2)\n{why}(!Tensor!, !str!)\n"):
        torch.result_type(t, "a")


def test_result_type_keywords_as_torch_names_them():
    t = torch.ones(1, dtype=torch.int32)
    assert torch.result_type(tensor=t, other=2.0) == torch.float32
    assert torch.result_type(scalar=1, tensor=t) == torch.int32
    assert torch.result_type(scalar1=1, scalar2=2.0) == torch.float32


@pytest.mark.parametrize("number, expected", [
    (np.float64(1), torch.float32), (np.int64(1), torch.int32), (np.bool_(True), torch.float32),
])
def test_result_type_reads_numpy_scalars(number, expected):
    t = torch.ones(1, dtype=torch.int32)
    assert torch.result_type(t, number) == expected
    assert torch.result_type(number, t) == expected


def test_result_type_of_two_numpy_scalars():
    assert torch.result_type(np.float64(1), np.int64(1)) == torch.float32


def test_can_cast_names_a_keyword_argument_without_a_position():
    with raises(TypeError, "can_cast(): argument 'to' must be torch.dtype, not str"):
        torch.can_cast(from_=torch.float32, to="x")
    with raises(TypeError, "can_cast(): argument 'to' (position 2) must be torch.dtype, not str"):
        torch.can_cast(torch.float32, "x")
    assert torch.can_cast(from_=torch.float32, to=torch.int32) is False


_NEGATIVE = ("At least one stride in the given numpy array is negative, and tensors with "
             "negative strides are not currently supported. (You can probably work around this "
             "by making a copy of your array  with array.copy().) ")
_SUPPORTED = ("The only supported types are: float64, float32, float16, complex64, complex128, "
              "int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.")


@pytest.mark.parametrize("array", [np.arange(3)[::-1], np.arange(6).reshape(2, 3)[:, ::-1]])
def test_tensor_refuses_an_array_with_negative_strides(array):
    with raises(ValueError, _NEGATIVE):
        torch.tensor(array)


def test_tensor_refuses_an_array_in_another_byte_order():
    with raises(ValueError, "given numpy array has byte order different from the native byte "
                            "order. Conversion between byte orders is currently not supported."):
        torch.tensor(np.array([1, 2], dtype=np.int32).astype(">i4"))


@pytest.mark.parametrize("array, name", [
    (np.array(1, dtype=object), "object_"), (np.array(["a"]), "str_"),
    (np.array(["2020-01-01"], dtype="datetime64[s]"), "datetime64"),
])
def test_tensor_refuses_an_array_of_a_dtype_torch_lacks(array, name):
    with raises(TypeError, f"can't convert np.ndarray of type numpy.{name}. {_SUPPORTED}"):
        torch.tensor(array)


def test_tensor_refuses_an_object_array_inside_a_list():
    with always_warned(torch):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # refused before the warning for a list of arrays
            with raises(TypeError, f"can't convert np.ndarray of type numpy.object_. {_SUPPORTED}"):
                torch.tensor([np.array([1], dtype=object)])


def test_tensor_copies_a_negatively_strided_array_inside_a_list():
    with always_warned(torch):
        with pytest.warns(UserWarning, match=r"\ACreating a tensor from a list of numpy\.ndarrays "
                                             r"is extremely slow\. Please consider converting the "
                                             r"list to a single numpy\.ndarray with numpy\.array"):
            t = torch.tensor([np.arange(3)[::-1]])
    assert t.tolist() == [[2, 1, 0]]


def test_numpy_scalars_in_a_list_are_no_arrays():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.tensor([np.float64(1), np.float64(2)]).tolist() == [1.0, 2.0]


@pytest.mark.parametrize("data, kind, message", [
    ([1, [2]], TypeError, "'list' object cannot be interpreted as an integer"),
    ([1.5, [2]], TypeError, "must be real number, not list"),
    ([[1], [[2]]], TypeError, "'list' object cannot be interpreted as an integer"),
    ([[1], 2], TypeError, "not a sequence"),
])
def test_a_ragged_list_is_refused_as_torch_refuses_it(data, kind, message):
    with raises(kind, message):
        torch.tensor(data)


def test_a_size_of_numpy_integers_prints_plain_ints():
    assert repr(torch.Size(np.array([2, 3]))) == "torch.Size([2, 3])"
    assert str(torch.Size([np.int64(2), np.int32(3)])) == "torch.Size([2, 3])"


@pytest.mark.parametrize("n", [2**63, -2**63 - 1, 2**70, np.uint64(2**64 - 1)])
def test_a_size_past_int64_is_kept_but_not_printed(n):
    size = torch.Size([n])
    assert tuple(size) == (n,)
    with raises(ValueError, "Overflow when unpacking long long"):
        repr(size)


def test_a_size_at_the_ends_of_int64_is_kept():
    assert tuple(torch.Size([2**63 - 1, -2**63])) == (2**63 - 1, -2**63)


def test_size_takes_one_argument_as_a_tuple_does():
    with raises(TypeError, "tuple expected at most 1 argument, got 2"):
        torch.Size([1], [2])
    with raises(TypeError, "tuple() takes no keyword arguments"):
        torch.Size(sizes=[1])


def test_numel_counts_in_int64():
    assert torch.Size([2**40, 2**40]).numel() == 0
    assert torch.Size([2**62, 3]).numel() == -(2**62)


@pytest.mark.parametrize("dim, name", [("a", "str"), (1.5, "float"), (True, "bool")])
def test_tensor_size_reads_dim_as_an_int(dim, name):
    with raises(TypeError, f"size(): argument 'dim' (position 1) must be int, not {name}"):
        torch.zeros(2, 3).size(dim)


def test_tensor_size_takes_an_index_for_dim():
    assert torch.zeros(2, 3).size(np.int64(1)) == 3
    assert torch.zeros(2, 3).size(torch.tensor(-1)) == 3


@pytest.mark.parametrize("first, second, names", [
    (torch.float16, torch.uint8, "c10::Half != unsigned char"),
    (torch.int8, torch.int16, "signed char != short int"),
    (torch.bool, torch.int64, "bool != long int"),
    (torch.float32, torch.float64, "float != double"),
])
def test_mm_names_mismatched_dtypes_as_c_types(first, second, names):
    with raises(RuntimeError, f"expected m1 and m2 to have the same dtype, but got: {names}"):
        torch.ones(2, 2, dtype=first) @ torch.ones(2, 2, dtype=second)


@pytest.mark.parametrize("second", [torch.uint8, torch.float32, torch.bool])
def test_bmm_refuses_a_first_batch_of_bools_before_comparing_dtypes(second):
    with raises(NotImplementedError, "\"bmm\" not implemented for 'Bool'"):
        torch.bmm(torch.ones(1, 2, 2, dtype=torch.bool), torch.ones(1, 2, 2, dtype=second))


def test_bmm_names_a_second_batch_of_another_dtype_in_legacy_names():
    with raises(RuntimeError, "expected scalar type Byte but found Bool"):
        torch.bmm(torch.ones(1, 2, 2, dtype=torch.uint8), torch.ones(1, 2, 2, dtype=torch.bool))


def test_baddbmm_names_its_input_dtype_as_a_c_type():
    with raises(RuntimeError, "Input dtypes must be the same, got: input c10::Half, batch1: "
                              "float, batch2: float"):
        torch.baddbmm(torch.ones(1, 2, 2, dtype=torch.float16), torch.ones(1, 2, 2),
                      torch.ones(1, 2, 2))


@pytest.mark.parametrize("data, name", [([1.0], "list"), (3, "int"), (np.ones(2), "numpy.ndarray")])
def test_a_parameter_of_what_is_no_tensor_cannot_be_detached(data, name):
    with raises(AttributeError, f"'{name}' object has no attribute 'detach'"):
        torch.nn.Parameter(data)


@pytest.mark.parametrize("make, sizes", [
    (lambda: torch.zeros(2**62), [2**62]),
    (lambda: torch.ones(2**40, 2**40), [2**40, 2**40]),
    (lambda: torch.empty(2**62), [2**62]),
    (lambda: torch.full((2**62,), 1.0), [2**62]),
    (lambda: torch.arange(0, 2**62), [2**62]),
    (lambda: torch.linspace(0, 1, 2**62), [2**62]),
])
def test_a_tensor_whose_bytes_int64_cannot_count_is_refused(make, sizes):
    with raises(RuntimeError, f"Storage size calculation overflowed with sizes={sizes}"):
        make()


def test_arange_past_int64():
    with raises(RuntimeError, "invalid size, possible overflow?"):
        torch.arange(0, 1e20)
    with raises(RuntimeError, "value cannot be converted to type int64_t without overflow"):
        torch.arange(0, 10**19)
