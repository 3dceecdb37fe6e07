"""torch.utils._pytree: leaves, specs, keys, registration and serialized specs, to the letter."""

import dataclasses
import importlib
import json
import os
from collections import OrderedDict, defaultdict, deque, namedtuple

import pytest
import torch
import torch.utils._pytree as pytree

from conformance._support import raises

Point = namedtuple("Point", "x y")
Other = namedtuple("Other", "x y")
MIXED = {"b": 1, "a": [2, (3, 4)], "c": None, "d": OrderedDict(z=5, y=6),
         "e": defaultdict(list, {"k": 7}), "f": deque([8, 9], maxlen=3), "g": Point(10, 11)}
MIXED_SPEC = """TreeSpec(dict, ['b', 'a', 'c', 'd', 'e', 'f', 'g'], [*,
  TreeSpec(list, None, [*,
    TreeSpec(tuple, None, [*,
      *])]),
  *,
  TreeSpec(OrderedDict, ['z', 'y'], [*,
    *]),
  TreeSpec(defaultdict, [<class 'list'>, ['k']], [*]),
  TreeSpec(deque, 3, [*,
    *]),
  TreeSpec(namedtuple, <class 'conformance.test_pytree.Point'>, [*,
    *])])"""


def test_flatten_reads_dicts_in_insertion_order_and_none_as_a_leaf():
    leaves, spec = pytree.tree_flatten(MIXED)
    assert leaves == [1, 2, 3, 4, None, 5, 6, 7, 8, 9, 10, 11]
    assert repr(spec) == str(spec) == MIXED_SPEC
    assert (spec.num_leaves, spec.num_nodes, spec.num_children) == (12, 19, 7)
    assert spec.type is dict and spec.context == ["b", "a", "c", "d", "e", "f", "g"]


def test_unflatten_rebuilds_every_builtin_node():
    leaves, spec = pytree.tree_flatten(MIXED)
    back = pytree.tree_unflatten(leaves, spec)
    assert back == MIXED and list(back) == list(MIXED)
    assert type(back["g"]) is Point and back["f"].maxlen == 3
    assert back["e"].default_factory is list and type(back["d"]) is OrderedDict


def test_pprint_writes_the_tree_with_stars():
    spec = pytree.tree_structure(MIXED)
    assert pytree.treespec_pprint(spec) == (
        "{'b': *, 'a': [*, (*, *)], 'c': *, 'd': OrderedDict([('z', *), ('y', *)]), "
        "'e': defaultdict(<class 'list'>, {'k': *}), 'f': deque([*, *], maxlen=3), "
        "'g': Point(x=*, y=*)}")
    assert pytree.treespec_pprint(pytree.tree_structure([[], {}, (), 1, (1,)])) == \
        "[[], {}, (), *, (*,)]"
    assert pytree.treespec_pprint(pytree.tree_structure(5)) == "*"


def test_empty_containers_are_nodes_not_leaves():
    leaves, spec = pytree.tree_flatten([[], {}, ()])
    assert leaves == [] and spec.num_nodes == 4 and spec.num_leaves == 0
    assert str(spec) == ("TreeSpec(list, None, [TreeSpec(list, None, []),\n"
                         "  TreeSpec(dict, [], []),\n  TreeSpec(tuple, None, [])])")
    assert not pytree.tree_is_leaf([]) and pytree.tree_is_leaf(1)
    assert not pytree.TreeSpec(list, None, []).is_leaf()


def test_subclasses_of_dict_and_list_are_leaves_but_named_tuple_subclasses_are_nodes():
    class MyDict(dict):
        pass

    class SubPoint(Point):
        pass

    assert pytree.tree_flatten(MyDict(a=1))[0] == [{"a": 1}]
    leaves, spec = pytree.tree_flatten(SubPoint(1, 2))
    assert leaves == [1, 2] and spec.context is SubPoint
    assert type(pytree.tree_unflatten([3, 4], spec)) is SubPoint


def test_dict_specs_depend_on_key_order_and_kind():
    assert pytree.tree_structure({"b": 1, "a": 2}) != pytree.tree_structure({"a": 1, "b": 2})
    assert pytree.tree_structure({"a": 1}) != pytree.tree_structure(OrderedDict(a=1))
    assert pytree.tree_structure({"a": 1, "b": 2}) == pytree.tree_structure({"a": 3, "b": 4})
    assert hash(pytree.tree_structure({"a": [1]})) == hash(pytree.tree_structure({"a": [2]}))
    assert pytree.tree_structure(Point(1, 2)) != pytree.tree_structure(Other(1, 2))


