"""A tensor takes any attribute a program sets on it, as torch's does, and copies and pickles
carry the attributes along: copy.copy shares them, deepcopy copies them, a parameter's deep
copy leaves them behind."""

import copy
import pickle

import torch

from conformance._support import raises


def test_a_tensor_takes_attributes_of_its_own():
    t = torch.ones(2)
    assert t.__dict__ == {}
    t.label = "w1"
    assert t.label == "w1" and t.__dict__ == {"label": "w1"}
    del t.label
    assert t.__dict__ == {}
    with raises(AttributeError, "'Tensor' object has no attribute 'label'"):
        t.label


def test_read_only_attributes_stay_read_only():
    t = torch.ones(2)
    with raises(AttributeError, "attribute 'grad_fn' of 'torch._C.TensorBase' objects is not "
                                "writable"):
        t.grad_fn = None
    assert "grad_fn" not in t.__dict__


def test_views_and_results_start_without_attributes():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.tag = 1
    assert y.detach().__dict__ == {} and y[0].__dict__ == {} and (y + 1).__dict__ == {}


def test_copies_and_pickles_carry_the_attributes():
    t = torch.ones(2)
    t.notes = [1]
    shallow, deep = copy.copy(t), copy.deepcopy(t)
    assert shallow.notes is t.notes
    assert deep.notes == [1] and deep.notes is not t.notes
    assert pickle.loads(pickle.dumps(t)).notes == [1]


def test_a_parameter_keeps_its_attributes_in_a_pickle_not_in_a_deep_copy():
    p = torch.nn.Parameter(torch.ones(2))
    p.sharded = True
    assert p.sharded and pickle.loads(pickle.dumps(p)).sharded
    assert copy.copy(p).__dict__ == {"sharded": True}
    assert not hasattr(copy.deepcopy(p), "sharded")
