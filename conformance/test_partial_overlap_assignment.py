"""Black-box tests: item assignment ``t[index] = v`` stretches a ``v`` of another shape to the
target's and compares the stretched tensor with the memory written; a 0-d ``v`` fills.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._overlaps import SHARED_INPUT
from conformance._support import raises


def _assign(index, value_of):
    return lambda t: t.__setitem__(index, value_of(t))


@pytest.mark.parametrize("make, write", [
    (lambda: torch.arange(4.0), _assign(None, lambda x: x)),  # stretched by a leading 1: dense
    (lambda: torch.arange(4.0), _assign((None, None), lambda x: x)),
    (lambda: torch.arange(4.0), _assign(None, lambda x: x[None, None])),
    (lambda: torch.arange(4.0), _assign(slice(None), lambda x: x)),
    (lambda: torch.arange(4.0), _assign(Ellipsis, lambda x: x)),
    (lambda: torch.arange(4.0).view(2, 2), _assign(None, lambda m: m)),
    (lambda: torch.arange(4.0).view(2, 2), _assign((slice(None), None), lambda m: m[:, None])),
    (lambda: torch.arange(4.0).view(2, 2), _assign(slice(0, 1), lambda m: m[0])),
    (lambda: torch.arange(4.0).view(4, 1), _assign(None, lambda c: c)),
    (lambda: torch.arange(4.0), _assign(slice(0, 1), lambda x: x[0])),  # 0-d: a fill
])
def test_item_assignment_of_a_tensor_stretched_onto_itself_runs(make, write):
    t = make()
    write(t)
    assert t.tolist() == make().tolist()
    assert t._version == 1


@pytest.mark.parametrize("write, expected", [
    (_assign(slice(1, None), lambda x: x[0]), [0, 0, 0, 0]),  # stride 0: not dense
    (_assign(slice(None), lambda x: x[:1]), [0, 0, 0, 0]),
    (lambda x: x.view(2, 2).__setitem__(None, x[:2]), [0, 1, 0, 1]),
    (lambda x: x.view(2, 2).__setitem__(0, x[2:]), [2, 3, 2, 3]),  # disjoint
])
def test_item_assignment_of_a_truly_stretched_source_is_not_compared(write, expected):
    x = torch.arange(4.0)
    write(x)
    assert x.tolist() == expected


@pytest.mark.parametrize("write", [
    lambda x: x[:3].__setitem__(None, x[1:]),  # a dense source shifted by one
    lambda x: x.view(2, 2).__setitem__(None, x.view(2, 2).t()),  # other strides
    lambda x: x[None].copy_(x),  # copy_ itself compares the unstretched source
])
def test_item_assignment_compares_its_stretched_source(write):
    x = torch.arange(4.0)
    with raises(RuntimeError, SHARED_INPUT):
        write(x)
    assert x.tolist() == [0, 1, 2, 3]
    assert x._version == 0
