"""nn.ParameterList and nn.ParameterDict: entries, registration in a model, reprs, errors."""

import copy
from collections import OrderedDict

import pytest
import torch

from conformance._support import raises

nn = torch.nn
NOT_FLOATING = "Only Tensors of floating point and complex dtype can require gradients"


def test_a_list_wraps_tensors_and_keeps_other_values():
    plain, param = torch.ones(2, 3), nn.Parameter(torch.zeros(2), requires_grad=False)
    pl = nn.ParameterList([plain, param, 3, "s", None, torch.ones(2, dtype=torch.float64)])
    assert [type(v).__name__ for v in pl] == [
        "Parameter", "Parameter", "int", "str", "NoneType", "Parameter"]
    assert pl[0].requires_grad and pl[0] is not plain and pl[1] is param
    assert not pl[1].requires_grad
    plain.add_(1)
    assert pl[0].tolist() == [[2.0] * 3] * 2  # the Parameter shares the tensor's memory
    assert [name for name, _ in pl.named_parameters()] == ["0", "1", "5"]
    assert len(pl) == 6 and pl[-1].dtype == torch.float64 and pl[3] == "s"
    assert repr(pl) == (
        "ParameterList(\n"
        "    (0): Parameter containing: [torch.float32 of size 2x3]\n"
        "    (1): Parameter containing: [torch.float32 of size 2]\n"
        "    (2): Object of type: int\n"
        "    (3): Object of type: str\n"
        "    (4): Object of type: NoneType\n"
        "    (5): Parameter containing: [torch.float64 of size 2]\n"
        ")")
    assert [name for name in dir(pl) if name.isdigit()] == []


def test_a_non_leaf_becomes_a_leaf_parameter():
    x = torch.ones(2, requires_grad=True) * 2
    p = nn.ParameterList([x])[0]
    assert type(p) is nn.Parameter and p.is_leaf and p.requires_grad and p.grad_fn is None


def test_a_list_is_edited_by_position():
    pl = nn.ParameterList()
    assert repr(pl) == "ParameterList()" and len(pl) == 0
    assert pl.append(torch.ones(1)) is pl
    assert repr(pl) == "ParameterList(  (0): Parameter containing: [torch.float32 of size 1])"
    pl += [2, torch.zeros(3)]
    assert pl.extend(iter([torch.zeros(0)])) is pl
    assert len(pl) == 4 and repr(pl[3]).startswith("Parameter containing:\ntensor([]")
    pl[1] = torch.ones(2, 2)
    assert isinstance(pl[1], nn.Parameter) and "1" not in pl.__dict__
    pl[0] = None
    # "1" held an int until now: as a new parameter it is named after those already there
    assert pl[0] is None and [n for n, _ in pl.named_parameters()] == ["2", "3", "1"]
    pl[True] = torch.ones(1)  # an index is anything operator.index takes
    assert pl[1].shape == (1,)
    sliced = pl[::-2]
    assert type(sliced) is nn.ParameterList and len(sliced) == 2
    assert sliced[0] is pl[3] and sliced[1] is pl[1]
    assert pl[5:] is not pl and len(pl[5:]) == 0


def test_a_list_refuses_as_torch_does():
    pl = nn.ParameterList([torch.ones(2), 2])
    with raises(IndexError, "index 2 is out of range"):
        pl[2]
    with raises(IndexError, "index -3 is out of range"):
        pl[-3] = torch.ones(1)
    with raises(TypeError, "'str' object cannot be interpreted as an integer"):
        pl["a"]
    with raises(TypeError, "'float' object cannot be interpreted as an integer"):
        pl[1.0]
    with raises(TypeError, "ParameterList.extend should be called with an iterable, but got int"):
        pl.extend(5)
    with raises(TypeError, "ParameterList.extend should be called with an iterable, but got "
                           "Tensor"):
        nn.ParameterList(torch.ones(2))
    with raises(RuntimeError, NOT_FLOATING):
        nn.ParameterList([torch.ones(2), torch.arange(2)])
    with raises(TypeError, "cannot assign 'int' as parameter '0' (torch.nn.Parameter or None "
                           "expected)"):
        pl[0] = 3
    with raises(RuntimeError, "ParameterList should not be called."):
        pl(torch.ones(1), x=2)
    for missing in ("insert", "pop"):
        with raises(AttributeError, f"'ParameterList' object has no attribute '{missing}'"):
            getattr(pl, missing)
    with pytest.raises(TypeError):
        pl + pl


