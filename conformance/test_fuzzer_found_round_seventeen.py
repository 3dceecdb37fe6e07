"""Black-box tests: behaviour the differential fuzzer found in its seventeenth round.

A QR factorization applies a reflection whose tau is 0 (a matrix of one row, or
zeros below the diagonal), so a later column that is not finite is nan in R and in
geqrf's a from that row down; and div_ with a rounding mode refuses a result self
cannot hold before its kernel finds a zero divisor; a transposed convolution with
an operand that is not finite adds only the products that land on each element.
The same assertions run on torch.
"""

import math

import pytest
import torch

INF, NAN = math.inf, math.nan


def _same(got, want):
    want = torch.tensor(want, dtype=got.dtype)
    assert got.shape == want.shape and torch.equal(got.isnan(), want.isnan())
    assert torch.equal(got.nan_to_num(0.0), want.nan_to_num(0.0))


@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_qr_of_one_row_makes_a_later_column_that_is_not_finite_nan(mode, dtype):
    a = torch.tensor([[INF, 1.0, -INF, NAN, 2.0]], dtype=dtype)
    Q, R = torch.linalg.qr(a, mode=mode)
    _same(R, [[INF, 1.0, NAN, NAN, 2.0]])
    assert Q.tolist() == ([] if mode == "r" else [[1.0]])


def test_qr_of_one_row_in_a_batch_and_of_one_column():
    a = torch.tensor([[[1.0, INF]], [[-INF, 3.0]]])
    _same(torch.linalg.qr(a).R, [[[1.0, NAN]], [[-INF, 3.0]]])
    _same(torch.linalg.qr(torch.tensor([[INF]])).R, [[INF]])


def test_geqrf_of_one_row_makes_a_later_column_that_is_not_finite_nan():
    h, tau = torch.geqrf(torch.tensor([[2.0, INF, 3.0, -INF]], dtype=torch.float64))
    _same(h, [[2.0, NAN, 3.0, NAN]])
    assert tau.tolist() == [0.0]


def test_qr_with_zeros_below_the_diagonal_makes_a_later_column_that_is_not_finite_nan():
    a = torch.tensor([[1.0, INF, 2.0], [0.0, 2.0, 1.0]], dtype=torch.float64)
    _same(torch.linalg.qr(a).R, [[1.0, NAN, 2.0], [0.0, NAN, 1.0]])
    _same(torch.geqrf(a)[0], [[1.0, NAN, 2.0], [0.0, NAN, 1.0]])


def test_a_reflection_meeting_inf_where_its_vector_is_zero_makes_the_column_nan():
    a = torch.tensor([[3.0, 1.0, 2.0], [4.0, 1.0, 1.0], [0.0, 0.0, INF]], dtype=torch.float64)
    R = torch.linalg.qr(a).R
    assert R[:, :2].isfinite().all() and R[:, 2].isnan().all()
    assert torch.geqrf(a)[0][:, 2].isnan().all()


@pytest.mark.parametrize("rounding_mode", ["floor", "trunc"])
def test_div_in_place_with_a_zero_divisor_refuses_the_cast_first(rounding_mode):
    x = torch.zeros(2, 3, dtype=torch.bool)
    with pytest.raises(RuntimeError, match="^result type Long can't be cast to the desired "
                                           "output type Bool$"):
        x.div_(torch.tensor([[0, 1, 2]]), rounding_mode=rounding_mode)
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        torch.zeros(3, dtype=torch.int64).div_(torch.tensor([0, 1, 2]), rounding_mode=rounding_mode)


def test_conv_transpose2d_adds_only_the_products_that_land_on_an_element():
    x = torch.tensor([[1.5, 0.0], [4.0, -INF]])[None, None]
    y = torch.nn.functional.conv_transpose2d(x, x, stride=2)
    _same(y[0, 0], [[2.25, 0.0, 0.0, 0.0], [6.0, -INF, 0.0, NAN],
                    [6.0, 0.0, -INF, NAN], [16.0, -INF, -INF, INF]])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_conv_transpose1d_pads_no_zeros_into_a_weight_holding_inf(dtype):
    w = torch.tensor([[-1.5, 0.0], [2.0, INF]], dtype=dtype)[None]
    x = torch.tensor([[0.5, 0.25]], dtype=dtype)[None]
    _same(torch.nn.functional.conv_transpose1d(x, w)[0],
          [[-0.75, -0.375, 0.0], [1.0, INF, INF]])
    _same(torch.nn.functional.conv_transpose1d(x, w, torch.tensor([1.0, 2.0], dtype=dtype),
                                               padding=1)[0], [[0.625], [INF]])
