"""The devices the device tests run on: a simulated GPU always, and real CuPy with a GPU.

The simulated device holds a NumPy array behind an interface that is as strict as
CuPy's where refgrad could trip: it refuses to become a host array silently, refuses
host arrays as operands, has no ``ufunc.at``, and its ``flags`` know nothing of
``writeable``. It counts every copy between host and device.
"""

import contextlib
import types

import numpy as np

from refgrad import _backend


def _refuse_host_arrays(values):
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, np.ndarray):
            raise TypeError(f"Unsupported type {type(value)}")
        if isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())


def _unwrap(value):
    if isinstance(value, DeviceArray):
        return value._host
    if isinstance(value, list | tuple):
        return type(value)(_unwrap(v) for v in value)
    if isinstance(value, dict):
        return {k: _unwrap(v) for k, v in value.items()}
    return value


class DeviceArray(np.lib.mixins.NDArrayOperatorsMixin):
    """An array 'on the GPU': NumPy functions work on it, silent host copies do not."""

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
            value = np.asarray(value)
            base = value.base
            if not value.flags.writeable and isinstance(base, np.ndarray) and base.flags.writeable:
                value.flags.writeable = True  # CuPy's views are all writable, diagonals too
            return DeviceArray(value, self._counts)
        if isinstance(value, tuple | list):
            wrapped = [self._wrap(v) for v in value]
            # NumPy's linalg results are named tuples; CuPy's are plain ones.
            return wrapped if isinstance(value, list) else tuple(wrapped)
        return value

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method not in ("__call__", "reduce", "accumulate"):
            return NotImplemented  # CuPy has no ufunc.at
        _refuse_host_arrays((inputs, kwargs))
        return self._wrap(getattr(ufunc, method)(*_unwrap(inputs), **_unwrap(kwargs)))

    def __array_function__(self, func, types_, args, kwargs):
        _refuse_host_arrays((args, kwargs))
        return self._wrap(func(*_unwrap(args), **_unwrap(kwargs)))

    def __getitem__(self, key):
        _refuse_host_arrays((key,))
        return self._wrap(self._host[_unwrap(key)])

    def __setitem__(self, key, value):
        _refuse_host_arrays((key, value))
        self._host[_unwrap(key)] = _unwrap(value)

    def __len__(self):
        return len(self._host)

    def __float__(self):
        return float(self._host)

    def __int__(self):
        return int(self._host)

    def __bool__(self):
        return bool(self._host)

    @property
    def data(self):  # CuPy's memory pointer
        return types.SimpleNamespace(ptr=self._host.__array_interface__["data"][0])

    @property
    def flags(self):
        flags = self._host.flags
        return types.SimpleNamespace(
            c_contiguous=flags.c_contiguous, f_contiguous=flags.f_contiguous,
            owndata=flags.owndata)

    def __getattr__(self, name):  # shape, dtype, astype, reshape, T, ...
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self._host, name)
        if callable(value):
            return lambda *a, **k: self._wrap(value(*_unwrap(a), **_unwrap(k)))
        return self._wrap(value)


class Pinned(bytearray):
    pass


def _add_at(out, key, values):  # cupy.add.at
    _refuse_host_arrays((key, values))
    np.add.at(out._host, _unwrap(key), _unwrap(values))


def _as_strided(x, shape, strides):  # cupy.lib.stride_tricks.as_strided
    view = np.lib.stride_tricks.as_strided(x._host, shape, strides)
    return DeviceArray(view, x._counts)


def simulated(monkeypatch, counts):
    """Hand refgrad a stand-in for CuPy whose arrays are DeviceArrays."""

    def asarray(a):
        if isinstance(a, DeviceArray):
            return a
        assert isinstance(a, np.ndarray)
        counts["to_device"] += 1
        return DeviceArray(np.array(a), counts)

    fake = types.SimpleNamespace(
        asarray=asarray,
        add=types.SimpleNamespace(at=_add_at),
        lib=types.SimpleNamespace(stride_tricks=types.SimpleNamespace(as_strided=_as_strided)),
        cuda=types.SimpleNamespace(
            is_available=lambda: True, alloc_pinned_memory=Pinned, PinnedMemoryPointer=Pinned,
            runtime=types.SimpleNamespace(getDeviceCount=lambda: 1),
            Device=lambda index: contextlib.nullcontext(),
        ),
    )
    monkeypatch.setattr(_backend, "_cupy", lambda: fake)


def real_cupy(monkeypatch, counts):
    """Count CuPy's own copies between host and device."""
    import cupy

    to_device, to_host = cupy.asarray, cupy.ndarray.get

    def asarray(a, *args, **kwargs):
        counts["to_device"] += isinstance(a, np.ndarray)
        return to_device(a, *args, **kwargs)

    def get(self, *args, **kwargs):
        counts["to_host"] += 1
        return to_host(self, *args, **kwargs)

    monkeypatch.setattr(cupy, "asarray", asarray)
    monkeypatch.setattr(cupy.ndarray, "get", get)


# Tests that take a `device` fixture run on the simulated device, and on real CuPy
# too wherever CuPy sees a GPU.
DEVICES = {"simulated": simulated, "cupy": real_cupy}
AVAILABLE = ["simulated", "cupy"] if _backend.cuda_is_available() else ["simulated"]


def use(name, monkeypatch):
    """Make ``cuda`` mean the named device; return its copy counts."""
    counts = {"to_host": 0, "to_device": 0}
    DEVICES[name](monkeypatch, counts)
    return counts
