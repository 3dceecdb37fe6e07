"""Keywords torch takes: Module.modules(remove_duplicate=), nn.Hardtanh's older min_value
and max_value (with their FutureWarning), and EventList.key_averages(group_by_input_shapes=).
The same assertions run on torch."""

import warnings

import pytest
import torch
from torch.autograd.profiler import profile


def test_modules_can_keep_duplicates():
    shared = torch.nn.Linear(2, 2)
    net = torch.nn.Sequential(shared, shared)
    assert list(net.modules(remove_duplicate=False)) == [net, shared, shared]
    assert list(net.modules(False)) == [net, shared, shared]
    assert list(net.modules()) == list(net.modules(remove_duplicate=True)) == [net, shared]


def test_hardtanh_takes_the_older_names_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer = torch.nn.Hardtanh(min_value=-2.0, max_value=2.0)
    assert [(w.category, str(w.message), w.filename) for w in caught] == [
        (FutureWarning, "keyword argument `min_value` is deprecated and renamed to `min_val`",
         __file__),
        (FutureWarning, "keyword argument `max_value` is deprecated and renamed to `max_val`",
         __file__)]
    assert (layer.min_val, layer.max_val, repr(layer)) == (
        -2.0, 2.0, "Hardtanh(min_val=-2.0, max_val=2.0)")
    assert layer(torch.tensor([-3.0, 0.5, 3.0])).tolist() == [-2.0, 0.5, 2.0]


def test_the_older_name_wins_and_none_is_not_given():
    with pytest.warns(FutureWarning, match="`min_value`"):
        layer = torch.nn.Hardtanh(-3.0, min_value=-2.0)
    assert (layer.min_val, layer.max_val) == (-2.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        layer = torch.nn.Hardtanh(min_value=None, max_value=None)
    assert (layer.min_val, layer.max_val) == (-1.0, 1.0)
    with pytest.raises(AssertionError, match=r"max_val \(-2.0\) must be greater than min_val"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.nn.Hardtanh(max_value=-2.0)


def test_the_event_list_groups_by_input_shapes():
    with profile(record_shapes=True) as prof:
        torch.ones(2).sin()
        torch.ones(3).sin()
    events = prof.function_events
    grouped = events.key_averages(group_by_input_shapes=True)
    assert type(grouped).__name__ == "EventList"
    assert len(grouped) == len(events.key_averages(True)) > len(events.key_averages())
    assert [a.key for a in grouped].count("aten::sin") == 2
    with pytest.raises(TypeError, match="unexpected keyword argument 'group_by_input_shape'"):
        events.key_averages(group_by_input_shape=True)
