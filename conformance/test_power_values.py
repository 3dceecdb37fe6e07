"""Black-box tests: the number exponents that torch's pow kernel computes with products,
quotients and square roots, bit for bit, in every spelling of pow, with their gradients
and tangents. The same assertions run on torch.
"""

import math

import pytest
import torch
import torch.autograd.forward_ad as fwAD

DTYPES = (torch.float32, torch.float64)


def _inputs(dtype):
    # 2,003 values in [-10, 10): long enough for any vector width, and an odd tail
    x = (torch.arange(2003, dtype=torch.float64) * 0.7).sin() * 10
    return x.to(dtype)


def _spellings(x, e):
    """x to the number power e, written each way that reaches pow's number form."""
    in_place, augmented, out = x.clone(), x.clone(), torch.empty_like(x)
    augmented **= e
    torch.pow(x, e, out=out)
    return {"**": x ** e, "torch.pow": torch.pow(x, e), "method": x.pow(e),
            "float exponent": x.pow(float(e)), "pow_": in_place.pow_(e), "**=": augmented,
            "out=": out}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("e", "formula"), [
    (2, lambda x: x * x), (3, lambda x: x * x * x), (-1, lambda x: 1 / x),
    (-2, lambda x: 1 / (x * x)), (0.5, torch.sqrt), (-0.5, torch.rsqrt),
    (1, lambda x: x), (0, torch.ones_like),
])
def test_these_exponents_are_computed_without_a_power_function(dtype, e, formula):
    x = _inputs(dtype)
    expected = formula(x)
    for name, result in _spellings(x, e).items():
        assert result.dtype == dtype, name
        assert torch.equal(result.isnan(), expected.isnan()), name
        assert torch.equal(result.nan_to_num(), expected.nan_to_num()), name


def test_special_values_follow_the_formulas():
    x = torch.tensor([0.0, -0.0, math.inf, -math.inf, math.nan, 1e-30, 1e30, -2.0])
    assert (x ** -0.5)[:2].tolist() == [math.inf, -math.inf]  # one over sqrt(-0.0)
    assert math.isnan((x ** -0.5)[3].item())  # sqrt(-inf), where a power function gives 0
    assert (x ** 3)[1].item() == 0.0 and math.copysign(1, (x ** 3)[1].item()) == -1
    assert (x ** -2)[:4].tolist() == [math.inf, math.inf, 0.0, 0.0]
    assert (x ** 0).tolist() == [1.0] * 8  # even nan to the power 0
    y = torch.cat([x[:4], x[5:]])  # no nan, which equal() never matches
    assert torch.equal(y ** 2, y * y) and torch.equal(y ** -1, 1 / y)


def test_values_torch_gives():
    assert torch.tensor([-3.1258769035339355]).pow(3).item() == -30.543277740478516
    assert torch.tensor([-3.1384496688842773]).pow(-2).item() == 0.1015242263674736
    y = torch.tensor([-1.7806025743484497], dtype=torch.float64)
    assert y.pow(3).item() == -5.645481528847491
    # an integer tensor to a float power: converted to float32 first, then multiplied
    assert (torch.tensor([1000003, -77777]) ** 3.0).tolist() == [1.0000090552776786e+18,
                                                                 -470493400399872.0]


def test_short_float32_tensors_take_the_double_power_rounded_once():
    x = torch.linspace(0.1, 3.3, 7)
    assert (x ** 4).tolist() == [0.00010000000474974513, 0.16089017689228058,
                                 1.8526239395141602, 8.352096557617188, 24.87791633605957,
                                 58.590518951416016, 118.59209442138672]
    assert (x ** 1.5).tolist() == [0.03162277862429619, 0.5040209293365479,
                                   1.2601441144943237, 2.2165284156799316, 3.337568998336792,
                                   4.601879596710205, 5.994747638702393]


def test_float_power_multiplies_out_in_float64():
    x = _inputs(torch.float32)
    d = x.double()
    assert torch.equal(torch.float_power(x, 3), d * d * d)
    assert torch.equal(torch.float_power(x, -2), 1 / (d * d))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("k", "power_below"), [
    (2, lambda x: x), (3, lambda x: x * x), (4, lambda x: x * x * x),
    (-1, lambda x: 1 / (x * x)),
])
def test_gradient_and_tangent_are_k_times_the_power_below(dtype, k, power_below):
    x = _inputs(dtype).requires_grad_()
    g = _inputs(dtype).flip(0) / 3
    (x ** k).backward(g)
    expected = g * (k * power_below(x.detach()))
    assert torch.equal(x.grad, expected)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(fwAD.make_dual(x.detach(), g) ** k).tangent
    assert torch.equal(tangent, expected)


def test_gradient_of_a_cube_in_float64():
    x = torch.tensor([1.1, 2.3, -0.7, 3.3], dtype=torch.float64, requires_grad=True)
    (x ** 4).sum().backward()
    assert x.grad.tolist() == [5.324000000000002, 48.667999999999985, -1.3719999999999997,
                               143.748]
    assert (x ** 3).tolist() == [1.3310000000000004, 12.166999999999996, -0.3429999999999999,
                                 35.937]


def test_a_one_element_tensor_exponent_is_a_power_not_a_square_root():
    base = torch.tensor([-0.0, -math.inf, 4.0])
    for exponent in (torch.tensor(0.5), torch.tensor([0.5])):
        out = base ** exponent
        assert out.tolist() == [0.0, math.inf, 2.0] and not out.signbit().any()
    zero = torch.tensor(-0.0, dtype=torch.float64) ** torch.tensor(0.5, dtype=torch.float64)
    assert zero.item() == 0.0 and not zero.signbit() and zero.shape == ()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("base", [0, 0.0, -0.0])
def test_a_zero_number_base_gives_no_exponent_gradient_where_the_exponent_is_not_negative(
        dtype, base):
    e = torch.tensor([-1.0, 0.0, 2.0, -0.0, math.inf, -math.inf], dtype=dtype, requires_grad=True)
    (base ** e).backward(torch.tensor([1.0, 1.0, -1.0, 1.0, 1.0, 1.0], dtype=dtype))
    # 0 ** -1 is inf (-inf for -0.), times log(0) = -inf
    first = -math.inf if math.copysign(1.0, base) > 0 else math.inf
    assert e.grad.tolist()[:2] == [first, 0.0] and e.grad.tolist()[3:5] == [0.0, 0.0]
    assert math.copysign(1.0, e.grad[2].item()) == -1.0  # the incoming -1 times zero
    assert e.grad[5].item() == -math.inf


def test_number_bases_other_than_zero_take_their_log_quietly():
    e = torch.tensor([1.0, 2.0], requires_grad=True)
    (2.0 ** e).sum().backward()
    assert e.grad.tolist() == ((2.0 ** e.detach()) * math.log(2.0)).tolist()
    e.grad = None
    (torch.pow(-1.0, e)).sum().backward()  # the log of a negative number: nan, no warning
    assert all(math.isnan(g) for g in e.grad.tolist())
    x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad(torch.pow(0.0, -x).sum(), x)
    assert g.tolist() == [0.0, math.inf, math.inf] and math.copysign(1.0, g[0].item()) == -1.0
