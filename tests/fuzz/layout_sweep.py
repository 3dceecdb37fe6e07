"""Layout sweeps: the same calls on awkward tensors, under refgrad and under torch.

    python3 tests/fuzz/layout_sweep.py [--chains 2000] [--seed 0]

Two sweeps, both compared against torch in one process. The first calls each of
a list of ops on leaves that are empty, of size one along some dimension,
transposed, in float64, float32 and float16, and records the result's shape,
strides and dtype, its graph, the gradient's strides and graph under
create_graph, and a fresh leaf's ``.grad`` strides and version. The second runs
random chains of view, indexing and elementwise ops on small tensors whose
sizes are mostly 1 and 2, recording the strides after each step and the
leaf's gradient. Differences are printed, each with the first place the two
records part. Needs torch installed.
"""

import argparse
import math
import random
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import torch  # noqa: E402

import refgrad  # noqa: E402

SHAPES = [((0, 3), False), ((3, 0), True), ((2, 0, 3), False), ((0,), False), ((1, 3), False),
          ((3, 1), True), ((1, 1), False), ((1,), False), ((2, 1, 3), False), ((2, 3), True)]
DTYPES = ["float64", "float32", "float16"]


def ops(lib):
    """name: a call of one leaf."""
    F = lib.nn.functional
    return {
        "mul": lambda x: x * x, "exp": lambda x: x.exp(), "sum": lambda x: x.sum(),
        "sum_dim": lambda x: x.sum(0), "mean": lambda x: x.mean(),
        "amax": lambda x: x.amax(-1), "std": lambda x: x.std(),
        "softmax": lambda x: x.softmax(-1), "cumsum": lambda x: x.cumsum(-1),
        "cummax": lambda x: x.cummax(-1)[0], "flip": lambda x: x.flip(0),
        "roll": lambda x: x.roll(1, 0),
        "t": lambda x: x.mT if x.dim() > 1 else x, "expand": lambda x: x.expand(2, *x.shape),
        "cat": lambda x: lib.cat([x, x]), "clone": lambda x: x.clone(),
        "contiguous": lambda x: x.contiguous(), "view": lambda x: x.reshape(-1, 1),
        "pad": lambda x: F.pad(x, (1, 1)), "logsigmoid": F.logsigmoid, "gelu": F.gelu,
        "renorm": lambda x: x.renorm(2, 0, 0.5) if x.dim() > 1 else x,
        "addcdiv": lambda x: lib.addcdiv(x, x, x.detach() * 0.3 + 0.2, value=0.5),
        "index": lambda x: x[lib.zeros(2, dtype=lib.long)] if x.shape[0] else x,
        "where": lambda x: lib.where(x > 0.5, x, x * 3),
        "tril": lambda x: x.tril() if x.dim() > 1 else x,
        "norm": lambda x: lib.linalg.vector_norm(x),
        "prod_dtype": lambda x: x.prod(dtype=lib.float64),
        "layer_norm": lambda x: F.layer_norm(x, x.shape[-1:]),
        "rot90": lambda x: x.rot90() if x.dim() > 1 else x,
        "t_": lambda x: x.clone().t_() if x.dim() <= 2 else x,
        "unsqueeze_": lambda x: x.clone().unsqueeze_(0),
        # torch's pdist crashes the process on an empty input: only full ones are swept
        "pdist": lambda x: F.pdist(x) if x.dim() == 2 and x.numel() else x,
        "mode": lambda x: x.mode(-1)[0],
        "conv1d": lambda x: F.conv1d(x, x[:1, :, :1]) if x.dim() == 3 else x,
        "max_pool1d": lambda x: F.max_pool1d(x, 1) if 1 < x.dim() < 4 else x,
    }


