"""nn.Sequential edited as a model is fine-tuned, and a module's members found by name or path."""

from collections import OrderedDict

import pytest
import torch

from conformance._support import raises

nn = torch.nn


def names_and_kinds(seq) -> list:
    return [(name, type(m).__name__) for name, m in seq._modules.items()]


def test_children_replaced_and_removed_by_position():
    seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    head = nn.Linear(4, 5)
    seq[2] = head
    seq[-2] = nn.Tanh()
    assert seq[-1] is head and dict(seq.named_children())["2"] is head
    assert names_and_kinds(seq) == [("0", "Linear"), ("1", "Tanh"), ("2", "Linear")]
    assert seq(torch.ones(1, 3)).shape == (1, 5)
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    del seq[0]
    assert names_and_kinds(seq) == [("0", "Tanh"), ("1", "Linear")]
    with raises(IndexError, "index 2 is out of range"):
        seq[2] = nn.ReLU()
    with raises(IndexError, "index -3 is out of range"):
        del seq[-3]
    with raises(TypeError, "cannot assign 'int' as child module '1' (torch.nn.Module or None "
                           "expected)"):
        seq[1] = 5
    with raises(TypeError, "'str' object cannot be interpreted as an integer"):
        seq["0"]
    assert names_and_kinds(seq) == [("0", "Tanh"), ("1", "Linear")]  # refusals change nothing


def test_an_ordered_dict_names_the_children_and_slices_keep_names():
    seq = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU()),
                                     ("out", nn.Linear(2, 1))]))
    assert seq.fc is seq[0] and repr(seq).splitlines()[1] == (
        "  (fc): Linear(in_features=2, out_features=2, bias=True)")
    assert names_and_kinds(seq[1:]) == [("act", "ReLU"), ("out", "Linear")]
    seq[1] = nn.Sigmoid()
    assert names_and_kinds(seq)[1] == ("act", "Sigmoid")
    seq.append(nn.Tanh())
    assert list(seq._modules) == ["fc", "act", "out", "3"]
    del seq[::2]  # the rest numbered again, names or not
    assert names_and_kinds(seq) == [("0", "Sigmoid"), ("1", "Tanh")]
    with raises(TypeError, "int is not a Module subclass"):
        nn.Sequential(OrderedDict([("a", 3)]))
    with raises(TypeError, "collections.OrderedDict is not a Module subclass"):
        nn.Sequential(OrderedDict([("a", nn.ReLU())]), nn.ReLU())


def test_append_insert_extend_pop_and_add():
    seq = nn.Sequential(nn.ReLU(), nn.Tanh())
    assert seq.append(nn.Sigmoid()) is seq
    assert seq.insert(-1, nn.ELU()) is seq
    assert [type(m).__name__ for m in seq] == ["ReLU", "Tanh", "ELU", "Sigmoid"]
    assert seq.extend(nn.Sequential(nn.Identity())) is seq and len(seq) == 5
    assert type(seq.pop(0)).__name__ == "ReLU"
    popped = seq.pop(slice(0, 2))
    assert [type(m).__name__ for m in popped] == ["Tanh", "ELU"]
    assert names_and_kinds(seq) == [("0", "Sigmoid"), ("1", "Identity")]
    both = seq + nn.Sequential(nn.ReLU())
    assert names_and_kinds(both) == [("0", "Sigmoid"), ("1", "Identity"), ("2", "ReLU")]
    assert both[0] is seq[0] and len(seq) == 2
    with raises(IndexError, "Index out of range: 3"):
        seq.insert(3, nn.ReLU())
    with raises(AssertionError, f"module should be of type: {nn.Module}"):
        seq.insert(0, 3)
    with raises(TypeError, "int is not a Module subclass"):
        seq.append(3)
    with raises(ValueError, "add operator supports only objects of Sequential class, but "
                            "<class 'int'> is given."):
        seq + 1
    assert len(seq) == 2


