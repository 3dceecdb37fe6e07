"""Black-box tests: Tensor.renorm reads its numbers as torch's parser reads a Number: a 0-d
tensor as the number it holds, anything else refused in the parser's words. The same
assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

x = torch.tensor([[-1.0, 0.5], [2.0, -3.0]])


@pytest.mark.parametrize("call, message", [
    ("x.renorm(torch.tensor([2.0]), 0, 1.0)", "renorm(): argument 'p' (position 1) must be "
     "Number, not Tensor"),
    ("x.renorm(torch.tensor([1.0, 2.0]), 0, 1.0)", "renorm(): argument 'p' (position 1) must be "
     "Number, not Tensor"),
    ("x.renorm('a', 0, 1.0)", "renorm(): argument 'p' (position 1) must be Number, not str"),
    ("x.renorm(2, 0, None)", "renorm(): argument 'maxnorm' (position 3) must be Number, not "
     "NoneType"),
    ("x.clone().renorm_(2, 0, torch.tensor([1.0]))", "renorm_(): argument 'maxnorm' "
     "(position 3) must be Number, not Tensor"),
])
def test_renorm_refuses_what_is_not_a_number(call, message):
    with raises(TypeError, message):
        eval(call)


def test_renorm_reads_a_0d_tensor_as_its_number():
    expected = x.renorm(2, 0, 1.0)
    assert torch.equal(x.renorm(torch.tensor(2.0), 0, torch.tensor(1)), expected)
    assert torch.equal(x.clone().renorm_(2, 0, torch.tensor(1.0)), expected)


m, v, b = torch.ones(2, 2), torch.ones(2), torch.ones(2, 2, 2)


@pytest.mark.parametrize("call, message", [
    ("torch.addmv(v, m, v, alpha=torch.tensor([0.5]))", "addmv(): argument 'alpha' must be "
     "Number, not Tensor"),
    ("torch.addbmm(m, b, b, beta=torch.tensor([0.5]))", "addbmm(): argument 'beta' must be "
     "Number, not Tensor"),
    ("torch.addr(m, v, v, beta=torch.tensor([0.5]))", "addr(): argument 'beta' must be Number, "
     "not Tensor"),
    ("torch.addmm(m, m, m, alpha=torch.tensor(0.5, requires_grad=True))", None),
])
def test_a_product_refuses_a_factor_that_is_a_tensor_of_one_dimension(call, message):
    if message is None:  # a tensor that requires grad is no number either
        with pytest.raises(TypeError, match="addmm"):
            eval(call)
        return
    with raises(TypeError, message):
        eval(call)


def test_a_products_factor_may_be_a_0d_tensor():
    assert torch.addmm(m, m, m, beta=torch.tensor(0.5)).tolist() == [[2.5, 2.5], [2.5, 2.5]]
    assert torch.addr(m, v, v, alpha=torch.tensor(2)).tolist() == [[3.0, 3.0], [3.0, 3.0]]


@pytest.mark.parametrize("call, message", [
    ("torch.addcmul(x, x, x, value=torch.tensor([0.5]))", "addcmul(): argument 'value' must be "
     "Number, not Tensor"),
    ("x.clone().addcmul_(x, x, value=None)", "addcmul_(): argument 'value' must be Number, not "
     "NoneType"),
    ("torch.addcdiv(x, x, x, value='a')", "addcdiv(): argument 'value' must be Number, not str"),
    ("x.clone().addcdiv_(x, x, value=torch.tensor([2.0]))", "addcdiv_(): argument 'value' must "
     "be Number, not Tensor"),
])
def test_addcmul_and_addcdiv_refuse_a_value_that_is_not_a_number(call, message):
    with raises(TypeError, message):
        eval(call)


def test_addcmul_and_addcdiv_read_a_0d_tensor_as_their_value():
    assert torch.equal(x.addcdiv(x, x, value=torch.tensor(2.0)), x.addcdiv(x, x, value=2.0))
    assert torch.equal(torch.addcmul(x, x, x, value=True), torch.addcmul(x, x, x, value=1))