def graph(t):
    if t is None or t.grad_fn is None:
        return None
    seen, names, stack = set(), [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(type(node).__name__)
        stack.extend(n for n, _ in reversed(node.next_functions))
    return names


def _leaf(lib, shape, transposed, dtype):
    x = lib.arange(1, 1 + math.prod(shape), dtype=lib.float64).reshape(*shape) * 0.13 + 0.2
    x = x.to(getattr(lib, dtype))
    return (x.mT if transposed else x).requires_grad_()


def one_call(lib, f, shape, transposed, dtype) -> list:
    try:
        x = _leaf(lib, shape, transposed, dtype)
        y = f(x)
        record = [(tuple(y.shape), y.stride(), str(y.dtype)), graph(y)]
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True, allow_unused=True)
        record.append(None if g is None else (g.stride(), graph(g)))
        x = _leaf(lib, shape, transposed, dtype)
        f(x).sum().backward()
        record.append(None if x.grad is None else (x.grad.stride(), x.grad._version))
        return record
    except Exception as error:  # noqa: BLE001 - the exception's type is the record
        return [type(error).__name__]


def sweep_ops() -> int:
    mine, theirs, differ = ops(refgrad), ops(torch), 0
    for name in mine:
        for shape, transposed in SHAPES:
            for dtype in DTYPES:
                a = one_call(refgrad, mine[name], shape, transposed, dtype)
                b = one_call(torch, theirs[name], shape, transposed, dtype)
                if repr(a) != repr(b):
                    differ += 1
                    print(f"{name} {shape}{'ᵀ' if transposed else ''} {dtype}\n  refgrad {a}\n"
                          f"  torch   {b}")
    return differ


def _step(lib, t, r):
    nd, k = t.dim(), r.randrange(18)
    steps = [
        lambda: t.mT if nd >= 2 else t, lambda: t.unsqueeze(r.randrange(nd + 1)),
        lambda: t.squeeze(), lambda: t.reshape(-1), lambda: t.flip(0) if nd else t,
        lambda: t.contiguous(), lambda: t * 2, lambda: t.sum(0, keepdim=True) if nd else t,
        lambda: t.softmax(-1) if nd else t, lambda: lib.cat([t, t]) if nd else t,
        lambda: t.expand(2, *t.shape),
        lambda: t[lib.zeros(2, dtype=lib.long)] if nd and t.shape[0] else t,
        lambda: t.amax(-1, keepdim=True) if nd else t, lambda: t.clone(),
        lambda: t.sigmoid() * t, lambda: t.permute(*reversed(range(nd))) if nd else t,
        lambda: t.rot90() if nd >= 2 else t, lambda: t.clone().t_() if nd == 2 else t,
    ]
    return steps[k]()


def one_chain(lib, seed) -> list:
    r = random.Random(seed)
    shape = [r.choice([1, 1, 2, 3]) for _ in range(r.randint(1, 3))]
    x = lib.arange(math.prod(shape), dtype=lib.float64).reshape(*shape) * 0.1 + 0.3
    if r.random() < 0.5 and len(shape) >= 2:
        x = x.mT
    x.requires_grad_()
    record, t = [], x
    try:
        for _ in range(r.randint(2, 6)):
            t = _step(lib, t, r)
            record.append((t.grad_fn.name() if t.grad_fn else None, tuple(t.shape), t.stride()))
        t.sum().backward()
        record.append((x.grad.stride(), x.grad._version))
    except Exception as error:  # noqa: BLE001 - the exception's type is the record
        record.append(type(error).__name__)
    return record


def sweep_chains(count: int, seed: int) -> int:
    differ = 0
    for s in range(seed, seed + count):
        a, b = one_chain(refgrad, s), one_chain(torch, s)
        if a != b:
            differ += 1
            part = next((i for i, (p, q) in enumerate(zip(a, b)) if p != q), min(len(a), len(b)))
            print(f"chain {s}, step {part}\n  refgrad {a[part:part + 1]}\n"
                  f"  torch   {b[part:part + 1]}")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chains", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    differ = sweep_ops()
    print(f"ops: {differ} calls differ")
    differ = sweep_chains(args.chains, args.seed)
    print(f"chains: {differ} of {args.chains} differ")


if __name__ == "__main__":
    main()