def test_named_results_are_struct_sequences_and_nodes():
    result = torch.max(torch.tensor([[1.0, 3.0], [4.0, 2.0]]), 1)
    assert pytree.is_structseq(result) and pytree.is_structseq_class(type(result))
    assert pytree.is_structseq_instance(result) and not pytree.is_namedtuple(result)
    assert not pytree.is_namedtuple_instance(result)
    leaves, spec = pytree.tree_flatten(result)
    assert str(spec) == "TreeSpec(max, None, [*,\n  *])" and spec.type is type(result)
    back = pytree.tree_unflatten([leaves[0] * 2, leaves[1]], spec)
    assert type(back) is type(result) and back.values.tolist() == [6.0, 8.0]
    assert pytree.treespec_pprint(spec) == "torch.return_types.max(\nvalues=*,\nindices=*)"
    keyed = pytree.tree_leaves_with_path(result)
    assert [pytree.keystr(k) for k, _ in keyed] == ["[0]", "[1]"]


def test_other_struct_sequences_stay_leaves():
    stat = os.stat(os.curdir)
    assert pytree.is_structseq(type(stat)) and pytree.tree_structure(stat).is_leaf()
    assert pytree.is_namedtuple(Point) and pytree.is_namedtuple(Point(1, 2))
    assert not pytree.is_namedtuple((1, 2)) and not pytree.is_structseq(Point)


def test_size_is_a_node_that_comes_back_as_a_tuple():
    leaves, spec = pytree.tree_flatten(torch.Size([2, 3]))
    assert leaves == [2, 3] and str(spec) == "TreeSpec(Size, None, [*,\n  *])"
    back = pytree.tree_unflatten([4, 5], spec)
    assert type(back) is tuple and back == (4, 5)
    assert pytree.treespec_pprint(spec) == "(*, *)"
    assert pytree.tree_leaves([torch.Size([2]), 1]) == [2, 1]


def test_tensors_are_leaves():
    t = torch.ones(2)
    leaves, spec = pytree.tree_flatten({"t": t})
    assert leaves[0] is t and spec.child(0).is_leaf()


def test_paths_and_keys():
    keyed, spec = pytree.tree_flatten_with_path(MIXED)
    assert spec == pytree.tree_structure(MIXED)
    assert [pytree.keystr(k) for k, _ in keyed] == [
        "['b']", "['a'][0]", "['a'][1][0]", "['a'][1][1]", "['c']", "['d']['z']",
        "['d']['y']", "['e']['k']", "['f'][0]", "['f'][1]", "['g'].x", "['g'].y"]
    assert keyed[2][0] == (pytree.MappingKey("a"), pytree.SequenceKey(1), pytree.SequenceKey(0))
    assert [pytree.key_get(MIXED, k) for k, _ in keyed] == [v for _, v in keyed]
    assert pytree.tree_leaves_with_path(MIXED) == keyed


def test_key_entries():
    assert repr(pytree.MappingKey("a")) == "MappingKey(key='a')"
    assert str(pytree.MappingKey(1)) == "[1]" and str(pytree.MappingKey("a")) == "['a']"
    assert repr(pytree.SequenceKey(1)) == "SequenceKey(idx=1)"
    assert str(pytree.SequenceKey(1)) == "[1]"
    assert repr(pytree.GetAttrKey("x")) == "GetAttrKey(name='x')"
    assert str(pytree.GetAttrKey("x")) == ".x"
    assert pytree.keystr(()) == "" and pytree.MappingKey("a") != "a"
    assert hash(pytree.MappingKey("a")) == hash(pytree.MappingKey("a"))
    assert pytree.SequenceKey(1).get([5, 6]) == 6 and pytree.GetAttrKey("real").get(3) == 3
    with pytest.raises(AttributeError):
        pytree.MappingKey("a").key = 1
    with raises(TypeError, "'<' not supported between instances of 'MappingKey' and 'MappingKey'"):
        _ = pytree.MappingKey("a") < pytree.MappingKey("b")


