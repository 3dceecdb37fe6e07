"""White-box tests: one file per module, with the autograd state checked around each."""

import os

import pytest
from hypothesis import settings

from refgrad.autograd._state import AutogradState, dual_levels, state

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

SWITCHES = tuple(vars(AutogradState()))
# The counter of sequence numbers moves on, and an op on a regenerated view replaces it
# (NOTE [A node numbered before its edges]): not a switch.
COUNTERS = ("sequence_nr", "sequence_numbers")


@pytest.fixture(autouse=True)
def state_is_restored():
    """Fail any test that leaves a thread-local switch changed."""
    before = {name: _snapshot(getattr(state, name)) for name in SWITCHES}
    yield
    after = {name: _snapshot(getattr(state, name)) for name in SWITCHES if name not in COUNTERS}
    changed = {k: v for k, v in after.items() if v != before[k]}
    assert not changed, f"the test left autograd state changed: {changed}"
    assert not dual_levels, "the test left a forward-mode dual level open"


def _snapshot(value):
    return list(value) if isinstance(value, list) else value
