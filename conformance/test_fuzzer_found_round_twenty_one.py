"""Black-box tests: behaviour the differential fuzzer found in its twenty-first round.

make_dual checks its level, sizes and tangents in torch's autograd kernel, which is
skipped under inference mode and when the primal and the tangent are both inference
tensors: the dual is then a bare alias with no tangent, whatever the tangent's size or
the level's number. An integer division of a 0-d tensor in place by a zero is refused
with ZeroDivisionError, its value untouched. deg2rad and rad2deg of an integer tensor
write into a float tensor made like the input, whose strides (size-one dimensions and
expanded ones too) are the input's, not those of a converted copy. A comparison written
into an integer inference tensor outside inference mode, against a tensor that requires
grad, is refused for its shape or for the inference tensor, not for its dtype. lerp's
0-d weight tensor promotes as equals with a 0-d self and end (float16 with a float32
weight gives float32), and beside dimensioned ones is rounded to their dtype first. A
bool in-place product refuses a self of another shape before it finds no kernel for
bool. tanh's backward fuses 1 - y * y into one rounding. cat, stack and their kin
promote a bfloat16 piece with a float32 or float16 one to float32; cat of inference
tensors outside inference mode counts a write on its result for each piece of another
dtype it copies in. The same assertions run on torch.
"""

from fractions import Fraction

import pytest
import torch
import torch.autograd.forward_ad as fwAD


def _frozen(*shape):
    with torch.inference_mode():
        return torch.rand(*shape)


def test_a_dual_of_two_inference_tensors_has_no_tangent_and_no_size_check():
    primal = _frozen(2, 3).expand(2, 2, 3)[1].t()
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, _frozen(2, 3))
        assert dual.shape == (3, 2) and dual.stride() == (1, 3) and dual.is_inference()
        assert fwAD.unpack_dual(dual).tangent is None
        assert fwAD.unpack_dual(dual.exp()).tangent is None
        again = fwAD.make_dual(dual, _frozen(3, 2))  # no tangent to find twice
        assert fwAD.unpack_dual(again).tangent is None


def test_a_dual_of_two_inference_tensors_needs_no_open_level():
    assert fwAD.make_dual(_frozen(3, 2), _frozen(3, 2), level=0).is_inference()
    assert fwAD.make_dual(_frozen(3, 2), _frozen(3, 2), level=1).shape == (3, 2)
    with torch.inference_mode():
        assert fwAD.make_dual(torch.rand(3, 2), torch.rand(2, 3), level=0).is_inference()


@pytest.mark.parametrize("ordinary", ["primal", "tangent"])
def test_one_ordinary_tensor_brings_the_checks_back(ordinary):
    primal = torch.rand(3, 2) if ordinary == "primal" else _frozen(3, 2)
    tangent = torch.rand(2, 3) if ordinary == "tangent" else _frozen(2, 3)
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match=r"Tensor is of size \[3, 2\] while the given "
                                               r"forward gradient is of size \[2, 3\]"):
            fwAD.make_dual(primal, tangent)
        kept = fwAD.make_dual(primal, tangent.t().clone() if ordinary == "tangent"
                              else _frozen(3, 2).clone())
        assert fwAD.unpack_dual(kept).tangent is not None


@pytest.mark.parametrize("method", ["remainder_", "fmod_", "floor_divide_", "div_"])
def test_a_0d_integer_divided_in_place_by_a_zero(method):
    kwargs = {"rounding_mode": "trunc"} if method == "div_" else {}
    zero = torch.tensor(0)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        getattr(zero, method)(zero, **kwargs)
    assert zero.item() == 0 and zero._version == 0
    seven = torch.tensor(7)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        getattr(seven, method)(torch.tensor(0), **kwargs)
    assert seven.item() == 7


@pytest.mark.parametrize("op", ["deg2rad", "rad2deg"])
@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.bool])
def test_deg2rad_of_integers_keeps_the_strides_of_size_one_dimensions(op, dtype):
    row = torch.zeros(2, 1, dtype=dtype).t()
    assert row.stride() == (1, 1)
    assert getattr(row, op)().stride() == (1, 1)
    spread = torch.zeros(2, 1, 3, dtype=dtype).permute(2, 1, 0)
    assert spread.stride() == (1, 3, 3)
    assert getattr(spread, op)().stride() == (1, 3, 3)
    expanded = spread.expand(2, 3, 1, 2)
    assert getattr(expanded, op)().stride() == (6, 1, 3, 3)
    assert getattr(expanded, op)().dtype == torch.float32


@pytest.mark.parametrize("op", ["lt_", "eq_", "ge_"])
@pytest.mark.parametrize("dtype", [torch.int64, torch.uint8])
def test_a_comparison_into_an_integer_inference_tensor(op, dtype):
    other = torch.rand(1, 2, 2, dtype=torch.float64, requires_grad=True)
    with torch.inference_mode():
        narrow, full = torch.zeros(1, 2, 1, dtype=dtype), torch.zeros(1, 2, 2, dtype=dtype)
    with pytest.raises(RuntimeError, match=r"output with shape \[1, 2, 1\] doesn't match "
                                           r"the broadcast shape \[1, 2, 2\]"):
        getattr(narrow, op)(other)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside "
                                           "InferenceMode is not allowed"):
        getattr(full, op)(other)
    written = [[[1, 1], [1, 1]]] if op == "lt_" else [[[0, 0], [0, 0]]]
    assert full.tolist() == written  # the kernel wrote before the version was refused


