"""The profiler's events for reshapes that alias and for the transposing composites, as torch
2.13 records them.

A reshape of a tensor that is not contiguous but can be viewed calls ``_reshape_alias``, in a
forward or inside a node's formula; a contiguous one calls ``view``. ``x.T``, ``x.mH``,
``x.adjoint()`` and ``x.H`` are composite events around the op they call. Events are
compared in outline, as in test_profiler_shapes.py.
"""


import pytest
import torch
from torch.autograd.profiler import profile

from conformance._profiler_aliases_expected import OUTLINES
from conformance._warned import caught_always
from conformance.test_profiler_shapes import COMPOSITES, outline

MORE = COMPOSITES + ("aten::numpy_T", "aten::mH", "aten::adjoint", "aten::matrix_H")


def a_view_and_its_backward():
    x = torch.ones(2, 3, requires_grad=True)
    x.view(6).sum().backward()  # the gradient handed to ViewBackward0 is expanded
    y = torch.ones(6, requires_grad=True)
    (y.view(2, 3) * torch.ones(2, 3)).sum().backward()  # handed a contiguous one


def reshapes_that_alias():
    x = torch.ones(2, 3, requires_grad=True)
    (x.t().reshape(3, 2) * torch.ones(3, 2)).sum().backward()  # ReshapeAliasBackward0
    (x.t().reshape(6) * torch.ones(6)).sum().backward()  # no view: a copy
    with torch.no_grad():
        x.t().reshape(3, 2)


def a_gradient_not_viewable():
    y = torch.ones(6, requires_grad=True)
    (y.view(2, 3).t() * torch.ones(3, 2)).sum().backward()


def transposing_composites():
    x = torch.ones(2, 3, requires_grad=True)
    x.mH
    x.adjoint()
    x.H
    x.T
    x.T.sum().backward()


def a_reversed_batch():
    b = torch.ones(2, 3, 4, requires_grad=True)
    b.T.sum().backward()


PROGRAMS = [a_view_and_its_backward, reshapes_that_alias, a_gradient_not_viewable,
            transposing_composites, a_reversed_batch]


@pytest.mark.filterwarnings("ignore:The use of `x.T`")
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_aliases_and_transposes(program):
    with profile(record_shapes=True) as prof:
        program()
    assert outline(prof.function_events, MORE) == OUTLINES[program.__name__]


def test_the_transposes_warn_at_the_users_line_in_a_profile():
    with caught_always(torch) as caught, profile():
        torch.ones(()).mT
        torch.ones(()).T
        torch.ones(()).mH
        torch.ones(2, 3, 4).T
    assert len(caught) == 4
    assert [w.filename for w in caught] == [__file__] * 4