def test_tree_map_and_friends():
    tree = [1, 2.0, "s", (3, None)]
    assert pytree.tree_map(lambda x: x, tree) == tree
    assert pytree.tree_map(lambda x: x, 7) == 7
    assert pytree.tree_map_only(int, lambda x: -x, tree) == [-1, 2.0, "s", (-3, None)]
    assert pytree.tree_map_only((int, float), lambda x: -x, tree) == [-1, -2.0, "s", (-3, None)]
    assert pytree.tree_map_only(int | str, lambda x: x * 2, tree) == [2, 2.0, "ss", (6, None)]
    assert pytree.tree_map_only(lambda x: x is None, lambda x: 0, tree) == [1, 2.0, "s", (3, 0)]
    seen = []
    assert pytree.tree_map_(seen.append, tree) is tree and seen == [1, 2.0, "s", 3, None]
    seen.clear()
    assert pytree.tree_map_only_(int, seen.append, tree) is tree and seen == [1, 3]
    assert pytree.tree_leaves(tree) == list(pytree.tree_iter(tree)) == [1, 2.0, "s", 3, None]
    with raises(TypeError, "Argument must be a type, a tuple of types, or a callable."):
        pytree.tree_map_only(5, lambda x: x, tree)


def test_is_leaf_stops_the_walk():
    leaves, spec = pytree.tree_flatten([1, [2], (3, [4])], is_leaf=lambda x: isinstance(x, list)
                                       and len(x) == 1)
    assert leaves == [1, [2], 3, [4]] and spec.num_leaves == 4
    assert pytree.tree_is_leaf([1], is_leaf=lambda x: True)
    lists = lambda x: isinstance(x, list)  # noqa: E731
    assert pytree.tree_map(len, ([1], ([2, 3],)), is_leaf=lists) == (1, (2,))
    assert pytree.tree_map(len, [[1], [2, 3]], is_leaf=lists) == 2


def test_all_and_any():
    assert pytree.tree_all(lambda x: x > 0, [1, (2,)]) and not pytree.tree_all(bool, [1, 0])
    assert pytree.tree_any(lambda x: x > 1, [1, 2]) and not pytree.tree_any(bool, [])
    assert pytree.tree_all(bool, [])
    assert pytree.tree_all_only(int, lambda x: x > 0, [1, "a"])
    assert not pytree.tree_all_only(int, lambda x: x > 2, [1, "a"])
    assert pytree.tree_any_only(str, lambda x: x == "a", [1, "a"])
    assert not pytree.tree_any_only(int, bool, ["a"])


def test_map_over_several_trees():
    assert pytree.tree_map(lambda a, b: a + b, [1, 2], [3, 4]) == [4, 6]
    assert pytree.tree_map(lambda a, b: (a, b), [1, 2], [4, [5, 6]]) == [(1, 4), (2, [5, 6])]
    assert pytree.tree_map(lambda a, b: (a, b), {"a": 1, "b": 2}, {"b": 3, "a": 4}) == \
        {"a": (1, 4), "b": (2, 3)}
    assert pytree.tree_map(lambda a, b: b, {"a": 1}, OrderedDict(a=2)) == {"a": 2}
    assert pytree.tree_map(lambda a, b: b, OrderedDict(a=1, b=2), OrderedDict(b=3, a=4)) == \
        OrderedDict(a=4, b=3)
    assert pytree.tree_map(lambda a, b: b, deque([1], maxlen=2), deque([5])) == \
        deque([5], maxlen=2)
    paths = pytree.tree_map_with_path(lambda k, x, y: (pytree.keystr(k), x + y),
                                      {"a": [1]}, {"a": [2]})
    assert paths == {"a": [("['a'][0]", 3)]}


