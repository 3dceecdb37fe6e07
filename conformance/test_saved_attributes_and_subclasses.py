"""torch.save/load keep the attributes set on a tensor and the class of a Tensor subclass;
a weights-only load refuses a subclass that is not allowed, and deepcopy one without a
new_empty of its own, in torch's words."""

import copy
import io
import pickle

import pytest
import torch

from conformance._support import raises
from conformance.test_save_load import ADVICE


class Tagged(torch.Tensor):
    pass


class Remembering(torch.Tensor):
    def __setstate__(self, state):
        self.given = sorted(state)


def trip(obj, **load_args):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer, **load_args)


@pytest.mark.parametrize("weights_only", [True, False])
def test_a_tensors_attributes_come_back(weights_only):
    t = torch.ones(2)
    t.label, t.scale = "bar", 3
    back = trip(t, weights_only=weights_only)
    assert type(back) is torch.Tensor and back.tolist() == [1.0, 1.0]
    assert (back.label, back.scale) == ("bar", 3)


def test_a_subclass_keeps_its_class_and_attributes():
    t = torch.arange(3.0).as_subclass(Tagged)
    t.label = "kept"
    for back in (trip(t, weights_only=False), pickle.loads(pickle.dumps(t))):
        assert type(back) is Tagged and back.label == "kept" and back.tolist() == [0.0, 1.0, 2.0]


def test_a_subclass_with_setstate_is_given_its_attributes_through_it():
    t = torch.ones(1).as_subclass(Remembering)
    t.a, t.b = 1, 2
    back = trip(t, weights_only=False)
    assert type(back) is Remembering and back.given == ["a", "b"]
    assert not hasattr(back, "a")


@pytest.mark.parametrize("weights_only", [True, None])
def test_weights_only_refuses_a_subclass_it_was_not_given(weights_only):
    t = torch.arange(3.0).as_subclass(Tagged)
    with raises(pickle.UnpicklingError, ADVICE.format(f"{__name__}.Tagged")):
        trip(t, weights_only=weights_only)


def test_weights_only_loads_an_allowed_subclass():
    t = torch.arange(3.0).as_subclass(Tagged)
    t.label = "allowed"
    with torch.serialization.safe_globals([Tagged]):
        back = trip(t)
    assert type(back) is Tagged and back.label == "allowed"


class MakesItsOwn(torch.Tensor):
    def new_empty(self, *args, **kwargs):
        made = super().new_empty(*args, **kwargs)
        return made if type(made) is MakesItsOwn else made.as_subclass(MakesItsOwn)


NO_NEW_EMPTY = (
    "The default implementation of __deepcopy__() for non-wrapper subclasses only works for "
    "subclass types that implement new_empty() and for which that function returns another "
    "instance of the same subclass. You should either properly implement new_empty() for your "
    "subclass or override __deepcopy__() if it is intended behavior for new_empty() to return "
    "an instance of a different type."
)


def test_deepcopy_of_a_subclass_needs_a_new_empty_of_its_own():
    with raises(RuntimeError, NO_NEW_EMPTY):
        copy.deepcopy(torch.arange(3.0).as_subclass(Tagged))
    x = torch.arange(4.0).as_subclass(MakesItsOwn)
    x.label = ["kept"]
    whole, tail = copy.deepcopy([x, x[1:]])
    assert type(whole) is MakesItsOwn and type(tail) is MakesItsOwn
    assert whole.label == ["kept"] and whole.label is not x.label
    whole.fill_(5.0)
    assert tail.tolist() == [5.0, 5.0, 5.0] and tail.storage_offset() == 1


def test_deepcopy_of_a_subclass_that_requires_grad_is_a_leaf():
    x = torch.arange(3.0).requires_grad_().as_subclass(MakesItsOwn)
    new = copy.deepcopy(x.detach().requires_grad_())
    assert type(new) is MakesItsOwn and new.requires_grad and new.is_leaf
