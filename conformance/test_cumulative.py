"""Black-box tests: cumprod, cummax, cummin, logcumsumexp, logaddexp, logaddexp2, hypot,
xlogy, logit, sgn, heaviside, erf, erfc and erfinv, and their in-place forms. The same
assertions run on torch.
"""

import itertools
import math

import pytest
import torch

from conformance._support import raises

INF, NAN = math.inf, math.nan


def _products_leaving_out(values, skipped, j):
    return math.prod(v for m, v in enumerate(values[:j + 1]) if m not in skipped)


def test_cumprod_values_dtypes_and_node():
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64, requires_grad=True)
    y = x.cumprod(1)
    assert y.tolist() == [[1.0, 2.0, 6.0], [4.0, 20.0, 120.0]]
    assert torch.cumprod(x, 0).tolist() == [[1.0, 2.0, 3.0], [4.0, 10.0, 18.0]]
    node = y.grad_fn
    assert type(node).__name__ == "CumprodBackward0" and node._saved_dim == 1
    assert node._saved_self is x and node._saved_result.equal(y)
    assert torch.cumprod(torch.tensor([1, 2, 3]), 0).dtype == torch.int64
    assert torch.cumprod(torch.tensor([True, True]), 0).tolist() == [1, 1]
    as_float = torch.cumprod(x, 1, dtype=torch.float32)
    assert as_float.dtype == torch.float32 and type(as_float.grad_fn).__name__ == (
        "CumprodBackward0")
    as_float.sum().backward()
    assert x.grad.dtype == torch.float64
    assert torch.cumprod(torch.tensor(3.0), 0).item() == 3.0
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                            "got 1)"):
        torch.cumprod(torch.tensor([1.0]), 1)


def test_cumprod_gradients_through_zeros_are_the_sums_of_products_leaving_each_out():
    values = [2.0, 0.0, 3.0, 0.0, 5.0, -1.5]
    weights = [1.0, -2.0, 0.5, 3.0, -1.0, 2.0]
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    g = torch.tensor(weights, dtype=torch.float64)
    (grad,) = torch.autograd.grad(x.cumprod(0), x, g, create_graph=True)
    n = len(values)
    expected = [sum(weights[j] * _products_leaving_out(values, {i}, j) for j in range(i, n))
                for i in range(n)]
    assert grad.tolist() == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert not any(math.isnan(v) for v in grad.tolist())
    (second,) = torch.autograd.grad(grad.sum(), x)
    hessian = [sum(weights[j] * _products_leaving_out(values, {i, k}, j)
                   for i, j in itertools.product(range(n), range(n))
                   if i != k and max(i, k) <= j) for k in range(n)]
    assert second.tolist() == pytest.approx(hessian, rel=1e-12, abs=1e-12)


def test_cumprod_in_place():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1.0
    y.cumprod_(0)
    assert y.tolist() == [1.0, 2.0, 6.0] and y._version == 1
    assert type(y.grad_fn).__name__ == "CumprodBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [9.0, 4.0, 2.0]


def test_cummax_and_cummin_move_on_at_ties_and_nans():
    x = torch.tensor([1.0, 3.0, 3.0, NAN, 5.0, NAN])
    out = torch.cummax(x, 0)
    assert type(out).__name__ == "cummax" and repr(out).startswith("torch.return_types.cummax(")
    assert out.indices.tolist() == [0, 1, 2, 3, 3, 5] and out.indices.dtype == torch.int64
    assert out.values[:3].tolist() == [1.0, 3.0, 3.0] and out.values[3:].isnan().all()
    low = torch.tensor([[3, 1, 1, 2], [0, 5, -1, -1]]).cummin(1)
    assert low.values.tolist() == [[3, 1, 1, 1], [0, 0, -1, -1]]
    assert low.indices.tolist() == [[0, 1, 2, 2], [0, 0, 2, 3]]
    flags = torch.cummax(torch.tensor([True, False, True]), 0)
    assert flags.values.tolist() == [True, True, True] and flags.indices.tolist() == [0, 0, 2]
    single = torch.cummin(torch.tensor(2.5), 0)
    assert single.values.item() == 2.5 and single.indices.item() == 0


