"""Bind ``torch`` for the conformance suite: refgrad by default, real torch for the oracle.

Every file here is written against torch's API (``import torch``). With
``REFGRAD_CONFORMANCE_TARGET=torch`` the real PyTorch runs them; otherwise
``torch`` and each ``torch.<submodule>`` name refgrad's modules.
"""

import importlib
import os
import pkgutil
import sys

import pytest
from hypothesis import settings

from conformance._warned import always_warned

TARGET = os.environ.get("REFGRAD_CONFORMANCE_TARGET", "refgrad")


def bind_torch_to_refgrad() -> None:
    import refgrad

    sys.modules["torch"] = refgrad
    for info in pkgutil.walk_packages(refgrad.__path__, "refgrad."):
        module = importlib.import_module(info.name)
        sys.modules["torch" + info.name[len("refgrad") :]] = module


def load_torch_quietly() -> None:
    """Import what torch's make_dual imports on first use, where its warning is harmless.

    The first make_dual loads torch's decompositions for forward AD, which call
    torch.jit.script, which warns that it is deprecated; the suite turns warnings into
    errors, so the first forward-mode test would fail for a reason that is not its own.
    """
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import torch._decomp.decompositions_for_jvp  # noqa: F401


if TARGET == "refgrad":
    bind_torch_to_refgrad()
    # Files that compare refgrad with torch need both, so only the oracle runs them.
    collect_ignore = ["oracle"]
else:
    load_torch_quietly()

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle")


class NeedsRealTorch(pytest.File):
    """An oracle file named on the command line while ``torch`` is bound to refgrad.

    There its "torch" side is refgrad too: most comparisons would pass for nothing,
    and those that interleave draws on both sides would pull both from refgrad's one
    default generator and fail for nothing. Neither says anything, so the file skips.
    """

    def collect(self):
        pytest.skip("compares refgrad with real torch: run it with "
                    "REFGRAD_CONFORMANCE_TARGET=torch")


def pytest_pycollect_makemodule(module_path, parent):
    """``collect_ignore`` keeps the oracle out of a folder walk, but not a file named outright."""
    if TARGET == "refgrad" and os.path.dirname(os.path.abspath(module_path)) == ORACLE:
        return NeedsRealTorch.from_parent(parent, path=module_path)
    return None

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def threads():
    """torch.set_num_threads for a test that sets the thread count; the count it found is
    put back afterwards."""
    import torch

    default = torch.get_num_threads()
    yield torch.set_num_threads
    torch.set_num_threads(default)


@pytest.fixture
def warn_always():
    """torch.set_warn_always(True) for one test: warnings given once are given each time."""
    import torch

    with always_warned(torch):
        yield


@pytest.fixture(autouse=True)
def modes_are_restored():
    """Fail any test that leaves a global autograd switch changed."""
    import torch

    before = (torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    yield
    after = (torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    assert after == before, f"(grad mode, inference mode) left at {after}, was {before}"
    assert torch.autograd.forward_ad._current_level == -1, "a dual level was left open"


@pytest.fixture(autouse=True)
def checkpoint_log_left_propagating():
    """torch's checkpoint(debug=True) leaves its operator logger at INFO and not
    propagating. pytest attaches its log capture to such loggers when a test starts,
    and that capture cannot format the records torch's logger writes; put the logger
    back as it was, so that the next test's capture leaves it alone."""
    import logging

    yield
    logging.getLogger("LoggingTensor").propagate = True
