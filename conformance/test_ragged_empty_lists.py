"""Black-box tests: a nested list whose first element at some depth is empty gives an
empty tensor, its sizes read from first elements and its dtype from every number."""

import numpy as np
import pytest
import torch

from conformance._support import raises


@pytest.mark.parametrize(("data", "size"), [([[], [1]], (2, 0)), ([[[]], []], (2, 1, 0)),
                                            ([[], 5], (2, 0)), ([[[], [2]], [[], [1]]], (2, 2, 0))])
def test_sizes_come_from_first_elements(data, size):
    t = torch.tensor(data)
    assert t.shape == size and t.dtype == torch.float32


def test_dtype_reads_every_number():
    assert torch.tensor([[], np.zeros(3)]).dtype == torch.float64
    assert torch.tensor([[], [300]], dtype=torch.uint8).shape == (2, 0)
    with raises(TypeError, "new(): invalid data type 'str'"):
        torch.tensor([[], ["a"]])
    with raises(RuntimeError, "Could not infer dtype of NoneType"):
        torch.tensor([[], [None]])


def test_a_later_empty_list_is_still_ragged():
    with raises(ValueError, "expected sequence of length 1 at dim 1 (got 0)"):
        torch.tensor([[1], []])