def test_cummax_gradient_goes_to_the_places_that_led():
    x = torch.tensor([1.0, 3.0, 2.0, 3.0, 0.0], requires_grad=True)
    values, indices = x.cummax(0)
    node = values.grad_fn
    assert type(node).__name__ == "CummaxBackward0" and node._saved_dim == 0
    assert node._saved_self is x and node._saved_indices.tolist() == indices.tolist()
    values.backward(torch.tensor([1.0, 10.0, 100.0, 1000.0, 10000.0]))
    assert x.grad.tolist() == [1.0, 110.0, 0.0, 11000.0, 0.0]
    assert type(x.cummin(0).values.grad_fn).__name__ == "CumminBackward0"


def test_logcumsumexp_does_not_overflow_and_weights_its_gradient():
    big = torch.logcumsumexp(torch.tensor([0.0, 800.0, 800.0]), 0)
    assert big.tolist() == pytest.approx([0.0, 800.0, 800.0 + math.log(2.0)])
    values = [0.5, -1.0, 2.0, 0.25]
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    y = torch.logcumsumexp(x, 0)
    running = [math.log(sum(math.exp(v) for v in values[:j + 1])) for j in range(4)]
    assert y.tolist() == pytest.approx(running, rel=1e-14)
    node = y.grad_fn
    assert type(node).__name__ == "LogcumsumexpBackward0" and node._saved_dim == 0
    weights = [1.0, -2.0, 0.5, 3.0]
    y.backward(torch.tensor(weights, dtype=torch.float64))
    expected = [sum(weights[j] * math.exp(values[i] - running[j]) for j in range(i, 4))
                for i in range(4)]
    assert x.grad.tolist() == pytest.approx(expected, rel=1e-13)
    with raises(NotImplementedError, "\"logcumsumexp_out_cpu\" not implemented for 'Long'"):
        torch.logcumsumexp(torch.tensor([1, 2]), 0)


def test_logcumsumexp_gradient_is_nan_where_the_log_sum_is_minus_infinity():
    x = torch.tensor([-INF, -INF, 1.0, -INF, 2.0], dtype=torch.float64, requires_grad=True)
    x.logcumsumexp(0).backward(torch.tensor([0.0, 1.0, 1.0, -1.0, 1.0], dtype=torch.float64))
    grad = x.grad.tolist()
    assert math.isnan(grad[0]) and math.isnan(grad[1]) and grad[3] == 0.0
    r = [1.0, 1.0, math.log(math.e + math.e**2)]
    assert grad[2] == pytest.approx(1.0 - math.exp(1.0 - r[1]) + math.exp(1.0 - r[2]), rel=1e-14)
    everywhere = torch.full((3,), -INF, requires_grad=True)
    everywhere.logcumsumexp(0).sum().backward()
    assert all(math.isnan(v) for v in everywhere.grad.tolist())
    later = torch.tensor([1.0, INF, -INF], requires_grad=True)
    later.logcumsumexp(0).sum().backward()
    assert later.grad[0].item() == 1.0 and math.isnan(later.grad[1].item())
    assert later.grad[2].item() == 0.0


def test_logcumsumexp_forward_tangent_uses_the_whole_maximum():
    fwad = torch.autograd.forward_ad
    x = torch.tensor([-200.0, -300.0, 0.0], dtype=torch.float64)
    v = torch.tensor([-0.46, 0.0, 2.0], dtype=torch.float64)
    with fwad.dual_level():
        tangent = fwad.unpack_dual(fwad.make_dual(x, v).logcumsumexp(0)).tangent
        scaled = [math.exp(-200.0), math.exp(-300.0), 1.0]
        weighted = [s * t for s, t in zip(scaled, v.tolist())]
        expected = [sum(weighted[:j + 1]) / (sum(scaled[:j + 1]) + 1e-13) for j in range(3)]
        assert tangent.tolist() == pytest.approx(expected, rel=1e-15)
        wider = torch.tensor([3.0, 1.0], dtype=torch.float64)
        wide = fwad.make_dual(torch.tensor([2.0, 1.0]), wider)
        assert fwad.unpack_dual(wide.logcumsumexp(0)).tangent.dtype == torch.float32
        with raises(IndexError, "max(): Expected reduction dim 0 to have non-zero size."):
            fwad.make_dual(torch.zeros(0, 3), torch.zeros(0, 3)).logcumsumexp(0)


