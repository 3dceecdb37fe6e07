"""saved_tensors_hooks, disable_saved_tensors_hooks, save_on_cpu (F73-F95)."""

import pytest
import torch
from torch.autograd.graph import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks


def test_mul_packs_other_then_self_and_unpacks_per_use():
    log = []
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True) * 2
    with saved_tensors_hooks(lambda x: log.append(("p", x is b)) or x.detach(),
                             lambda x: log.append("u") or x):
        y = a * b
        a * 2
    y.sum().backward(retain_graph=True)
    y.grad_fn._saved_self
    assert log == [("p", True), ("p", False), "u", "u", "u"]


def test_messages():
    with pytest.raises(TypeError, match="^_push_saved_tensors_default_hooks"):
        with saved_tensors_hooks(1, 2):
            pass
    with pytest.raises(TypeError, match="^_saved_tensors_hooks_disable"):
        with disable_saved_tensors_hooks(123):
            pass
    with disable_saved_tensors_hooks("no hooks"):
        with pytest.raises(RuntimeError, match="^no hooks$"):
            with save_on_cpu():
                pass
    a = torch.ones(2, requires_grad=True)
    y = a * a
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(lambda x: x.detach(), lambda x: x)
    with pytest.raises(RuntimeError, match="^Calling register_hooks on a saved tensor whose"):
        raw.register_hooks(lambda x: x, lambda x: x)


def test_save_on_cpu_names_and_gradients():
    hooks = save_on_cpu(device_type="nonsense")
    assert (hooks.pack_hook.__name__, hooks.unpack_hook.__name__) == (
        "pack_to_cpu", "unpack_from_cpu")
    a = torch.tensor([0.5, 1.5], requires_grad=True)
    with save_on_cpu(pin_memory=True):
        (a.exp() * a).sum().backward()
    assert (a.grad - a.exp() * (a + 1)).abs().max().item() < 1e-6


def test_an_unsaved_value_shows_an_empty_saved_tensor():
    a = torch.ones(2, requires_grad=True)
    node = (a * 2).grad_fn
    assert node._saved_self is None
    with pytest.raises(RuntimeError, match="^Calling register_hooks on a saved tensor with value "
                       "None is forbidden$"):
        node._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def _packed_order(fn, *tensors):
    names = {id(t): name for name, t in zip("ab", tensors)}
    packed = []

    def pack(t):
        packed.append(names.get(id(t), "result"))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn(*tensors)
    return packed


@pytest.mark.parametrize("fn, order", [
    (torch.fmax, ["b", "a"]), (torch.fmin, ["b", "a"]),
    (torch.dist, ["b", "a", "result"]), (lambda x, y: torch.dist(x, y, 1), ["b", "a", "result"]),
])
def test_two_operand_nodes_that_pack_the_second_first(fn, order):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([2.0, 0.5], requires_grad=True)
    assert _packed_order(fn, a, b) == order
    assert _packed_order(fn, a, b.detach()) == order


def test_grid_sample_packs_the_grid_first():
    x = torch.ones(1, 1, 2, 2, requires_grad=True)
    grid = torch.zeros(1, 1, 1, 2, requires_grad=True)
    sample = lambda p, q: torch.nn.functional.grid_sample(p, q, align_corners=False)  # noqa: E731
    assert _packed_order(sample, x, grid) == ["b", "a"]
