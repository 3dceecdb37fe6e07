"""Black-box tests: numbers that do not fit an in-place op's dtype, integer division of
empty tensors, and the order in which an in-place op's refusals come. The same assertions
run on torch.
"""

import pytest
import torch

from conformance._support import raises

T = torch.tensor
SHAPE = "output with shape {} doesn't match the broadcast shape {}"


def test_in_place_comparisons_wrap_an_int_to_the_tensors_dtype():
    u8 = lambda: T([0, 200, 255], dtype=torch.uint8)  # noqa: E731
    i8 = lambda: T([-56, 100, 127], dtype=torch.int8)  # noqa: E731
    assert u8().lt_(-1).tolist() == [1, 1, 0]  # -1 is 255
    assert u8().le_(-1).tolist() == [1, 1, 1]
    assert u8().gt_(-1).tolist() == [0, 0, 0]
    assert u8().ge_(456).tolist() == [0, 1, 1]  # 456 is 200
    assert i8().eq_(200).tolist() == [1, 0, 0]  # 200 is -56
    assert i8().ne_(-156).tolist() == [1, 0, 1]  # -156 is 100
    assert T([4464, 1], dtype=torch.int16).eq_(70000).tolist() == [1, 0]
    assert T([0, 1], dtype=torch.int32).le_(2**33).tolist() == [1, 0]  # 2**33 is 0
    assert (u8() < -1).tolist() == [True, True, False]  # as out of place


def test_in_place_comparisons_keep_floats_and_bools_unwrapped():
    assert T([0, 200, 255], dtype=torch.uint8).lt_(300.5).tolist() == [1, 1, 1]
    assert T([-56, 100], dtype=torch.int8).lt_(-1.5).tolist() == [1, 0]
    assert T([True, False]).lt_(2).tolist() == [True, True]  # compared as Long
    assert T([65504.0, float("inf")], dtype=torch.float16).lt_(70000).tolist() == [1.0, 0.0]
    for name in ("lt_", "eq_"):
        with raises(OverflowError, "int too big to convert"):
            getattr(T([1], dtype=torch.uint8), name)(2**64)


def test_addcmul_and_addcdiv_convert_value_to_the_dtype_they_compute_in():
    u8 = lambda: T([0, 200, 255], dtype=torch.uint8)  # noqa: E731
    assert torch.addcmul(u8(), u8(), u8(), value=-1).tolist() == [0, 136, 254]
    assert torch.addcmul(u8(), u8(), u8(), value=-255).tolist() == [0, 8, 0]
    for value in (256, -256, 300.5, -1.5):
        with raises(RuntimeError, "value cannot be converted to type uint8_t without overflow"):
            torch.addcmul(u8(), u8(), u8(), value=value)
    f16 = T([1.0, 2.0], dtype=torch.float16)
    for call in (lambda: torch.addcmul(f16, f16, f16, value=1e300),
                 lambda: torch.addcdiv(T([1.0]), T([1.0]), T([2.0]), value=1e300),
                 lambda: torch.lerp(f16, f16, 1e300)):
        with raises(RuntimeError, "value cannot be converted to type float without overflow"):
            call()
    assert torch.addcmul(T([1.0], dtype=torch.float64), T([1.0], dtype=torch.float64),
                         T([1.0], dtype=torch.float64), value=1e300).tolist() == [1e300]
    with raises(OverflowError, "int too big to convert"):
        torch.addcdiv(u8(), u8(), u8(), value=2**64)  # the parser's error, before the dtypes'
    with raises(OverflowError, "can't convert negative int to unsigned"):
        torch.lerp(T([1], dtype=torch.int8), T([1], dtype=torch.int8), -2**63 - 1)


def test_addcdiv_in_place_refuses_the_cast_before_the_value():
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Byte"):
        T([1], dtype=torch.uint8).addcdiv_(T([1], dtype=torch.uint8), T([1.0]), value=1e300)


DIVISIONS = {
    "//": lambda a, b: a // b, "%": lambda a, b: a % b, "remainder": torch.remainder,
    "fmod": torch.fmod, "floor_divide": torch.floor_divide,
    "trunc": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "floor": lambda a, b: torch.div(a, b, rounding_mode="floor"),
    "//=": lambda a, b: a.__ifloordiv__(b), "%=": lambda a, b: a.__imod__(b),
    "remainder_": lambda a, b: a.remainder_(b), "fmod_": lambda a, b: a.fmod_(b),
    "floor_divide_": lambda a, b: a.floor_divide_(b),
    "div_ trunc": lambda a, b: a.div_(b, rounding_mode="trunc"),
}


