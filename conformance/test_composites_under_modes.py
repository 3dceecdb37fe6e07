"""Black-box tests: where autograd is out of the way (inference mode, or inference tensors
only), a dispatch mode receives reshape, flatten and reshape_as whole, and what comes back
shares memory without being a view. The same assertions run on torch.
"""

import torch
from torch.utils._python_dispatch import TorchDispatchMode


def _name(func) -> str:
    """The op's own name: torch's overload packet (aten.reshape), refgrad's ``name``."""
    packet = getattr(func, "overloadpacket", None)
    return func.name if packet is None else packet.__name__


class Names(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(_name(func))
        return func(*args, **(kwargs or {}))


def _normal():
    return torch.arange(6.0).reshape(2, 3).clone()


def test_outside_inference_mode_the_mode_sees_the_view_and_gets_a_view():
    x = _normal()
    with Names() as mode:
        r = x.reshape(3, 2)
        f = x.flatten()
    assert mode.seen == ["view", "view"]
    assert r._is_view() and r._base is x and f._is_view() and f._base is x


def test_in_inference_mode_the_mode_sees_the_composite_and_gets_no_view():
    x, shape = _normal(), torch.empty(3, 2)
    with torch.inference_mode(), Names() as mode:
        r = x.reshape(3, 2)
        f = x.flatten()
        a = x.reshape_as(shape)
        v = x.view(3, 2)
    assert mode.seen == ["reshape", "flatten", "reshape_as", "view"]
    for out in (r, f, a):
        assert not out._is_view() and out._base is None and out.data_ptr() == x.data_ptr()
        assert not out.is_inference() and not out.requires_grad
    assert v._is_view() and v._base is x  # view is no composite: still a view


def test_what_comes_back_counts_its_own_writes():
    x = _normal().requires_grad_()
    with torch.inference_mode(), Names():
        r = x.reshape(3, 2)
    assert r.grad_fn is None and r.is_leaf and not r.requires_grad
    with torch.no_grad():
        x.add_(1)
    assert x._version == 1 and r._version == 0 and r[0, 0].item() == 1.0
    y = _normal()
    with torch.inference_mode(), Names():
        s = y.reshape(6)
        s.add_(1)
    assert s._version == 1 and y._version == 0 and y[0, 0].item() == 1.0


def test_a_copy_and_an_unchanged_input_come_back_as_they_are():
    x = _normal()
    with torch.inference_mode(), Names() as mode:
        copied = x.t().reshape(6)
        row = x[0].detach()
        flat = row.flatten()
    assert mode.seen[:2] == ["t", "reshape"] and mode.seen[-1] == "flatten"
    assert copied.is_inference() and copied.data_ptr() != x.data_ptr()
    assert flat is row


def test_inference_tensors_alone_hand_the_composite_over_outside_inference_mode():
    with torch.inference_mode():
        z = torch.ones(2, 3)
    normal = torch.empty(6)
    with Names() as mode:
        r = z.reshape(3, 2)
        f = z.flatten()
        a = z.reshape_as(normal)  # a normal tensor brings autograd: taken apart
    assert mode.seen == ["reshape", "flatten", "reshape"]
    assert r.is_inference() and not r._is_view() and f.shape == a.shape == (6,)


def test_each_mode_of_a_stack_sees_the_composite():
    seen = []

    class Tagged(TorchDispatchMode):
        def __init__(self, tag):
            super().__init__()
            self.tag = tag

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((self.tag, _name(func)))
            return func(*args, **(kwargs or {}))

    x = _normal()
    with torch.inference_mode(), Tagged("outer"), Tagged("inner"):
        r = x.reshape(3, 2)
    assert seen == [("inner", "reshape"), ("outer", "reshape")] and not r._is_view()
