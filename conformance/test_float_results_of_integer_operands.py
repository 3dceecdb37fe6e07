"""Functions with a float result for integer operands take each operand's own value: a 0-d
integer tensor beside a tensor of a narrower integer dtype is not wrapped into that dtype."""

import pytest
import torch

FUNCTIONS = {
    "atan2": torch.atan2,
    "xlogy": torch.xlogy,
    "special.xlogy": torch.special.xlogy,
    "special.xlog1py": torch.special.xlog1py,
    "copysign": torch.copysign,
    "special.zeta": torch.special.zeta,
    "chebyshev_polynomial_t": torch.special.chebyshev_polynomial_t,
    "hermite_polynomial_h": torch.special.hermite_polynomial_h,
}
TENSORS = [torch.tensor([0, 3, 200], dtype=torch.uint8), torch.tensor([3, -5, 0], dtype=torch.int8)]
ZERO_D = [torch.tensor(-3), torch.tensor(300), torch.tensor(253, dtype=torch.uint8),
          torch.tensor(-3, dtype=torch.int16), torch.tensor(True)]


def same(result, expected) -> bool:
    return result.dtype == expected.dtype and torch.equal(result.isnan(), expected.isnan()) and \
        torch.equal(result.nan_to_num(), expected.nan_to_num())


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("tensor", TENSORS, ids=["uint8", "int8"])
@pytest.mark.parametrize("zero_d", ZERO_D, ids=lambda t: f"{t.dtype}-{t.item()}")
def test_each_operand_becomes_a_float_from_its_own_value(name, tensor, zero_d):
    function = FUNCTIONS[name]
    for a, b in ((tensor, zero_d), (zero_d, tensor)):
        if a.dtype == b.dtype:
            continue  # nothing promotes: the kernel sees both operands as they are
        expected = function(a.float(), b.float())
        assert same(function(a, b), expected)


@pytest.mark.parametrize("name", ["atan2", "xlogy", "copysign"])
def test_out_takes_the_same_values(name):
    function = FUNCTIONS[name]
    a, z = TENSORS[0], torch.tensor(-3)
    out = torch.empty(3)
    function(a, z, out=out)
    assert same(out, function(a.float(), z.float()))


def test_a_negative_zero_d_integer_gives_its_sign():
    result = torch.copysign(torch.tensor([0, 3, 200], dtype=torch.uint8), torch.tensor(-3))
    assert result.tolist() == [-0.0, -3.0, -200.0]
    assert torch.copysign(torch.tensor([3], dtype=torch.int8),
                          torch.tensor(253, dtype=torch.uint8)).tolist() == [3.0]
