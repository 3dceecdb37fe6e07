"""logsumexp of float64 tensors to the bit: the exponentials of the distances from the
largest element are added in sum's order (test_sum_order.py), then the logarithm of the
total is moved back by the largest element.
"""

import numpy as np
import pytest
import torch

from conformance.test_sum_order import down_columns, torch_order


def _exp(values):
    """The library's own exponentials: NumPy's and torch's can differ in the last place
    (NumPy's AVX-512 kernels), and the order of the sum is what is tested here."""
    return torch.exp(torch.from_numpy(np.asarray(values))).tolist()


@pytest.mark.parametrize("n", [5, 37, 100, 300])
def test_logsumexp_adds_the_exponentials_in_sums_order(n):
    a = np.random.default_rng(n).standard_normal((3, n)) * 4.0
    x = torch.from_numpy(a)
    expected = []
    for row in a:
        top = row.max()
        total = torch_order(_exp(row - top), np.float64)
        expected.append(float(np.log(total) + top))
    assert x.logsumexp(1).tolist() == expected
    assert x.t().logsumexp(0).tolist() == expected  # the same rows, by their strides
    columns = _exp(a.T - a.max(1))  # (n, 3): summed over its rows, down three columns
    tops = a.max(1)
    assert x.t().contiguous().logsumexp(0).tolist() == [
        float(np.log(s) + t) for s, t in zip(down_columns(columns, np.float64), tops)]
