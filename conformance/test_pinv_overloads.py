"""Black-box tests: which of linalg_pinv's overloads a call reaches, as a profile shows the
composite ones around the overload for tensors, and as a dispatch mode sees the tolerances
they make. The same assertions run on torch.
"""

import pytest
import torch
from torch.autograd.profiler import profile

from conformance._support import recording_mode

OUTER_FLOAT = ("aten::linalg_pinv", [[2, 2], [], []])
OUTER_TOLERANCES = ("aten::linalg_pinv", [[2, 2], [], [], []])
FULL = ("aten::full", [[], [], [], [], [], []])
ZEROS = ("aten::zeros", [[], [], [], [], []])
INNER = ("aten::linalg_pinv", [[2, 2], [], [], []])


def _matrix():
    return torch.tensor([[2.0, 1.0], [1.0, 3.0]])


def _outline(call):
    """The events at depth 0 and 1, each as (depth, name, input shapes)."""
    m, r = _matrix(), torch.tensor(0.1)
    with profile(record_shapes=True) as prof:
        call(m, r)
    depth, rows = {}, []
    for e in prof.function_events:
        depth[e.id] = 0 if e.cpu_parent is None else depth[e.cpu_parent.id] + 1
        if depth[e.id] <= 1:
            rows.append((depth[e.id], e.name, e.input_shapes))
    return rows


def _tree(outer, *inner):
    return [(0, *outer), *((1, *event) for event in inner)]


@pytest.mark.parametrize("call, expected", [
    (lambda m, r: torch.linalg.pinv(m, 0.1), _tree(OUTER_FLOAT, FULL, FULL, INNER)),
    (lambda m, r: torch.linalg.pinv(m, rcond=0.1, hermitian=True),
     _tree(OUTER_FLOAT, FULL, FULL, INNER)),
    (lambda m, r: torch.linalg.pinv(m, rtol=0.1), _tree(OUTER_TOLERANCES, FULL, FULL, INNER)),
    (lambda m, r: torch.linalg.pinv(m, atol=0.0, rtol=0.2),
     _tree(OUTER_TOLERANCES, FULL, FULL, INNER)),
    (lambda m, r: torch.linalg.pinv(m, rcond=r), _tree(OUTER_FLOAT, ZEROS, INNER)),
    (lambda m, r: torch.pinverse(m), [(0, "aten::pinverse", [[2, 2], []]), (1, *OUTER_FLOAT)]),
    (lambda m, r: m.pinverse(0.5), [(0, "aten::pinverse", [[2, 2], []]), (1, *OUTER_FLOAT)]),
])
def test_a_composite_overload_opens_its_own_event(call, expected):
    assert _outline(call) == expected


def test_a_tensor_rcond_gives_atol_a_zero_a_mode_sees():
    mode = recording_mode(lambda func, args, kwargs: (func, args, kwargs), True)()
    m, r = _matrix(), torch.tensor(0.25)
    with mode:
        torch.linalg.pinv(m, r, True)
    (zeros, given, named), (pinv, _, tolerances) = mode.seen
    assert str(zeros) == "aten.zeros.default" and given == ([],)
    assert named["dtype"] == torch.float64 and named["device"] == torch.device("cpu")
    assert str(pinv) == "aten.linalg_pinv.atol_rtol_tensor"
    assert tolerances["atol"].item() == 0.0 and tolerances["rtol"] is r
    assert tolerances["hermitian"] is True