@pytest.mark.parametrize("first, second, message", [
    ([1, 2], [3, 4, 5], "Node arity mismatch; expected 2, but got 3."),
    ([1, 2], (3, 4), "Node type mismatch; expected <class 'list'>, but got <class 'tuple'>."),
    ([1, [2, 3]], [4, 5], "Node type mismatch; expected <class 'list'>, but got <class 'int'>."),
    ({"a": 1}, {"b": 2}, "Node keys mismatch; missing key(s): {'a'}; extra key(s): {'b'}."),
    ({"a": 1, "b": 2}, {"a": 1}, "Node arity mismatch; expected 2, but got 1."),
    (Point(1, 2), Other(1, 2), "Node context mismatch for node type "
     f"{namedtuple}; expected {Point}, but got {Other}."),
    (Point(1, 2), (1, 2), f"Node type mismatch; expected {namedtuple}, but got {tuple}."),
    (torch.Size([1, 2]), [1, 2], f"Type mismatch; expected {torch.Size}, but got {list}."),
    (torch.Size([1, 2]), 5, f"Type mismatch; expected {torch.Size}, but got {int}."),
    ([1], torch.Size([1]), f"Node type mismatch; expected {list}, but got {torch.Size}."),
])
def test_map_refuses_trees_of_another_shape(first, second, message):
    with raises(ValueError, message):
        pytree.tree_map(lambda a, b: a, first, second)
    with raises(ValueError, message):
        pytree.tree_structure(first).flatten_up_to(second)


def test_a_named_result_is_not_a_tuple():
    result = torch.max(torch.ones(2, 2), 1)
    with raises(ValueError, f"Type mismatch; expected {type(result)}, but got {tuple}."):
        pytree.tree_map(lambda a, b: a, result, (1, 2))
    with raises(ValueError, f"Type mismatch; expected {type(result)}, but got {namedtuple}."):
        pytree.tree_map(lambda a, b: a, result, Point(1, 2))
    with raises(ValueError, f"Node type mismatch; expected {tuple}, but got {type(result)}."):
        pytree.tree_map(lambda a, b: a, (1, 2), result)


def test_spec_methods():
    spec = pytree.tree_structure([1, (2, 3)])
    assert spec.unflatten([5, (6, 7)][:1] + [6, 7]) == [5, (6, 7)]
    assert spec.flatten_up_to([[1, 2], (3, 4)]) == [[1, 2], 3, 4]
    assert spec.children() == [pytree.treespec_leaf(), pytree.tree_structure((0, 0))]
    with pytest.warns(FutureWarning, match=r"\A`treespec.children_specs` is deprecated\. Use "
                      r"`treespec.child\(index\)` to access a single child, or "
                      r"`treespec.children\(\)` to get all children\.\Z"):
        assert spec.children_specs == spec.children()
    assert spec.child(1) == pytree.tree_structure((0, 0)) and spec.child(0).is_leaf()
    assert pytree.TreeSpec(list, None, [pytree.treespec_leaf()]) == pytree.tree_structure([1])
    assert pytree.TreeSpec(None, None, []).is_leaf() and spec != 5
    assert pytree.treespec_tuple([pytree.treespec_leaf()]) == pytree.tree_structure((1,))
    assert pytree.treespec_dict({"a": pytree.treespec_leaf()}, b=pytree.treespec_leaf()) == \
        pytree.tree_structure({"a": 1, "b": 2})
    assert pytree.arg_tree_leaves(1, [2], k=(3,)) == [1, 2, 3]
    with raises(IndexError, "list index out of range"):
        spec.child(5)
    with raises(AssertionError, "leaf node should not have children"):
        pytree.TreeSpec(None, None, [pytree.treespec_leaf()])


def test_unflatten_refusals():
    spec = pytree.tree_structure([1, 2])
    for leaves in ([1, 2, 3], [1]):
        with raises(ValueError, f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} "
                    "but the spec refers to a pytree that holds 2 items (TreeSpec(list, None, "
                    "[*,\n  *]))."):
            pytree.tree_unflatten(leaves, spec)
    with raises(TypeError, "'int' object is not iterable"):
        pytree.tree_unflatten(5, spec)
    with raises(TypeError, "Expected `treespec` to be an instance of PyTreeSpec but got item of "
                "type <class 'int'>."):
        pytree.tree_unflatten([1], 3)


