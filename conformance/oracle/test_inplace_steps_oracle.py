"""Oracle test: the in-place ops an optimizer's update is made of, and whole updates over
several steps, give torch's bits, versions and nodes, with grad off and on, on whole
tensors, on views and on tensors whose inputs share their memory.
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise, data, torch_roots

WRITES = {
    "mul_": lambda x, y, z: x.mul_(y),
    "mul_ number": lambda x, y, z: x.mul_(0.75),
    "add_ alpha": lambda x, y, z: x.add_(y, alpha=-0.125),
    "sub_": lambda x, y, z: x.sub_(y),
    "div_": lambda x, y, z: x.div_(z.abs() + 1),
    "addcmul_": lambda x, y, z: x.addcmul_(y, z, value=0.1),
    "addcdiv_": lambda x, y, z: x.addcdiv_(y, z.abs() + 1, value=-0.01),
    "lerp_": lambda x, y, z: x.lerp_(y, 0.1),
    "lerp_ tensor": lambda x, y, z: x.lerp_(y, (z.abs() + 1).reciprocal()),
    "lerp_ from the end": lambda x, y, z: x.lerp_(y, 0.75),
    "lerp_ 0-d": lambda x, y, z: x.lerp_(y, z[0].abs()),
    "lerp_ nan": lambda x, y, z: x.lerp_(y, float("nan")),
    "abs_": lambda x, y, z: x.abs_(),
    "neg_": lambda x, y, z: x.neg_(),
    "zero_": lambda x, y, z: x.zero_(),
    "fill_": lambda x, y, z: x.fill_(2.5),
    "copy_": lambda x, y, z: x.copy_(y),
    "copy_ double": lambda x, y, z: x.copy_(y.double() / 3),
    "clamp_": lambda x, y, z: x.clamp_(-0.5, 0.5),
    "maximum into": lambda x, y, z: x.copy_(y.maximum(z)),
}
SIZES = [16, 40000]


def _inputs(lib, n, dtype, grad):
    x, y, z = (lib.tensor(data((n,), dtype, seed=n + k)) for k in range(3))
    if grad:
        leaf = x.requires_grad_()
        return leaf, leaf * 1, y, z
    return x, x, y, z


def _write(lib, name, n, dtype, grad, view):
    leaf, x, y, z = _inputs(lib, n, dtype, grad)
    target = x[1::2] if view else x
    before = target._version
    with lib.enable_grad() if grad else lib.no_grad():
        out = WRITES[name](target, y[: target.shape[0]], z[: target.shape[0]])
    seen = [out is target, target._version - before, x._version]
    if grad:
        seen += [type(out.grad_fn).__name__, type(x.grad_fn).__name__]
        (x * x).sum().backward()
        return seen, [x.detach().numpy(), leaf.grad.numpy()]
    return seen, [x.numpy()]


@pytest.mark.parametrize("name", sorted(WRITES))
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("grad", [False, True])
@pytest.mark.parametrize("view", [False, True])
def test_in_place_op_is_torchs(name, n, dtype, grad, view):
    ours = _write(refgrad, name, n, dtype, grad, view)
    theirs = _write(torch, name, n, dtype, grad, view)
    assert ours[0] == theirs[0]
    assert_bitwise(ours[1], theirs[1])


def _refusal(lib, case):
    x = lib.tensor(data((8,), np.float32, seed=3))
    try:
        with lib.no_grad():
            if case == "overlap":
                x.expand(4, 8).mul_(2)
            elif case == "partial":
                x[1:].mul_(x[:-1])
            elif case == "leaf":
                x.requires_grad_()
                with lib.enable_grad():
                    x.mul_(2)
            elif case == "cast":
                lib.zeros(8, dtype=lib.int64).mul_(x)
            elif case == "shape":
                x.add_(lib.ones(2, 8))
    except RuntimeError as error:
        return str(error)
    return None


@pytest.mark.parametrize("case", ["overlap", "partial", "leaf", "cast", "shape"])
def test_in_place_refusals_are_torchs(case):
    assert _refusal(refgrad, case) == _refusal(torch, case)
    assert _refusal(torch, case) is not None


def _steps(lib, name, options, dtype, steps=6):
    rng = np.random.default_rng(5)
    shapes = [(16, 16), (16,), (3, 40000)]
    params = [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(dtype))) for s in shapes]
    opt = getattr(lib.optim, name)(params, **options)
    seen = []
    for _ in range(steps):
        for p in params:
            p.grad = lib.tensor(rng.standard_normal(s).astype(dtype)) if (
                s := tuple(p.shape)) else None
        opt.step()
        seen += [p.detach().numpy().copy() for p in params]
        seen += [p._version for p in params]
    for p in params:
        state = opt.state[p]
        seen += [np.asarray(state[k].numpy()) for k in sorted(state) if k != "step"]
    return seen


OPTIMIZERS = [
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD", dict(lr=0.1, momentum=0.5, dampening=0.25, maximize=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, amsgrad=True, maximize=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True, weight_decay=0.01)),
]


@pytest.mark.parametrize("name, options", OPTIMIZERS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_optimizer_steps_are_torchs_bit_for_bit(name, options, dtype):
    options = dict(options, foreach=False)  # torch's single-tensor path, as on the CPU
    with torch_roots():  # torch's float32 roots are not always correctly rounded
        ours = _steps(refgrad, name, options, dtype)
    theirs = _steps(torch, name, options, dtype)
    assert [type(s) for s in ours] == [type(s) for s in theirs]
    assert [s for s in ours if isinstance(s, int)] == [s for s in theirs if isinstance(s, int)]
    assert_bitwise([s for s in ours if not isinstance(s, int)],
                   [s for s in theirs if not isinstance(s, int)])