def test_logaddexp_logaddexp2_and_hypot():
    a = torch.tensor([0.0, 1.0, -800.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.0, 3.0, 800.0], dtype=torch.float64, requires_grad=True)
    both = torch.logaddexp(a, b)
    assert both.tolist() == pytest.approx([math.log(2.0), math.log(math.e + math.e**3), 800.0])
    assert torch.logaddexp2(a, b)[0].item() == 1.0
    node = both.grad_fn
    assert type(node).__name__ == "LogaddexpBackward0"
    assert node._saved_self is a and node._saved_other is b
    both.sum().backward()
    assert a.grad.tolist() == pytest.approx([0.5, 1 / (1 + math.e**2), 0.0])
    assert b.grad.tolist() == pytest.approx([0.5, 1 / (1 + math.e**-2), 1.0])
    assert type(a.logaddexp2(b).grad_fn).__name__ == "Logaddexp2Backward0"
    x = torch.tensor([3.0, 1e300], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([4.0, 1e300], dtype=torch.float64)
    length = torch.hypot(x, y)
    assert length.tolist() == [5.0, math.hypot(1e300, 1e300)]
    assert type(length.grad_fn).__name__ == "HypotBackward0"
    length.sum().backward()
    assert x.grad.tolist() == pytest.approx([0.6, math.sqrt(0.5)])
    assert torch.hypot(torch.tensor([3.0]), torch.tensor([4.0], dtype=torch.float64)).dtype == (
        torch.float64)


def test_log_sums_and_hypot_want_float_tensors():
    with raises(NotImplementedError, "\"logaddexp_cpu\" not implemented for 'Long'"):
        torch.logaddexp(torch.tensor([1]), torch.tensor([2]))
    with raises(NotImplementedError, "\"hypot_cpu\" not implemented for 'Long'"):
        torch.hypot(torch.tensor([3]), torch.tensor([4]))
    with raises(TypeError, "logaddexp(): argument 'other' (position 2) must be Tensor, not "
                           "float"):
        torch.logaddexp(torch.tensor([1.0]), 2.0)


def test_xlogy_lets_zero_win_and_records_three_nodes():
    x = torch.tensor([0.0, 0.0, 2.0, 0.0], requires_grad=True)
    y = torch.tensor([0.0, NAN, 3.0, -1.0], requires_grad=True)
    out = torch.xlogy(x, y)
    assert out[0].item() == 0.0 and math.isnan(out[1].item()) and out[3].item() == 0.0
    assert out[2].item() == pytest.approx(2 * math.log(3.0))
    assert type(out.grad_fn).__name__ == "XlogyBackward0"
    out[[0, 2, 3]].sum().backward()
    assert x.grad[0].item() == 0.0 and x.grad[3].item() == 0.0
    assert x.grad[2].item() == pytest.approx(math.log(3.0))
    assert y.grad[2].item() == pytest.approx(2 / 3)
    by_number = x.xlogy(2.5)
    assert type(by_number.grad_fn).__name__ == "XlogyBackward2"
    assert by_number.grad_fn._saved_other == 2.5 and by_number.grad_fn._saved_self is x
    number_first = torch.xlogy(3, y)
    assert type(number_first.grad_fn).__name__ == "XlogyBackward1"
    assert number_first.grad_fn._saved_self == 3 and number_first.grad_fn._saved_other is y
    assert torch.xlogy(torch.tensor([0, 2]), torch.tensor([0, 3])).dtype == torch.float32
    with raises(TypeError, "xlogy() received an invalid combination of arguments - got (int, "
                           "int), but expected one of:\n"
                           " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                           " * (Number self, Tensor other, *, Tensor out = None)\n"
                           " * (Tensor input, Number other, *, Tensor out = None)\n"):
        torch.xlogy(2, 3)


def test_logit_with_and_without_eps():
    p = torch.tensor([0.0, 0.25, 0.5, 1.0, 1.5], dtype=torch.float64, requires_grad=True)
    plain = torch.logit(p)
    assert plain.tolist()[:4] == [-INF, math.log(1 / 3), 0.0, INF]
    assert math.isnan(plain[4].item()) and plain.grad_fn._saved_eps is None
    assert type(plain.grad_fn).__name__ == "LogitBackward0"
    (slope,) = torch.autograd.grad(plain.sum(), p)
    assert slope[1].item() == pytest.approx(1 / (0.25 * 0.75)) and math.isnan(slope[4].item())
    clamped = p.logit(eps=0.01)
    assert clamped.grad_fn._saved_eps == 0.01
    assert clamped[0].item() == pytest.approx(math.log(0.01 / 0.99))
    (slope,) = torch.autograd.grad(clamped.sum(), p)
    assert slope.tolist()[:1] + slope.tolist()[3:] == [0.0, 0.0, 0.0]
    assert torch.logit(torch.tensor([0.3]), eps=-1.0).item() == pytest.approx(
        math.log(0.3 / 0.7))
    assert torch.logit(torch.tensor([0, 1])).tolist() == [-INF, INF]


def test_sgn_and_heaviside():
    x = torch.tensor([-2.0, 0.0, 3.0, NAN], requires_grad=True)
    s = x.sgn()
    assert s.tolist()[:3] == [-1.0, 0.0, 1.0] and s[3].item() == 0.0
    assert type(s.grad_fn).__name__ == "SgnBackward0" and s.grad_fn._saved_self is x
    s.sum().backward()
    assert x.grad.clone().tolist() == [0.0, 0.0, 0.0, 0.0]  # torch's grad: a zero tensor
    assert torch.sgn(torch.tensor([-2, 0, 3])).tolist() == [-1, 0, 1]
    assert torch.sgn(torch.tensor([True, False])).dtype == torch.bool
    steps = torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5]))
    assert steps.tolist() == [0.0, 0.5, 1.0]
    assert torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor([7])).tolist() == [0, 7, 1]
    with raises(RuntimeError, "heaviside is not yet implemented for tensors with different "
                              "dtypes."):
        torch.heaviside(torch.tensor([1.0]), torch.tensor([1]))
    with raises(TypeError, "heaviside(): argument 'values' (position 2) must be Tensor, not "
                           "float"):
        torch.heaviside(torch.tensor([1.0]), 0.5)
    a = torch.tensor([1.0, 0.0], requires_grad=True)
    out = torch.heaviside(a, torch.tensor([0.25, 0.75]))
    assert out.grad_fn.name() == "torch::autograd::NotImplemented"
    assert len(out.grad_fn.next_functions) == 1
    with raises(RuntimeError, "derivative for aten::heaviside is not implemented"):
        out.sum().backward()
    written = a * 1.0
    written.heaviside_(torch.tensor([0.25]))
    assert written.tolist() == [1.0, 0.25] and written._version == 1
    with raises(RuntimeError, "derivative for aten::heaviside_ is not implemented"):
        written.sum().backward()


