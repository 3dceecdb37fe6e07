"""Black-box tests: clamp_ with tensor bounds under a dispatch mode and saved-tensor hooks.
The bounds the node keeps are packed first (max before min), then the clone of what the
write overwrites is made and packed, then the mode sees clamp_.Tensor; backward unpacks
in the order they were packed. The same assertions run on torch."""

import pytest
import torch

LOG = []


def _shown(value):
    if isinstance(value, torch.Tensor):
        return f"T{list(value.shape)}"
    return value


def _noting():
    from torch.utils._python_dispatch import TorchDispatchMode

    class Noting(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            LOG.append((str(func), [_shown(a) for a in args]))
            return func(*args, **(kwargs or {}))

    return Noting()


def _hooks():
    return torch.autograd.graph.saved_tensors_hooks(
        lambda t: LOG.append(("pack", _shown(t))) or t,
        lambda t: LOG.append(("unpack", _shown(t))) or t)


CLONE, PACKED = ("aten.clone.default", ["T[3]"]), ("pack", "T[3]")
CASES = {  # the write on h, y (shape [1]) and z (shape []): what comes before the write
    "min": (lambda h, y, z: h.clamp_(min=y), [("pack", "T[1]"), CLONE, PACKED],
            ["T[3]", "T[1]"]),
    "max": (lambda h, y, z: h.clamp_(max=z), [("pack", "T[]"), CLONE, PACKED],
            ["T[3]", None, "T[]"]),
    "both": (lambda h, y, z: h.clamp_(min=y, max=z),
             [("pack", "T[]"), ("pack", "T[1]"), CLONE, PACKED], ["T[3]", "T[1]", "T[]"]),
    "positional": (lambda h, y, z: h.clamp_(y, z),
                   [("pack", "T[]"), ("pack", "T[1]"), CLONE, PACKED], ["T[3]", "T[1]", "T[]"]),
}


@pytest.mark.parametrize(("write", "before", "shown"), CASES.values(), ids=CASES.keys())
def test_bounds_are_packed_before_the_clone_and_the_write(write, before, shown):
    x = torch.tensor([1.0, 5.0, 3.0], requires_grad=True)
    y = torch.tensor([2.0], requires_grad=True)
    z = torch.tensor(4.0, requires_grad=True)
    h = x * 1
    LOG.clear()
    with _hooks(), _noting():
        h = write(h, y, z)
    assert LOG == [*before, ("aten.clamp_.Tensor", shown)]
    assert h.grad_fn.name() == "ClampBackward0"
    LOG.clear()
    with _hooks():
        h.sum().backward()
    packed = [shape for kind, shape in before if kind == "pack"]
    assert LOG[:len(packed)] == [("unpack", shape) for shape in packed]  # in the same order
