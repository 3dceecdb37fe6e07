"""Behaviour the differential fuzzer found in its eighth round: float16 reductions, and
threshold_ of a bool tensor.

A float16 product rounds each partial product to half precision as it is made, over a
dimension as over everything; a float16 logsumexp does not depend on its input's
layout; threshold refuses bool tensors in place as out of place. The same assertions
run on torch.
"""

import pytest
import torch
import torch.nn.functional as F


def halves(rows, columns):
    """A float16 table of values between 1 and 3, none of them special."""
    return (1 + torch.arange(float(rows * columns)).reshape(rows, columns) / 7).half()


def test_a_float16_product_down_a_column_rounds_each_step():
    x = halves(3, 5)
    expected = (x[0] * x[1]) * x[2]  # float16 multiplies round each product
    assert torch.equal(x.prod(0), expected)
    assert not torch.equal(x.float().prod(0).half(), expected)  # rounding once misses


@pytest.mark.parametrize("layout", [lambda x: x, lambda x: x.t().contiguous().t()])
def test_a_float16_product_along_a_row_rounds_each_step(layout):
    x = layout(halves(3, 5).t().contiguous())
    expected = (x[:, 0] * x[:, 1]) * x[:, 2]
    assert torch.equal(x.prod(1), expected)
    assert torch.equal(x.prod(1, keepdim=True), expected[:, None])
    assert torch.equal(x.prod(-1, dtype=torch.float16), expected)


def waves():
    return (torch.arange(148.0).reshape(4, 37) / 9 - 8).sin().mul(3).half()


