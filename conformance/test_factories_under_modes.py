"""Black-box tests: factories (ones, zeros, empty, full, arange, rand, randn, eye, linspace,
logspace, the _like and new_ factories, torch.tensor) reach a dispatch mode as one aten op
each, with the arguments torch binds them to, and what the mode gives back is the factory's
result, requires_grad set on it. The same assertions run on torch.
"""

import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import calling_mode, recording_mode

Names = recording_mode()
CPU = {"device": "cpu", "pin_memory": False}


def _shown(value):
    """A value as the tests compare it: tensors and generators by kind, devices by name."""
    if isinstance(value, torch.Tensor):
        return "T"
    if isinstance(value, torch.Generator):
        return "G"
    if isinstance(value, torch.device):
        return str(value)
    if isinstance(value, list | tuple):
        return type(value)(_shown(v) for v in value)
    return value


Calls = calling_mode(_shown)


X, G = (lambda: torch.ones(2, 3)), (lambda: torch.Generator())
CASES = [
    (lambda x, g: torch.ones(3), "aten.ones.default", ([3],), CPU),
    (lambda x, g: torch.ones(2, 3, dtype=torch.float64), "aten.ones.default", ([2, 3],),
     {"dtype": torch.float64, **CPU}),
    (lambda x, g: torch.ones((2, 3)), "aten.ones.default", ([2, 3],), CPU),
    (lambda x, g: torch.ones(size=(2,)), "aten.ones.default", ([2],), CPU),
    (lambda x, g: torch.ones(()), "aten.ones.default", ([],), CPU),
    (lambda x, g: torch.zeros(3, layout=torch.strided), "aten.zeros.default", ([3],),
     {"layout": torch.strided, **CPU}),
    (lambda x, g: torch.zeros(3, device="cpu"), "aten.zeros.default", ([3],), CPU),
    (lambda x, g: torch.empty(3), "aten.empty.memory_format", ([3],), CPU),
    (lambda x, g: torch.empty(3, memory_format=torch.contiguous_format),
     "aten.empty.memory_format", ([3],), {**CPU, "memory_format": torch.contiguous_format}),
    (lambda x, g: torch.full((2,), 3.0), "aten.full.default", ([2], 3.0), CPU),
    (lambda x, g: torch.full((2,), True), "aten.full.default", ([2], True), CPU),
    (lambda x, g: torch.full([2, 2], 3, dtype=torch.float64), "aten.full.default",
     ([2, 2], 3), {"dtype": torch.float64, **CPU}),
    (lambda x, g: torch.arange(5), "aten.arange.default", (5,), CPU),
    (lambda x, g: torch.arange(end=5), "aten.arange.default", (5,), CPU),
    (lambda x, g: torch.arange(5.0), "aten.arange.default", (5.0,), CPU),
    (lambda x, g: torch.arange(1, 5), "aten.arange.start", (1, 5), CPU),
    (lambda x, g: torch.arange(1, 5, 2), "aten.arange.start_step", (1, 5, 2), CPU),
    (lambda x, g: torch.arange(0, 1, 0.25), "aten.arange.start_step", (0, 1, 0.25), CPU),
    (lambda x, g: torch.rand(3), "aten.rand.default", ([3],), CPU),
    (lambda x, g: torch.randn(2, 3), "aten.randn.default", ([2, 3],), CPU),
    (lambda x, g: torch.rand(3, generator=g), "aten.rand.generator", ([3],),
     {"generator": "G", **CPU}),
    (lambda x, g: torch.randn(3, generator=g, dtype=torch.float64), "aten.randn.generator",
     ([3],), {"generator": "G", "dtype": torch.float64, **CPU}),
    (lambda x, g: torch.eye(3), "aten.eye.default", (3,), CPU),
    (lambda x, g: torch.eye(2, 3), "aten.eye.m", (2, 3), CPU),
    (lambda x, g: torch.linspace(0, 1, 5), "aten.linspace.default", (0, 1, 5), CPU),
    (lambda x, g: torch.linspace(0.0, 1.0, steps=5, dtype=torch.float64),
     "aten.linspace.default", (0.0, 1.0, 5), {"dtype": torch.float64, **CPU}),
    (lambda x, g: torch.logspace(0, 1, 5), "aten.logspace.default", (0, 1, 5), CPU),
    (lambda x, g: torch.logspace(0, 1, 5, 10.0), "aten.logspace.default", (0, 1, 5), CPU),
    (lambda x, g: torch.logspace(0, 1, 5, 2.0), "aten.logspace.default", (0, 1, 5, 2.0), CPU),
    (lambda x, g: torch.zeros_like(x), "aten.zeros_like.default", ("T",), {"pin_memory": False}),
    (lambda x, g: torch.ones_like(x, dtype=torch.float64), "aten.ones_like.default", ("T",),
     {"dtype": torch.float64, "pin_memory": False}),
    (lambda x, g: torch.empty_like(x, memory_format=torch.contiguous_format),
     "aten.empty_like.default", ("T",),
     {"pin_memory": False, "memory_format": torch.contiguous_format}),
    (lambda x, g: torch.full_like(x, 2.0), "aten.full_like.default", ("T", 2.0),
     {"pin_memory": False}),
    (lambda x, g: torch.zeros_like(x, device="cpu"), "aten.zeros_like.default", ("T",), CPU),
    (lambda x, g: torch.rand_like(x), "aten.rand_like.default", ("T",), {"pin_memory": False}),
    (lambda x, g: torch.randn_like(x, generator=g), "aten.randn_like.generator", ("T",),
     {"generator": "G", "pin_memory": False}),
    (lambda x, g: x.new_ones(2), "aten.new_ones.default", ("T", [2]), {"pin_memory": False}),
    (lambda x, g: x.new_zeros((2, 3)), "aten.new_zeros.default", ("T", [2, 3]),
     {"pin_memory": False}),
    (lambda x, g: x.new_empty(2, dtype=torch.int32), "aten.new_empty.default", ("T", [2]),
     {"dtype": torch.int32, "pin_memory": False}),
    (lambda x, g: x.new_full((2,), 1.0), "aten.new_full.default", ("T", [2], 1.0),
     {"pin_memory": False}),
    (lambda x, g: x.new_zeros(2, device="cpu"), "aten.new_zeros.default", ("T", [2]), CPU),
    (lambda x, g: torch.randint(0, 5, (3,)), "aten.randint.low", (0, 5, [3]), CPU),
    (lambda x, g: torch.randint(5, (3,)), "aten.randint.default", (5, [3]), CPU),
    (lambda x, g: torch.randint(5, size=(2,)), "aten.randint.default", (5, [2]), CPU),
    (lambda x, g: torch.randint(low=1, high=5, size=(2,)), "aten.randint.low", (1, 5, [2]),
     CPU),
    (lambda x, g: torch.randint(0, 5, (3,), generator=g), "aten.randint.low_generator",
     (0, 5, [3]), {"generator": "G", **CPU}),
    (lambda x, g: torch.randint(5, (3,), generator=g, dtype=torch.int32),
     "aten.randint.generator", (5, [3]), {"generator": "G", "dtype": torch.int32, **CPU}),
    (lambda x, g: torch.randint_like(x, 5), "aten.randint_like.default", ("T", 5),
     {"pin_memory": False}),
    (lambda x, g: torch.randint_like(x, 1, 5), "aten.randint_like.low_dtype", ("T", 1, 5),
     {"pin_memory": False}),
    (lambda x, g: torch.randint_like(x, 5, generator=g), "aten.randint_like.generator",
     ("T", 5), {"generator": "G", "pin_memory": False}),
    (lambda x, g: torch.randint_like(x, 1, 5, generator=g),
     "aten.randint_like.low_generator_dtype", ("T", 1, 5), {"generator": "G",
                                                            "pin_memory": False}),
    (lambda x, g: torch.randperm(4), "aten.randperm.default", (4,), CPU),
    (lambda x, g: torch.randperm(4, generator=g, dtype=torch.int32), "aten.randperm.generator",
     (4,), {"generator": "G", "dtype": torch.int32, **CPU}),
    (lambda x, g: torch.tril_indices(3, 3), "aten.tril_indices.default", (3, 3), CPU),
    (lambda x, g: torch.triu_indices(3, 4, 1), "aten.triu_indices.default", (3, 4, 1), CPU),
    (lambda x, g: torch.tril_indices(3, 3, dtype=torch.int32), "aten.tril_indices.default",
     (3, 3), {"dtype": torch.int32, **CPU}),
    (lambda x, g: torch.empty_strided((2, 3), (1, 2)), "aten.empty_strided.default",
     ([2, 3], [1, 2]), CPU),
    (lambda x, g: x.new_empty_strided((2, 3), (1, 2)), "aten.new_empty_strided.default",
     ("T", [2, 3], [1, 2]), {"pin_memory": False}),
    (lambda x, g: torch.hann_window(4), "aten.hann_window.default", (4,), CPU),
    (lambda x, g: torch.hann_window(4, True), "aten.hann_window.periodic", (4, True), CPU),
    (lambda x, g: torch.hann_window(4, periodic=False, dtype=torch.float64),
     "aten.hann_window.periodic", (4, False), {"dtype": torch.float64, **CPU}),
    (lambda x, g: torch.hamming_window(4), "aten.hamming_window.default", (4,), CPU),
    (lambda x, g: torch.hamming_window(4, False), "aten.hamming_window.periodic", (4, False),
     CPU),
    (lambda x, g: torch.hamming_window(4, True, 0.5), "aten.hamming_window.periodic_alpha",
     (4, True, 0.5), CPU),
    (lambda x, g: torch.hamming_window(4, True, 0.5, 0.4),
     "aten.hamming_window.periodic_alpha_beta", (4, True, 0.5, 0.4), CPU),
    (lambda x, g: torch.bartlett_window(4), "aten.bartlett_window.default", (4,), CPU),
    (lambda x, g: torch.blackman_window(3, False), "aten.blackman_window.periodic", (3, False),
     CPU),
    (lambda x, g: torch.kaiser_window(4), "aten.kaiser_window.default", (4,), CPU),
    (lambda x, g: torch.kaiser_window(4, False), "aten.kaiser_window.periodic", (4, False), CPU),
    (lambda x, g: torch.kaiser_window(4, True, 5.0), "aten.kaiser_window.beta", (4, True, 5.0),
     CPU),
    (lambda x, g: torch.scalar_tensor(2.0), "aten.scalar_tensor.default", (2.0,), CPU),
    (lambda x, g: torch.scalar_tensor(2, dtype=torch.int64), "aten.scalar_tensor.default", (2,),
     {"dtype": torch.int64, **CPU}),
    (lambda x, g: torch.tensor([1.0, 2.0]), "aten.lift_fresh.default", ("T",), {}),
    (lambda x, g: torch.tensor(3.0, requires_grad=True), "aten.lift_fresh.default", ("T",), {}),
    (lambda x, g: x.new_tensor([1.0, 2.0]), "aten.lift_fresh.default", ("T",), {}),
]


