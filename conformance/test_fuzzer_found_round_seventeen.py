"""Black-box tests: behaviour the differential fuzzer found in its seventeenth round.

A QR factorization of a matrix of one row applies its one reflection, whose tau
is 0, so a later column that is not finite is nan in R and in geqrf's a. The
same assertions run on torch.
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
