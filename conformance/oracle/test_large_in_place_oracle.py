"""Oracle test: in-place ops on tensors large enough to be written where they lie give
torch's bits, versions, nodes and gradients, on both sides of that size, whole and as
views, with inputs apart from, equal to, or interleaved with the written tensor; and their
refusals leave the tensor as torch leaves it.
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_bitwise, data

# Elements of float32 and float64 on either side of 256 KiB, and a large tensor.
SIZES = {np.float32: [65534, 65536, 1 << 20], np.float64: [32766, 32768]}
CASES = [(dtype, n) for dtype, sizes in SIZES.items() for n in sizes]

WRITES = {
    "mul_": lambda x, y: x.mul_(y),
    "mul_ number": lambda x, y: x.mul_(0.75),
    "mul_ itself": lambda x, y: x.mul_(x),
    "add_": lambda x, y: x.add_(y),
    "add_ itself": lambda x, y: x.add_(x),
    "add_ alpha": lambda x, y: x.add_(y, alpha=-0.125),
    "sub_": lambda x, y: x.sub_(y),
    "div_": lambda x, y: x.div_(y.abs() + 1),
    "neg_": lambda x, y: x.neg_(),
    "relu_": lambda x, y: x.relu_(),
    "clamp_": lambda x, y: x.clamp_(-0.5, 0.5),
    "addcmul_": lambda x, y: x.addcmul_(y, y, value=0.1),
    "lerp_": lambda x, y: x.lerp_(y, 0.1),
    "copy_": lambda x, y: x.copy_(y),
    "copy_ double": lambda x, y: x.copy_(y.double() / 3),
    "copy_ float": lambda x, y: x.copy_(y.float()),
    "copy_ half": lambda x, y: x.copy_(y.half()),
    "copy_ int64": lambda x, y: x.copy_((y * 1000).long()),
    "copy_ bool": lambda x, y: x.copy_(y > 0),
    "copy_ a row": lambda x, y: x.copy_(y[:1]),
    "copy_ 0-d": lambda x, y: x.copy_(y[0]),
    "copy_ number": lambda x, y: x.copy_(2.5),
    "mul_ a 0-d double": lambda x, y: x.mul_(y[0].double() / 3),
    "mul_ a double": lambda x, y: x.mul_(y.double() / 3),
    "add_ a row": lambda x, y: x.add_(y[:1]),
}
# Targets: the whole tensor, every other element, and a transposed 2-D tensor.
TARGETS = ["whole", "every other", "transposed"]


def _target(x, where):
    if where == "every other":
        return x[::2]
    if where == "transposed":
        return x.reshape(2, -1).t()
    return x


def _write(lib, name, dtype, n, where, grad):
    x, y = lib.tensor(data((n,), dtype, seed=n)), lib.tensor(data((n,), dtype, seed=n + 1))
    leaf = x.requires_grad_() if grad else None
    x = leaf * 1 if grad else x
    target = _target(x, where)
    other = _target(y, where)
    before = target._version
    with lib.enable_grad() if grad else lib.no_grad():
        out = WRITES[name](target, other)
    seen = [out is target, target._version - before, x._version]
    if grad:
        seen += [type(out.grad_fn).__name__, type(x.grad_fn).__name__]
        try:
            (x * x).sum().backward()
        except RuntimeError as error:  # x.mul_(x) saved x itself, and wrote it
            return [*seen, str(error)], [x.detach().numpy()]
        return seen, [x.detach().numpy(), leaf.grad.numpy()]
    return seen, [x.numpy()]


@pytest.mark.parametrize("name", sorted(WRITES))
@pytest.mark.parametrize(("dtype", "n"), CASES)
@pytest.mark.parametrize("where", TARGETS)
def test_large_in_place_op_is_torchs(name, dtype, n, where):
    ours = _write(refgrad, name, dtype, n, where, False)
    theirs = _write(torch, name, dtype, n, where, False)
    assert ours[0] == theirs[0]
    assert_bitwise(ours[1], theirs[1])


@pytest.mark.parametrize("name", sorted(WRITES))
@pytest.mark.parametrize("where", ["whole", "every other"])
def test_large_in_place_op_with_grad_is_torchs(name, where):
    ours = _write(refgrad, name, np.float32, 1 << 18, where, True)
    theirs = _write(torch, name, np.float32, 1 << 18, where, True)
    assert ours[0] == theirs[0]
    assert_bitwise(ours[1], theirs[1])


def _refused(lib, case):
    n = 1 << 17
    x = lib.tensor(data((n,), np.float32, seed=7))
    target = x
    try:
        with lib.no_grad():
            if case == "partial overlap":
                x[1:].add_(x[:-1])
            elif case == "expanded":
                target = x[:1].expand(n)
                target.mul_(2)
            elif case == "shape":
                x.add_(lib.ones(2, n))
            elif case == "cast":
                target = (x * 100).long()
                target.div_(x)
            elif case == "zero divisor":
                target = (x * 100).long()
                divisor = lib.ones(n, dtype=lib.int64)
                divisor[n // 2] = 0
                target.floor_divide_(divisor)
            elif case == "leaf":
                x.requires_grad_()
                with lib.enable_grad():
                    x.mul_(2)
        error = None
    except RuntimeError as raised:
        error = str(raised)
    return error, target._version, [target.detach().numpy(), x.detach().numpy()]


@pytest.mark.parametrize(
    "case", ["partial overlap", "expanded", "shape", "cast", "zero divisor", "leaf"])
def test_large_refusals_leave_the_tensor_as_torch_does(case):
    ours, theirs = _refused(refgrad, case), _refused(torch, case)
    assert theirs[0] is not None
    assert ours[:2] == theirs[:2]
    assert_bitwise(ours[2], theirs[2])