def test_leaf_spec_is_kept_and_warns_when_made():
    assert isinstance(pytree.tree_structure(1), pytree.LeafSpec)
    assert not isinstance(pytree.tree_structure([1]), pytree.LeafSpec)
    assert pytree.tree_structure(1) is pytree.tree_structure(2) is pytree.treespec_leaf()
    message = ("`isinstance(treespec, LeafSpec)` is deprecated, use `isinstance(treespec, "
               "TreeSpec) and treespec.is_leaf()` instead.")
    with pytest.warns(FutureWarning, match=r"\A" + message.replace("(", r"\(").replace(")", r"\)")
                      .replace(".", r"\.") + r"\Z"):
        leaf = pytree.LeafSpec()
    assert leaf == pytree.tree_structure(1) and leaf is not pytree.tree_structure(1)
    assert repr(leaf) == "*" and (leaf.num_nodes, leaf.num_leaves, leaf.num_children) == (1, 1, 0)


class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b


class Tag:
    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, Tag) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"Tag({self.name!r})"


def test_register_pytree_node():
    pytree.register_pytree_node(Pair, lambda p: ([p.a, p.b], "ctx"), lambda v, c: Pair(*v),
                                serialized_type_name="tests.Pair")
    assert Pair in pytree.SUPPORTED_NODES and pytree.SUPPORTED_NODES[Pair].type is Pair
    leaves, spec = pytree.tree_flatten([Pair(1, (2, 3))])
    assert leaves == [1, 2, 3]
    assert str(spec) == ("TreeSpec(list, None, [TreeSpec(Pair, ctx, [*,\n"
                         "    TreeSpec(tuple, None, [*,\n      *])])])")
    back = pytree.tree_unflatten([4, 5, 6], spec)[0]
    assert type(back) is Pair and (back.a, back.b) == (4, (5, 6))
    assert json.loads(pytree.treespec_dumps(spec))[1]["children_spec"][0]["type"] == "tests.Pair"
    with raises(ValueError, f"{Pair} is already registered as pytree node."):
        pytree.register_pytree_node(Pair, lambda p: ([], None), lambda v, c: Pair(0, 0))
    with raises(ValueError, f"Did not find a flatten_with_keys_fn for type: {Pair}. Please pass "
                "a flatten_with_keys_fn argument to register_pytree_node."):
        pytree.tree_flatten_with_path([Pair(1, 2)])


def test_custom_nodes_compare_contexts():
    class Box:
        def __init__(self, items, label):
            self.items, self.label = items, label

    pytree.register_pytree_node(
        Box, lambda b: (b.items, b.label), lambda v, c: Box(list(v), c),
        flatten_with_keys_fn=lambda b: ([(pytree.SequenceKey(i), v) for i, v in
                                         enumerate(b.items)], b.label))
    assert [pytree.keystr(k) for k, _ in pytree.tree_leaves_with_path(Box([1, 2], "x"))] == \
        ["[0]", "[1]"]
    with raises(ValueError, f"Node context mismatch for custom node type {Box}."):
        pytree.tree_map(lambda a, b: a, Box([1], "x"), Box([1], "y"))
    with raises(ValueError, f"Type mismatch; expected {Box}, but got {list}."):
        pytree.tree_map(lambda a, b: a, Box([1], "x"), [1])
    with raises(NotImplementedError, f"No registered serialization name for {Box} found. Please "
                "update your _register_pytree_node call with a `serialized_type_name` kwarg."):
        pytree.treespec_dumps(pytree.tree_structure(Box([1], "x")))


def test_converters_come_in_pairs_and_the_node_stays():
    class Half:
        pass

    with raises(ValueError, f"Both to_dumpable_context and from_dumpable_context for {Half} must "
                "be None or registered."):
        pytree.register_pytree_node(Half, lambda h: ([], None), lambda v, c: Half(),
                                    to_dumpable_context=lambda c: c)
    assert Half in pytree.SUPPORTED_NODES


def test_register_constant():
    pytree.register_constant(Tag)
    leaves, spec = pytree.tree_flatten([Tag("x"), 1])
    assert leaves == [1]
    assert str(spec) == ("TreeSpec(list, None, [TreeSpec(Tag, ConstantNode(value=Tag('x')), []),"
                         "\n  *])")
    assert pytree.tree_structure([Tag("x"), 1]) == pytree.tree_structure([Tag("x"), 2])
    assert pytree.tree_structure([Tag("x"), 1]) != pytree.tree_structure([Tag("y"), 1])
    assert pytree.tree_unflatten([9], spec) == [Tag("x"), 9]
    assert pytree.tree_flatten_with_path([Tag("x")])[0] == []