@pytest.mark.parametrize("dim", [0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_a_float16_logsumexp_does_not_depend_on_the_layout(dim, keepdim):
    x = waves()
    column_major = x.t().contiguous().t()
    assert column_major.stride() == (1, 4)
    expected = x.logsumexp(dim, keepdim=keepdim)
    got = column_major.logsumexp(dim, keepdim=keepdim)
    assert got.dtype == torch.float16 and got.shape == expected.shape
    assert torch.equal(got, expected)


BOOL_THRESHOLDS = {
    "F.threshold": lambda x: F.threshold(x, 0.5, 2.0),
    "F.threshold inplace": lambda x: F.threshold(x, 0.5, 2.0, inplace=True),
    "F.threshold_": lambda x: F.threshold_(x, 0.5, 2.0),
    "torch.threshold_": lambda x: torch.threshold_(x, 0.5, 2.0),
    "nn.Threshold inplace": lambda x: torch.nn.Threshold(0.5, 2.0, inplace=True)(x),
}


@pytest.mark.parametrize("threshold", BOOL_THRESHOLDS.values(), ids=BOOL_THRESHOLDS.keys())
@pytest.mark.parametrize("values", [[True, False, True], [], True])
def test_threshold_refuses_a_bool_tensor_in_place_too(threshold, values):
    x = torch.tensor(values, dtype=torch.bool)
    with pytest.raises(NotImplementedError, match='"threshold_cpu" not implemented for \'Bool\''):
        threshold(x)
    assert x._version == 0
    assert torch.equal(x, torch.tensor(values, dtype=torch.bool))


HARDTANHS = {
    "F.hardtanh": lambda x, lo, hi: F.hardtanh(x, lo, hi),
    "F.hardtanh inplace": lambda x, lo, hi: F.hardtanh(x, lo, hi, inplace=True),
    "F.hardtanh_": lambda x, lo, hi: F.hardtanh_(x, lo, hi),
}


@pytest.mark.parametrize("hardtanh", HARDTANHS.values(), ids=HARDTANHS.keys())
def test_hardtanh_refuses_a_bool_tensor_in_place_too(hardtanh):
    x = torch.tensor([True, False])
    with pytest.raises(RuntimeError, match="^Bool inputs not supported for hardtanh$"):
        hardtanh(x, -1, 1)
    assert x._version == 0


@pytest.mark.parametrize("hardtanh", HARDTANHS.values(), ids=HARDTANHS.keys())
@pytest.mark.parametrize("bounds", [(-1, 1), (-2, 0), (-1.5, 2.0)])
def test_hardtanh_refuses_a_uint8_tensor_a_negative_bound(hardtanh, bounds):
    x = torch.tensor([0, 1, 2], dtype=torch.uint8)
    with pytest.raises(RuntimeError, match="^cannot do hardtanh on an unsigned type with negative"):
        hardtanh(x, *bounds)
    assert x._version == 0


@pytest.mark.parametrize("hardtanh", HARDTANHS.values(), ids=HARDTANHS.keys())
def test_a_uint8_hardtanh_reads_its_bounds_as_integers(hardtanh):
    x = torch.tensor([0, 1, 2, 3], dtype=torch.uint8)
    result = hardtanh(x, -0.5, 2.7)  # the bounds 0 and 2
    assert result.dtype == torch.uint8
    assert result.tolist() == [0, 1, 2, 2]


@pytest.mark.parametrize("hardtanh", HARDTANHS.values(), ids=HARDTANHS.keys())
@pytest.mark.parametrize(("values", "dtype", "bounds", "name"), [
    ([1, -100], torch.int8, (-200, 100), "int8_t"),
    ([1.0, -3.0], torch.float16, (-1e5, 2.0), "c10::Half"),
])
def test_hardtanh_refuses_a_bound_its_dtype_cannot_hold(hardtanh, values, dtype, bounds, name):
    x = torch.tensor(values, dtype=dtype)
    with pytest.raises(RuntimeError, match=f"^value cannot be converted to type {name} without"):
        hardtanh(x, *bounds)
    assert x._version == 0


THRESHOLDS = {
    "F.threshold": lambda x, t, v: F.threshold(x, t, v),
    "F.threshold inplace": lambda x, t, v: F.threshold(x, t, v, inplace=True),
    "F.threshold_": lambda x, t, v: F.threshold_(x, t, v),
}


@pytest.mark.parametrize("threshold", THRESHOLDS.values(), ids=THRESHOLDS.keys())
def test_a_negative_threshold_wraps_around_for_uint8(threshold):
    x = torch.tensor([0, 1, 200], dtype=torch.uint8)
    assert threshold(x, -1, 5).tolist() == [5, 5, 5]  # -1 is 255: every element is at or below


@pytest.mark.parametrize("threshold", THRESHOLDS.values(), ids=THRESHOLDS.keys())
@pytest.mark.parametrize(("values", "dtype", "numbers", "name"), [
    ([0, 1, 200], torch.uint8, (1, 300), "uint8_t"),
    ([1, 2], torch.int32, (2**40, 3), "int"),
    ([1.0, 2.0], torch.float16, (1.5, 1e6), "c10::Half"),
])
def test_threshold_refuses_a_number_its_dtype_cannot_hold(threshold, values, dtype, numbers,
                                                          name):
    x = torch.tensor(values, dtype=dtype)
    with pytest.raises(RuntimeError, match=f"^value cannot be converted to type {name} without"):
        threshold(x, *numbers)
    assert x._version == 0


@pytest.mark.parametrize("threshold", THRESHOLDS.values(), ids=THRESHOLDS.keys())
def test_a_float16_threshold_is_held_in_float32(threshold):
    x = torch.tensor([1.0, 2.0], dtype=torch.float16)
    assert threshold(x, 1e5, 3.0).tolist() == [3.0, 3.0]  # past float16's range, no refusal


@pytest.mark.parametrize("lookup", [
    lambda w: F.embedding(torch.tensor([2, 0]), w, max_norm=0.5),
    lambda w: F.embedding_bag(torch.tensor([[2, 0]]), w, max_norm=0.5),
    lambda w: torch.nn.Embedding.from_pretrained(w, max_norm=0.5)(torch.tensor([2, 0])),
])
def test_an_inference_weight_is_renormed_outside_inference_mode(lookup):
    with torch.inference_mode():
        weight = torch.arange(6.0).reshape(3, 2)
    result = lookup(weight)  # the renorm writes through weight.detach(), which is allowed
    assert not result.is_inference() and result._version == 0
    assert weight.is_inference()
    assert weight[1].tolist() == [2.0, 3.0]  # a row not looked up is left
    assert torch.allclose(weight[[0, 2]].norm(dim=1), torch.tensor([0.5, 0.5]))


def test_an_inference_weight_itself_is_refused_an_in_place_renorm():
    with torch.inference_mode():
        weight = torch.arange(6.0).reshape(3, 2)
    with pytest.raises(RuntimeError, match="^Inplace update to inference tensor outside"):
        torch.embedding_renorm_(weight, torch.tensor([2]), 0.5, 2.0)