@pytest.mark.parametrize("inference", [False, True])
@pytest.mark.parametrize(("call", "name", "args", "kwargs"), CASES)
def test_a_factory_reaches_the_mode_as_one_op(call, name, args, kwargs, inference):
    x, g = X(), G()
    with torch.inference_mode(inference), Calls() as mode:
        made = call(x, g)
    seen = [(name, args, kwargs)]
    if inference and name == "aten.lift_fresh.default":  # torch.tensor detaches in place
        seen.append(("aten.detach_.default", ("T",), {}))
    assert mode.seen == seen
    with torch.inference_mode(inference):
        alone = call(x, torch.Generator())
    assert (made.shape, made.dtype, made.stride(), made.requires_grad) == (
        alone.shape, alone.dtype, alone.stride(), alone.requires_grad)


def test_a_tensor_of_tensors_shows_each_one_made():
    with Names() as mode:
        torch.tensor([torch.tensor(1.0), torch.tensor(2.0)])
    assert mode.seen == ["aten.lift_fresh.default"] * 3


class Answering(TorchDispatchMode):
    def __init__(self, answer):
        super().__init__()
        self.answer = answer

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return self.answer


@pytest.mark.parametrize("call", [
    lambda: torch.ones(3), lambda: torch.arange(3), lambda: torch.zeros_like(torch.empty(2)),
    lambda: torch.tensor([1.0, 2.0]), lambda: torch.rand(2), lambda: torch.eye(2),
])
def test_the_modes_answer_is_the_result(call):
    answer = torch.zeros(5)
    with Answering(answer):
        made = call()
    assert made is answer and not made.requires_grad


