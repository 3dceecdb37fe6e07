"""dir() of a module lists its members; Module.__init__ refuses arguments in Python's words,
or hands them to the next class when call_super_init is set."""

import pytest
import torch

from conformance._support import raises


def _public(obj):
    return [n for n in dir(obj) if not n.startswith("_")]


def test_dir_lists_parameters_buffers_children_and_attributes():
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    model.register_buffer("scale", torch.ones(1))
    model.note = "kept"
    names = dir(model)
    assert {"scale", "note", "training", "forward"} <= set(names)
    assert "0" not in names and "1" not in names  # children named by numbers are left out
    assert names == sorted(names)
    assert {"weight", "bias", "in_features"} <= set(dir(model[0]))


def test_dir_of_a_recurrent_layer_names_each_weight():
    assert {"weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"} <= set(
        dir(torch.nn.LSTM(2, 3)))


def test_the_class_flags_torch_names():
    assert torch.nn.Module.call_super_init is False
    assert torch.nn.Module.dump_patches is False
    assert repr(torch.nn.Module.T_destination) == "~T_destination"


class _Plain(torch.nn.Module):
    pass


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((1,), {}, "_Plain.__init__() takes 1 positional argument but 2 were given"),
    ((), {"a": 1}, "_Plain.__init__() got an unexpected keyword argument 'a'"),
    ((1, 2), {"b": 1}, "_Plain.__init__() got an unexpected keyword argument 'b'"),
])
def test_arguments_are_refused_keywords_first(args, kwargs, message):
    with raises(TypeError, message):
        _Plain(*args, **kwargs)


class _Base:
    def __init__(self, *args, **kwargs):
        self.given = (args, kwargs)


class _Mixed(torch.nn.Module, _Base):
    call_super_init = True


def test_call_super_init_hands_the_arguments_on():
    mixed = _Mixed(3, x=4)
    assert mixed.given == ((3,), {"x": 4})
    mixed.weight = torch.nn.Parameter(torch.ones(1))  # Module.__init__ ran first
    assert [n for n, _ in mixed.named_parameters()] == ["weight"]


class _OwnNames(torch.nn.BatchNorm2d):
    def __init__(self):
        super().__init__(3)
        self.dims = "a name of the subclass's own"


def test_a_subclass_may_use_names_torchs_class_leaves_free():
    out = _OwnNames()(torch.ones(2, 3, 2, 2))
    assert out.shape == (2, 3, 2, 2)
    assert "dims" not in dir(torch.nn.BatchNorm2d(3))
