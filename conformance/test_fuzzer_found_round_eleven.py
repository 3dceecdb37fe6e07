"""Behaviour the differential fuzzer left after its tenth round, in gradients' corners.

A comparison written in place sends an `other` of another shape or dtype zeros made in
that shape and dtype, written (version 1); cumprod's first-order gradient with a zero
sums only the terms before that zero, so an infinity past it spoils nothing, and prod's
second derivative, made of cumprods, agrees; pow's gradient for its exponent is laid
out like the base. The same assertions run on torch.
"""

import math

import pytest
import torch

INF, NAN = math.inf, math.nan
CHANNELS_LAST = (60, 1, 15, 3)


def _same(t, expected):
    """Equal values, NaN where NaN is expected."""
    assert [[v != v for v in row] for row in t.tolist()] == [
        [v != v for v in row] for row in expected]
    assert [[v for v in row if v == v] for row in t.tolist()] == [
        [v for v in row if v == v] for row in expected]


@pytest.mark.parametrize("name", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
@pytest.mark.parametrize("shape, dtype", [((3,), torch.float32), ((2, 3), torch.float64),
                                          ((1, 3), torch.float16)])
def test_a_comparisons_zeros_for_another_other_are_written(name, shape, dtype):
    x = torch.rand(2, 3, requires_grad=True)
    y = torch.rand(shape, dtype=dtype, requires_grad=True)
    getattr(x.clone(), name)(y).sum().backward()
    assert y.grad.shape == shape and y.grad.dtype == dtype
    assert y.grad._version == 1 and x.grad._version == 1
    assert not y.grad.any() and not x.grad.any()


def test_a_comparisons_zeros_for_a_channels_last_other_are_row_major():
    x = torch.rand(2, 3, 4, 5).to(memory_format=torch.channels_last).requires_grad_()
    y = torch.rand(1, 3, 4, 5, requires_grad=True)
    gx, gy = torch.autograd.grad(x.clone().lt_(y).sum(), (x, y))
    assert gx.stride() == (60, 20, 5, 1) and gy.stride() == (60, 20, 5, 1)
    assert gy.shape == (1, 3, 4, 5) and gy._version == 1


@pytest.mark.parametrize("values, expected", [
    ([2.0, 0.0, INF], [1.0, INF, 0.0]),  # 2 * 0 * inf past the zero is NaN: not summed
    ([INF, 2.0, 0.0], [NAN, INF, INF]),
    ([0.0, 3.0, INF], [INF, 0.0, 0.0]),
    ([1.0, 2.0, 0.0, 5.0], [5.0, 2.0, 46.0, 0.0]),
])
def test_cumprods_gradient_sums_only_up_to_the_first_zero(values, expected):
    x = torch.tensor(values, requires_grad=True)
    g = torch.tensor([1.0, 2.0, 3.0, 4.0][:len(values)])
    grad, = torch.autograd.grad(x.cumprod(0), x, g)
    _same(grad.unsqueeze(0), [expected])


def test_prods_second_derivative_with_a_zero_and_an_infinity():
    v = torch.tensor([[-1.5, 0.0], [2.0, INF]], requires_grad=True)
    g, = torch.autograd.grad(v.prod(), v, create_graph=True)
    _same(g, [[NAN, -INF], [NAN, -0.0]])
    gg, = torch.autograd.grad(g.sum(), v)
    _same(gg, [[INF, NAN], [-INF, NAN]])


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64])
def test_pows_exponent_gradient_is_laid_out_like_the_base(dtype):
    x = (torch.rand(2, 3, 4, 5) + 0.5).to(memory_format=torch.channels_last).requires_grad_()
    e = torch.rand(2, 3, 4, 5, dtype=dtype, requires_grad=True)
    gx, ge = torch.autograd.grad(x.pow(e).sum(), (x, e), create_graph=True)
    assert ge.stride() == CHANNELS_LAST and ge.dtype == dtype
    assert gx.stride() == (60, 20, 5, 1)
    hx, he = torch.autograd.grad(ge.sum(), (x, e))
    assert hx.stride() == CHANNELS_LAST and he.stride() == CHANNELS_LAST
    assert he.dtype == dtype


