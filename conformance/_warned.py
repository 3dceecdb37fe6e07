"""Warnings torch gives once a process, asked for each time while a test looks at them.

An earlier test may already have had such a warning; ``set_warn_always(True)`` gives it
again. Both helpers take the module under test (torch, or refgrad in ``tests/``) and put
the switch back as they found it.
"""

import contextlib
import warnings


@contextlib.contextmanager
def always_warned(torch):
    """``torch.set_warn_always(True)`` inside the block, the switch as it was after."""
    before = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    try:
        yield
    finally:
        torch.set_warn_always(before)


@contextlib.contextmanager
def caught_always(torch):
    """Every warning, a once-per-process one too, recorded as it is given."""
    with always_warned(torch), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught
