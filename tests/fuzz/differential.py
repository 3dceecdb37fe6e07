"""Differential fuzzing: random autograd programs run under refgrad and under torch.

    python3 tests/fuzz/differential.py --programs 500 --seed 0

Each program is a few statements drawn from templates (leaves, elementwise ops,
reductions, views, in-place writes, hooks, retain_grad, grad modes, backward and
grad). It runs once with ``T`` bound to refgrad and once with ``T`` bound to torch,
and after every statement everything observable about every tensor is traced:
shape, dtype, strides, requires_grad, is_leaf, grad_fn name, version, values and
``.grad``; a statement that raises is traced by its exception's type and first
line. The first statement where the traces part is reported, and the differences
are counted by template, so the largest groups come first. Needs torch installed.
"""

import argparse
import collections
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import torch  # noqa: E402

import refgrad  # noqa: E402

SHAPES = ["(3,)", "(2, 3)", "(3, 2)", "(2, 1)"]
UNARY = ["sin()", "exp()", "tanh()", "relu()", "neg()", "abs()", "sigmoid()", "clone()",
         "detach()", "t()", "sum()", "mean()", "amax(0)", "sum(-1)", "reshape(-1)",
         "unsqueeze(0)", "cumsum(0)", "pow(2)", "sqrt()", "prod()"]
BINARY = ["{a} + {b}", "{a} * {b}", "{a} - {b}", "{a} / {b}", "T.maximum({a}, {b})",
          "T.where({b} > 0, {a}, {b})", "{a} * 2.5", "{a}.double() * {b}", "{a}[0]",
          "{a}[..., :1]", "{a}.expand(2, 3)"]
INPLACE = ["{a}.mul_(2)", "{a}.add_({b})", "{a}.zero_()", "{a}.sin_()", "{a}[0] = 7.0",
           "{a}.copy_({b})", "{a}.clamp_(min=0)"]
OTHER = ["{a}.retain_grad()", "{a}.register_hook(lambda g: g * 2)",
         "{a}.requires_grad_()", "{a}.sum().backward(retain_graph=True)",
         "_g = T.autograd.grad({a}.sum(), [{b}], allow_unused=True, retain_graph=True)",
         "_g = T.autograd.grad({a}.sum(), [{b}], create_graph=True, allow_unused=True)",
         "{a}.sum().backward(create_graph=True)"]


def program(rng: random.Random) -> list:
    """A few statements over variables v0, v1, ..."""
    lines, names = [], []
    for _ in range(rng.randint(1, 3)):
        grad = rng.random() < 0.8
        lines.append(f"v{len(names)} = T.rand{rng.choice(SHAPES)}.requires_grad_({grad})")
        names.append(f"v{len(names)}")
    for _ in range(rng.randint(2, 10)):
        a, b = rng.choice(names), rng.choice(names)
        kind = rng.random()
        if kind < 0.3:
            line = f"v{len(names)} = {a}.{rng.choice(UNARY)}"
        elif kind < 0.6:
            line = f"v{len(names)} = " + rng.choice(BINARY).format(a=a, b=b)
        elif kind < 0.8:
            line = rng.choice(INPLACE).format(a=a, b=b)
        else:
            line = rng.choice(OTHER).format(a=a, b=b)
        if rng.random() < 0.1:
            line = f"with T.no_grad(): {line}"
        lines.append(line)
        if line.removeprefix("with T.no_grad(): ").startswith(f"v{len(names)} ="):
            names.append(f"v{len(names)}")
    return lines


class Values(tuple):
    """A tensor's values, equal to another's within float32 rounding."""

    def __eq__(self, other) -> bool:
        return len(self) == len(other) and all(_close(a, b) for a, b in zip(self, other))

    __hash__ = tuple.__hash__


def _close(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)
    return a == b


def _values(t) -> Values:
    return Values(t.detach().reshape(-1).tolist())


def _read(read):
    """``read()``, or what it raised: reading grad_fn can refuse (a stale view)."""
    try:
        return read()
    except Exception as raised:  # noqa: BLE001 - the refusal is what is compared
        return (type(raised).__name__, str(raised).splitlines()[0] if str(raised) else "")


def observe(t) -> tuple:
    """Everything observable about one tensor, as plain values."""
    node = _read(lambda: t.grad_fn)
    leaf = _read(lambda: t.is_leaf)
    grad = t.grad if leaf is True else None  # a non-leaf's .grad warns
    return (tuple(t.shape), str(t.dtype).split(".")[-1], t.stride(), t.requires_grad, leaf,
            node if node is None or isinstance(node, tuple) else type(node).__name__,
            t._version, _values(t), None if grad is None else (_values(grad), grad._version))


def trace(library, lines: list) -> list:
    """For each statement, its exception (if any) and every tensor's observation."""
    namespace, steps = {"T": library}, []
    for line in lines:
        if library is refgrad:
            refgrad.manual_seed(0)
        else:
            torch.manual_seed(0)
        try:
            exec(line, namespace)  # noqa: S102 - the programs are ours
            error = None
        except Exception as raised:  # noqa: BLE001 - any refusal is traced
            text = str(raised).splitlines()[0] if str(raised) else ""
            error = (type(raised).__name__, text)
        seen = {name: observe(value) for name, value in sorted(namespace.items())
                if isinstance(value, library.Tensor)}
        steps.append((error, seen))
    return steps


def first_difference(lines: list):
    """(statement, what differs) where the two libraries first part, or None."""
    ours, theirs = trace(refgrad, lines), trace(torch, lines)
    fields = ("shape", "dtype", "stride", "requires_grad", "is_leaf", "grad_fn",
              "_version", "values", "grad")
    for line, (e1, s1), (e2, s2) in zip(lines, ours, theirs):
        if e1 != e2:
            return line, f"error {e1} vs {e2}"
        for name in s2:
            if s1.get(name) != s2[name]:
                a, b = s1.get(name), s2[name]
                if a is None:
                    return line, f"{name} missing"
                which = [f for f, x, y in zip(fields, a, b) if x != y]
                return line, f"{name}: {', '.join(which)}: {a} vs {b}"
    return None


def template(line: str) -> str:
    """The statement with its variable names blanked: the group it counts in."""
    import re

    return re.sub(r"v\d+", "v", line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="programs shown per group")
    args = parser.parse_args()
    groups = collections.defaultdict(list)
    for seed in range(args.seed, args.seed + args.programs):
        lines = program(random.Random(seed))
        found = first_difference(lines)
        if found is not None:
            line, what = found
            groups[(template(line), what.split(":")[1] if ":" in what else what)].append(
                (seed, lines, line, what))
    total = sum(len(g) for g in groups.values())
    print(f"{total} of {args.programs} programs differ, in {len(groups)} groups")
    for (line, fields), found in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n## {len(found)}x  {line}  [{fields.strip()}]")
        for seed, lines, at, what in found[:args.show]:
            print(f"# seed {seed}: at `{at}`: {what}")
            print("\n".join("    " + x for x in lines[:lines.index(at) + 1]))


if __name__ == "__main__":
    main()
