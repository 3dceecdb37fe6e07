"""Black-box tests: operands that do not broadcast refused before a fused kernel's number,
lerp's gradient of a complex weight refused as torch's engine refuses a complex gradient for a
real input, and real tensors compared with a complex number. The same assertions run on torch.
"""

import sys

import pytest
import torch

from conformance._support import raises
from conformance._warned import caught_always

SIZES = "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"
COMPLEX_GRAD = ("Expected isFloatingType(grad.scalar_type()) || (input_is_complex == "
                "grad_is_complex) to be true, but got false.  (Could this error message be "
                "improved?  If so, please report an enhancement request to PyTorch.)")
DISCARDED = ("Casting complex values to real discards the imaginary part (Triggered internally "
             "at /__w/pytorch/pytorch/aten/src/ATen/native/Copy.cpp:307.)")


@pytest.mark.parametrize("number", [1j, 0.5 + 1j, 1e300])
@pytest.mark.parametrize("call", [
    lambda v: torch.lerp(torch.ones(3), torch.ones(2), v),
    lambda v: torch.ones(3).lerp_(torch.ones(2), v),
    lambda v: torch.ones(3, dtype=torch.float64).lerp(torch.ones(2, dtype=torch.float64), v),
    lambda v: torch.lerp(torch.ones(3), torch.ones(2), v, out=torch.ones(3)),
    lambda v: torch.ones(3).addcmul_(torch.ones(2), torch.ones(3), value=v),
    lambda v: torch.addcmul(torch.ones(3), torch.ones(3), torch.ones(2), value=v,
                            out=torch.ones(3)),
    lambda v: torch.ones(3, requires_grad=True).addcmul(torch.ones(2), torch.ones(3), value=v),
    lambda v: torch.ones(3, dtype=torch.long).addcmul_(
        torch.ones(2, dtype=torch.long), torch.ones(3, dtype=torch.long), value=v),
    lambda v: torch.ones(3).addcdiv_(torch.ones(3), torch.ones(2), value=v),
    lambda v: torch.addcdiv(torch.ones(3), torch.ones(3), torch.ones(2), value=v),
])
def test_fused_kernels_refuse_shapes_before_a_number_that_does_not_convert(call, number):
    with raises(RuntimeError, SIZES):
        call(number)


@pytest.mark.parametrize("number, kind", [(0.5 + 1j, "float"), (1e300, "float")])
def test_a_number_that_does_not_convert_is_still_refused_when_the_shapes_agree(number, kind):
    with raises(RuntimeError, f"value cannot be converted to type {kind} without overflow"):
        torch.ones(3).addcmul_(torch.ones(3), torch.ones(1), value=number)
    with raises(RuntimeError, f"value cannot be converted to type {kind} without overflow"):
        torch.lerp(torch.ones(3), torch.ones(1), number)


@pytest.mark.parametrize("weight", [0.5 + 0j, 0j, 1 + 0j])
@pytest.mark.parametrize("grads", [(True, False), (False, True), (True, True)])
def test_lerps_gradient_of_a_complex_weight_is_refused_by_the_engine(weight, grads):
    x = torch.ones(3, requires_grad=grads[0])
    y = torch.zeros(3, requires_grad=grads[1])
    out = torch.lerp(x, y, weight)
    assert out.tolist() == [1 - weight.real] * 3
    assert out.grad_fn._saved_weight == weight and type(out.grad_fn._saved_weight) is complex
    with raises(RuntimeError, COMPLEX_GRAD):
        out.sum().backward()
    assert x.grad is None and y.grad is None


def test_the_refusal_comes_after_the_nodes_pre_hook_and_before_its_hook():
    x = torch.ones(3, requires_grad=True)
    out = x.clone().lerp_(torch.zeros(3), 0.25 + 0j)
    seen = []
    out.grad_fn.register_prehook(lambda grad_outputs: seen.append("pre"))
    out.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append("post"))
    with raises(RuntimeError, COMPLEX_GRAD):
        torch.autograd.grad(out.sum(), x)
    assert seen == ["pre"]


def test_a_real_weight_still_has_its_gradient():
    x = torch.ones(3, requires_grad=True)
    torch.lerp(x, torch.zeros(3), 0.25).sum().backward()
    assert x.grad.tolist() == [0.75] * 3


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.uint8,
                                   torch.bool])
def test_equality_with_a_complex_number_compares_in_the_complex_type(dtype):
    x = torch.tensor([1, 0, 1], dtype=dtype)
    assert (x == 1 + 0j).tolist() == [True, False, True]
    assert torch.eq(x, 1j).tolist() == [False] * 3
    assert x.ne(1 + 0j).tolist() == [False, True, False]
    assert (1 + 0j != x).tolist() == [False, True, False]
    assert torch.not_equal(x, 1j).dtype is torch.bool


def test_the_number_is_converted_to_the_complex_type_of_the_tensors_width():
    assert torch.tensor([16777216.0]).eq(16777217 + 0j).tolist() == [True]
    assert torch.tensor([16777216.0], dtype=torch.float64).eq(16777217 + 0j).tolist() == [False]
    assert torch.tensor([2 ** 24 + 1]).eq(2 ** 24 + 0j).tolist() == [True]
    assert torch.tensor([1.0]).eq(complex(1, 1e-46)).tolist() == [True]
    assert torch.tensor([float("inf"), 1.0]).eq(complex(1e39, 0)).tolist() == [True, False]
    assert torch.tensor(float("nan")).ne(complex(float("nan"), 0)).item() is True
    assert torch.ones(3, 2).t().eq(0j).stride() == (1, 2)


