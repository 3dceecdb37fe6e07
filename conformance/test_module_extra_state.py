"""A module's extra state: a subclass that overrides get_extra_state and set_extra_state keeps
a value under `_extra_state` in its state_dict and takes it back on load; Module's own two
refuse to run; a module without them counts the key as unexpected. The same assertions run on
torch."""

import pytest
import torch.nn as nn

from conformance._support import raises

NEVER = ("Reached a code path in Module.{}() that should never be called. Please file an issue "
         "at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report "
         "this bug.")


class Counted(nn.Linear):
    def __init__(self):
        super().__init__(2, 2)
        self.calls, self.taken = 0, []

    def get_extra_state(self):
        self.calls += 1
        return {"calls": self.calls}

    def set_extra_state(self, state):
        self.taken.append(state)


def test_modules_own_methods_refuse():
    layer = nn.Linear(2, 2)
    with raises(RuntimeError, NEVER.format("get_extra_state")):
        layer.get_extra_state()
    with raises(RuntimeError, NEVER.format("set_extra_state")):
        layer.set_extra_state(1)
    assert "_extra_state" not in layer.state_dict()


def test_the_extra_state_goes_after_the_tensors_and_comes_back():
    net = nn.Sequential(Counted(), nn.ReLU(), Counted())
    state = net.state_dict()
    assert list(state) == ["0.weight", "0.bias", "0._extra_state", "2.weight", "2.bias",
                           "2._extra_state"]
    assert state["0._extra_state"] == {"calls": 1}
    assert repr(net.load_state_dict(state)) == "<All keys matched successfully>"
    assert net[0].taken == [{"calls": 1}] and net[2].taken == [{"calls": 1}]


def test_a_missing_or_unexpected_extra_state():
    layer = Counted()
    state = layer.state_dict()
    del state["_extra_state"]
    with raises(RuntimeError, 'Error(s) in loading state_dict for Counted:\n\tMissing key(s) in '
                'state_dict: "_extra_state". '):
        layer.load_state_dict(state)
    result = layer.load_state_dict(state, strict=False)
    assert (result.missing_keys, result.unexpected_keys) == (["_extra_state"], [])
    given = Counted().state_dict()
    result = nn.Linear(2, 2).load_state_dict(given, strict=False)
    assert (result.missing_keys, result.unexpected_keys) == ([], ["_extra_state"])
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "_extra_state"'):
        nn.Linear(2, 2).load_state_dict(given)