@pytest.mark.parametrize("dtype, dtype_asked, writes", [
    (torch.float16, None, 1), (torch.float32, torch.float16, 1),
    (torch.float16, torch.float32, 2), (torch.float32, None, 2), (torch.float64, None, 2),
])
@pytest.mark.parametrize("dims", [None, 0, (0, 1)])
def test_a_float16_mean_of_inference_tensors_is_written_once(dtype, dtype_asked, writes, dims):
    with torch.inference_mode():
        x = torch.rand(2, 3).to(dtype).mT
    y = x.mean(dtype=dtype_asked) if dims is None else x.mean(dims, dtype=dtype_asked)
    assert not y.is_inference()
    assert y._version == writes


def _halves():
    g = torch.Generator().manual_seed(3)
    return torch.rand(5, 37, generator=g).half(), torch.randint(0, 2, (5, 37), generator=g)


@pytest.mark.parametrize("transposed", [False, True])
def test_a_float16_scatter_add_adds_in_float32_and_rounds_once(transposed):
    v, index = _halves()
    if transposed:
        v = v.t().contiguous().t()
    expected = v.float().scatter_add(0, index, v.float()).half()
    assert torch.equal(v.scatter_add(0, index, v), expected)
    assert torch.equal(v.scatter_reduce(0, index, v, "sum"), expected)


@pytest.mark.parametrize("include_self", [False, True])
def test_a_float16_scatter_mean_divides_a_sum_made_in_float32(include_self):
    v, index = _halves()
    total = v.float().scatter_reduce(0, index, v.float(), "sum", include_self=include_self).half()
    count = torch.full_like(v, float(include_self)).scatter_add(0, index, torch.ones_like(v))
    expected = total / count.masked_fill(count == 0, 1)
    mean = v.scatter_reduce(0, index, v, "mean", include_self=include_self)
    assert torch.equal(mean, expected)
    summed = v.scatter_reduce(0, index, v, "sum", include_self=include_self)
    assert torch.equal(summed, total)


SHARED = "unsupported operation: some elements of the input tensor and the written-to tensor"


def test_addr_in_place_takes_the_column_of_its_own_single_column():
    m = torch.tensor([[1.0], [2.0], [3.0]])
    m.addr_(m[:, 0], torch.tensor([2.0]))
    assert m.tolist() == [[3.0], [6.0], [9.0]]
    s = torch.tensor([[1.0], [2.0]]).expand(2, 1)
    s.addr_(s[:, 0], torch.ones(1))
    assert s.tolist() == [[2.0], [4.0]]


def test_addr_in_place_refuses_the_row_of_its_own_single_row():
    m = torch.tensor([[1.0, 2.0, 3.0]])
    with pytest.raises(RuntimeError, match=SHARED):
        m.addr_(torch.ones(1), m[0])
    assert m.tolist() == [[1.0, 2.0, 3.0]]


def test_an_add_in_place_still_refuses_its_column_as_a_vector():
    m = torch.tensor([[1.0], [2.0], [3.0]])
    with pytest.raises(RuntimeError, match=SHARED):
        m.add_(m[:, 0])


def test_a_refused_set_of_an_inference_tensor_takes_the_memory_but_no_history():
    source = torch.rand(2, 4)[:, ::2].requires_grad_(True)
    with torch.inference_mode():
        t = torch.zeros(3)
    with pytest.raises(RuntimeError, match="^Inplace update to inference tensor outside"):
        t.set_(source)
    assert t.shape == (2, 2) and t.stride() == (4, 2)
    assert not t.requires_grad and t.is_leaf and t.grad_fn is None