def test_register_constant_needs_eq_and_hash():
    class Plain:
        pass

    class OnlyEq:
        def __eq__(self, other):
            return True

    with raises(TypeError, "register_constant(cls) expects `cls` to have a non-default `__eq__` "
                "implementation."):
        pytree.register_constant(Plain)
    with raises(TypeError, "register_constant(cls) expects `cls` to have a non-default `__hash__` "
                "implementation."):
        pytree.register_constant(OnlyEq)


LEAF_JSON = '{"type": null, "context": null, "children_spec": []}'


def test_dumps_writes_json_with_each_context_as_text():
    spec = pytree.tree_structure([1, (2, 3), {"a": 4}])
    assert pytree.treespec_dumps(spec) == (
        '[1, {"type": "builtins.list", "context": "null", "children_spec": [' + LEAF_JSON
        + ', {"type": "builtins.tuple", "context": "null", "children_spec": [' + LEAF_JSON + ", "
        + LEAF_JSON + ']}, {"type": "builtins.dict", "context": "[\\"a\\"]", "children_spec": ['
        + LEAF_JSON + "]}]}]")
    assert pytree.treespec_dumps(pytree.tree_structure(1)) == "[1, " + LEAF_JSON + "]"
    assert pytree.treespec_loads(pytree.treespec_dumps(spec)) == spec


@pytest.mark.parametrize("tree, name, context", [
    (OrderedDict(a=1), "collections.OrderedDict", '["a"]'),
    (deque([1], maxlen=4), "collections.deque", "4"),
    (deque([1]), "collections.deque", "null"),
    ({1: 2, "x": 3}, "builtins.dict", '[1, "x"]'),
    (torch.Size([1]), "torch.Size", "null"),
    (defaultdict(int, a=1), "collections.defaultdict",
     {"default_factory_module": "builtins", "default_factory_name": "int", "dict_context": ["a"]}),
])
def test_dumps_and_loads_each_builtin_node(tree, name, context):
    spec = pytree.tree_structure(tree)
    protocol, schema = json.loads(pytree.treespec_dumps(spec))
    assert (protocol, schema["type"], schema["context"]) == (1, name, context)
    assert pytree.treespec_loads(pytree.treespec_dumps(spec)) == spec


def test_named_tuples_need_a_name_to_be_dumped():
    Unnamed = namedtuple("Unnamed", "a")
    with raises(NotImplementedError, f"Can't serialize TreeSpec of namedtuple class {Unnamed} "
                "because we didn't register a serializated_type_name. Please register using "
                "`_register_namedtuple`."):
        pytree.treespec_dumps(pytree.tree_structure(Unnamed(1)))
    with raises(NotImplementedError, "Can't deserialize TreeSpec of namedtuple class zz because "
                "we couldn't find a serializated name."):
        pytree.treespec_loads('[1, {"type": "collections.namedtuple", "context": "zz", '
                              '"children_spec": []}]')


def test_dumps_and_loads_refusals():
    spec = pytree.tree_structure([1])
    with raises(ValueError, "Unknown protocol 2. Available protocols: [1]"):
        pytree.treespec_dumps(spec, protocol=2)
    with raises(ValueError, "Unknown protocol 0. Available protocols: [1]"):
        pytree.treespec_loads("[0, {}]")
    with raises(NotImplementedError, "Deserializing no.such in pytree is not registered."):
        pytree.treespec_loads('[1, {"type": "no.such", "context": "null", "children_spec": []}]')
    with raises(TypeError, "Expected `treespec` to be an instance of PyTreeSpec but got item of "
                "type <class 'int'>."):
        pytree.treespec_dumps(5)
    result = torch.max(torch.ones(2, 2), 1)
    with raises(NotImplementedError, f"No registered serialization name for {type(result)} "
                "found. Please update your _register_pytree_node call with a "
                "`serialized_type_name` kwarg."):
        pytree.treespec_dumps(pytree.tree_structure(result))


def test_the_module_is_there_with_torch():
    assert torch.utils._pytree is pytree
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("torch.utils.pytree")
    builtin = frozenset({tuple, list, dict, namedtuple, OrderedDict, defaultdict, deque})
    assert builtin <= set(pytree.SUPPORTED_NODES) and pytree.BUILTIN_TYPES == builtin
    assert pytree.STANDARD_DICT_TYPES == frozenset({dict, OrderedDict, defaultdict})
    assert pytree.NodeDef._fields == ("type", "flatten_fn", "unflatten_fn", "flatten_with_keys_fn")