@pytest.mark.parametrize("call, kind, message", [
    (lambda m: m.add_module("a.b", nn.ReLU()), KeyError, 'module name can\'t contain ".", '
                                                         'got: a.b'),
    (lambda m: m.register_module("a.b", nn.ReLU()), KeyError, 'module name can\'t contain ".", '
                                                              'got: a.b'),
    (lambda m: m.add_module("training", nn.ReLU()), KeyError, "attribute 'training' already "
                                                              "exists"),
    (lambda m: m.add_module(3, nn.ReLU()), TypeError, "module name should be a string. Got int"),
    (lambda m: m.register_parameter("a.b", None), KeyError, 'parameter name can\'t contain "."'),
])
def test_module_names_are_checked_as_torch_checks_them(call, kind, message):
    m = nn.Module()
    with pytest.raises(kind) as caught:
        call(m)
    assert caught.value.args == (message,)
    assert not m._modules and not m._parameters
    assert m.register_module("ok", nn.ReLU()) is None and type(m.ok).__name__ == "ReLU"


def test_members_found_by_path():
    net = nn.Sequential(OrderedDict([("body", nn.Sequential(nn.Linear(2, 2))),
                                     ("head", nn.Linear(2, 1))]))
    net.body.register_buffer("seen", torch.zeros(1))
    net.scale = 3
    assert net.get_submodule("") is net and net.get_submodule("body.0") is net.body[0]
    assert net.get_parameter("body.0.weight") is net.body[0].weight
    assert net.get_buffer("body.seen") is net.body.seen
    for call, message in [
        (lambda: net.get_submodule("body.1"), "Sequential has no attribute `1`"),
        (lambda: net.get_submodule("head.weight"), "`weight` is not an nn.Module"),
        (lambda: net.get_submodule("scale"), "`scale` is not an nn.Module"),
        (lambda: net.get_parameter("head.nope"), "Linear has no attribute `nope`"),
        (lambda: net.get_parameter("body.seen"), "`seen` is not an nn.Parameter"),
        (lambda: net.get_parameter("weight"), "Sequential has no attribute `weight`"),
        (lambda: net.get_buffer("head.bias"), "`bias` is not a buffer"),
        (lambda: net.get_buffer("nope.seen"), "Sequential has no attribute `nope`"),
    ]:
        with raises(AttributeError, message):
            call()


def test_a_module_list_is_edited_as_a_list():
    blocks = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
    assert blocks.insert(1, nn.Identity()) is None
    assert [type(m).__name__ for m in blocks] == ["ReLU", "Identity", "Tanh", "Sigmoid"]
    del blocks[0]
    assert names_and_kinds(blocks) == [("0", "Identity"), ("1", "Tanh"), ("2", "Sigmoid")]
    assert type(blocks.pop(-1)).__name__ == "Sigmoid"
    popped = blocks.pop(slice(0, 1))
    assert type(popped).__name__ == "ModuleList" and len(popped) == 1
    same = blocks
    blocks += [nn.ELU()]
    assert blocks is same and names_and_kinds(blocks) == [("0", "Tanh"), ("1", "ELU")]
    both = blocks + [nn.ReLU()]
    assert type(both).__name__ == "ModuleList" and len(both) == 3 and len(blocks) == 2
    del blocks[:]
    assert len(blocks) == 0 and list(blocks.parameters()) == []
    with raises(TypeError, "ModuleList.extend should be called with an iterable, but got int"):
        blocks += 3
    with raises(IndexError, "index 0 is out of range"):
        del blocks[0]
    with raises(TypeError, "'str' object cannot be interpreted as an integer"):
        nn.ModuleList([nn.ReLU()])["0"]


def test_set_submodule_replaces_or_adds_a_module_by_path():
    model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Tanh(), nn.Linear(2, 1)))
    model.w = nn.Parameter(torch.ones(1))
    relu, extra = nn.ReLU(), nn.ReLU()
    assert model.set_submodule("1.0", relu) is None
    assert model[1][0] is relu
    model.set_submodule("1.extra", extra)
    assert model.get_submodule("1.extra") is extra
    model.set_submodule("0", nn.Tanh(), True)
    assert type(model[0]) is nn.Tanh
    with raises(AttributeError, "Sequential has no attribute `other`"):
        model.set_submodule("1.other", nn.ReLU(), strict=True)
    with raises(ValueError, "Cannot set the submodule without a target name!"):
        model.set_submodule("", 3)
    with raises(ValueError, "`module` is not an nn.Module, found <class 'NoneType'>"):
        model.set_submodule("0", None)
    with raises(AttributeError, "`w` is not an nn.Module"):
        model.set_submodule("w", nn.ReLU())
    with raises(AttributeError, "Sequential has no attribute `x`"):
        model.set_submodule("x.y", nn.ReLU())
    assert not hasattr(model[1], "other") and isinstance(model.w, nn.Parameter)