def test_requires_grad_is_set_on_the_answer():
    answer, leaf = torch.zeros(5), torch.zeros(5, requires_grad=True)
    with Answering(answer):
        made = torch.ones(3, requires_grad=True)
    assert made is answer and made.requires_grad and made.is_leaf
    with Answering(leaf):
        made = torch.ones(3)
    assert made is leaf and not made.requires_grad
    with Answering(torch.zeros(2)):
        made = torch.tensor([1.0, 2.0], requires_grad=True)
    assert made.requires_grad and made.is_leaf and made.shape == (2,)
    with Answering(None):
        assert torch.ones(3) is None


def test_two_modes_both_see_the_factory_and_the_outer_requires_grad():
    with Names() as outer, Names() as inner:
        made = torch.ones(2, requires_grad=True)
        drawn = torch.rand_like(made)
    assert outer.seen == inner.seen == ["aten.ones.default", "aten.rand_like.default"]
    assert made.requires_grad and made.is_leaf and not drawn.requires_grad


OUTS = [
    (lambda o, oi, g: torch.ones(3, out=o), "aten.ones.out", ([3],), {}),
    (lambda o, oi, g: torch.zeros(3, dtype=torch.float32, out=o), "aten.zeros.out", ([3],), {}),
    (lambda o, oi, g: torch.full((3,), 2, out=o), "aten.full.out", ([3], 2), {}),
    (lambda o, oi, g: torch.arange(1, 4, out=o), "aten.arange.start_out", (1, 4), {}),
    (lambda o, oi, g: torch.arange(3.0, out=o), "aten.arange.out", (3.0,), {}),
    (lambda o, oi, g: torch.linspace(0, 1, 3, out=o), "aten.linspace.out", (0, 1, 3), {}),
    (lambda o, oi, g: torch.logspace(0, 1, 3, 2.0, out=o), "aten.logspace.out", (0, 1, 3, 2.0),
     {}),
    (lambda o, oi, g: torch.rand(3, out=o), "aten.rand.out", ([3],), {}),
    (lambda o, oi, g: torch.randint(0, 5, (3,), out=oi), "aten.randint.low_out", (0, 5, [3]),
     {}),
    (lambda o, oi, g: torch.randint(5, (3,), generator=g, out=oi), "aten.randint.generator_out",
     (5, [3]), {"generator": "G"}),
    (lambda o, oi, g: torch.randperm(3, out=oi), "aten.randperm.out", (3,), {}),
]


