"""Under a dispatch mode, the func of an op whose schema returns Tensor[] gives the mode a
list, and an op of several named results a plain tuple; the user's own call still returns a
tuple. An op called by its ATen name returns what its schema declares. The same assertions run
on torch."""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

x, m = torch.arange(4.0), torch.arange(6.0).reshape(2, 3)

LISTS = {
    "split": lambda: x.split(1),
    "split_sizes": lambda: x.split([1, 3]),
    "torch_split": lambda: torch.split(x, 2),
    "chunk": lambda: x.chunk(2),
    "unbind": lambda: m.unbind(),
    "split_with_sizes": lambda: x.split_with_sizes([1, 3]),
    "unsafe_split": lambda: x.unsafe_split(2),
}
TUPLES = {
    "max_dim": lambda: m.max(0),
    "sort": lambda: x.sort(),
    "topk": lambda: x.topk(2),
}


def _kinds(call):
    """The kind of each result func gave the mode, and what the user got back."""
    seen = []

    class Kinds(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            seen.append(type(out))
            return out

    with Kinds():
        got = call()
    return seen, got


@pytest.mark.parametrize("name", LISTS)
def test_a_tensor_list_op_gives_func_a_list(name):
    seen, got = _kinds(LISTS[name])
    assert list in seen and tuple not in seen
    assert type(got) is tuple
    assert [t.tolist() for t in got] == [t.tolist() for t in LISTS[name]()]


@pytest.mark.parametrize("name", TUPLES)
def test_an_op_of_named_results_gives_func_a_tuple(name):
    seen, got = _kinds(TUPLES[name])
    assert tuple in seen and list not in seen
    assert type(got) is type(TUPLES[name]())


def test_a_nested_mode_gets_a_list_too():
    seen = []

    class Outer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            seen.append(type(out))
            return out

    class Inner(Outer):
        pass

    with Outer(), Inner():
        got = x.split(2)
    assert seen == [list, list]
    assert type(got) is tuple


def test_an_op_called_by_its_aten_name_returns_what_its_schema_declares():
    pieces = torch.ops.aten.split.Tensor(x, 2)
    assert type(pieces) is list and [t.tolist() for t in pieces] == [[0.0, 1.0], [2.0, 3.0]]
    assert type(torch.ops.aten.unbind.int(m)) is list
    assert type(torch.ops.aten.sort.default(x)) is tuple
