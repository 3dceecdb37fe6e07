"""Black-box tests: division that rounds, remainders, NotImplemented nodes, bits.

The same assertions run on torch: its values (signed zeros included), dtypes,
grad_fn names, saved values, error types and messages.
"""

import math

import pytest
import torch

from conformance._support import raises

NOT_IMPLEMENTED_FLOOR = "derivative for aten::floor_divide is not implemented"


def signs(t):
    return [math.copysign(1.0, v) for v in t.tolist()]


def test_floor_trunc_and_the_two_remainders_of_floats():
    a = torch.tensor([-3.5, 3.5, -4.0, 4.0, 7.25])
    assert (a // 2).tolist() == [-2.0, 1.0, -2.0, 2.0, 3.0]
    assert torch.div(a, 2, rounding_mode="trunc").tolist() == [-1.0, 1.0, -2.0, 2.0, 3.0]
    assert torch.div(a, 2, rounding_mode="floor").tolist() == [-2.0, 1.0, -2.0, 2.0, 3.0]
    assert (a % 2).tolist() == [0.5, 1.5, 0.0, 0.0, 1.25]
    assert torch.fmod(a, 2).tolist() == [-1.5, 1.5, -0.0, 0.0, 1.25]
    assert (a % -2).tolist() == [-1.5, -0.5, 0.0, 0.0, -0.75]
    # torch keeps fmod's zero as it is: -4 % 2 is -0.0, and 4 % -2 is 0.0
    assert signs(a % 2)[2:4] == [-1.0, 1.0]
    assert signs(a % -2)[2:4] == [-1.0, 1.0]
    assert (2 % a).tolist() == [-1.5, 2.0, -2.0, 2.0, 2.0]
    assert (7 // a).tolist() == [-2.0, 2.0, -2.0, 1.0, 0.0]


def test_floats_divided_by_zero_give_infinities_and_nans():
    a = torch.tensor([-1.5, 1.5, 0.0])
    assert (a // 0).tolist()[:2] == [-math.inf, math.inf] and math.isnan((a // 0)[2])
    assert all(math.isnan(v) for v in (a % 0).tolist() + torch.fmod(a, 0).tolist())
    assert torch.div(a, 0, rounding_mode="trunc").tolist()[:2] == [-math.inf, math.inf]


def test_integers_round_as_c_and_python_do_and_refuse_a_zero_divisor():
    i = torch.tensor([-7, 5, 9, -8, 0])
    assert (i // -3).tolist() == [2, -2, -3, 2, 0]
    assert torch.div(i, -3, rounding_mode="trunc").tolist() == [2, -1, -3, 2, 0]
    assert (i % -3).tolist() == [-1, -1, 0, -2, 0]
    assert torch.fmod(i, -3).tolist() == [-1, 2, 0, -2, 0]
    assert (i // 2).dtype == torch.div(i, 2, rounding_mode="floor").dtype == torch.int64
    assert (i // 2.5).dtype == (i % 2.5).dtype == torch.float32
    assert torch.div(i, 2, rounding_mode=None).tolist() == [-3.5, 2.5, 4.5, -4.0, 0.0]
    divisors = torch.tensor([1, 2, 0, 3, 4])
    for form in (lambda: i // 0, lambda: i % 0, lambda: torch.fmod(i, 0),
                 lambda: torch.div(i, 0, rounding_mode="trunc"), lambda: i // divisors,
                 lambda: torch.remainder(i, divisors)):
        with raises(RuntimeError, "ZeroDivisionError"):
            form()
    assert math.isnan(torch.remainder(i, 0.0)[0])


def test_a_number_beside_uint8_wraps_and_bools_have_no_kernels():
    u = torch.tensor([7, 250, 0], dtype=torch.uint8)
    assert (u // -3).tolist() == [0, 0, 0] and (u % -3).tolist() == [7, 250, 0]
    assert (u % 300).tolist() == [7, 30, 0] and (u // 3).dtype == torch.uint8
    b = torch.tensor([True, False, True])
    assert (b // 2).dtype == torch.int64 and (b % 2).tolist() == [1, 0, 1]
    for form, kernel in ((lambda: b // b, "div_floor_cpu"), (lambda: b % b, "remainder_cpu"),
                         (lambda: torch.fmod(b, b), "fmod_cpu"),
                         (lambda: b.div(b, rounding_mode="trunc"), "div_trunc_cpu")):
        with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Bool'"):
            form()


def test_the_nodes_of_division_that_rounds():
    x = torch.tensor([-3.5, 2.0, 7.25], requires_grad=True)
    o = torch.tensor([2.0, -2.0, 3.0], requires_grad=True)
    y = x.div(2, rounding_mode="floor")
    assert type(y.grad_fn).__name__ == "DivBackward2"
    assert y.grad_fn.next_functions[1] == (None, 0)
    assert y.grad_fn._saved_rounding_mode == "floor" and y.grad_fn._saved_self is None
    assert y.grad_fn._saved_other.tolist() == 2
    y = torch.div(x, o, rounding_mode=None)
    assert type(y.grad_fn).__name__ == "DivBackward2" and y.grad_fn._saved_rounding_mode is None
    assert type(torch.div(x, o).grad_fn).__name__ == "DivBackward0"
    assert type((x % 2).grad_fn).__name__ == "RemainderBackward0"
    assert len((x % 2).grad_fn.next_functions) == 1
    assert not [n for n in dir((x % 2).grad_fn) if n.startswith("_saved")]
    assert type(torch.fmod(x, o).grad_fn).__name__ == "FmodBackward1"
    assert torch.fmod(x, o).grad_fn._saved_other is o


def test_what_remainder_saves_and_in_which_order():
    x = torch.tensor([-3.5, 2.0], requires_grad=True)
    o = torch.tensor([2.0, -2.0], requires_grad=True)
    packed = []

    def pack(t):
        packed.append(t.tolist())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x % o
        assert packed == [[2.0, -2.0], [-3.5, 2.0]]  # other, then self
        packed.clear()
        x % o.detach()  # both are saved for other's gradient only
        torch.fmod(x, o.detach())
        assert packed == []
        x.div(o.detach(), rounding_mode="floor")
        assert packed == [[2.0, -2.0]]


def test_gradients_of_division_that_rounds_and_of_remainders():
    x = torch.tensor([-3.5, 2.0, 7.25], requires_grad=True)
    o = torch.tensor([2.0, -2.0, 3.0], requires_grad=True)
    upstream = torch.tensor([1.0, math.inf, 2.0])
    (x.div(o, rounding_mode="floor") * upstream).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0] and o.grad.tolist() == [0.0, 0.0, 0.0]
    x.grad = o.grad = None
    (x % o).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0] and o.grad.tolist() == [2.0, 1.0, -2.0]
    x.grad = o.grad = None
    torch.fmod(x, o).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0] and o.grad.tolist() == [1.0, 1.0, -2.0]


def test_floor_divide_records_a_node_that_has_no_derivative():
    x = torch.tensor([-3.5, 2.0], requires_grad=True)
    for y, operation in ((x // 2, "floor_divide"), (2 // x, "floor_divide"),
                         (torch.floor_divide(x, x.detach() + 1), "floor_divide"),
                         (2 % x, "remainder")):
        assert type(y.grad_fn).__name__ == "NotImplemented"
        assert y.grad_fn.name() == "torch::autograd::NotImplemented"
        assert not [n for n in dir(y.grad_fn) if n.startswith("_saved")]
        with raises(RuntimeError, f"derivative for aten::{operation} is not implemented"):
            y.sum().backward()
    # edges only to the inputs that require grad
    assert len(torch.floor_divide(x, x.detach()).grad_fn.next_functions) == 1
    assert len(torch.floor_divide(x.detach(), x).grad_fn.next_functions) == 1
    assert len(torch.floor_divide(x, x * 2).grad_fn.next_functions) == 2
    assert torch.remainder(x.detach(), x).grad_fn.next_functions[0] == (None, 0)
    assert (x.detach() // 2).grad_fn is None
    assert type(x.clone().floor_divide_(2).grad_fn).__name__ == "NotImplemented"
    with raises(RuntimeError, NOT_IMPLEMENTED_FLOOR.replace("divide", "divide_")):
        x.clone().floor_divide_(2).sum().backward()
    y = x.clone()
    y //= 2
    with raises(RuntimeError, NOT_IMPLEMENTED_FLOOR.replace("divide", "divide_")):
        y.sum().backward()


def test_forward_mode_refuses_operations_without_a_derivative():
    import torch.autograd.forward_ad as fwAD

    x = torch.tensor([-3.5, 2.0], dtype=torch.float64)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, torch.ones(2, dtype=torch.float64))
        for form, operation in ((lambda: dual // 2, "floor_divide"),
                                (lambda: 2 % dual, "remainder")):
            with raises(NotImplementedError, f"Trying to use forward AD with aten::{operation} "
                                             "that does not support it."):
                form()
        assert fwAD.unpack_dual(dual % 2).tangent.tolist() == [1.0, 1.0]
        assert fwAD.unpack_dual(dual.div(3, rounding_mode="floor")).tangent.tolist() == [0, 0]


def test_bad_rounding_modes_and_operands():
    x = torch.tensor([1.5, 2.0])
    with raises(RuntimeError, "div expected rounding_mode to be one of None, 'trunc', or "
                              "'floor' but found 'bad'"):
        torch.div(x, 2, rounding_mode="bad")
    with pytest.raises(TypeError, match=r"^div\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, int, rounding_mode=int\)"):
        torch.div(x, 2, rounding_mode=3)
    with pytest.raises(TypeError, match=r"^floor_divide\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, str\)"):
        torch.floor_divide(x, "a")
    with pytest.raises(TypeError, match=r"^fmod\(\) received an invalid combination of "
                                        r"arguments - got \(int, Tensor\)"):
        torch.fmod(2, x)
    for form in (lambda: x // [1], lambda: x % "a", lambda: [1] // x):
        with pytest.raises(TypeError, match="unsupported operand type"):
            form()
    assert torch.floor_divide(7, 2).tolist() == 3
    assert torch.div(7, 2, rounding_mode="floor").tolist() == 3


def test_rounding_in_place_and_augmented():
    x = torch.tensor([-3.5, 2.0, 7.25])
    y = x
    x //= 2
    assert y is x and x.tolist() == [-2.0, 1.0, 3.0]
    x %= 2
    assert x.tolist() == [0.0, 1.0, 1.0]
    assert x.fmod_(-2).div_(3, rounding_mode="floor").tolist() == [0.0, 0.0, 0.0]
    assert x.remainder_(3) is x and x.true_divide_(2) is x


def test_bits_of_integers_and_bools():
    i = torch.tensor([-7, 5, 9])
    assert (i & 3).tolist() == [1, 1, 1] and (3 | i).tolist() == [-5, 7, 11]
    assert (i ^ 3).tolist() == [-6, 6, 10] and (~i).tolist() == [6, -6, -10]
    assert (i << 1).tolist() == [-14, 10, 18] and (i >> 1).tolist() == [-4, 2, 4]
    assert (2 << i).tolist() == [0, 64, 1024] and (2 >> i).tolist() == [0, 0, 0]
    assert (i << -1).tolist() == [0, 0, 0] and (i << 64).tolist() == [0, 0, 0]
    assert (i >> 70).tolist() == [-1, 0, 0] and (i >> -1).tolist() == [-1, 0, 0]
    assert (i.to(torch.int8) << 7).tolist() == [-128, -128, -128]
    assert (torch.tensor([1, 200], dtype=torch.uint8) >> 9).tolist() == [0, 0]
    mask = torch.tensor([True, False, True])
    assert (~mask).tolist() == [False, True, False]
    assert (mask & torch.tensor([True, True, False])).tolist() == [True, False, False]
    assert (mask | True).dtype == torch.bool and (mask & 2).dtype == torch.int64
    assert (mask << 1).tolist() == [2, 0, 2]
    i &= 6
    assert i.tolist() == [0, 4, 0]
    i |= 8
    i ^= 1
    i <<= 1
    i >>= 2
    assert i.tolist() == [4, 6, 4]


def test_bits_refuse_floats():
    x = torch.tensor([1.5, 2.0])
    i = torch.tensor([1, 2])
    for form, kernel in ((lambda: i & x, "bitwise_and_cpu"), (lambda: i | 1.5, "bitwise_or_cpu"),
                         (lambda: x ^ 1, "bitwise_xor_cpu"), (lambda: x << 1, "lshift_cpu"),
                         (lambda: x >> 1, "rshift_cpu"),
                         (lambda: torch.bitwise_not(x), "bitwise_not_cpu")):
        with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Float'"):
            form()
    with raises(TypeError, "~ (operator.invert) is only implemented on integer and "
                           "Boolean-type tensors"):
        ~x
    with raises(TypeError, "bitwise_not(): argument 'input' (position 1) must be Tensor, "
                           "not int"):
        torch.bitwise_not(3)
    with pytest.raises(TypeError, match="unsupported operand type"):
        i & [1]


def test_logical_functions_read_any_dtype_and_give_bools():
    x = torch.tensor([0.0, 1.5, -2.0])
    i = torch.tensor([3, 0, 0])
    assert torch.logical_not(x).tolist() == [True, False, False]
    assert torch.logical_and(x, i).tolist() == [False, False, False]
    assert torch.logical_or(x, i).tolist() == [True, True, True]
    assert torch.logical_xor(x, i).dtype == torch.bool
    assert x.logical_not().tolist() == [True, False, False]
    with raises(TypeError, "logical_and(): argument 'other' (position 2) must be Tensor, "
                           "not int"):
        torch.logical_and(i, 3)
    assert x.clone().logical_and_(i).tolist() == [0.0, 0.0, 0.0]


def test_float_power_computes_in_double_over_recorded_conversions():
    x = torch.tensor([-3.5, 2.0], requires_grad=True)
    y = torch.float_power(x, 2)
    assert y.dtype == torch.float64 and y.tolist() == [12.25, 4.0]
    assert type(y.grad_fn).__name__ == "PowBackward0" and y.grad_fn._saved_exponent == 2.0
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "ToCopyBackward0"
    z = torch.float_power(2, x)
    assert type(z.grad_fn).__name__ == "PowBackward2" and z.grad_fn._saved_self == 2.0
    assert torch.float_power(torch.tensor([2, 3]), -1).tolist() == [0.5, 1 / 3]
    y.sum().backward()
    assert x.grad.dtype == torch.float32 and x.grad.tolist() == [-7.0, 4.0]
    with raises(RuntimeError, "the base given to float_power_ has dtype Float but the "
                              "operation's result requires dtype Double"):
        x.detach().float_power_(2)
    d = torch.tensor([3.0], dtype=torch.float64)
    assert d.float_power_(2) is d and d.tolist() == [9.0]


def test_true_divide_is_division_without_rounding():
    i = torch.tensor([7, -7])
    assert torch.true_divide(i, 2).tolist() == [3.5, -3.5]
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert type(x.true_divide(2).grad_fn).__name__ == "DivBackward0"
    assert type(torch.true_divide(2, x).grad_fn).__name__ == "DivBackward0"


def test_a_bool_tensor_divided_in_place_is_refused_for_the_cast_before_the_zero():
    cast = "result type Long can't be cast to the desired output type Bool"

    def modulo(t, other):
        t %= other

    def floor_divided(t, other):
        t //= other

    for write in (lambda t, o: t.remainder_(o), lambda t, o: t.fmod_(o),
                  lambda t, o: t.floor_divide_(o), modulo, floor_divided):
        for zero in (0, torch.tensor([0])):
            with raises(RuntimeError, cast):
                write(torch.tensor([True, False]), zero)
    with raises(RuntimeError, "ZeroDivisionError"):  # a Long self holds the result
        torch.tensor([3, 4]).remainder_(0)
    with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) "
                              "at non-singleton dimension 0"):  # shapes before the zero
        torch.remainder(torch.tensor([3, 4]), torch.tensor([0, 1, 2]))
