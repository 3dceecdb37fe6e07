"""Black-box tests: answers at the edges of lookups, factories and mixed dtypes.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

BOOL_SEARCH = '"searchsorted_out_cpu" not implemented for \'Bool\''


@pytest.mark.parametrize("search", [
    lambda: torch.searchsorted(torch.tensor([False, True]), torch.tensor([True])),
    lambda: torch.searchsorted(torch.tensor([False, True]), True),
    lambda: torch.bucketize(torch.tensor([True]), torch.tensor([False, True])),
])
def test_a_search_among_booleans_is_refused(search):
    with raises(NotImplementedError, BOOL_SEARCH):
        search()


def test_a_boolean_beside_integers_is_promoted():
    assert torch.searchsorted(torch.tensor([1, 2]), torch.tensor([True])).tolist() == [0]
    assert torch.searchsorted(torch.tensor([False, True]), torch.tensor([1])).tolist() == [1]
    assert torch.bucketize(torch.tensor([1]), torch.tensor([False, True])).tolist() == [1]
    assert torch.bucketize(True, torch.tensor([1, 2])).item() == 0


@pytest.mark.parametrize("factory", ["ones", "zeros", "empty"])
@pytest.mark.parametrize("size, kind", [(3, "int"), (2.0, "float"), (range(2), "range"),
                                        (True, "bool")])
def test_a_size_given_by_name_must_be_a_sequence(factory, size, kind):
    with raises(TypeError, f"{factory}(): argument 'size' must be tuple of ints, not {kind}"):
        getattr(torch, factory)(size=size)
    assert getattr(torch, factory)(size=[2, 1]).shape == (2, 1)
    assert getattr(torch, factory)(size=torch.Size([2])).shape == (2,)
