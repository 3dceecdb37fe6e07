"""The table of inference tensors that count their writes: filled by detach() and .data of an
inference tensor outside inference mode, read by _version and the bump, emptied as they die."""

import gc

import pytest

import refgrad as torch
from refgrad import _inference_counters
from refgrad._ops.write_checks import INFERENCE_INPLACE


def _inference():
    with torch.inference_mode():
        return torch.ones(2)


def test_a_detach_outside_the_mode_counts_in_the_table_and_leaves_it_when_it_dies():
    t = _inference()
    d = t.detach()
    assert d._version_counter is None and _inference_counters.inference_counter(d) is not None
    d.add_(1)
    assert d._version == 1 and t.tolist() == [2.0, 2.0]
    key = id(d)
    del d
    gc.collect()
    assert key not in _inference_counters._COUNTERS


def test_inside_the_mode_a_detach_counts_nothing_and_writes_are_not_counted():
    t = _inference()
    d = t.data
    with torch.inference_mode():
        inner = t.detach()
        d.mul_(3)
    assert d._version == 0 and _inference_counters.inference_counter(inner) is None
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
        inner.add_(1)


def test_a_tensor_given_inference_data_keeps_its_counter_and_gets_it_back():
    n = torch.zeros(2)
    n.add_(1)
    counter = n._version_counter
    n.data = _inference()
    assert n.is_inference() and _inference_counters.inference_counter(n) is counter
    n.add_(1)
    n.data = torch.zeros(2)
    assert n._version_counter is counter and counter.value == 2 and not n.is_inference()
    assert _inference_counters.inference_counter(n) is None
    assert INFERENCE_INPLACE.startswith("Inplace update")


def test_a_recorded_write_lends_the_counter_for_the_write_only():
    d = _inference().detach()
    counter = _inference_counters.inference_counter(d)
    d.mul_(torch.full((2,), 3.0, requires_grad=True))
    assert d._version_counter is None and d.is_inference()
    assert _inference_counters.inference_counter(d) is counter and counter.value == 1
    assert d.grad_fn._saved_self._version == 0  # a clone of d as it was, not d itself


def test_a_refused_recorded_write_still_gives_the_counter_back():
    d = _inference().detach()
    with pytest.raises(RuntimeError):
        d.mul_(torch.ones(3, requires_grad=True))  # shapes that do not fit
    assert d._version_counter is None and d._version == 0
