"""Black-box tests: an out= write that autograd refuses (an input or the out requires
grad) raises before a dispatch mode sees the op, since torch checks it at autograd, above
the modes; an out= write autograd allows still reaches the mode. The same assertions run
on torch.
"""

import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()
NEEDS_GRAD = "functions with out=... arguments don't support automatic differentiation"


def _seen_names(mode):
    return [s[0] for s in mode.seen]


CASES = {
    "exp": lambda a, b, m, o: torch.exp(a, out=o),
    "add": lambda a, b, m, o: torch.add(b, a, out=o),
    "sum": lambda a, b, m, o: torch.sum(a, 0, out=o),
    "cat": lambda a, b, m, o: torch.cat([b, a], out=o),
    "where": lambda a, b, m, o: torch.where(m, a, b, out=o),
    "vector_norm": lambda a, b, m, o: torch.linalg.vector_norm(a, out=o),
    "cumsum": lambda a, b, m, o: torch.cumsum(a, 1, out=o),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_refused_out_write_never_reaches_the_mode(name):
    a = torch.ones(2, 3, requires_grad=True)
    b = torch.ones(2, 3)
    m, o = b > 0, torch.empty(0)
    with Calls() as mode, pytest.raises(RuntimeError, match=r"\(\): " + NEEDS_GRAD):
        CASES[name](a, b, m, o)
    assert _seen_names(mode) == []
    assert o.shape == (0,) and o._version == 0


def test_an_out_that_requires_grad_is_refused_before_the_mode():
    o, b = torch.empty(0, requires_grad=True), torch.ones(3)
    with Calls() as mode, pytest.raises(RuntimeError, match="exp"):
        torch.exp(b, out=o)
    assert _seen_names(mode) == []


def test_an_allowed_out_write_reaches_the_mode():
    a = torch.ones(2, 3, requires_grad=True)
    o = torch.empty(0)
    with Calls() as mode, torch.no_grad():
        torch.exp(a, out=o)
    assert _seen_names(mode) == ["aten.exp.out"]
    assert o.shape == (2, 3) and o._version == 1
