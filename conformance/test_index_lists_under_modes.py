"""Black-box tests: a list in an index is made a tensor that a dispatch mode sees lifted
(aten.lift_fresh) at the list's turn in the reading of the index, a list of floats made
int64 positions with no cast the mode sees. The same assertions run on torch."""

import warnings

import pytest
import torch

from conformance._support import recording_mode

Seen = recording_mode()
LIFT, SELECT = "aten.lift_fresh.default", "aten.select.int"
INDEX, PUT = "aten.index.Tensor", "aten.index_put_.default"


def _set(index, value):
    return lambda x: x.__setitem__(index, value)


@pytest.mark.parametrize("read, seen, shape", [
    (lambda x: x[[0, 1]], [LIFT, INDEX], [2, 3, 4]),
    (lambda x: x[[0, 1], [1, 2]], [LIFT, LIFT, INDEX], [2, 4]),
    (lambda x: x[0, [1]], [SELECT, LIFT, INDEX], [1, 4]),
    (lambda x: x[[1], 0], [LIFT, SELECT, INDEX], [1, 4]),
    (lambda x: x[[1], 0, [2.0]], [LIFT, SELECT, LIFT, INDEX], [1]),
    (lambda x: x[[0.7, 1.9]], [LIFT, INDEX], [2, 3, 4]),
    (lambda x: x[[]], [LIFT, INDEX], [0, 3, 4]),
    (lambda x: x[[True, False]], [LIFT, INDEX], [1, 3, 4]),
    (_set([0, 1], 2.0), [LIFT, LIFT, PUT], None),
    (_set(([1], 0), 2.0), [LIFT, LIFT, SELECT, PUT], None),
    (_set((slice(None), [0, 2]), torch.ones(2, 4)), [LIFT, PUT], None),
])
def test_an_index_list_is_lifted_in_its_turn(read, seen, shape):
    x = torch.ones(2, 3, 4)
    with warnings.catch_warnings(), Seen() as mode:
        warnings.simplefilter("ignore")
        made = read(x)
    assert mode.seen == seen
    assert (None if made is None else list(made.shape)) == shape
