"""Differential fuzzing: random autograd programs run under refgrad and under torch.

    python3 tests/fuzz/differential.py --programs 500 --seed 0

Each program is a few statements drawn from templates: leaves (transposed ones
too), elementwise ops, reductions, softmax, joins, indexing, matrix products,
dtype changes, views of views and in-place writes through them, tensor hooks
(returning None, a new tensor, or writing in place), post-accumulate-grad hooks,
retain_grad and a second backward, saved-tensor hook pairs, autograd.grad with
grad_outputs, and no_grad / enable_grad / inference_mode blocks. A program runs
once with ``T`` bound to refgrad and once with ``T`` bound to torch, and after
every statement everything observable about every tensor is traced, those that
autograd.grad returned (``_g``) included: shape, dtype, strides, requires_grad,
is_leaf, grad_fn name, version, values and ``.grad``; a statement that raises
is traced by its exception's type and first line. The first statement where the
traces part is reported, and the differences are counted by template (the grad
mode left out), so the largest groups come first. Needs torch installed.
"""

import argparse
import collections
import math
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import torch  # noqa: E402

import refgrad  # noqa: E402

SHAPES = ["(3,)", "(2, 3)", "(3, 2)", "(2, 1)", "(3, 3)", "(2, 3).t()", "(2, 1).t()"]
UNARY = ["sin()", "exp()", "tanh()", "relu()", "neg()", "abs()", "sigmoid()", "clone()",
         "detach()", "t()", "sum()", "mean()", "amax(0)", "sum(-1)", "reshape(-1)",
         "unsqueeze(0)", "cumsum(0)", "pow(2)", "sqrt()", "prod()", "mul(1)",
         "softmax(-1)", "log_softmax(-1)", "norm()", "var()", "std()", "double()", "half()",
         "clamp(0.2, 0.8)", "index_select(0, T.tensor([0]))", "masked_fill({a} > 0.5, 0.0)",
         "gather(0, T.zeros_like({a}, dtype=T.int64))", "diagonal()", "t().unsqueeze(0)",
         "view(-1)[1:]", "t()[0]", "flip(0)", "sort(0)[0]", "topk(1, 0)[0]", "roll(1, 0)",
         "cummax(0)[0]", "sum(0, keepdim=True)", "mean(-1, keepdim=True)", "repeat(2, 1)",
         "index_fill(0, T.tensor([0]), 1.0)", "amax(-1, keepdim=True)", "logsumexp(0)"]
BINARY = ["{a} + {b}", "{a} * {b}", "{a} - {b}", "{a} / {b}", "T.maximum({a}, {b})",
          "T.where({b} > 0, {a}, {b})", "{a} * 2.5", "{a}.double() * {b}", "{a}[0]",
          "{a}[..., :1]", "{a}.expand(2, 3)", "T.cat([{a}, {b}])", "T.stack([{a}, {b}])",
          "T.lerp({a}, {b}, 0.3)", "{a} @ {b}", "T.mm({a}, {b})", "{a}.matmul({b}.t())",
          "T.addcmul({a}, {a}, {b}, value=0.5)", "T.maximum({a}, {b} * 2)",
          "{a}.half() + {b}"]
INPLACE = ["{a}.mul_(2)", "{a}.add_({b})", "{a}.zero_()", "{a}.sin_()", "{a}[0] = 7.0",
           "{a}.copy_({b})", "{a}.clamp_(min=0)", "{a}[0].mul_(2)", "{a}.t().add_(1)",
           "{a}.diagonal().zero_()", "{a}[:, 0].add_({b}.sum())", "{a}.view(-1)[1:].exp_()",
           "{a}.t()[0].mul_({b}[0])", "{a}.unsqueeze(0)[0].neg_()"]
HOOKS = ["lambda g: g * 2", "lambda g: None", "lambda g: g.clone().mul_(3)",
         "lambda g: g.add_(1)", "lambda g: g.double()"]
PACK = ["lambda x: x * 1, lambda x: x", "lambda x: x.detach(), lambda x: x",
        "lambda x: x.clone(), lambda x: x.add_(1)"]
OTHER = ["{a}.retain_grad()", "{a}.register_hook({hook})", "{a}.requires_grad_()",
         "{a}.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(2))",
         "{a}.sum().backward(retain_graph=True)", "{a}.sum().backward()",
         "{a}.retain_grad(); {a}.sum().backward(retain_graph=True); {a}.sum().backward()",
         "_g = T.autograd.grad({a}.sum(), [{b}], allow_unused=True, retain_graph=True)",
         "_g = T.autograd.grad({a}.sum(), [{b}], create_graph=True, allow_unused=True)",
         "_g = T.autograd.grad({a}, [{b}], grad_outputs=T.ones_like({a}), allow_unused=True)",
         "_g = T.autograd.grad({a}, {b}, T.rand_like({a}), create_graph=True, allow_unused=True)",
         "{a}.sum().backward(create_graph=True)",
         "with T.autograd.graph.saved_tensors_hooks({pack}): v = ({a}.sin() * {b}).sum()"]
MODES = ["T.no_grad()", "T.enable_grad()", "T.inference_mode()", "T.no_grad(), T.enable_grad()",
         "T.set_grad_enabled(False)"]


def statement(rng: random.Random, a: str, b: str, new: str) -> str:
    """One statement over variables ``a`` and ``b``; a made tensor is named ``new``."""
    kind = rng.random()
    if kind < 0.25:
        line = f"{new} = {a}." + rng.choice(UNARY).format(a=a)
    elif kind < 0.5:
        line = f"{new} = " + rng.choice(BINARY).format(a=a, b=b)
    elif kind < 0.7:
        line = rng.choice(INPLACE).format(a=a, b=b)
    else:
        line = rng.choice(OTHER).format(a=a, b=b, hook=rng.choice(HOOKS), pack=rng.choice(PACK))
        line = line.replace("): v =", f"): {new} =")
    if rng.random() < 0.15 and not line.startswith("with"):
        line = f"with {rng.choice(MODES)}: {line}"
    return line


def program(rng: random.Random) -> list:
    """A few statements over variables v0, v1, ..."""
    lines, names = [], []
    for _ in range(rng.randint(1, 3)):
        grad = rng.random() < 0.8
        lines.append(f"v{len(names)} = T.rand{rng.choice(SHAPES)}.requires_grad_({grad})")
        names.append(f"v{len(names)}")
    for _ in range(rng.randint(2, 10)):
        new = f"v{len(names)}"
        line = statement(rng, rng.choice(names), rng.choice(names), new)
        lines.append(line)
        if re.search(rf"(^|: ){new} = ", line):
            names.append(new)
    return lines


class Values(tuple):
    """A tensor's values, equal to another's within float32 rounding.

    Equality within a tolerance is not transitive and cannot agree with any
    hash, so Values are compared only, never hashed.
    """

    def __eq__(self, other) -> bool:
        return len(self) == len(other) and all(_close(a, b) for a, b in zip(self, other))

    __hash__ = None


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
            _read(lambda: t._version), _values(t),
            None if grad is None else (_values(grad), grad._version))


def tensors(library, namespace: dict) -> list:
    """(name, tensor) for every tensor bound, and every one in a tuple (``_g``)."""
    found = []
    for name, value in sorted(namespace.items()):
        if isinstance(value, library.Tensor):
            found.append((name, value))
        elif isinstance(value, tuple):
            found += [(f"{name}[{i}]", v) for i, v in enumerate(value)
                      if isinstance(v, library.Tensor)]
    return found


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
        seen = {name: observe(value) for name, value in tensors(library, namespace)}
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
    """The statement with its variable names and grad mode blanked: the group it counts in."""
    return re.sub(r"v\d+", "v", re.sub(r"^with (T\.[\w.]+\([^()]*\)(, )?)+: ", "", line))


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
            groups[(template(line), what.split(":")[1].strip() if ":" in what else what)].append(
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
