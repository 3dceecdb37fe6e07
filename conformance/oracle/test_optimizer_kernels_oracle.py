"""Oracle test: the out-of-place kernels of an optimizer's update (add and sub with alpha,
addcmul, addcdiv, lerp) and their in-place forms give torch's bits, in float32, float64 and
int64, for int, float and bool alphas, with broadcasting, 0-d and non-contiguous inputs,
sums that lie halfway between two float32 numbers, and large tensors.
"""

import numpy as np
import pytest
import torch

import refgrad

DTYPES = {"float32": np.float32, "float64": np.float64, "int64": np.int64}
ALPHAS = [0.1, -1e-3, 2.5, 3, -1, 0, 1e-8, 2.0**-10, 1e30, float("inf"), float("nan"), True]
SHAPES = {"16": ((16,), (16,)), "7": ((7,), (7,)), "broadcast self": ((5,), (4, 5)),
          "0-d self": ((), (9,)), "both 0-d": ((), ())}


def _array(shape, kind, seed):
    rng = np.random.default_rng(seed)
    if kind is np.int64:
        return rng.integers(-50, 50, shape)
    return rng.standard_normal(shape).astype(kind)


def _both(fn, *arrays):
    """fn's result or refusal, from torch and from refgrad, as bytes, dtype and text."""
    seen = []
    for lib in (torch, refgrad):
        try:
            with np.errstate(all="ignore"):
                out = fn(lib, *(lib.tensor(a) for a in arrays))
            result = out.numpy()
            seen.append((result.dtype.str, result.shape, result.tobytes()))
        except (RuntimeError, TypeError) as error:
            seen.append((type(error).__name__, str(error)))
    return seen


@pytest.mark.parametrize("alpha", ALPHAS, ids=repr)
@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("op", ["add", "sub"])
def test_add_and_sub_with_alpha(op, shape, dtype, alpha):
    kind, (first, second) = DTYPES[dtype], SHAPES[shape]
    arrays = _array(first, kind, 1), _array(second, kind, 2)
    torch_seen, refgrad_seen = _both(lambda lib, a, b: getattr(lib, op)(a, b, alpha=alpha),
                                     *arrays)
    assert refgrad_seen == torch_seen