def test_the_error_function_and_its_inverse():
    points = [-3.0, -0.5, 0.0, 1e-8, 0.75, 2.0, 6.0]
    z = torch.tensor(points, dtype=torch.float64, requires_grad=True)
    assert z.erf().tolist() == pytest.approx([math.erf(v) for v in points], rel=1e-15)
    assert z.erfc().tolist() == pytest.approx([math.erfc(v) for v in points], rel=1e-15)
    # erfinv's slope at erf(-3) is about 7000: the round trip keeps 12 digits there
    round_trip = torch.erfinv(torch.erf(z[:-1]))
    assert round_trip.tolist() == pytest.approx(points[:-1], rel=1e-12, abs=1e-300)
    assert torch.erfinv(torch.tensor([1.0, -1.0, 2.0])).tolist()[:2] == [INF, -INF]
    assert math.isnan(torch.erfinv(torch.tensor(2.0)).item())
    assert torch.erfc(torch.tensor([10.0])).item() > 0.0  # no digits lost to 1 - erf
    assert torch.erf(torch.tensor([1, 0])).dtype == torch.float32
    assert [type(f(z).grad_fn).__name__ for f in (torch.erf, torch.erfc, torch.erfinv)] == [
        "ErfBackward0", "ErfcBackward0", "ErfinvBackward0"]
    (slope,) = torch.autograd.grad(torch.erf(z).sum(), z)
    assert slope.tolist() == pytest.approx(
        [2 / math.sqrt(math.pi) * math.exp(-v * v) for v in points], rel=1e-15)
    u = torch.tensor([-0.9, 0.0, 0.5], dtype=torch.float64, requires_grad=True)
    (slope,) = torch.autograd.grad(torch.erfinv(u).sum(), u)
    inverse = torch.erfinv(u).tolist()
    assert slope.tolist() == pytest.approx(
        [math.sqrt(math.pi) / 2 * math.exp(v * v) for v in inverse], rel=1e-14)


