"""nn.Buffer, assigning buffers to a module, and the global hooks that see each parameter,
buffer and child module as it is filed. The same assertions run on torch."""

import copy
import pickle

import pytest
import torch
from torch import nn
from torch.nn.modules import module as module_globals


def test_a_buffer_is_a_plain_tensor_marked_as_one():
    data = torch.arange(3.0)
    b = nn.Buffer(data, persistent=False)
    assert type(b) is torch.Tensor
    assert isinstance(b, nn.Buffer) and not isinstance(data, nn.Buffer)
    assert (b.persistent, b._is_buffer, repr(b)) == (False, True, "tensor([0., 1., 2.])")
    assert b.data_ptr() == data.data_ptr() and b is not data
    assert nn.Buffer(torch.ones(2, requires_grad=True)).requires_grad
    assert nn.Buffer(torch.ones(2)).persistent is True
    assert nn.Buffer().shape == (0,)
    assert nn.parameter.Buffer is nn.Buffer


def test_a_buffer_stays_one_through_copies_and_pickles():
    b = nn.Buffer(torch.ones(2), persistent=False)
    for copied in (copy.deepcopy(b), pickle.loads(pickle.dumps(b))):
        assert isinstance(copied, nn.Buffer) and copied.persistent is False


def test_buffer_refusals():
    with pytest.raises(AttributeError, match="^'int' object has no attribute 'detach'$"):
        nn.Buffer(3)
    with pytest.raises(TypeError, match=r"takes from 1 to 2 positional arguments but 3"):
        nn.Buffer(torch.ones(2), True)


def test_assigning_a_buffer_files_it():
    m = nn.Module()
    m.a = nn.Buffer(torch.zeros(3))
    m.c = nn.Buffer(torch.zeros(1), persistent=False)
    assert list(m.state_dict()) == ["a"]
    assert [name for name, _ in m.named_buffers()] == ["a", "c"]
    assert m._non_persistent_buffers_set == {"c"}
    m.c = torch.ones(1)  # a plain tensor keeps the name's persistence
    assert m._non_persistent_buffers_set == {"c"} and m.c.tolist() == [1.0]
    m.c = None
    assert m._buffers["c"] is None
    with pytest.raises(TypeError, match=r"^cannot assign 'int' as buffer 'a' "
                       r"\(torch.nn.Buffer, torch.Tensor or None expected\)$"):
        m.a = 3


def test_buffer_assignment_refusals():
    m = nn.Module()
    m.plain = 3
    with pytest.raises(KeyError, match="attribute 'plain' already exists"):
        m.plain = nn.Buffer(torch.ones(1))

    class Early(nn.Module):
        def __init__(self):
            self.b = nn.Buffer(torch.ones(1))

    with pytest.raises(AttributeError, match=r"^cannot assign buffer before Module.__init__\(\) "
                       r"call$"):
        Early()


def test_a_register_buffer_without_persistent():
    class Old(nn.Module):
        def register_buffer(self, name, tensor):
            nn.Module.register_buffer(self, name, tensor)

    old = Old()
    old.a = nn.Buffer(torch.ones(1))
    assert list(old.state_dict()) == ["a"]
    with pytest.raises(RuntimeError, match="^Registering a non-persistent buffer on a Module "
                       "subclass that implements register_buffer"):
        old.z = nn.Buffer(torch.ones(1), persistent=False)


def test_registration_hooks_see_and_replace_members():
    seen = []

    def double(module, name, tensor):
        seen.append(("buffer", name))
        return None if tensor is None else tensor * 2

    handles = [
        module_globals.register_module_buffer_registration_hook(double),
        module_globals.register_module_parameter_registration_hook(
            lambda module, name, param: seen.append(("parameter", name))),
        module_globals.register_module_module_registration_hook(
            lambda module, name, child: seen.append(("module", name))),
    ]
    try:
        m = nn.Module()
        m.x = nn.Buffer(torch.ones(2))
        m.register_buffer("y", torch.ones(1))
        m.x = torch.ones(2)
        m.p = nn.Parameter(torch.ones(1))
        m.register_parameter("q", None)
        m.p = None
        m.c = nn.Linear(1, 1)
        m.add_module("d", None)
        m.c = None
    finally:
        for handle in handles:
            handle.remove()
    assert seen == [("buffer", "x"), ("buffer", "y"), ("buffer", "x"), ("parameter", "p"),
                    ("parameter", "weight"), ("parameter", "bias"), ("module", "c"),
                    ("module", "d"), ("module", "c")]
    assert (m.x.tolist(), m.y.tolist()) == ([2.0, 2.0], [2.0])
    m.z = nn.Buffer(torch.ones(1))  # removed: no longer doubled
    assert m.z.tolist() == [1.0]

