"""Oracle test: a TorchFunctionMode and a logging subclass see the same calls in refgrad
and torch, under the same names and types, and get the same results back."""

import numpy as np
import torch

import refgrad

VALUES = np.array([[1.0, -2.0], [3.0, 0.5]], dtype=np.float32)


def _program(lib, x):
    F = lib.nn.functional
    y = F.relu(x @ x.T + 1, inplace=False) * 2
    z = lib.cat([y, -x]).sum(0)
    _ = x.shape, x[0], abs(x), x < 1, lib.special.expit(x), lib.linalg.norm(x), x.T
    return lib.add(z, 1, alpha=2).exp()


def _mode_trace(lib):
    seen = []

    class Names(lib.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append((lib.overrides.resolve_name(func), [t.__name__ for t in types], kwargs))
            return func(*args, **(kwargs or {}))

    x = lib.tensor(VALUES, requires_grad=True)
    with Names():
        out = _program(lib, x)
    return seen, out.detach().numpy().tobytes(), out.grad_fn.name()


def _subclass_trace(lib):
    seen = []

    class Logged(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(lib.overrides.resolve_name(func))
            return super().__torch_function__(func, types, args, kwargs)

    leaf = lib.tensor(VALUES, requires_grad=True)
    out = _program(lib, leaf.as_subclass(Logged))
    out.sum().backward()
    node = out.grad_fn
    return (seen, type(out).__name__, node.name(), node.next_functions[0][0].name(),
            leaf.grad.numpy().tobytes())


def test_a_mode_sees_the_same_calls():
    assert _mode_trace(refgrad) == _mode_trace(torch)


def test_a_subclass_sees_the_same_calls_and_converts_the_same():
    assert _subclass_trace(refgrad) == _subclass_trace(torch)
