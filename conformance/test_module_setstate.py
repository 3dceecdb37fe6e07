"""Module.__getstate__ and __setstate__: a subclass's own __setstate__ can call super(), and an
older pickle's missing hook stores come back empty. The same assertions run on torch."""

import copy
import pickle

import torch
from torch import nn


class _Kept(nn.Linear):
    def __setstate__(self, state):
        super().__setstate__(state)
        self.restored = True


def test_a_subclass_calls_the_base_setstate():
    layer = _Kept(2, 3)
    again = pickle.loads(pickle.dumps(layer))
    assert again.restored and torch.equal(again.weight, layer.weight)
    assert copy.deepcopy(layer).restored


def test_missing_hook_stores_come_back_empty():
    state = dict(vars(nn.Linear(2, 2)))
    for name in ("_forward_pre_hooks", "_backward_pre_hooks", "_is_full_backward_hook",
                 "_non_persistent_buffers_set"):
        del state[name]
    layer = nn.Linear.__new__(nn.Linear)
    layer.__setstate__(state)
    assert (dict(layer._forward_pre_hooks), dict(layer._backward_pre_hooks),
            layer._is_full_backward_hook, layer._non_persistent_buffers_set) == ({}, {}, None,
                                                                                 set())
    assert layer(torch.ones(1, 2)).shape == (1, 2)


def test_getstate_is_a_copy_of_the_attributes():
    layer = nn.Linear(2, 2)
    state = layer.__getstate__()
    assert state == vars(layer) and state is not vars(layer)
    layer.__setstate__(layer.__dict__)
    assert list(vars(layer)) == list(vars(nn.Linear(2, 2)))
