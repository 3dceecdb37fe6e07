"""Black-box tests: a complex Python number written into a real tensor, in place, by an
operator, or through out=, is refused as torch refuses the cast of its complex result type.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import OUT_GRAD, raises

CAST = "result type {} can't be cast to the desired output type {}"
# The result type a complex number gives with each tensor dtype, and that dtype's name.
DTYPES = [(torch.float32, "ComplexFloat", "Float"), (torch.float64, "ComplexDouble", "Double"),
          (torch.float16, "ComplexHalf", "Half"), (torch.int64, "ComplexFloat", "Long"),
          (torch.int32, "ComplexFloat", "Int"), (torch.uint8, "ComplexFloat", "Byte"),
          (torch.bool, "ComplexFloat", "Bool")]
METHODS = ["mul_", "add_", "div_", "pow_", "fmod_", "remainder_", "xlogy_", "floor_divide_",
           "true_divide_", "multiply_", "divide_"]
OPERATORS = ["__imul__", "__iadd__", "__itruediv__", "__ipow__", "__ifloordiv__", "__imod__"]


def ones(dtype, requires_grad=False):
    return torch.ones(2, dtype=dtype, requires_grad=requires_grad)


@pytest.mark.parametrize("name", METHODS + OPERATORS)
@pytest.mark.parametrize(("dtype", "result", "written"), DTYPES)
def test_a_complex_number_in_place_is_a_cast_refused(name, dtype, result, written):
    x = ones(dtype)
    with raises(RuntimeError, CAST.format(result, written)):
        getattr(x, name)(2j)
    assert x.tolist() == ones(dtype).tolist()  # nothing was written


@pytest.mark.parametrize("name", ["sub_", "subtract_", "__isub__"])
@pytest.mark.parametrize(("dtype", "result", "written"), DTYPES[:-1])
def test_subtraction_of_a_complex_number_in_place(name, dtype, result, written):
    with raises(RuntimeError, CAST.format(result, written)):
        getattr(ones(dtype), name)(2j)


def test_the_augmented_statement():
    x = torch.ones(2)
    with raises(RuntimeError, CAST.format("ComplexFloat", "Float")):
        x *= 2j
    with raises(RuntimeError, CAST.format("ComplexDouble", "Double")):
        y = torch.ones(2, dtype=torch.float64)
        y /= 1 + 2j


def test_the_number_by_name():
    with raises(RuntimeError, CAST.format("ComplexFloat", "Float")):
        torch.ones(2).mul_(other=2j)
    with raises(RuntimeError, CAST.format("ComplexFloat", "Float")):
        torch.ones(2).add_(2j, alpha=2)


def test_grad_s_refusals_come_first():
    x = ones(torch.float32, requires_grad=True)
    with raises(RuntimeError, OUT_GRAD.format("mul")):
        torch.mul(x, 2j, out=torch.zeros(2))
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        x.mul_(2j)
    with torch.no_grad(), raises(RuntimeError, CAST.format("ComplexFloat", "Float")):
        x.mul_(2j)
    with raises(RuntimeError, CAST.format("ComplexFloat", "Float")):
        x.clone().mul_(2j)  # not a leaf


@pytest.mark.parametrize("name", ["mul", "add", "sub", "div", "pow", "true_divide", "fmod",
                                  "remainder", "xlogy", "floor_divide"])
@pytest.mark.parametrize(("dtype", "result"), [(torch.float64, "ComplexDouble"),
                                               (torch.int64, "ComplexFloat")])
def test_out_takes_the_input_s_complex_type(name, dtype, result):
    out = torch.zeros(2)
    with raises(RuntimeError, CAST.format(result, "Float")):
        getattr(torch, name)(ones(dtype), 2j, out=out)
    assert out.tolist() == [0.0, 0.0]



@pytest.mark.parametrize(("dtype", "written"), [(torch.int64, "long int"), (torch.int32, "int"),
                                                (torch.uint8, "unsigned char"),
                                                (torch.bool, "bool")])
@pytest.mark.parametrize("call", ["x.clamp_(2j)", "x.clamp_(None, 2j)", "x.clip_(1, 2j)",
                                  "x.clamp_(max=2j)"])
def test_clamp_casts_an_integer_tensor_s_complex_bound(call, dtype, written):
    x = ones(dtype)
    with raises(RuntimeError, CAST.format("ComplexFloat", written)):
        eval(call, {"x": x})


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
@pytest.mark.parametrize("call", ["x.clamp_(2j)", "x.clamp_(None, 2j)", "x.clip_(min=2j)"])
def test_clamp_converts_a_float_tensor_s_bounds_to_double(call, dtype):
    with raises(RuntimeError, "value cannot be converted to type double without overflow"):
        eval(call, {"x": ones(dtype)})


@pytest.mark.parametrize("name", ["clamp_min_", "clamp_max_"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64])
def test_clamp_min_and_max_refuse_complex_types(name, dtype):
    with raises(NotImplementedError, "clamp is not supported for complex types"):
        getattr(ones(dtype), name)(2j)


@pytest.mark.parametrize(("dtype", "name"), [
    (torch.float32, "float"), (torch.float16, "float"), (torch.float64, "double"),
    (torch.int64, "int64_t"), (torch.int32, "int"), (torch.uint8, "uint8_t")])
@pytest.mark.parametrize("call", ["x.addcmul_(x, x, value=2j)", "torch.addcmul(x, x, x, value=2j)",
                                  "torch.addcmul(x, x, x, value=1 - 1j, out=torch.empty_like(x))"])
def test_a_complex_value_does_not_convert_to_the_kernel_s_type(call, dtype, name):
    with raises(RuntimeError, f"value cannot be converted to type {name} without overflow"):
        eval(call, {"x": ones(dtype), "torch": torch})


@pytest.mark.parametrize(("dtype", "name"), [(torch.float32, "float"), (torch.float64, "double")])
@pytest.mark.parametrize("call", ["x.addcdiv_(x, x, value=2j)", "x.lerp_(x, 2j)",
                                  "torch.lerp(x, x, weight=0.5j)"])
def test_a_complex_value_or_weight_of_a_float_tensor(call, dtype, name):
    with raises(RuntimeError, f"value cannot be converted to type {name} without overflow"):
        eval(call, {"x": ones(dtype), "torch": torch})


def test_a_complex_value_without_an_imaginary_part_is_its_real_part():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.addcmul(x, x, x, value=2 + 0j) + torch.addcdiv(x, x, x, value=3 + 0j)
    y.sum().backward()
    assert y.tolist() == [7.0, 15.0]
    assert x.grad.tolist() == [6.0, 10.0]
    assert torch.lerp(x, 3 * x, 0.5 + 0j).tolist() == [2.0, 4.0]


@pytest.mark.parametrize("name", ["mul", "add", "sub", "div", "pow", "xlogy", "floor_divide"])
@pytest.mark.parametrize(("dtype", "result"), [(torch.float64, "ComplexDouble"),
                                               (torch.int64, "ComplexFloat")])
def test_out_with_the_number_first(name, dtype, result):
    with raises(RuntimeError, CAST.format(result, "Float")):
        getattr(torch, name)(2j, ones(dtype), out=torch.zeros(2))
