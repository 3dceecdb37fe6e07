"""Behaviour the differential fuzzer found in its sixth round: layer_norm's first check,
embedding_bag's name for a bool table, the rounding of cross products and of gelu's ends,
lerp of integers by a 0-d weight, where's out= check, and two counts and strides.
The same assertions run on torch.
"""

import math
import struct

import pytest
import torch
import torch.nn.functional as F


def f32(value: float) -> float:
    """``value`` rounded to the nearest float32."""
    return struct.unpack("f", struct.pack("f", value))[0]


@pytest.mark.parametrize("weight, bias", [
    (torch.tensor([1]), None),  # an integer weight, of the wrong shape too
    (torch.ones(1, dtype=torch.float64), None),
    (None, torch.ones(1, dtype=torch.float64)),
    (torch.ones(1, dtype=torch.float16), torch.ones(1)),
])
def test_layer_norm_refuses_mixed_parameters_before_their_shapes(weight, bias):
    x = torch.rand(3, 2)
    with pytest.raises(RuntimeError, match="^mixed dtype \\(CPU\\): expect parameter to have "
                                           "scalar type of Float$"):
        F.layer_norm(x, (2,), weight, bias)


def test_layer_norm_refuses_a_double_input_beside_float_parameters_before_shapes():
    with pytest.raises(RuntimeError, match="^mixed dtype \\(CPU\\): all inputs must share "
                                           "same datatype.$"):
        F.layer_norm(torch.rand(3, 2, dtype=torch.float64), (5,), torch.ones(1))


def test_layer_norm_checks_shapes_when_the_first_parameter_matches():
    with pytest.raises(RuntimeError, match="^Expected weight to be of same shape as "
                                           "normalized_shape, but got weight of shape \\[1\\]"):
        F.layer_norm(torch.rand(3, 2), (2,), torch.ones(1), torch.ones(2, dtype=torch.float64))


def test_embedding_bag_names_a_bool_table_as_cpp_does():
    table = torch.zeros(3, 2, dtype=torch.bool)
    with pytest.raises(RuntimeError, match="but got CPUBoolType instead \\(while checking "
                                           "arguments for embedding_bag\\)$"):
        F.embedding_bag(torch.tensor([0, 1, 0]), table, torch.tensor([0, 1]), mode="max")
    with pytest.raises(RuntimeError, match="but got torch.LongTensor instead"):
        F.embedding_bag(torch.tensor([0, 1]), table.long(), torch.tensor([0]))


def test_a_float32_vector_crossed_with_itself_leaves_each_products_rounding_error():
    a = torch.tensor([0.1, 0.7, 0.3])
    v = [float(x) for x in a]
    expected = [v[i] * v[j] - f32(v[j] * v[i]) for i, j in ((1, 2), (2, 0), (0, 1))]
    assert any(expected)  # the products are not exact in float32
    assert torch.linalg.cross(a, a).tolist() == expected
    assert torch.cross(a[None], a[None], dim=1)[0].tolist() == expected


def test_a_float64_vector_crossed_with_itself_leaves_each_products_rounding_error():
    from fractions import Fraction

    a = torch.tensor([0.1, 0.7, 0.3], dtype=torch.float64)
    v = [float(x) for x in a]
    expected = [float(Fraction(v[i]) * Fraction(v[j]) - Fraction(v[j] * v[i]))
                for i, j in ((1, 2), (2, 0), (0, 1))]
    assert any(expected)
    assert torch.linalg.cross(a, a).tolist() == expected


def test_a_cross_product_is_one_fused_multiply_add_a_component():
    a, b = torch.tensor([0.1, 0.7, 0.3]), torch.tensor([0.9, 0.2, 0.6])
    x, y = [float(t) for t in a], [float(t) for t in b]
    expected = [f32(x[i] * y[j] - f32(x[j] * y[i])) for i, j in ((1, 2), (2, 0), (0, 1))]
    assert torch.linalg.cross(a, b).tolist() == expected
    assert torch.cross(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 7]), dim=0).tolist() == [
        -1, 5, -3]


INF = math.inf
# oneDNN's gelu has ends of its own where it computes with AVX-512; with AVX2 they are the
# formula's (the tests take oneDNN's instructions to follow torch's build)
WIDE = torch.backends.cpu.get_cpu_capability() == "AVX512"


def test_gelu_of_a_row_major_float32_input_gives_nan_at_infinity_with_avx512():
    out = F.gelu(torch.tensor([[-1.5, 0.0], [2.0, INF]]))
    assert math.isnan(out[1, 1]) == WIDE and out[0, 1] == 0.0
    assert math.isnan(F.gelu(torch.tensor([INF, 1.0]))[0]) == WIDE
    assert out[1, 1] == INF or WIDE


@pytest.mark.parametrize("x", [
    torch.tensor([INF]),  # one element
    torch.tensor(INF),
    torch.tensor([INF, 0.0, INF, 0.0])[::2],  # strided
    torch.tensor([[INF, 1.0], [2.0, INF]]).t(),  # transposed
    torch.tensor([INF]).expand(3),
    torch.tensor([INF, INF], dtype=torch.float64),
    torch.tensor([INF, 0.0, INF, 0.0], dtype=torch.bfloat16)[::2],
])
def test_gelu_of_other_layouts_and_dtypes_gives_infinity(x):
    out = F.gelu(x)
    assert all(v == INF for v, w in zip(out.reshape(-1).tolist(), x.reshape(-1).tolist())
               if w == INF)


