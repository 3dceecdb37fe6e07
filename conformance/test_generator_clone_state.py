"""Generator.clone_state, and the offsets and graph-safe states a CPU generator refuses."""

import pytest
import torch

from conformance._support import raises


def test_a_clone_draws_what_the_original_draws():
    g = torch.Generator().manual_seed(7)
    torch.rand(5, generator=g)  # a state part-way along
    twin = g.clone_state()
    assert twin is not g and twin.initial_seed() == 7
    assert torch.equal(twin.get_state(), g.get_state())
    assert torch.equal(torch.rand(3, generator=g), torch.rand(3, generator=twin))
    assert torch.equal(torch.randn(20, generator=g), torch.randn(20, generator=twin))


def test_the_clone_is_independent_afterwards():
    g = torch.Generator().manual_seed(1)
    twin = g.clone_state()
    torch.rand(10, generator=g)
    assert not torch.equal(twin.get_state(), g.get_state())


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda g: g.get_offset(), RuntimeError, "CPU Generator does not use offset"),
    (lambda g: g.set_offset(4), RuntimeError, "CPU Generator does not use offset"),
    (lambda g: g.graphsafe_get_state(), NotImplementedError,
     "graphsafe_get_state is not supported in this Generator"),
    (lambda g: g.graphsafe_set_state(g.clone_state()), NotImplementedError,
     "graphsafe_set_state is not supported in this Generator"),
])
def test_what_a_cpu_generator_refuses(call, kind, message):
    with raises(kind, message):
        call(torch.Generator())
