"""A module's members live in plain dicts, so ModuleDict's views are dict views; _get_name."""

import torch

from conformance._support import raises

nn = torch.nn


def test_members_are_plain_dicts_in_torchs_order():
    lin = nn.Linear(1, 1)
    for name in ("_parameters", "_buffers", "_modules"):
        assert type(getattr(lin, name)) is dict
    names = list(vars(lin))
    assert names.index("_parameters") < names.index("_buffers") < names.index(
        "_non_persistent_buffers_set") < names.index("_backward_pre_hooks") < names.index(
        "_forward_pre_hooks_with_kwargs") < names.index("_modules") < names.index("in_features")
    assert names[-2:] == ["in_features", "out_features"]


def test_module_dict_views_are_dict_views():
    relu = nn.ReLU()
    md = nn.ModuleDict({"a": relu})
    assert type(md.keys()) is type({}.keys()) and type(md.values()) is type({}.values())
    assert type(md.items()) is type({}.items())
    assert repr(md.keys()) == "dict_keys(['a'])"
    assert repr(md.items()) == "dict_items([('a', ReLU())])"
    assert repr(md.values()) == "dict_values([ReLU()])"


def test_module_dict_pop_and_clear():
    relu, tanh = nn.ReLU(), nn.Tanh()
    md = nn.ModuleDict({"a": relu, "b": tanh})
    assert md.pop("a") is relu and list(md) == ["b"] and not hasattr(md, "a")
    md.clear()
    assert len(md) == 0 and repr(md) == "ModuleDict()"


def test_get_name_is_the_class_name_and_names_the_repr():
    assert nn.ReLU()._get_name() == "ReLU" and nn.Linear(1, 2)._get_name() == "Linear"

    class Renamed(nn.Sequential):
        def _get_name(self):
            return "Shown"

    assert repr(Renamed(nn.ReLU())) == "Shown(\n  (0): ReLU()\n)"

    class RenamedList(nn.ModuleList):
        def _get_name(self):
            return "Listed"

    assert repr(RenamedList()) == "Listed()"
    assert repr(RenamedList([nn.ReLU()])) == "Listed(\n  (0): ReLU()\n)"


def test_module_dict_update_refuses_what_is_not_pairs():
    md = nn.ModuleDict()
    with raises(TypeError, "ModuleDict.update should be called with an iterable of key/value "
                "pairs, but got int"):
        md.update(1)
    with raises(TypeError, "ModuleDict update sequence element #1 should be Iterable; isint"):
        md.update([("a", nn.ReLU()), 1])
    assert list(md) == ["a"]  # added before the bad element was read
    with raises(ValueError, "ModuleDict update sequence element #0 has length 3; 2 is required"):
        md.update([("b", nn.ReLU(), 3)])
    md.update(nn.ModuleDict({"c": nn.Tanh()}))
    md.update([["d", nn.ReLU()]])
    assert list(md) == ["a", "c", "d"]
