"""Black-box tests: states the generator refuses, and fork_rng's CPU device type."""

import pytest
import torch

from conformance._support import raises


def test_a_state_that_is_not_contiguous_is_refused():
    for state in (torch.get_rng_state().repeat(2)[::2],
                  torch.get_rng_state().reshape(2, -1).t()):
        with raises(RuntimeError, "RNG state must be contiguous"):
            torch.set_rng_state(state)
        with raises(RuntimeError, "RNG state must be contiguous"):
            torch.Generator().set_state(state)
    with raises(TypeError, "RNG state must be a torch.ByteTensor"):
        torch.set_rng_state(torch.get_rng_state().float()[::2])


def test_a_contiguous_state_of_any_shape_is_taken():
    torch.manual_seed(5)
    state = torch.get_rng_state()
    expected = torch.rand(3)
    torch.set_rng_state(state.reshape(2, -1))
    assert torch.equal(torch.rand(3), expected)


@pytest.mark.parametrize("device_type", ["cpu", torch.device("cpu")])
def test_fork_rng_for_the_cpu_fails_on_entry(device_type):
    with raises(AttributeError, "module 'torch.cpu' has no attribute 'get_rng_state'"):
        with torch.random.fork_rng(device_type=device_type):
            pass
    with raises(AttributeError, "module 'torch.cpu' has no attribute 'get_rng_state'"):
        with torch.random.fork_rng(devices=[0], device_type=device_type):
            pass


def test_fork_rng_for_the_cpu_with_nothing_to_fork_runs():
    torch.manual_seed(0)
    with torch.random.fork_rng(device_type="cpu", enabled=False):
        torch.rand(1)
    with torch.random.fork_rng(device_type="cpu", devices=[]):
        torch.rand(1)
    assert torch.rand(1).item() == 0.7682217955589294  # the second block was forked
