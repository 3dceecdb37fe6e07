"""Conformance: public functions and Tensor's methods pickle by reference, to themselves,
before and after the __torch_function__ protocol is on, and in another process."""

import inspect
import pickle
import sys

import pytest
import torch
import torch.linalg
import torch.nn.functional
import torch.special

from conformance._support import printed_in_a_fresh_process

NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.special")

# What torch 2.13 itself cannot pickle: functions made by its boolean_dispatch factory
# (a local qualified name), and __pow__ and __ipow__, whose qualified names
# (TensorBase.pow, TensorBase.pow_) lead to other objects.
TORCH_REFUSES = {
    "torch": {"lu", "unique", "unique_consecutive"},
    "torch.nn.functional": {
        "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
        "fractional_max_pool2d", "fractional_max_pool3d", "max_pool1d", "max_pool2d",
        "max_pool3d"},
    "Tensor": {"__pow__", "__ipow__"},
}
# What refgrad cannot pickle where torch can: nothing.
REFGRAD_REFUSES = {}
NOT_PICKLED = {key: TORCH_REFUSES.get(key, set()) | REFGRAD_REFUSES.get(key, set())
               for key in (*TORCH_REFUSES, *REFGRAD_REFUSES)}


def torch_refuses(key: str) -> set:
    """TORCH_REFUSES[key], and torch.manual_seed once torch's compiler has been imported
    in this process: the compiler puts a wrapper in its place, which pickle, finding
    torch.random.manual_seed by name, refuses as another object."""
    known = set(TORCH_REFUSES.get(key, set()))
    if key == "torch" and torch.__name__ == "torch" and "torch._dynamo" in sys.modules:
        known.add("manual_seed")
    return known


def _routines(owner, names):
    """(name, value) for each of ``names`` that ``owner`` holds as a function or method."""
    for name in names:
        value = getattr(owner, name, None)
        if value is not None and inspect.isroutine(value) and not inspect.isclass(value):
            yield name, value


def _public(namespace: str):
    module = sys.modules[namespace]
    return _routines(module, sorted(n for n in dir(module) if not n.startswith("_")))


def _methods():
    return _routines(torch.Tensor, sorted(dir(torch.Tensor)))


def _round_trips(value) -> bool:
    restored = pickle.loads(pickle.dumps(value))
    # one bound to a class (a class method) is made anew on each lookup: equal, not the same
    return restored is value or hasattr(value, "__self__") and restored == value


def _refused(pairs, known: set) -> list:
    refused = []
    for name, value in pairs:
        if name in known:
            continue
        try:
            if not _round_trips(value):
                refused.append((name, "another object"))
        except (pickle.PicklingError, AttributeError, TypeError) as error:
            refused.append((name, str(error)[:80]))
    return refused


@pytest.mark.parametrize("namespace, least", [
    ("torch", 500), ("torch.nn.functional", 100), ("torch.linalg", 30), ("torch.special", 50)])
def test_each_public_function_pickles_to_itself(namespace, least):
    pairs = list(_public(namespace))
    assert len(pairs) >= least  # the walk sees the namespace
    assert _refused(pairs, NOT_PICKLED.get(namespace, set()) | torch_refuses(namespace)) == []


def test_each_method_of_tensor_pickles_to_itself():
    pairs = list(_methods())
    assert len(pairs) >= 550
    assert {"add", "add_", "__add__", "__radd__", "backward", "abs", "absolute",
            "numel", "tolist", "__torch_function__"} <= dict(pairs).keys()
    assert _refused(pairs, NOT_PICKLED["Tensor"]) == []


@pytest.mark.parametrize("function", [
    torch.linalg.norm, torch.linalg.vector_norm, torch.linalg.solve, torch.linalg.diagonal,
    torch.special.erf, torch.special.logsumexp, torch.lu_solve, torch.nonzero_static,
    torch.Tensor.add, torch.Tensor.__add__, torch.Tensor.mul_, torch.Tensor.clamp,
    torch.Tensor.backward, torch.Tensor.numel, torch.Tensor.absolute,
], ids=lambda f: f.__qualname__.rpartition(".")[2])
def test_pickle_finds_the_function_itself(function):
    assert pickle.loads(pickle.dumps(function, protocol=2)) is function
    assert pickle.loads(pickle.dumps(function)) is function


def test_a_bound_class_method_pickles_to_an_equal_one():
    method = torch.Tensor.__torch_function__
    assert pickle.loads(pickle.dumps(method)) == method


def test_pickled_functions_still_call():
    norm, add = pickle.loads(pickle.dumps((torch.linalg.norm, torch.Tensor.add)))
    x = torch.tensor([3.0, 4.0])
    assert norm(x).item() == 5.0
    assert add(x, 1).tolist() == [4.0, 5.0]


# Run in a new process, where the __torch_function__ protocol is switched on by a
# subclass with a handler of its own before anything is pickled.
_AFTER_THE_PROTOCOL = """
import inspect, pickle
import {module} as torch
import {module}.linalg, {module}.nn.functional, {module}.special

class Seen(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs)

x = torch.ones(2).as_subclass(Seen)
assert type(torch.add(x, 1)) is Seen and type(torch.linalg.norm(x)) is Seen
known = {known!r}
walked, refused = 0, []
for owner, key in ((torch, "torch"), (torch.nn.functional, "torch.nn.functional"),
                   (torch.linalg, "torch.linalg"), (torch.special, "torch.special"),
                   (torch.Tensor, "Tensor")):
    for name in sorted(dir(owner)):
        value = getattr(owner, name, None)
        if (name.startswith("_") and owner is not torch.Tensor or name in known.get(key, ())
                or not inspect.isroutine(value) or inspect.isclass(value)):
            continue
        walked += 1
        try:
            back = pickle.loads(pickle.dumps(value))
            if not (back is value or hasattr(value, "__self__") and back == value):
                refused.append(key + "." + name)
        except Exception as error:
            refused.append(key + "." + name + ": " + str(error)[:60])
print(walked > 1300, refused)
print(pickle.dumps([torch.linalg.norm, torch.special.erf, torch.Tensor.add,
                    torch.Tensor.__add__, torch.Tensor.backward]).hex())
"""

_LOADED_ELSEWHERE = """
import pickle
import {module} as torch
import {module}.linalg, {module}.special
loaded = pickle.loads(bytes.fromhex("{data}"))
print([a is b for a, b in zip(loaded, [torch.linalg.norm, torch.special.erf,
       torch.Tensor.add, torch.Tensor.__add__, torch.Tensor.backward])])
"""


def test_pickling_after_the_protocol_is_on_and_loading_in_another_process():
    lines = printed_in_a_fresh_process(_AFTER_THE_PROTOCOL, known=NOT_PICKLED).splitlines()
    assert lines[0] == "True []"
    loaded = printed_in_a_fresh_process(_LOADED_ELSEWHERE, data=lines[1])
    assert loaded == "[True, True, True, True, True]\n"