def test_in_place_forms():
    p = torch.tensor([0.25, 0.5])
    assert p.clone().logit_().tolist() == pytest.approx([math.log(1 / 3), 0.0])
    assert p.clone().erf_().tolist() == pytest.approx([math.erf(0.25), math.erf(0.5)])
    assert p.clone().erfc_().tolist() == pytest.approx([math.erfc(0.25), math.erfc(0.5)])
    assert p.clone().erfinv_()[1].item() == pytest.approx(0.4769362762044699)
    assert torch.tensor([-3.0, 0.0]).sgn_().tolist() == [-1.0, 0.0]
    assert torch.tensor([3.0]).hypot_(torch.tensor([4.0])).tolist() == [5.0]
    assert torch.tensor([0.0, 2.0]).xlogy_(torch.tensor([0.0, 1.0])).tolist() == [0.0, 0.0]
    assert torch.tensor([-1.0, 0.0]).heaviside_(torch.tensor([0.5])).tolist() == [0.0, 0.5]
    leaf = torch.tensor([0.5], requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        leaf.erf_()
    x = torch.tensor([0.5], requires_grad=True)
    y = x * 1.0
    y.erfinv_()
    assert type(y.grad_fn).__name__ == "ErfinvBackward0" and y._version == 1


def test_nansum_passes_over_nans_and_nanmean_divides_by_a_count():
    x = torch.tensor([[1.0, NAN, 2.0], [3.0, 4.0, 5.0]], requires_grad=True)
    total = x.nansum()
    assert total.item() == 15.0 and type(total.grad_fn).__name__ == "NansumBackward0"
    assert total.grad_fn._saved_dim is None and total.grad_fn._saved_keepdim is False
    assert total.grad_fn._saved_self is x
    rows = torch.nansum(x, 1, keepdim=True)
    assert rows.tolist() == [[3.0], [12.0]] and rows.grad_fn._saved_dim == (1,)
    rows.backward(torch.tensor([[2.0], [3.0]]))
    assert x.grad.tolist() == [[2.0, 0.0, 2.0], [3.0, 3.0, 3.0]]
    assert torch.nansum(torch.tensor([1, 2])).dtype == torch.int64
    assert torch.nansum(torch.tensor([1, 2]), dtype=torch.float64).dtype == torch.float64
    means = x.nanmean(0)
    assert means.tolist() == [2.0, 4.0, 3.5]
    node = means.grad_fn
    assert type(node).__name__ == "DivBackward0" and node._saved_self is None
    assert node._saved_other.tolist() == [2, 1, 2] and node._saved_other.dtype == torch.int64
    assert [type(n).__name__ if n is not None else None for n, _ in node.next_functions] == [
        "NansumBackward0", None]
    assert math.isnan(torch.nanmean(torch.tensor([NAN, NAN])).item())
    with raises(RuntimeError, "nanmean(): expected input to have floating point or complex "
                              "dtype but got Long"):
        torch.nanmean(torch.tensor([1, 2]))


@pytest.mark.parametrize("dim", [(), []])
def test_nanmean_over_no_dims_is_the_mean_of_every_value(dim):
    x = torch.tensor([[1.0, 2.0], [3.0, NAN]], requires_grad=True)
    mean = torch.nanmean(x, dim=dim)
    assert mean.shape == () and mean.item() == 2.0
    assert torch.nanmean(x, dim, keepdim=True).tolist() == [[2.0]]
    mean.backward()
    assert torch.allclose(x.grad, torch.tensor([[1 / 3, 1 / 3], [1 / 3, 0.0]]))


@pytest.mark.parametrize("dim", [0, -1, (0,), []])
@pytest.mark.parametrize("keepdim", [False, True])
def test_nanmean_of_a_zero_dimensional_tensor(dim, keepdim):
    x = torch.tensor(2.0, requires_grad=True)
    mean = torch.nanmean(x, dim, keepdim)
    assert mean.shape == () and mean.item() == 2.0
    mean.backward()
    assert x.grad.item() == 1.0
    assert math.isnan(torch.nanmean(torch.tensor(NAN), dim, keepdim).item())


@pytest.mark.parametrize("dtype, name", [("int64", "Long"), ("bool", "Bool"), ("int32", "Int")])
def test_nanmean_wants_a_floating_point_dtype(dtype, name):
    with raises(RuntimeError, "nanmean(): could not infer output dtype. Optional dtype must be "
                              f"either a floating point or complex dtype. Got: {name}"):
        torch.nanmean(torch.tensor([1.0, 2.0]), dtype=getattr(torch, dtype))
    assert torch.nanmean(torch.tensor([1.0, 2.0]), dtype=torch.float64).dtype == torch.float64


@pytest.mark.parametrize("name", ["cumprod", "cumsum", "nansum", "prod"])
@pytest.mark.parametrize("dtype, word", [("int64", "Long"), ("int32", "Int"), ("bool", "Bool")])
def test_an_integer_dtype_is_refused_where_the_result_would_be_recorded(name, dtype, word):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    args = (0,) if name.startswith("cum") else ()
    kind = getattr(torch, dtype)
    if name.startswith("cum") and dtype == "bool":  # no running product or sum in bool
        kind_error = (NotImplementedError, f"\"{name}_out_cpu\" not implemented for 'Bool'")
    else:
        kind_error = (RuntimeError, f"Autograd not support dtype: {word}")
    with raises(*kind_error):
        getattr(torch, name)(x, *args, dtype=kind)
    if name.startswith("cum") and dtype == "bool":
        return
    with torch.no_grad():
        assert getattr(torch, name)(x, *args, dtype=kind).dtype == kind
    assert getattr(torch, name)(x.detach(), *args, dtype=kind).dtype == kind


@pytest.mark.parametrize("name", ["cumprod", "cumsum"])
def test_running_products_and_sums_give_no_bool(name):
    message = f"\"{name}_out_cpu\" not implemented for 'Bool'"
    for x in (torch.tensor([True, False]), torch.tensor([1, 0])):
        with raises(NotImplementedError, message):
            getattr(torch, name)(x, 0, dtype=torch.bool)
    with raises(NotImplementedError, message):
        getattr(torch.tensor([True]), name + "_")(0)
    counted = getattr(torch, name)(torch.tensor([True, False]), 0)
    assert counted.dtype == torch.int64
    assert counted.tolist() == ([1, 0] if name == "cumprod" else [1, 1])


@pytest.mark.parametrize("name", ["cumprod", "cumsum"])
def test_running_products_and_sums_in_place_keep_the_input_dtype(name):
    with raises(RuntimeError, "Bad in-place call: input tensor dtype float and output tensor "
                              "dtype double should match"):
        getattr(torch.tensor([1.0, 2.0]), name + "_")(0, dtype=torch.float64)
    with raises(RuntimeError, "Bad in-place call: input tensor dtype long int and output "
                              "tensor dtype double should match"):
        getattr(torch.tensor([1, 2]), name + "_")(0, dtype=torch.float64)
    with raises(RuntimeError, "Bad in-place call: input tensor dtype bool and output tensor "
                              "dtype float should match"):
        getattr(torch.tensor([True]), name + "_")(0, dtype=torch.float32)
    x = torch.tensor([1.0, 2.0, 3.0])
    assert getattr(x, name + "_")(0, dtype=torch.float32).tolist() == (
        [1.0, 2.0, 6.0] if name == "cumprod" else [1.0, 3.0, 6.0])
    small = getattr(torch.tensor([2, 3], dtype=torch.int32), name + "_")(0)
    assert small.dtype == torch.int32
    assert small.tolist() == ([2, 6] if name == "cumprod" else [2, 5])


@pytest.mark.parametrize("name", ["cummax", "cummin"])
@pytest.mark.parametrize("dim", [1, -2])
def test_cummax_and_cummin_of_a_scalar_name_their_dims(name, dim):
    with raises(IndexError, f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}"):
        getattr(torch, name)(torch.tensor(1.0), dim)
    assert getattr(torch, name)(torch.tensor(1.0), -1).values.item() == 1.0


def test_logit_with_eps_over_one_half_raises_before_it_lowers():
    x = torch.tensor([0.0, 1.0, 0.5, NAN])
    y = torch.logit(x, eps=0.6)
    assert torch.allclose(y[:3], torch.tensor([math.log(1.5), math.log(2 / 3), math.log(1.5)]))
    assert math.isnan(y[3].item())


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2", "hypot", "heaviside"])
@pytest.mark.parametrize("number, kind", [(2.0, "float"), (2, "int")])
def test_two_tensor_functions_refuse_a_number_first(name, number, kind):
    with raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, not {kind}"):
        getattr(torch, name)(number, torch.tensor([1.0]))


@pytest.mark.parametrize("name", ["logit", "sgn", "erf", "erfc", "erfinv"])
@pytest.mark.parametrize("value, kind", [(0.5, "float"), (1, "int"), (True, "bool"),
                                         ([0.5], "list")])
def test_one_tensor_functions_refuse_anything_else(name, value, kind):
    with raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, not {kind}"):
        getattr(torch, name)(value)


def test_heaviside_shapes_must_broadcast():
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at "
                              "non-singleton dimension 0"):
        torch.heaviside(torch.zeros(3), torch.tensor([1.0, 2.0]))
    with raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at "
                              "non-singleton dimension 0"):
        torch.heaviside(torch.zeros(2, 3), torch.tensor([[1.0], [2.0], [3.0]]))
    assert torch.heaviside(torch.zeros(2, 1), torch.tensor([1.0, 2.0, 3.0])).tolist() == [
        [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]


def _tangent(function, primal, tangent):
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        return fw.unpack_dual(function(fw.make_dual(primal, tangent))).tangent


def _same(a, b):
    return all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b))


