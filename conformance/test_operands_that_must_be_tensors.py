"""Where torch's parser needs a tensor, a Python number is refused in its words, though
NumPy would broadcast one: any of addcmul's and addcdiv's three operands, and pow's
exponent beside a number base. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

_POW_FORMS = (" * (Tensor input, Tensor exponent, *, Tensor out = None)\n"
              " * (Number self, Tensor exponent, *, Tensor out = None)\n"
              " * (Tensor input, Number exponent, *, Tensor out = None)\n")


def _operands(dtype):
    return torch.tensor([1, 2], dtype=dtype), torch.tensor([3, 4], dtype=dtype)


@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
@pytest.mark.parametrize("dtype", [torch.int64, torch.float32, torch.bool])
@pytest.mark.parametrize("number", [2, 2.5, True])
def test_a_number_for_tensor2_is_refused(name, dtype, number):
    x, y = _operands(dtype)
    kind = type(number).__name__
    with raises(TypeError, f"{name}(): argument 'tensor2' (position 3) must be Tensor, not {kind}"):
        getattr(torch, name)(x, y, number)
    with raises(TypeError, f"{name}(): argument 'tensor2' must be Tensor, not {kind}"):
        getattr(torch, name)(x, y, tensor2=number)
    with raises(TypeError, f"{name}(): argument 'tensor2' (position 2) must be Tensor, not {kind}"):
        getattr(x, name)(y, number)
    with raises(TypeError, f"{name}_(): argument 'tensor2' (position 2) must be Tensor, not "
                           f"{kind}"):
        getattr(x.clone(), name + "_")(y, number)


@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
def test_a_number_for_the_input_or_tensor1_is_refused(name):
    x, y = _operands(torch.float32)
    with raises(TypeError, f"{name}(): argument 'tensor1' (position 2) must be Tensor, not int"):
        getattr(torch, name)(x, 2, y)
    with raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, not float"):
        getattr(torch, name)(2.5, x, y)
    with raises(TypeError, f"{name}(): argument 'tensor1' (position 1) must be Tensor, not int"):
        getattr(x, name)(2, y)


@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
def test_three_tensors_still_combine(name):
    x, y = _operands(torch.float32)
    out = getattr(torch, name)(x, y, y, value=2)
    assert out.tolist() == (x + 2 * (y * y if name == "addcmul" else y / y)).tolist()


@pytest.mark.parametrize("base, exponent", [(2, 3), (2.5, 3), (2, 3.0), (2, True)])
def test_pow_of_two_numbers_is_refused(base, exponent):
    got = f"({type(base).__name__}, {type(exponent).__name__})"
    with raises(TypeError, f"pow() received an invalid combination of arguments - got {got}, "
                           f"but expected one of:\n{_POW_FORMS}"):
        torch.pow(base, exponent)


def test_pow_of_two_numbers_with_out_is_refused_and_leaves_out():
    out = torch.zeros(1)
    with raises(TypeError, "pow() received an invalid combination of arguments - got (int, int, "
                           f"out=Tensor), but expected one of:\n{_POW_FORMS}"):
        torch.pow(2, 3, out=out)
    assert out.tolist() == [0.0]


def test_a_number_base_with_a_tensor_exponent_still_works():
    exponent = torch.tensor([1, 2, 3])
    assert torch.pow(2, exponent).tolist() == (2 ** exponent).tolist() == [2, 4, 8]
    assert torch.pow(2.5, torch.tensor(2)).item() == 6.25
