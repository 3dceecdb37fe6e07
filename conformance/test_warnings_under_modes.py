"""Black-box tests: a warning given below a dispatch mode's call of func is shown at the
line that called the op the mode was handed, not at the mode's own line. The same
assertions run on torch."""

import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode


class Passing(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class Nested(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return self.hand_on(func, args, kwargs or {})

    def hand_on(self, func, args, kwargs):
        return func(*args, **kwargs)


def _shown(call, modes):
    """(file, line, message start) of each warning ``call`` gives under ``modes``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with modes[0], modes[1]:
            line = call()
    return [(w.filename, w.lineno - line, str(w.message)[:30]) for w in caught]


def _resized():
    out = torch.zeros(2)
    torch.add(torch.ones(3), 1, out=out); return _line()  # noqa: E702


def _resized_pair():
    torch.max(torch.ones(3, 2), 1, out=(torch.zeros(1), torch.zeros(1, dtype=torch.long))); return _line()  # noqa: E501, E702


def _expanded_write():
    e = torch.zeros(3).expand(2, 3)
    e[:, torch.tensor([True, False, False])] = 3.0; return _line()  # noqa: E702


def _line():
    import sys

    return sys._getframe(1).f_lineno


MODES = {"one": lambda: (Passing(), warnings.catch_warnings()),
         "two": lambda: (Passing(), Nested())}


@pytest.mark.parametrize("modes", MODES)
@pytest.mark.parametrize("call, starts", [
    (_resized, ["An output with one or more ele"]),
    (_resized_pair, ["An output with one or more ele"] * 2),
    (_expanded_write, ["Use of index_put_ on expanded ", "Use of masked_fill_ on expande"]),
])
def test_a_warning_below_a_modes_func_is_shown_at_the_callers_line(modes, call, starts):
    assert _shown(call, MODES[modes]()) == [(__file__, 0, s) for s in starts]