def test_membership_compares_entries():
    pl = nn.ParameterList([torch.ones(1), 2])
    assert torch.ones(1) in pl and 2 in pl and 3 not in pl


def test_a_dict_adds_a_plain_dicts_entries_in_key_order():
    pd = nn.ParameterDict({"b": torch.ones(2, 3), "a": 5, "n": None, "m": nn.Linear(1, 1),
                           "c": torch.ones(2, dtype=torch.float64)})
    assert list(pd) == list(pd.keys()) == ["a", "b", "c", "m", "n"]
    assert [name for name, _ in pd.named_parameters()] == ["b", "c", "m.weight", "m.bias"]
    assert repr(pd) == (
        "ParameterDict(\n"
        "    (a): Object of type: int\n"
        "    (b): Parameter containing: [torch.FloatTensor of size 2x3]\n"
        "    (c): Parameter containing: [torch.DoubleTensor of size 2]\n"
        "    (m): Object of type: Linear\n"
        "    (n): Object of type: NoneType\n"
        "  (m): Linear(in_features=1, out_features=1, bias=True)\n"
        ")")
    ordered = OrderedDict([("b", torch.ones(1)), ("a", torch.zeros(1))])
    assert list(nn.ParameterDict(ordered)) == ["b", "a"]
    assert list(nn.ParameterDict([("b", 1), ("a", 2)])) == ["b", "a"]
    assert list(nn.ParameterDict(nn.ParameterDict(ordered))) == ["b", "a"]
    assert repr(nn.ParameterDict()) == "ParameterDict()"
    assert repr(nn.ParameterDict({"x": torch.ones(2)})) == (
        "ParameterDict(  (x): Parameter containing: [torch.FloatTensor of size 2])")


def test_a_dict_has_a_dicts_methods():
    pd = nn.ParameterDict({"b": torch.ones(1), "a": torch.zeros(1)})
    first = pd["a"]
    assert pd.copy()["a"] is first and type(pd.copy()) is nn.ParameterDict
    assert type(pd.keys()).__name__ == "dict_keys"
    assert [k for k, _ in pd.items()] == ["a", "b"] and list(pd.values())[0] is first
    assert pd.get("zz", 7) == 7 and pd.get("a") is first and "a" in pd and "zz" not in pd
    made = pd.setdefault("c", torch.ones(3))
    assert isinstance(made, nn.Parameter) and pd.setdefault("c", 5) is made
    assert pd.setdefault("d") is None and pd.popitem() == ("d", None)
    assert list(reversed(pd)) == ["c", "b", "a"]
    assert pd.pop("c") is made and list(pd) == ["a", "b"]
    del pd["b"]
    assert list(pd) == ["a"] and [n for n, _ in pd.named_parameters()] == ["a"]
    made = pd.fromkeys(["x", "y"], torch.ones(2))
    assert list(made) == ["x", "y"] and made["x"] is not made["y"]
    assert list(pd.fromkeys(["z"]).items()) == [("z", None)]
    assert pd.update([("q", 1)]) is None and pd["q"] == 1
    pd.clear()
    assert len(pd) == 0 and list(pd.named_parameters()) == []


def test_a_dict_combines_with_or():
    pd = nn.ParameterDict({"a": torch.zeros(1)})
    both = pd | {"z": torch.ones(1)}
    assert type(both) is nn.ParameterDict and list(both) == ["a", "z"] and list(pd) == ["a"]
    assert isinstance(both["z"], nn.Parameter)
    left = {"z": torch.ones(1)} | pd
    assert type(left) is dict and list(left) == ["z", "a"] and left["a"] is pd["a"]
    kept = pd
    pd |= {"w": 2}
    assert pd is kept and list(pd) == ["a", "w"]


