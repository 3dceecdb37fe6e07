"""linalg.lstsq of a B with no columns: LAPACK's own answers, as torch reports them."""

import pytest
import torch

from conformance._support import raises

A = torch.eye(3, dtype=torch.float64) * 2
B = torch.zeros(3, 0, dtype=torch.float64)
ASSERT = ('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
          'BatchLinearAlgebra.cpp":1613, please report a bug to PyTorch. torch.linalg.lstsq: '
          '{}Argument 4 has illegal value. Most certainly there is a bug in the implementation '
          'calling the backend library.')


@pytest.mark.parametrize("driver", [None, "gelsy"])
def test_gelsy_returns_before_counting_the_rank(driver):
    assert torch.linalg.lstsq(A, B, driver=driver).rank.item() == 0
    batch = torch.linalg.lstsq(A.expand(2, 3, 3), torch.zeros(2, 3, 0, dtype=torch.float64))
    assert batch.rank.tolist() == [0, 0] and batch.solution.shape == (2, 3, 0)


def test_gelsd_refuses_no_columns():
    with raises(RuntimeError, ASSERT.format("")):
        torch.linalg.lstsq(A, B, driver="gelsd")
    with raises(RuntimeError, ASSERT.format("(Batch element 0): ")):
        torch.linalg.lstsq(A.expand(2, 3, 3), torch.zeros(2, 3, 0, dtype=torch.float64),
                           driver="gelsd")


def test_an_empty_a_is_answered_without_lapack():
    result = torch.linalg.lstsq(torch.ones(0, 3, dtype=torch.float64),
                                torch.zeros(0, 2, dtype=torch.float64), driver="gelsd")
    assert result.rank.item() == 0 and result.solution.tolist() == [[0.0, 0.0]] * 3