def test_xlogy_tangents_are_log_y_where_x_is_not_zero():
    x, y, ones = (torch.tensor([2.0, 0.0, 0.0, 2.0, 1.0]),
                  torch.tensor([0.0, 0.0, -1.0, -1.0, NAN]), torch.ones(5))
    assert _same(_tangent(lambda a: torch.xlogy(a, y), x, ones).tolist(),
                 [-INF, 0.0, 0.0, NAN, NAN])
    assert _same(_tangent(lambda a: torch.xlogy(a, -1.0), x, ones).tolist(),
                 [NAN, 0.0, 0.0, NAN, NAN])
    assert _same(_tangent(lambda b: torch.xlogy(x, b), torch.tensor([0.0, 0.0, -1.0, -1.0, 1.0]),
                          ones).tolist(), [INF, NAN, 0.0, -2.0, 1.0])
    by_two = _tangent(lambda a: torch.xlogy(a, 2.0), torch.tensor([1.0, 0.0]),
                      torch.tensor([0.5, 0.25]))
    assert torch.allclose(by_two, torch.tensor([0.5, 0.25]) * math.log(2.0))
    still = _tangent(lambda a: torch.xlogy(a, torch.tensor([0.0, -1.0])),
                     torch.tensor([2.0, 2.0]), torch.tensor([0.0, 0.0]))
    assert still.tolist() == [0.0, 0.0]
    dual = _tangent(lambda a: torch.xlogy(a, torch.tensor([1.0, 4.0]) * a),
                    torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
    assert torch.allclose(dual, torch.tensor([1.0, math.log(8.0) + 1.0]))


def test_logit_tangents_outside_the_unit_interval():
    p, ones = torch.tensor([-0.3, 0.0, 0.5, 1.0, 1.5]), torch.ones(5)
    assert _same(_tangent(torch.logit, p, ones).tolist(), [NAN, INF, 4.0, INF, NAN])
    assert _tangent(lambda a: torch.logit(a, eps=0.1), p, ones).tolist() == [0, 0, 4, 0, 0]
    assert _tangent(lambda a: torch.logit(a, eps=-0.1), p, ones).tolist() == [0, INF, 4, INF, 0]


def test_logit_takes_eps_as_a_number():
    x = torch.tensor([0.5, 0.0])
    for eps in ("a", [0.1], torch.tensor([0.1, 0.2])):
        kind = type(eps).__name__
        with raises(TypeError, f"logit(): argument 'eps' must be float, not {kind}"):
            torch.logit(x, eps=eps)
    assert torch.logit(x, eps=torch.tensor(0.1)).tolist() == torch.logit(x, eps=0.1).tolist()
    assert torch.logit(x, eps=1).tolist() == [INF, INF]


def test_a_running_sum_starts_from_positive_zero():
    signs = [math.copysign(1.0, v) for v in torch.tensor([-0.0, -0.0, 1.0]).cumsum(0).tolist()]
    assert signs == [1.0, 1.0, 1.0]
    half = torch.tensor([[-0.0], [-0.0]], dtype=torch.float16).cumsum(0)
    assert [math.copysign(1.0, v) for v in half.flatten().tolist()] == [1.0, 1.0]
    assert math.copysign(1.0, torch.tensor(-0.0).cumsum(0).item()) == -1.0  # 0-d: a copy


def test_logcumsumexp_third_derivative_keeps_the_sign_of_a_zero():
    # the part through abs's sgn adds zeros that leave a -0.0 as it is
    x = torch.tensor([1.0, -1.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([-1.0, 1.0], dtype=torch.float64, requires_grad=True)
    (first,) = torch.autograd.grad(x.logcumsumexp(0), x, w, create_graph=True)
    ones = torch.ones(2, dtype=torch.float64)
    (second,) = torch.autograd.grad(first, w, ones, create_graph=True)
    (third,) = torch.autograd.grad(second, w, ones)
    assert [str(v) for v in third.tolist()] == ["-0.0", "0.0"]


def test_a_sum_with_sgns_zeros_is_recorded_and_valued_as_the_other_term():
    x = torch.tensor([-1.0, 2.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(x.abs().sum() + (x**3).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x, create_graph=True)
    assert h.tolist() == [-6.0, 12.0] and type(h.grad_fn).__name__ == "AddBackward0"
    assert [None if n is None else type(n).__name__ for n, _ in h.grad_fn.next_functions] == [
        None, "MulBackward0"]
    y = torch.tensor([-2.0, 3.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad((y * -0.0).sum() + y.sgn().sum(), y)
    assert [str(v) for v in g.tolist()] == ["-0.0", "-0.0"]  # -0.0 + 0.0 would be 0.0