def test_a_dict_refuses_as_torch_does():
    pd = nn.ParameterDict({"b": torch.ones(1)})
    with raises(AttributeError, "'ParameterDict' object has no attribute 'zz'"):
        pd["zz"]
    with raises(AttributeError, "'ParameterDict' object has no attribute 'zz'"):
        pd.pop("zz")
    with raises(KeyError, "'zz'"):
        del pd["zz"]
    with raises(RuntimeError, NOT_FLOATING):
        nn.ParameterDict({"a": torch.arange(3)})
    with raises(TypeError, "ParametersDict.update should be called with an iterable of "
                           "key/value pairs, but got int"):
        nn.ParameterDict(3)
    with raises(TypeError, "ParametersDict.update should be called with an iterable of "
                           "key/value pairs, but got int"):
        pd | 3
    with raises(TypeError, "ParameterDict update sequence element #0 should be Iterable; "
                           "isint"):
        nn.ParameterDict([1, 2])
    with raises(ValueError, "ParameterDict update sequence element #0 has length 3; 2 is "
                            "required"):
        nn.ParameterDict([("a", torch.ones(1), 3)])
    with raises(TypeError, "Index given to ParameterDict cannot be used as a key as it is not a "
                           "string (type is 'int'). Open an issue on github if you need "
                           "non-string keys."):
        nn.ParameterDict([(1, torch.ones(1))])
    with raises(TypeError, "'<' not supported between instances of 'int' and 'str'"):
        nn.ParameterDict({"b": 1, 1: 2})
    with raises(TypeError, "cannot assign 'int' as parameter 'b' (torch.nn.Parameter or None "
                           "expected)"):
        pd["b"] = 3
    with raises(TypeError, "ParameterDict.fromkeys() missing 1 required positional argument: "
                           "'keys'"):
        pd.fromkeys()
    with raises(KeyError, "'popitem(): dictionary is empty'"):
        nn.ParameterDict().popitem()
    with raises(RuntimeError, "ParameterDict should not be called."):
        pd(1)
    with raises(TypeError, "ParameterDict.__call__() missing 1 required positional argument: "
                           "'input'"):
        pd()


class Stateful(nn.Module):
    def __init__(self):
        super().__init__()
        self.param1 = nn.Parameter(torch.randn(2))
        self.param_list = nn.ParameterList([nn.Parameter(torch.randn(2)) for _ in range(3)])
        self.param_dict = nn.ParameterDict({"foo": torch.randn(3), "bar": torch.randn(4)})
        self.register_buffer("buffer1", torch.randn(4))
        self.linear = nn.Linear(2, 3)


def test_the_containers_belong_to_the_model_that_holds_them():
    torch.manual_seed(0)
    m = Stateful()
    names = ["param1", "param_list.0", "param_list.1", "param_list.2", "param_dict.bar",
             "param_dict.foo", "linear.weight", "linear.bias"]
    assert [n for n, _ in m.named_parameters()] == names
    assert list(m.state_dict()) == names[:1] + ["buffer1"] + names[1:]
    assert len(list(m.parameters())) == 8
    loaded = Stateful()
    assert not torch.equal(loaded.param_dict["foo"], m.param_dict["foo"])
    loaded.load_state_dict(m.state_dict())
    assert torch.equal(loaded.param_dict["foo"], m.param_dict["foo"])
    assert torch.equal(loaded.param_list[2], m.param_list[2])
    entry = m.param_list[1]
    assert m.double() is m and m.param_list[1] is entry
    assert {p.dtype for p in m.parameters()} == {torch.float64}
    assert m.to(torch.float32).param_dict["bar"].dtype == torch.float32
    assert isinstance(m.param_dict["bar"], nn.Parameter)
    assert repr(m) == (
        "Stateful(\n"
        "  (param_list): ParameterList(\n"
        "      (0): Parameter containing: [torch.float32 of size 2]\n"
        "      (1): Parameter containing: [torch.float32 of size 2]\n"
        "      (2): Parameter containing: [torch.float32 of size 2]\n"
        "  )\n"
        "  (param_dict): ParameterDict(\n"
        "      (bar): Parameter containing: [torch.FloatTensor of size 4]\n"
        "      (foo): Parameter containing: [torch.FloatTensor of size 3]\n"
        "  )\n"
        "  (linear): Linear(in_features=2, out_features=3, bias=True)\n"
        ")")


def test_the_containers_train_and_copy():
    torch.manual_seed(0)
    pl = nn.ParameterList([torch.ones(2)])
    pd = nn.ParameterDict({"s": torch.full((2,), 3.0)})
    (pl[0] * pd["s"]).sum().backward()
    assert pl[0].grad.tolist() == [3.0, 3.0] and pd["s"].grad.tolist() == [1.0, 1.0]
    twin = copy.deepcopy(pd)
    assert twin["s"] is not pd["s"] and torch.equal(twin["s"], pd["s"])
    assert list(twin) == ["s"] and isinstance(twin["s"], nn.Parameter)