@dataclasses.dataclass
class Config:
    a: object
    b: object = 0
    c: int = dataclasses.field(default=5, init=False)


def test_register_dataclass():
    pytree.register_dataclass(Config)
    leaves, spec = pytree.tree_flatten(Config(1, 2))
    assert leaves == [1, 2] and str(spec) == "TreeSpec(Config, [['a', 'b'], []], [*,\n  *])"
    assert pytree.tree_unflatten([7, 8], spec) == Config(7, 8)
    none_spec = pytree.tree_structure(Config(1, None))
    assert none_spec.context == [["a"], ["b"]] and none_spec.num_leaves == 1
    assert pytree.tree_unflatten([7], none_spec) == Config(7, None)
    assert none_spec != spec and pytree.treespec_pprint(spec) == "Config(a=*, b=*, c=5)"
    assert [pytree.keystr(k) for k, _ in pytree.tree_leaves_with_path(Config(1, 2))] == [".a", ".b"]
    with raises(ValueError, "Node arity mismatch; expected 2, but got 1."):
        pytree.tree_map(lambda x, y: x, Config(1, 2), Config(1, None))


def test_register_dataclass_checks_field_names():
    @dataclasses.dataclass
    class Two:
        a: int
        b: int

    with raises(ValueError, "field_names does not include all dataclass fields.\nMissing fields "
                "in `field_names`: {'b'}. If you want to include these fields in the pytree, "
                "please add them to `field_names`, otherwise please add them to "
                "`drop_field_names`.\n"):
        pytree.register_dataclass(Two, field_names=["a"])
    with raises(ValueError, "field_names does not include all dataclass fields.\nUnexpected "
                "fields in `field_names`: {'z'}. Please remove these fields, or add them to "
                "`drop_field_names`.\n"):
        pytree.register_dataclass(Two, field_names=["a", "b", "z"])
    assert pytree.tree_structure(Two(1, 2)).is_leaf()
    pytree.register_dataclass(Two, field_names=["a"], drop_field_names=["b"],
                              serialized_type_name="tests.Two")
    assert pytree.tree_flatten(Two(1, 2))[0] == [1]
    assert json.loads(pytree.treespec_dumps(pytree.tree_structure(Two(1, 2))))[1]["context"] == \
        '[["a"], []]'
    with raises(ValueError, "field_names must be specified with a list of all fields used to "
                "initialize <class 'int'>, as it is not a dataclass."):
        pytree.register_dataclass(int)


@pytest.mark.parametrize("prefix, tree, expected", [
    (1, [1, (2, 3)], [1, 1, 1]),
    ([1, 2], [1, (2, 3)], [1, 2, 2]),
    ([1, None], [1, (2, 3)], [1, None, None]),
    ([1, 2, 3], [1, (2, 3)], None),
    ((1, 2), [1, (2, 3)], None),
    ({"b": 1, "a": 2}, {"a": [1, 2], "b": 3}, [1, 2, 2]),
    ({"b": 1}, {"a": [1, 2]}, None),
    (OrderedDict(a=1), {"a": [1, 2]}, [1, 1]),
    (Other(1, 2), Point(1, 2), None),
    (deque([1, 2]), deque([1, 2], maxlen=3), [1, 2]),
    ([1, 2], 5, None),
    (1, [], []),
])
def test_broadcast_to_and_flatten(prefix, tree, expected):
    spec = pytree.tree_structure(tree)
    assert pytree._broadcast_to_and_flatten(prefix, spec) == expected


def test_broadcast_reads_the_prefix_with_is_leaf():
    spec = pytree.tree_structure([1, (2, 3)])
    found = pytree._broadcast_to_and_flatten([1, [2]], spec, is_leaf=lambda x: x == [2])
    assert found == [1, [2], [2]]


