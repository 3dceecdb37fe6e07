"""``with torch.device(...)``: the default device for a block. The same assertions run on
torch (a CPU build), where "cpu:0" shows a block at work through get_default_device().
"""

import threading

import numpy as np
import pytest
import torch

from conformance._support import raises


@pytest.fixture
def restored():
    yield
    torch.set_default_device(None)


def test_a_block_sets_the_default_and_restores_it():
    block = torch.device("cpu:0")
    with block as entered:
        assert entered is block
        assert repr(torch.get_default_device()) == "device(type='cpu', index=0)"
        assert torch.ones(2).device == torch.device("cpu")
        assert torch.nn.Linear(2, 3).weight.device == torch.device("cpu")
    assert repr(torch.get_default_device()) == "device(type='cpu')"
    with pytest.raises(ValueError):
        with block:
            raise ValueError("leaves the block")
    assert repr(torch.get_default_device()) == "device(type='cpu')"


def test_blocks_nest_and_a_device_can_be_entered_again():
    outer = torch.device("cpu", 0)
    seen = []
    with outer:
        with torch.device("cpu"):
            seen.append(torch.get_default_device())
            with outer:
                seen.append(torch.get_default_device())
            seen.append(torch.get_default_device())
        seen.append(torch.get_default_device())
    seen.append(torch.get_default_device())
    assert [str(d) for d in seen] == ["cpu", "cpu:0", "cpu", "cpu:0", "cpu"]


def test_a_block_belongs_to_its_thread():
    seen = []

    def other():
        seen.append(torch.get_default_device())
        with torch.device("cpu:0"):
            seen.append(torch.get_default_device())

    with torch.device("cpu:0"):
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        seen.append(torch.get_default_device())
    assert [str(d) for d in seen] == ["cpu", "cpu:0", "cpu:0"]
    assert str(torch.get_default_device()) == "cpu"


def test_a_block_over_a_set_default_goes_back_to_it(restored):
    torch.set_default_device("cpu:0")
    with torch.device("cpu"):
        assert repr(torch.get_default_device()) == "device(type='cpu')"
    assert repr(torch.get_default_device()) == "device(type='cpu', index=0)"


def test_entering_and_leaving_refused_as_torch_does():
    with raises(RuntimeError, "trying to pop from empty mode stack"):
        torch.device("cpu").__exit__(None, None, None)
    with raises(TypeError, "device.__enter__() takes no arguments (1 given)"):
        torch.device("cpu").__enter__(1)
    assert str(torch.get_default_device()) == "cpu"
    assert not callable(torch.device("cpu"))  # a context manager, not a decorator


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is there to use")
def test_a_missing_gpu_in_a_block_fails_each_factory_but_not_memory_sharing():
    with pytest.raises(AssertionError) as told:
        torch.zeros(1, device="cuda")
    with torch.device("cuda"):
        for make in (lambda: torch.ones(2), lambda: torch.tensor([1.0]),
                     lambda: torch.arange(3), lambda: torch.rand(2),
                     lambda: torch.as_tensor(np.ones(2)), lambda: torch.get_default_device(),
                     lambda: torch.nn.Linear(2, 2)):
            with pytest.raises(AssertionError) as inside:
                make()
            assert str(inside.value) == str(told.value)
        assert torch.from_numpy(np.ones(2)).device == torch.device("cpu")
        assert torch.zeros_like(torch.ones(2, device="cpu")).device == torch.device("cpu")
    assert torch.ones(1).device == torch.device("cpu")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_factories_in_a_gpu_block_make_gpu_tensors():
    with torch.device("cuda"):
        layer = torch.nn.Linear(4, 3)
        out = layer(torch.randn(2, 4))
    assert layer.weight.device.type == "cuda" and out.device.type == "cuda"
    assert torch.ones(1).device.type == "cpu"
