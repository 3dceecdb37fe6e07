"""refgrad._ops.devices and the _backend seam, on a simulated device."""

import contextlib
import types

import numpy as np
import pytest

import refgrad
from refgrad import _backend
from refgrad.autograd.graph import save_on_cpu


class DeviceArray(np.lib.mixins.NDArrayOperatorsMixin):
    """An array 'on the GPU': NumPy functions work, silent host copies do not."""

    def __init__(self, host, counts):
        self._host, self._counts = host, counts
        self.device = types.SimpleNamespace(id=0)

    def __array__(self, *args, **kwargs):
        raise TypeError("implicit conversion of a device array to the host")

    def get(self):
        self._counts["to_host"] += 1
        return self._host.copy()

    def _wrap(self, value):
        # Like CuPy, reductions give 0-d device arrays, never host scalars.
        if isinstance(value, np.ndarray | np.generic):
            return DeviceArray(np.asarray(value), self._counts)
        return value

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = [i._host if isinstance(i, DeviceArray) else i for i in inputs]
        return self._wrap(getattr(ufunc, method)(*inputs, **kwargs))

    def __array_function__(self, func, types_, args, kwargs):
        args = [a._host if isinstance(a, DeviceArray) else a for a in args]
        return self._wrap(func(*args, **kwargs))

    def __getattr__(self, name):  # shape, dtype, astype, reshape, ...
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self._host, name)
        if callable(value):
            return lambda *a, **k: self._wrap(value(*a, **k))
        return value


class Pinned(bytearray):
    pass


@pytest.fixture
def device(monkeypatch):
    counts = {"to_host": 0, "to_device": 0}

    def asarray(a):
        assert isinstance(a, np.ndarray)
        counts["to_device"] += 1
        return DeviceArray(np.array(a), counts)

    fake = types.SimpleNamespace(
        asarray=asarray,
        cuda=types.SimpleNamespace(
            is_available=lambda: True, alloc_pinned_memory=Pinned, PinnedMemoryPointer=Pinned
        ),
    )
    monkeypatch.setattr(_backend, "_cupy", lambda: fake)
    return counts


def _gradients(a, b, hooks):
    a.grad = b.grad = None
    with hooks:
        y = ((a * b).sin() * a).sum()
    y.backward()
    return a.grad.cpu().numpy(), b.grad.cpu().numpy()


def test_cuda_moves_to_the_device_and_back(device):
    x = refgrad.tensor([1.0, 2.0], requires_grad=True)
    d = x.cuda()
    assert d.device == refgrad.device("cuda", 0) and d.is_cuda
    assert device == {"to_host": 0, "to_device": 1}
    assert d.cuda() is d and x.cpu() is x
    assert d.cpu().tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match="implicit conversion"):
        np.asarray(d._data)


def _counted(hooks, counts, log):
    """Wrap the context's hooks to record the transfers each call makes."""
    pack, unpack = hooks.pack_hook, hooks.unpack_hook

    def measured(kind, fn, arg):
        before = dict(counts)
        result = fn(arg)
        log.append((kind, {k: counts[k] - before[k] for k in counts}, result))
        return result

    hooks.pack_hook = lambda t: measured("pack", pack, t)
    hooks.unpack_hook = lambda p: measured("unpack", unpack, p)
    return hooks


def test_save_on_cpu_moves_each_saved_tensor_off_and_back_once(device):
    a = refgrad.tensor([0.5, 1.0, 2.0], requires_grad=True).cuda()
    b = refgrad.tensor([1.5, -1.0, 0.25], requires_grad=True).cuda()
    a.retain_grad()
    b.retain_grad()
    plain = _gradients(a, b, contextlib.nullcontext())
    log = []
    got = _gradients(a, b, _counted(save_on_cpu(), device, log))
    # mul saves b and a, sin saves a*b, the second mul saves a and sin: 5 tensors.
    packs = [entry for entry in log if entry[0] == "pack"]
    unpacks = [entry for entry in log if entry[0] == "unpack"]
    assert len(packs) == len(unpacks) == 5
    for _, moved, (where, host) in packs:
        assert moved == {"to_host": 1, "to_device": 0}
        assert where == refgrad.device("cuda", 0) and host.device.type == "cpu"
    for _, moved, back in unpacks:
        assert moved == {"to_host": 0, "to_device": 1}
        assert back.device == refgrad.device("cuda", 0)
    np.testing.assert_allclose(got[0], plain[0])
    np.testing.assert_allclose(got[1], plain[1])


def test_pin_memory_true_pins_the_host_copies(device):
    a = refgrad.tensor([0.5, 1.0], requires_grad=True).cuda()
    seen = []
    hooks = save_on_cpu(pin_memory=True)
    pack = hooks.pack_hook
    hooks.pack_hook = lambda t: seen.append(pack(t)) or seen[-1]
    with hooks:
        y = (a * a).sum()
    y.backward()
    assert len(seen) == 2
    for where, host in seen:
        assert where == refgrad.device("cuda", 0)
        assert host.device.type == "cpu" and host.is_pinned()


def test_pinning_needs_a_device():
    x = refgrad.ones(2)
    assert not x.is_pinned()
    with pytest.raises(RuntimeError, match="^Cannot access accelerator device when none"):
        x.pin_memory()


def test_the_package_imports_without_cupy():
    assert _backend._cupy() is None or _backend.cuda_is_available() in (True, False)


def test_operands_on_two_devices_are_refused_with_torchs_message(device):
    on_device = refgrad.tensor([1.0, 2.0]).cuda()
    on_host = refgrad.tensor([3.0, 4.0])
    message = ("^Expected all tensors to be on the same device, but found at least two "
               "devices, cuda:0 and cpu!$")
    with pytest.raises(RuntimeError, match=message):
        on_device + on_host
    message = message.replace("cuda:0 and cpu", "cpu and cuda:0")
    with pytest.raises(RuntimeError, match=message):
        on_host * on_device


def test_a_0d_host_tensor_joins_a_device_operation(device):
    on_device = refgrad.tensor([1.0, 2.0]).cuda()
    result = on_device * refgrad.tensor(3.0)
    assert result.device == refgrad.device("cuda", 0)
    assert result.cpu().tolist() == [3.0, 6.0]


def test_to_cuda_without_an_index_means_gpu_0(device):
    d = refgrad.tensor([1.0]).cuda()
    assert d.to("cuda") is d and d.to(refgrad.device("cuda")) is d