def test_gelu_of_a_row_major_float32_input_overflows_from_two_to_the_127_with_avx512():
    below, at = f32(2.0**127 * (1 - 2.0**-24)), 2.0**127
    out = F.gelu(torch.tensor([below, at, 1.0]))
    assert out[:2].tolist() == [below, INF if WIDE else at]
    assert F.gelu(torch.tensor([at, 0.0])[::2]).item() == at  # no oneDNN: the formula
    assert F.gelu(torch.tensor([at, INF]), approximate="tanh").tolist() == [at, INF]


def test_gelu_of_a_row_major_bfloat16_input_meets_the_float32_ends():
    out = F.gelu(torch.tensor([2.0**127, INF, 1.0], dtype=torch.bfloat16)).tolist()
    assert out[:2] == ([INF, out[1]] if WIDE else [2.0**127, INF]) and math.isnan(out[1]) == WIDE


def test_gelu_of_negative_float32_numbers_gives_zeros_signed_as_its_kernel_does():
    zeros = F.gelu(torch.tensor([-10.0, -0.0, 1.0]))[:2]
    assert [math.copysign(1.0, v) for v in zeros.tolist()] == [-1.0 if WIDE else 1.0] * 2
    assert math.copysign(1.0, F.gelu(torch.tensor([-10.0, 0.0])[::2]).item()) == -1.0


@pytest.mark.parametrize("kind", [torch.int64, torch.int32, torch.uint8, torch.bool])
def test_lerp_of_integers_with_a_floating_0d_weight_interpolates_in_its_dtype(kind):
    start = torch.tensor([[0, 1, 2], [2, 1, 0]]).to(kind)
    end = torch.tensor([[2, 2, 2], [0, 0, 1]]).to(kind)
    out = torch.lerp(start, end, torch.tensor(0.25, dtype=torch.float64))
    assert out.dtype == torch.float64 and out.stride() == (3, 1)
    s, e = start.double().tolist(), end.double().tolist()
    assert out.tolist() == [[a + 0.25 * (b - a) for a, b in zip(r, q)] for r, q in zip(s, e)]
    assert torch.lerp(start.t(), end.t(), torch.tensor(0.5)).stride() == (1, 3)


def test_lerp_of_integers_differentiates_its_0d_weight_and_saves_the_integers():
    start, end = torch.tensor([0, 1, 2]), torch.tensor([2, 2, 2])
    weight = torch.tensor(0.25, requires_grad=True)
    out = torch.lerp(start, end, weight)
    assert out.grad_fn.name() == "LerpBackward1" and out.dtype == torch.float32
    assert out.grad_fn._saved_self.dtype == torch.int64
    out.sum().backward()
    assert weight.grad.item() == 3.0  # the sum of end - start


@pytest.mark.parametrize("weight, message", [
    (torch.tensor([0.25]), "expected dtype long int for `weight` but got dtype float"),
    (torch.tensor(1), "\"lerp_kernel_tensor\" not implemented for 'Long'"),
])
def test_lerp_of_integers_still_refuses_other_weights(weight, message):
    with pytest.raises((RuntimeError, NotImplementedError), match=f"^{message}$"):
        torch.lerp(torch.tensor([0, 1]), torch.tensor([2, 2]), weight)


def test_lerp_of_integers_into_themselves_refuses_the_float_result():
    start = torch.tensor([0, 1])
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired "
                                           "output type Long$"):
        start.lerp_(torch.tensor([2, 2]), torch.tensor(0.25))
    assert start.tolist() == [0, 1]


def test_copyslices_gives_a_one_element_base_its_own_strides():
    x, y = torch.rand(1, requires_grad=True), torch.rand(1, requires_grad=True)
    base = x + 0
    base.view(-1)[0].mul_(y[0])
    grad, = torch.autograd.grad(base.sum(), (x,))
    assert grad.stride() == (1,) and grad.shape == (1,)


@pytest.mark.parametrize("condition", [torch.zeros(0, 3) > 0.5, torch.zeros(0, 3)])
def test_where_refuses_its_outs_dtype_before_shapes_or_condition(condition):
    x, y = torch.zeros(0, 3), torch.rand(2, 3, dtype=torch.float64)
    out = torch.zeros(0)
    with pytest.raises(RuntimeError, match="^Expected out type to be Double but got Float$"):
        torch.where(condition, x, y, out=out)
    assert out.shape == (0,)


@pytest.mark.parametrize("shape, dim", [((2, 0), -1), ((0, 3), 0)])
def test_trapezoid_over_an_empty_dimension_counts_the_zeroing_write(shape, dim):
    y = torch.rand(shape)
    for out in (torch.trapezoid(y, dim=dim), torch.trapezoid(y, dx=2.0, dim=dim),
                torch.trapz(y, dim=dim)):
        assert out._version == 1 and out.tolist() == [0.0] * out.numel()
    assert torch.trapezoid(torch.rand(3))._version == 0
