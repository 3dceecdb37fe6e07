"""Black-box tests: torch.set_default_device and get_default_device, torch.accelerator,
and torch.functional. The same assertions run on torch (a CPU build).
"""

import threading

import numpy as np
import pytest
import torch

from conformance._support import raises

NO_ACCELERATOR = "Cannot access accelerator device when none is available."
NOT_A_DEVICE = (
    "device() received an invalid combination of arguments - got ({0}), but expected one of:\n"
    " * (torch.device device)\n      didn't match because some of the arguments have invalid "
    "types: (!{0}!)\n * (str type, int index = -1)\n")


@pytest.fixture
def restored():
    yield
    torch.set_default_device(None)


def test_the_default_device_is_the_cpu_until_set(restored):
    assert torch.get_default_device() == torch.device("cpu")
    torch.set_default_device("cpu:0")
    assert repr(torch.get_default_device()) == "device(type='cpu', index=0)"
    assert torch.ones(2).device == torch.device("cpu")
    assert torch.tensor([1.0], device="cpu:0").device == torch.device("cpu")
    torch.set_default_device(device=torch.device("cpu"))
    assert repr(torch.get_default_device()) == "device(type='cpu')"
    torch.set_default_device(None)
    assert repr(torch.get_default_device()) == "device(type='cpu')"


def test_a_bad_device_is_refused_and_the_old_one_kept(restored):
    torch.set_default_device("cpu:0")
    with raises(TypeError, NOT_A_DEVICE.format("float")):
        torch.set_default_device(1.5)
    with raises(TypeError, NOT_A_DEVICE.format("bool")):
        torch.set_default_device(True)
    with pytest.raises(RuntimeError, match="^Expected one of cpu, cuda.* device type at start "
                                           "of device string: gpu$"):
        torch.set_default_device("gpu")
    assert torch.get_default_device() == torch.device("cpu", 0)
    with raises(TypeError, "set_default_device() missing 1 required positional argument: "
                           "'device'"):
        torch.set_default_device()
    with raises(TypeError, "get_default_device() takes 0 positional arguments but 1 was given"):
        torch.get_default_device(1)


def test_the_default_device_belongs_to_the_thread_that_sets_it(restored):
    torch.set_default_device("cpu:0")
    seen = []

    def other():
        seen.append(torch.get_default_device())
        torch.set_default_device("cpu")
        seen.append(torch.get_default_device())

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert [repr(d) for d in seen] == ["device(type='cpu')"] * 2
    assert torch.get_default_device() == torch.device("cpu", 0)


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is there to use")
def test_a_missing_gpu_as_default_fails_each_factory_but_not_memory_sharing(restored):
    torch.set_default_device("cuda")
    for make in (lambda: torch.ones(2), lambda: torch.tensor([1.0]), lambda: torch.arange(3),
                 lambda: torch.rand(2), lambda: torch.as_tensor(np.ones(2)),
                 lambda: torch.get_default_device()):
        with pytest.raises(AssertionError):
            make()
    assert torch.from_numpy(np.ones(2)).device == torch.device("cpu")
    assert torch.zeros_like(torch.from_numpy(np.ones(2))).device == torch.device("cpu")
    with raises(RuntimeError, NO_ACCELERATOR):
        torch.set_default_device(0)


def test_accelerator_answers_agree_with_each_other():
    available = torch.accelerator.is_available()
    assert available == torch.cuda.is_available()
    assert (torch.accelerator.device_count() > 0) == available
    found = torch.accelerator.current_accelerator(check_available=True)
    assert (found is not None) == available
    with raises(RuntimeError, "Accelerator expected"):
        torch.accelerator.synchronize("cpu")
    with raises(RuntimeError, "Accelerator expected"):
        torch.accelerator.set_device_index("cpu")
    with raises(ValueError, "Expected a torch.device with a specified index or an integer, "
                            "but got:None"):
        torch.accelerator.set_device_index(None)
    assert torch.accelerator.set_device_index(-1) is None


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is there to use")
def test_accelerator_without_a_gpu():
    assert torch.accelerator.is_available() is False
    assert torch.accelerator.device_count() == 0
    for call in (torch.accelerator.current_device_index, torch.accelerator.synchronize,
                 lambda: torch.accelerator.set_device_index(0),
                 lambda: torch.accelerator.synchronize(0)):
        with raises(RuntimeError, NO_ACCELERATOR):
            call()


FUNCTIONAL = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes",
              "broadcast_tensors", "cartesian_prod", "block_diag", "cdist", "einsum", "lu",
              "norm", "meshgrid", "split", "tensordot", "unique", "unique_consecutive"]


def test_torch_functional_holds_torchs_own_functions():
    import torch.functional as F

    assert F is torch.functional and set(FUNCTIONAL) <= set(F.__all__)
    for name in FUNCTIONAL:
        assert getattr(F, name) is getattr(torch, name), name
    grid = F.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")
    assert [g.shape for g in grid] == [(2, 3), (2, 3)]
    assert F.block_diag(torch.ones(1, 1), torch.ones(1, 1) * 2).tolist() == [[1.0, 0.0],
                                                                                [0.0, 2.0]]
