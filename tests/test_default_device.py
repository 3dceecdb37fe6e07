"""set_default_device and torch.accelerator on the simulated device (and real CuPy)."""

import numpy as np
import pytest

import refgrad
from refgrad import _backend
from tests.devices import AVAILABLE, use


@pytest.fixture(params=AVAILABLE)
def device(request, monkeypatch):
    counts = use(request.param, monkeypatch)
    yield counts
    refgrad.set_default_device(None)


def test_factories_follow_the_default_device(device):
    refgrad.set_default_device("cuda")
    cuda = refgrad.device("cuda", 0)
    made = [refgrad.ones(2), refgrad.tensor([1.0, 2.0]), refgrad.arange(3), refgrad.rand(2),
            refgrad.zeros(1, 2), refgrad.full((2,), 3.0), refgrad.eye(2),
            refgrad.as_tensor(np.ones(2)), refgrad.asarray([1.0]), refgrad.asarray(np.ones(2)),
            refgrad.nn.Linear(2, 2).weight]
    assert [t.device for t in made] == [cuda] * len(made)
    assert refgrad.get_default_device() == cuda
    host = refgrad.from_numpy(np.ones(3))
    assert host.device == refgrad.device("cpu") and host.new_ones(2).device.type == "cpu"
    assert refgrad.ones(2, device="cpu").device.type == "cpu"
    # numbers and index lists made into tensors inside refgrad stay on the host
    assert host[[0, 2]].tolist() == [1.0, 1.0]
    host[1] = 5.0
    assert host.tolist() == [1.0, 5.0, 1.0]
    refgrad.set_default_device(None)
    assert refgrad.ones(2).device.type == "cpu"


def test_accelerator_with_cupy(device, monkeypatch):
    assert refgrad.accelerator.is_available() and refgrad.accelerator.device_count() >= 1
    assert refgrad.accelerator.current_accelerator() == refgrad.device("cuda")
    assert refgrad.accelerator.current_accelerator(check_available=True) == refgrad.device("cuda")
    runtime = _backend._cupy().cuda.runtime
    calls = []
    if not hasattr(runtime, "getDevice"):  # the simulated device's runtime counts devices only
        monkeypatch.setattr(runtime, "getDevice", lambda: 0, raising=False)
        monkeypatch.setattr(runtime, "setDevice", lambda i: calls.append(("set", i)),
                            raising=False)
        monkeypatch.setattr(runtime, "deviceSynchronize", lambda: calls.append(("sync",)),
                            raising=False)
    assert refgrad.accelerator.current_device_index() == 0
    refgrad.accelerator.set_device_index("cuda:0")
    refgrad.accelerator.synchronize()
    refgrad.accelerator.synchronize(refgrad.device("cuda", 0))
    assert calls in ([], [("set", 0), ("sync",), ("sync",)])
    with pytest.raises(RuntimeError, match="^Accelerator expected$"):
        refgrad.accelerator.synchronize("cpu")


def test_cupy_without_a_gpu_is_still_the_accelerator(monkeypatch):
    use("simulated", monkeypatch)
    monkeypatch.setattr(_backend._cupy().cuda, "is_available", lambda: False)
    assert refgrad.accelerator.current_accelerator() == refgrad.device("cuda")
    assert refgrad.accelerator.current_accelerator(check_available=True) is None
    assert not refgrad.accelerator.is_available() and refgrad.accelerator.device_count() == 0
    with pytest.raises(RuntimeError, match="^Cannot access accelerator device when none is "
                                           r"available\.$"):
        refgrad.accelerator.synchronize("cuda")


def test_factories_in_a_device_block_follow_it(device):
    cuda = refgrad.device("cuda", 0)
    with refgrad.device("cuda") as block:
        layer = refgrad.nn.Linear(3, 2)
        made = [refgrad.ones(2), refgrad.tensor([1.0]), refgrad.randn(2), layer.weight,
                refgrad.as_tensor(np.ones(2)), layer(refgrad.ones(1, 3))]
        assert refgrad.get_default_device() == cuda
        with refgrad.device("cpu"):
            assert refgrad.ones(1).device.type == "cpu"
        assert refgrad.zeros(1).device == cuda
        assert refgrad.from_numpy(np.ones(1)).device.type == "cpu"
    assert block == refgrad.device("cuda") and [t.device for t in made] == [cuda] * 6
    assert refgrad.ones(1).device.type == "cpu" and refgrad.get_default_device().type == "cpu"


def test_set_default_device_inside_a_block_takes_effect_after_it(device):
    # torch's mode stack gets out of step here (the book names the difference)
    with refgrad.device("cuda"):
        refgrad.set_default_device("cpu:0")
        assert refgrad.ones(1).device.type == "cuda"
        assert refgrad.get_default_device() == refgrad.device("cuda", 0)
        with refgrad.device("cpu"):
            refgrad.set_default_device(None)
        assert refgrad.ones(1).device.type == "cuda"
    assert refgrad.get_default_device() == refgrad.device("cpu")
    with refgrad.device("cpu"):
        refgrad.set_default_device("cuda")
    assert refgrad.ones(1).device.type == "cuda"


class _TwoOutputs(refgrad.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, a, b):
        return a * 2 + b * 3


def test_what_refgrad_makes_for_a_host_tensor_stays_on_the_host(device):
    refgrad.set_default_device("cuda")
    x = refgrad.ones(3, 4, device="cpu", requires_grad=True)
    F = refgrad.nn.functional
    made = [F.dropout(x, 0.5), F.dropout1d(x, 0.5), F.alpha_dropout(x, 0.5, True),
            F.feature_alpha_dropout(x.reshape(1, 3, 4), 0.5, True),
            refgrad.trapezoid(refgrad.ones(3, 0, device="cpu"), dim=1), refgrad.block_diag(),
            refgrad.normal(0.0, 1.0, (2,))]
    assert [t.device.type for t in made] == ["cpu"] * len(made)
    first, _ = _TwoOutputs.apply(x)
    first.sum().backward()  # the unused output's zeros are made on x's device
    assert x.grad.device.type == "cpu" and x.grad.tolist() == [[2.0] * 4] * 3