@pytest.mark.parametrize("name", DIVISIONS)
def test_an_empty_integer_tensor_divides_by_zero(name):
    divide = DIVISIONS[name]
    assert divide(T([], dtype=torch.int64), 0).shape == (0,)
    assert divide(torch.zeros(2, 0, dtype=torch.int32), T([0])).shape == (2, 0)
    assert divide(T([], dtype=torch.uint8), T(0, dtype=torch.uint8)).dtype is torch.uint8
    with raises(RuntimeError, "ZeroDivisionError"):
        divide(T([1]), 0)


def test_an_empty_result_of_a_bigger_shape_still_divides_nothing():
    assert (T([1, 2]) // torch.zeros(0, 1, dtype=torch.int64)).shape == (0, 2)


REFUSED_FOR_SHAPE = {
    "bitwise_and_ of floats": (lambda: T(1.0).bitwise_and_(T([3.0, 2.0])), [], [2]),
    "bitwise_or_ cast": (lambda: T([1, 2]).bitwise_or_(torch.ones(2, 2, dtype=torch.float64)),
                         [2], [2, 2]),
    "floor_divide_ by zero": (
        lambda: T(127, dtype=torch.int8).floor_divide_(T([0, 1])), [], [2]),
    "remainder_ by zero": (lambda: T(2).remainder_(T([0, 2])), [], [2]),
    "fmod_ by zero": (lambda: T(2).fmod_(T([0, 2])), [], [2]),
    "div_ trunc by zero": (lambda: T(2).div_(T([0, 2]), rounding_mode="trunc"), [], [2]),
    "%= by zero": (lambda: T(0, dtype=torch.int32).__imod__(T([5, 0], dtype=torch.int16)),
                   [], [2]),
    "//= of bools": (lambda: T([[True, False]]).__ifloordiv__(T([[True, True], [False, True]])),
                     [1, 2], [2, 2]),
    "<<= of float16": (lambda: T(0.0, dtype=torch.float16).__ilshift__(T([1, 2])), [], [2]),
    "lerp_ of ints": (lambda: T(1).lerp_(T([1, 2]), 0.5), [], [2]),
    "addcmul_ of bools": (lambda: T(True).addcmul_(T([True, False]), T(True)), [], [2]),
    "addcmul_ value": (lambda: T(1, dtype=torch.uint8).addcmul_(
        T([1, 2], dtype=torch.uint8), T(1, dtype=torch.uint8), value=300), [], [2]),
    "hypot_ of ints": (lambda: T(2).hypot_(T([1, 2])), [], [2]),
    "gcd_ of floats": (lambda: T(1.0).gcd_(T([1.0, 2.0])), [], [2]),
    "fmod_ by a bool": (lambda: T([1, 13, -7]).fmod_(T([[True, True, False],
                                                        [True, False, True]])), [3], [2, 3]),
}


@pytest.mark.parametrize("name", REFUSED_FOR_SHAPE)
def test_a_bigger_broadcast_shape_is_refused_before_dtypes_and_kernels(name):
    call, shape, broadcast = REFUSED_FOR_SHAPE[name]
    with raises(RuntimeError, SHAPE.format(shape, broadcast)):
        call()


def test_the_same_ops_keep_their_other_refusals_at_their_own_shape():
    with raises(NotImplementedError, "\"bitwise_and_cpu\" not implemented for 'Float'"):
        T([1.0, 2.0]).bitwise_and_(T([3.0, 2.0]))
    with raises(RuntimeError, "result type Double can't be cast to the desired output type Long"):
        T([1, 2]).bitwise_or_(T([1.0, 2.0], dtype=torch.float64))
    with raises(RuntimeError, "ZeroDivisionError"):
        T([127, 1], dtype=torch.int8).floor_divide_(T([0, 1]))
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        T([1]).gcd_(T([1.0]))


def test_refusals_that_come_before_the_shape():
    leaf = T(1.0, requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        leaf.bitwise_and_(T([1.0, 2.0]))
    with raises(RuntimeError, "unsupported operation: more than one element of the written-to "
                              "tensor refers to a single memory location. Please clone() the "
                              "tensor before performing the operation."):
        T([1.0]).expand(2).bitwise_and_(T([[1.0, 2.0], [3.0, 4.0]]))
    with raises(RuntimeError, "expected dtype float for `end` but got dtype double"):
        T(1.0).lerp_(T([1.0, 2.0], dtype=torch.float64), 0.5)
    with raises(RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not "
                              "supported. Use the `^` or `logical_xor()` operator instead."):
        T(True).sub_(T([True, False]))
    assert leaf.grad is None and leaf._version == 0