@pytest.mark.parametrize("name, dtype, kind", [
    ("lt", torch.float32, "ComplexFloat"), ("le", torch.int64, "ComplexFloat"),
    ("gt", torch.float64, "ComplexDouble"), ("ge", torch.bool, "ComplexFloat")])
def test_orderings_with_a_complex_number_have_no_kernel(name, dtype, kind):
    x = torch.ones(2, dtype=dtype)
    said = f"\"{name}_cpu\" not implemented for '{kind}'"
    with raises(NotImplementedError, said):
        getattr(torch, name)(x, 1j)
    with raises(NotImplementedError, said):
        getattr(x, name)(1 + 0j)
    with raises(NotImplementedError, said):
        getattr(x.clone(), name + "_")(1j)
    with raises(NotImplementedError, said):
        getattr(torch, name)(x, 1j, out=torch.empty(2, dtype=torch.bool))


def test_a_reversed_ordering_names_the_kernel_it_runs():
    with raises(NotImplementedError, "\"gt_cpu\" not implemented for 'ComplexFloat'"):
        1j < torch.ones(2)  # noqa: B015 - the comparison is the call under test


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64])
def test_equality_in_place_warns_that_the_imaginary_part_is_discarded(dtype):
    x = torch.tensor([1, 2], dtype=dtype)
    with caught_always(torch) as caught:
        line = sys._getframe().f_lineno + 1
        assert x.eq_(1 + 0j) is x
    assert x.tolist() == [1, 0] and x.dtype is dtype and x._version == 1
    assert [str(w.message) for w in caught] == [DISCARDED]
    assert (caught[0].category, caught[0].filename, caught[0].lineno) == (
        UserWarning, __file__, line)


def test_a_bool_tensor_takes_the_result_without_a_warning():
    x = torch.tensor([True, False])
    with caught_always(torch) as caught:
        x.ne_(1j)
    assert x.tolist() == [True, True] and caught == []


def test_equality_in_place_records_its_node():
    x = torch.ones(2, requires_grad=True)
    with caught_always(torch):
        y = (x * 1).eq_(1 + 0j)
    assert y.grad_fn.name() == "EqBackward0" and y.tolist() == [1.0, 1.0]
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        x.eq_(1j)


def test_an_out_of_another_type_warns_after_it_is_resized():
    out = torch.empty(3)
    with caught_always(torch) as caught:
        torch.eq(torch.ones(2), 1j, out=out)
    assert out.tolist() == [0.0, 0.0]
    assert [str(w.message)[:40] for w in caught] == [
        "An output with one or more elements was "] * 2 + [DISCARDED[:40]]
    flags = torch.empty(3, dtype=torch.bool)
    with caught_always(torch) as caught:
        torch.ne(torch.ones(2), 1j, out=flags)
    assert flags.tolist() == [True, True] and len(caught) == 1
    counts = torch.empty(0, dtype=torch.long)
    with caught_always(torch) as caught:
        torch.not_equal(torch.ones(2, dtype=torch.long), 1 + 0j, out=counts)
    assert counts.tolist() == [0, 0] and [str(w.message) for w in caught] == [DISCARDED]


FILL = "index_fill_(): Converting complex Scalar to non-complex type is not supported"


@pytest.mark.parametrize("call", [
    lambda: torch.ones(3).index_fill_(0, torch.tensor([0]), 2j),
    lambda: torch.ones(3).index_fill_(0, torch.tensor([0]), 2 + 0j),
    lambda: torch.ones(3, dtype=torch.long).index_fill(0, torch.tensor([0]), 1j),
    lambda: torch.tensor([True]).index_fill_(0, torch.tensor([0]), 2j),
    lambda: torch.index_fill(torch.ones(3), 0, torch.tensor([5]), 1j),
    lambda: torch.ones(3).index_fill_(1, torch.tensor([0]), 2j),
    lambda: torch.ones(3).index_fill_(0, torch.tensor([[0]]), 2j),
    lambda: torch.ones(3, requires_grad=True).index_fill(dim=0, index=torch.tensor([0]),
                                                         value=2j),
])
def test_index_fill_refuses_any_complex_value_before_its_dim_and_index(call):
    with raises(RuntimeError, FILL):
        call()


def test_index_fill_checks_the_leaf_and_the_index_dtype_first():
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        torch.ones(3, requires_grad=True).index_fill_(0, torch.tensor([0]), 2j)
    with raises(IndexError, "index_fill_(): Expected dtype int64 for index."):
        torch.ones(3).index_fill_(0, torch.tensor([0.0]), 2j)


@pytest.mark.parametrize("dtype, name", [(torch.float32, "Float"), (torch.float64, "Double"),
                                         (torch.int64, "Long")])
@pytest.mark.parametrize("exponent", [2j, 2 + 0j])
def test_float_power_in_place_names_the_complex_type_a_complex_exponent_needs(dtype, name,
                                                                              exponent):
    x = torch.ones(3, dtype=dtype, requires_grad=dtype.is_floating_point)
    with raises(RuntimeError, f"the base given to float_power_ has dtype {name} but the "
                              "operation's result requires dtype ComplexDouble"):
        x.float_power_(exponent)
    assert x._version == 0
