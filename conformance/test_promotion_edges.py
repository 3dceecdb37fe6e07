"""Dtypes at the edges of the arithmetic: bool powers and clamps, lerp's dtype names."""

import pytest
import torch

from conformance._support import raises, recording_mode

NO_BOOL_POWER = "\"pow\" not implemented for 'Bool'"


@pytest.mark.parametrize("exponent, expected", [(True, [True, False]), (False, [True, True])])
def test_a_bool_tensor_to_a_bool_number_stays_bool(exponent, expected):
    b = torch.tensor([True, False])
    for result in (torch.pow(b, exponent), b ** exponent, b.pow(exponent)):
        assert result.dtype == torch.bool and result.tolist() == expected


def test_a_number_tensor_to_a_bool_number_keeps_its_dtype():
    assert torch.pow(torch.tensor([3], dtype=torch.uint8), False).dtype == torch.uint8
    assert torch.pow(torch.tensor([2, 3]), True).tolist() == [2, 3]
    assert torch.pow(torch.tensor([True, False]), 2).dtype == torch.int64


@pytest.mark.parametrize("call", [
    lambda b: torch.pow(b, b),
    lambda b: b ** torch.tensor(True),
    lambda b: torch.pow(True, b),
])
def test_no_power_has_a_bool_result(call):
    with raises(NotImplementedError, NO_BOOL_POWER):
        call(torch.tensor([True, False]))


@pytest.mark.parametrize("call, kernel", [
    (lambda b: torch.clamp(b, True), "clamp_min_scalar_cpu"),
    (lambda b: torch.clamp(b, None, False), "clamp_max_scalar_cpu"),
    (lambda b: torch.clamp(b, True, True), "clamp_scalar_cpu"),
    (lambda b: b.clamp_max(False), "clamp_max_scalar_cpu"),
    (lambda b: torch.clamp_min(b, True), "clamp_min_scalar_cpu"),
    (lambda b: b.clamp_(True), "clamp_min_scalar_cpu"),
    (lambda b: torch.clamp(b, b, b), "clamp_cpu"),
])
def test_bools_are_not_clamped_between_numbers_or_two_tensors(call, kernel):
    b = torch.tensor([True, False])
    with raises(NotImplementedError, f"\"{kernel}\" not implemented for 'Bool'"):
        call(b)
    assert b.tolist() == [True, False]


def test_bools_are_clamped_by_one_tensor_bound():
    b = torch.tensor([True, False])
    assert torch.clamp(b, min=b).tolist() == [True, False]
    assert torch.clamp_max(b, torch.tensor(False)).tolist() == [False, False]
    assert torch.clamp(b, 0).dtype == torch.int64


@pytest.mark.parametrize("end, name", [
    (torch.tensor([1], dtype=torch.uint8), "unsigned char"),
    (torch.tensor([1], dtype=torch.int8), "signed char"),
    (torch.tensor([1], dtype=torch.int32), "int"),
    (torch.tensor([1]), "long int"),
    (torch.tensor([True]), "bool"),
    (torch.tensor([1.0], dtype=torch.float64), "double"),
])
def test_lerp_names_c_types(end, name):
    with raises(RuntimeError, f"expected dtype float for `end` but got dtype {name}"):
        torch.lerp(torch.tensor([1.0]), end, 0.5)


@pytest.mark.parametrize("call, expected", [
    (lambda u: torch.xlogy(u, -2), [True, True, False]),
    (lambda u: torch.special.xlog1py(u, -2), [True, True, False]),
])
def test_a_negative_number_beside_unsigned_ints_is_not_wrapped(call, expected):
    result = call(torch.tensor([3, 250, 0], dtype=torch.uint8))
    assert result.dtype == torch.float32
    assert result.isnan().tolist() == expected


def test_a_number_first_beside_unsigned_ints_is_not_wrapped():
    result = torch.xlogy(-2, torch.tensor([1, 0], dtype=torch.uint8))
    assert result.tolist() == [0.0, float("inf")]  # -2 * log(1), -2 * log(0)
    assert torch.xlogy(300, torch.tensor([1], dtype=torch.int8)).tolist() == [0.0]