def test_transforms_read_nests_as_pytrees():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    y = torch.tensor([1.0, -1.0])
    with raises(RuntimeError, "Expected pytree structure of cotangents to be the same as pytree "
                "structure of outputs to the function. cotangents: (*, *), primal output: "
                "Point(x=*, y=*)"):
        torch.func.vjp(lambda t: Point(t, t), y)[1]((y, y))

    class MyDict(dict):
        pass

    with raises(ValueError, "vmap(<lambda>, in_dims=0, ...)(<inputs>): Got in_dim=0 for an input "
                f"but the input is of type {MyDict}. We cannot vmap over non-Tensor arguments, "
                "please use None as the respective in_dim"):
        torch.func.vmap(lambda d: d["a"])(MyDict(a=x))
    found = torch.func.vmap(lambda d: d["a"])(OrderedDict(a=x))
    assert found.tolist() == x.tolist()
    sums = torch.func.vmap(lambda p: p.x + p.y, in_dims=(Point(0, None),))(Point(x, y))
    assert sums.tolist() == [[2.0, 1.0], [4.0, 3.0], [6.0, 5.0]]


def test_older_helpers():
    class Old:
        pass

    with pytest.warns(FutureWarning, match=r"\A`torch\.utils\._pytree\._register_pytree_node` is "
                      r"deprecated\. Please use `torch\.utils\._pytree\.register_pytree_node` "
                      r"instead\.\Z"):
        pytree._register_pytree_node(Old, lambda o: ([], None), lambda v, c: Old())
    assert Old in pytree.SUPPORTED_NODES and pytree._get_node_type(Old()) is Old
    pytree._deregister_pytree_node(Old)
    assert Old not in pytree.SUPPORTED_NODES and Old not in pytree.SUPPORTED_SERIALIZED_TYPES
    assert pytree.tree_structure(Old()).is_leaf()
    with pytest.warns(FutureWarning, match=r"\Atorch\.utils\._pytree\._is_leaf is private and "
                      r"will be removed in a future release\. Please use "
                      r"torch\.utils\._pytree\.tree_is_leaf instead\.\Z"):
        assert pytree._is_leaf(Old())
    with pytest.raises(KeyError):
        pytree._deregister_pytree_node(Old)
    assert pytree._get_node_type(Point(1, 2)) is namedtuple is pytree.namedtuple
    assert pytree.PyTree is pytree.Context is pytree.DumpableContext
    assert pytree.KeyPath == tuple[pytree.KeyEntry, ...]


def test_vmap_out_dims_may_be_any_nest_of_ints():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    found = torch.func.vmap(lambda t: {"z": t, "a": t}, out_dims={"a": 1, "z": 0})(x)
    # the prefix's dims are taken in its own key order, and paired with the outputs in theirs
    assert found["z"].tolist() == x.t().tolist() and found["a"].tolist() == x.tolist()
    same = torch.func.vmap(lambda t: {"z": t, "a": t}, out_dims={"z": 0, "a": 1})(x)
    assert same["z"].tolist() == x.tolist() and same["a"].tolist() == x.t().tolist()
    for bad in ["x", (0, "x"), {"a": "b"}]:
        with raises(ValueError, f"vmap(<lambda>, ..., out_dims={bad}): `out_dims` must be an int, "
                    "None or a python collection of ints representing where in the outputs the "
                    "vmapped dimension should appear."):
            torch.func.vmap(lambda t: {"a": t}, out_dims=bad)(x)


def test_public_names_in_order():
    assert pytree.__all__ == [
        "PyTree", "Context", "FlattenFn", "UnflattenFn", "DumpableContext",
        "ToDumpableContextFn", "FromDumpableContextFn", "PyTreeSpec", "TreeSpec", "LeafSpec",
        "keystr", "key_get", "register_pytree_node", "tree_is_leaf", "tree_flatten",
        "tree_flatten_with_path", "tree_unflatten", "tree_iter", "tree_leaves",
        "tree_leaves_with_path", "tree_structure", "tree_map", "tree_map_with_path",
        "tree_map_", "tree_map_only", "tree_map_only_", "tree_all", "tree_any", "tree_all_only",
        "tree_any_only", "treespec_dumps", "treespec_loads", "treespec_pprint", "is_namedtuple",
        "is_namedtuple_class", "is_namedtuple_instance", "is_structseq", "is_structseq_class",
        "is_structseq_instance"]
    assert all(hasattr(pytree, name) for name in pytree.__all__)
    assert pytree.PyTreeSpec is pytree.TreeSpec
