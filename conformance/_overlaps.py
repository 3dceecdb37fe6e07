"""What the partial-overlap tests share: torch's message, and the two outcomes of a write."""

import torch

from conformance._support import raises

SHARED_INPUT = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation.")


def row():
    return torch.arange(1.0, 8.0) / 8


def refused_and_untouched(make, write, w_of, i_of):
    """``write`` into the window ``w_of(x)`` reading ``i_of(x)`` is refused; ``x`` is as it was."""
    x = make()
    before, version = x.clone(), x._version
    with raises(RuntimeError, SHARED_INPUT):
        write(w_of(x), i_of(x))
    assert torch.equal(x, before)
    assert x._version == version


def allowed(make, write, w_of, i_of):
    """``write`` into ``w_of(x)`` reading ``i_of(x)`` runs, and counts as a write."""
    x = make()
    version = x._version
    write(w_of(x), i_of(x))
    assert x._version > version