@pytest.mark.parametrize("call, op", [
    (lambda i: i / i, "aten.div.Tensor"), (lambda i: i / 300, "aten.div.Tensor"),
    (lambda i: torch.true_divide(i, -2), "aten.div.Tensor"),
    (lambda i: torch.div(i, i, rounding_mode=None), "aten.div.Tensor_mode"),
    (lambda i: torch.logsumexp(i, 0), "aten.logsumexp.default"),
    (lambda i: torch.special.logsumexp(i, 0, True), "aten.logsumexp.default"),
    (lambda i: torch.xlogy(i, 2), "aten.xlogy.Scalar_Other"),
    (lambda i: torch.xlogy(2.5, i), "aten.xlogy.Scalar_Self"),
    (lambda i: torch.special.xlog1py(i, -2), "aten.special_xlog1py.other_scalar"),
    (lambda i: torch.special.zeta(3, i), "aten.special_zeta.self_scalar"),
])
def test_an_integer_tensor_reaches_a_mode_as_it_is(call, op):
    # The conversion to floats is the kernel's, below the mode.
    mode = recording_mode(lambda func, args, kwargs: (str(func), [
        a.dtype if isinstance(a, torch.Tensor) else a for a in args]), True)()
    integers = torch.tensor([1, 2], dtype=torch.uint8)
    with mode:
        result = call(integers)
    assert [seen[0] for seen in mode.seen] == [op]
    assert torch.uint8 in mode.seen[0][1] and result.dtype == torch.float32


@pytest.mark.parametrize("target, name", [
    (torch.tensor([0.0, 1.0], dtype=torch.float64), "Double"),
    (torch.tensor([0.0, 1.0], dtype=torch.float16), "Half"),
    (torch.tensor([0, 1]), "Long"),
    (torch.tensor([False, True]), "Bool"),
])
def test_binary_cross_entropy_takes_a_target_of_the_input_dtype_only(target, name):
    with raises(RuntimeError, f"Found dtype {name} but expected Float"):
        torch.nn.functional.binary_cross_entropy(torch.tensor([0.2, 0.7]), target)


@pytest.mark.parametrize("input, target", [
    (torch.tensor([0.2, 0.7]), torch.tensor([0, 1])),
    (torch.tensor([0, 1]), torch.tensor([0.2, 0.7])),
    (torch.tensor([0.2, 0.7]), torch.tensor([False, True])),
])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_refuses_integers(input, target, log_target):
    with raises(RuntimeError, "kl_div: Integral inputs not supported."):
        torch.nn.functional.kl_div(input, target, reduction="sum", log_target=log_target)


@pytest.mark.parametrize("input", [torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float16)])
def test_ldexp_has_no_bool_exponent_for_floats(input):
    with raises(NotImplementedError, "\"ldexp_cpu_exp\" not implemented for 'Bool'"):
        torch.ldexp(input, torch.tensor([True]))


def test_ldexp_of_two_bool_tensors_is_in_floats():
    result = torch.ldexp(torch.tensor([True, False]), torch.tensor([True, True]))
    assert result.dtype == torch.float32 and result.tolist() == [2.0, 0.0]


def test_nextafter_steps_toward_other_in_the_promoted_dtype():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    other = torch.tensor([2.0, 1.0], requires_grad=True)
    stepped = torch.nextafter(x, other)
    assert stepped.tolist() == [1.0000001192092896, 1.9999998807907104]
    assert type(stepped.grad_fn).__name__ == "NextafterBackward0"
    stepped.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0] and other.grad.tolist() == [0.0, 0.0]
    half = torch.nextafter(torch.tensor([1.0], dtype=torch.float16),
                           torch.tensor([2.0], dtype=torch.float16))
    assert half.item() == 1.0009765625
    assert torch.nextafter(torch.tensor([1.0], dtype=torch.float16),
                           torch.tensor([2.0], dtype=torch.float64)).dtype == torch.float64


@pytest.mark.parametrize("a, b, name", [
    (torch.tensor([1]), torch.tensor([2]), "Long"),
    (torch.tensor([True]), torch.tensor([False]), "Bool"),
])
def test_nextafter_has_no_integer_kernel(a, b, name):
    with raises(NotImplementedError, f"\"nextafter_cpu\" not implemented for '{name}'"):
        torch.nextafter(a, b)
    with raises(TypeError, "nextafter(): argument 'other' (position 2) must be Tensor, not int"):
        torch.nextafter(torch.tensor([1.0]), 2)