@pytest.mark.parametrize(("call", "name", "args", "kwargs"), OUTS)
def test_a_factory_with_out_reaches_the_mode_as_its_out_overload(call, name, args, kwargs):
    o, oi, g = torch.zeros(3), torch.zeros(3, dtype=torch.int64), torch.Generator()
    with Calls() as mode:
        made = call(o, oi, g)
    assert mode.seen == [(name, args, {**kwargs, "out": "T"})]
    assert made is o or made is oi
    if name in ("aten.ones.out", "aten.full.out", "aten.arange.start_out"):
        assert torch.equal(made, call(torch.zeros(3), oi, g))
    with Answering(None):  # out comes back, whatever the mode answered
        again = call(o, oi, g)
    assert again is o or again is oi


LEGACY_AND_SHARED = [
    (lambda x: torch.from_numpy(np.ones(2)), "aten.lift_fresh.default", ("T",), {}),
    (lambda x: torch.as_tensor([1.0, 2.0]), "aten.lift_fresh.default", ("T",), {}),
    (lambda x: torch.as_tensor(np.ones(2)), "aten.lift_fresh.default", ("T",), {}),
    (lambda x: torch.asarray([1.0, 2.0]), "aten.lift_fresh.default", ("T",), {}),
    (lambda x: torch.Tensor([1.0, 2.0]), "aten.lift_fresh.default", ("T",), {}),
    (lambda x: torch.DoubleTensor([1.0]), "aten.lift_fresh.default", ("T",), {}),
    (lambda x: x.new([1.0, 2.0]), "aten.lift_fresh.default", ("T",), {}),
    (lambda x: torch.Tensor(2, 3), "aten.empty.memory_format", ([2, 3],),
     {"dtype": torch.float32, "layout": torch.strided, "device": "cpu"}),
    (lambda x: torch.Tensor(), "aten.empty.memory_format", ([0],),
     {"dtype": torch.float32, "layout": torch.strided, "device": "cpu"}),
    (lambda x: x.new(2), "aten.empty.memory_format", ([2],),
     {"dtype": torch.float32, "layout": torch.strided, "device": "cpu"}),
    (lambda x: torch.LongTensor(2), "aten.empty.memory_format", ([2],),
     {"dtype": torch.int64, "layout": torch.strided, "device": "cpu"}),
]


@pytest.mark.parametrize(("call", "name", "args", "kwargs"), LEGACY_AND_SHARED)
def test_shared_and_legacy_tensors_reach_the_mode(call, name, args, kwargs):
    x = X()
    with Calls() as mode:
        made = call(x)
    assert mode.seen == [(name, args, kwargs)]
    alone = call(x)
    assert (type(made), made.shape, made.dtype) == (type(alone), alone.shape, alone.dtype)


def test_backward_seeds_its_gradient_with_ones_like():
    x = torch.ones(2, 3, requires_grad=True)
    with Calls() as mode:
        x.sum().backward()
    assert mode.seen[:2] == [
        ("aten.sum.default", ("T",), {}),
        ("aten.ones_like.default", ("T",),
         {"pin_memory": False, "memory_format": torch.preserve_format})]
    with Calls() as mode:
        (g,) = torch.autograd.grad(x.sum(), x)
    assert mode.seen[1][0] == "aten.ones_like.default" and torch.equal(g, torch.ones(2, 3))


def test_a_formula_given_no_gradient_shows_a_mode_no_zeros():
    x = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
    s = torch.linalg.svdvals(x)  # its node's U and Vh have no gradient coming
    with Names() as mode:
        s.sum().backward()
    assert not [name for name in mode.seen if "zeros" in name]
    assert x.grad.shape == (3, 3)