@pytest.mark.parametrize(("dtype", "weight_dtype", "result_dtype"), [
    (torch.float16, torch.float32, torch.float32),
    (torch.float16, torch.float64, torch.float64),
    (torch.bfloat16, torch.float16, torch.float32),
])
def test_lerp_of_three_0d_tensors_promotes_them_together(dtype, weight_dtype, result_dtype):
    start = torch.tensor(0.7001953125, dtype=dtype, requires_grad=True)
    weight = torch.tensor(0.25, dtype=weight_dtype, requires_grad=True)
    out = torch.lerp(start, start.detach() * 2, weight)
    assert out.dtype == result_dtype and out.grad_fn.name() == "LerpBackward1"
    out.backward()
    assert start.grad.dtype == dtype and weight.grad.dtype == weight_dtype
    if dtype is torch.float16:
        assert out.item() == 0.875244140625  # computed in the promoted dtype, rounded once
        assert start.grad.item() == 0.75


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("weight_dtype", [torch.float32, torch.float64])
def test_lerp_rounds_a_0d_weight_to_the_dimensioned_tensors_dtype(dtype, weight_dtype):
    start = torch.tensor([0.7, 1.1], dtype=dtype)
    end = torch.tensor([-1.3, 0.3], dtype=dtype)
    out = torch.lerp(start, end, torch.tensor(0.3, dtype=weight_dtype))
    rounded = torch.lerp(start, end, torch.tensor(0.3, dtype=dtype))
    assert out.dtype == dtype and out.tolist() == rounded.tolist()
    if dtype is torch.float16:
        assert out.tolist() == [0.10009765625, 0.85986328125]
    else:
        assert out.tolist() == [0.0986328125, 0.859375]
    ints = torch.lerp(torch.tensor([0, 1]), torch.tensor([-1, 3]), torch.tensor(0.3, dtype=dtype))
    assert ints.dtype == dtype  # integers take the weight's dtype, however it is kept


@pytest.mark.parametrize(("method", "self_shape", "operands", "product"), [
    ("baddbmm_", (2, 2), ((1, 2, 2), (1, 2, 2)), (1, 2, 2)),
    ("addmm_", (1, 2), ((2, 2), (2, 2)), (2, 2)),
    ("addmv_", (1,), ((2, 2), (2,)), (2,)),
])
def test_a_bool_product_in_place_refuses_selfs_shape_first(method, self_shape, operands,
                                                           product):
    args = [torch.ones(shape, dtype=torch.bool) for shape in operands]
    with torch.no_grad(), pytest.raises(RuntimeError, match=(
            rf"Bad in-place call: input tensor size \[{', '.join(map(str, self_shape))}\] "
            rf"and output tensor size \[{', '.join(map(str, product))}\] should match")):
        getattr(torch.ones(self_shape, dtype=torch.bool), method)(*args)
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        getattr(torch.ones(product, dtype=torch.bool), method)(*args)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_tanhs_gradient_near_one_rounds_one_minus_the_square_once(dtype):
    x = torch.tensor([4.934802, 2.2994740], dtype=dtype, requires_grad=True)
    y = x.tanh()
    y.backward(torch.ones_like(y))
    exact = [float(1 - Fraction(v) ** 2) for v in y.tolist()]  # rounded once, to float64
    fused = torch.tensor(exact, dtype=torch.float64).to(dtype).tolist()
    assert x.grad.tolist() == fused
    assert (1 - y.detach() * y.detach()).tolist() != fused  # the square rounded first


@pytest.mark.parametrize("join", [torch.cat, torch.stack, torch.hstack, torch.column_stack])
@pytest.mark.parametrize("other", [torch.float32, torch.float16])
def test_joining_bfloat16_with_float32_or_float16_promotes(join, other):
    brain = torch.tensor([1.1, 2.3], dtype=torch.bfloat16)
    joined = join([brain, torch.tensor([1.1, 2.3], dtype=other)])
    assert joined.dtype == torch.float32
    assert sorted(joined.reshape(-1).tolist())[:2] == [1.099609375 if other is torch.float16
                                                      else 1.100000023841858, 1.1015625]


def test_cat_of_inference_tensors_counts_each_piece_converted():
    with torch.inference_mode():
        floats = torch.ones(2, 2)
        halves, brains = torch.ones(1, 2, dtype=torch.float16), torch.ones(1, 2,
                                                                           dtype=torch.bfloat16)
        longs, legacy = torch.ones(1, 2, dtype=torch.int64), torch.ones(0, dtype=torch.float16)
    assert torch.cat([floats, halves])._version == 1
    assert torch.cat([floats, brains, brains, longs])._version == 3
    assert torch.cat([halves, halves])._version == 0
    assert torch.cat([floats, legacy])._version == 0  # a legacy empty piece is skipped
    assert torch.cat([floats, halves[:0]])._version == 1
    assert torch.cat([floats, halves.clone()])._version == 0  # one normal piece: autograd's