@pytest.mark.parametrize("alpha", [0.1, -1e-3, 2.5, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_add_with_alpha_on_a_million_elements(dtype, alpha):
    arrays = _array((1 << 20,), DTYPES[dtype], 1), _array((1 << 20,), DTYPES[dtype], 2)
    torch_seen, refgrad_seen = _both(lambda lib, a, b: lib.add(a, b, alpha=alpha), *arrays)
    assert refgrad_seen == torch_seen


def _halfway():
    """Sums whose float64 value lies exactly halfway between two float32 numbers, and sums
    near the float32 subnormals and overflow."""
    odd = np.arange(1, 4001, 2, dtype=np.float32)
    tiny = _array((2000,), np.float32, 3) * np.float32(2.0**-120)
    return [(np.ones(2000, np.float32), odd * np.float32(2.0**-25)),
            (np.full(2000, 3.0, np.float32), -odd * np.float32(2.0**-26)),
            (tiny, _array((2000,), np.float32, 4) * np.float32(2.0**-127)),
            (np.array([3e38, -3e38, np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-45], np.float32),
             np.array([3e38, 3e38, 1.0, np.inf, 1.0, -0.0, -0.0, 1e-45], np.float32))]


@pytest.mark.parametrize("alpha", [1.0 + 2.0**-20, 0.5, 3, 2.0**-3, 1.5, -1.0 - 2.0**-20,
                                   float("-inf")])
@pytest.mark.parametrize("case", range(4))
@pytest.mark.parametrize("op", ["add", "sub", "add_"])
def test_float32_sums_halfway_round_once(op, case, alpha):
    a, b = _halfway()[case]
    fn = (lambda lib, x, y: getattr(x if op == "add_" else lib, op.rstrip("_") if op != "add_"
                                    else op)(*((y,) if op == "add_" else (x, y)), alpha=alpha))
    torch_seen, refgrad_seen = _both(fn, a, b)
    assert refgrad_seen == torch_seen


NON_CONTIGUOUS = {
    "transposed": lambda lib, a, b: lib.add(a.reshape(4, 8).t(), b.reshape(4, 8).t(), alpha=0.3),
    "strided": lambda lib, a, b: lib.sub(a[::2], b[1::2], alpha=-2.5),
    "addcmul": lambda lib, a, b: lib.addcmul(a[::2], b[1::2], a[1::2], value=0.1),
    "addcdiv": lambda lib, a, b: lib.addcdiv(a[::2], b[1::2], a[1::2].abs() + 1, value=-1e-3),
    "lerp": lambda lib, a, b: lib.lerp(a.reshape(4, 8).t(), b.reshape(4, 8).t(), 0.9),
}


@pytest.mark.parametrize("name", sorted(NON_CONTIGUOUS))
def test_non_contiguous_inputs(name):
    torch_seen, refgrad_seen = _both(NON_CONTIGUOUS[name], _array((32,), np.float32, 5),
                                     _array((32,), np.float32, 6))
    assert refgrad_seen == torch_seen


FUSED = {
    "addcmul": lambda lib, a, b, c: lib.addcmul(a, b, c, value=0.1),
    "addcmul int value": lambda lib, a, b, c: lib.addcmul(a, b, c, value=2),
    "addcdiv": lambda lib, a, b, c: lib.addcdiv(a, b, c.abs() + 0.5, value=-1e-3),
    "lerp start": lambda lib, a, b, c: lib.lerp(a, b, 0.1),
    "lerp end": lambda lib, a, b, c: lib.lerp(a, b, 0.9),
    "lerp tensor": lambda lib, a, b, c: lib.lerp(a, b, c.abs() / (c.abs() + 1)),
    "addcmul_": lambda lib, a, b, c: a.addcmul_(b, c, value=0.1),
    "addcdiv_": lambda lib, a, b, c: a.addcdiv_(b, c.abs() + 0.5, value=-1e-3),
    "lerp_": lambda lib, a, b, c: a.lerp_(b, 0.1),
    "add_ alpha": lambda lib, a, b, c: a.add_(b, alpha=-1e-3),
    "sub_ alpha": lambda lib, a, b, c: a.sub_(b, alpha=0.5),
    "add_ int alpha": lambda lib, a, b, c: a.add_(b, alpha=2),
    "mul_": lambda lib, a, b, c: a.mul_(0.9),
    "copy_": lambda lib, a, b, c: a.copy_(b),
    "div": lambda lib, a, b, c: a.div(c),
}


@pytest.mark.parametrize("n", [16, 1 << 20])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(FUSED))
def test_optimizer_kernels(name, dtype, n):
    arrays = [_array((n,), DTYPES[dtype], seed) for seed in (7, 8, 9)]

    def run(lib, a, b, c):
        with lib.no_grad():
            return FUSED[name](lib, a, b, c)

    torch_seen, refgrad_seen = _both(run, *arrays)
    assert refgrad_seen == torch_seen


DESTINATIONS = {
    "view": lambda x: x[1::2],
    "transposed": lambda x: x.reshape(4, 8).t(),
    "expanded": lambda x: x[:8].expand(2, 8),
    "overlapping input": lambda x: x[:16],
}


@pytest.mark.parametrize("where", sorted(DESTINATIONS))
@pytest.mark.parametrize("name", ["add_ alpha", "addcmul_", "addcdiv_", "lerp_", "mul_"])
def test_writes_into_views_and_their_refusals(name, where):
    def run(lib, x, b, c):
        target = DESTINATIONS[where](x)
        b = x[8:] if where == "overlapping input" else b[: target.numel()].reshape(target.shape)
        c = c[: target.numel()].reshape(target.shape)
        before = x._version
        with lib.no_grad():
            FUSED[name](lib, target, b, c)
        return lib.cat([x, lib.tensor([float(x._version - before)])])

    arrays = [_array((32,), np.float32, seed) for seed in (10, 11, 12)]
    torch_seen, refgrad_seen = _both(run, *arrays)
    assert refgrad_seen == torch_seen


def _fused_ties():
    """Operands whose a + alpha * b lies just off halfway between two float32 numbers, where
    the float64 sum lands exactly halfway: rounding twice moves the last bit."""
    near_one = np.float32(1 + 2.0**-23)
    below_half = np.float32(2.0**-24 * (1 - 2.0**-23))
    rng = np.random.default_rng(13)
    starts = np.concatenate([[near_one, 1.0, 2.5], rng.standard_normal(13)]).astype(np.float32)
    return starts, np.full(16, near_one, np.float32), np.full(16, below_half, np.float32)


TIES = {
    "add alpha": lambda lib, a, b, c: lib.add(a, b, alpha=float(c[0])),
    "add_ alpha 0-d": lambda lib, a, b, c: a[0].add_(b[0], alpha=float(c[0])),
    "sub alpha": lambda lib, a, b, c: lib.sub(a, b, alpha=-float(c[0])),
    "add_ alpha": lambda lib, a, b, c: a.add_(b, alpha=float(c[0])),
}


@pytest.mark.parametrize("name", sorted(TIES))
def test_fused_sums_that_land_halfway_in_float64(name):
    def run(lib, a, b, c):
        with lib.no_grad():
            return TIES[name](lib, a, b, c)

    torch_seen, refgrad_seen = _both(run, *_fused_ties())
    assert refgrad_seen == torch_seen
