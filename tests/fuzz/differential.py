"""Differential fuzzing: random autograd programs run under refgrad and under torch.

    python3 tests/fuzz/differential.py --programs 500 --seed 0

Each program is a few statements drawn from the templates in ``templates.py``:
leaves (transposed, channels_last, permuted, offset, expanded, empty and 0-d
ones too), elementwise ops, reductions, softmax, joins,
indexing, matrix products, dtype changes, views of views and in-place writes
through them, functional activations and losses, a custom Function,
checkpointing, forward-mode AD, tensor hooks (returning None, a new tensor, or
writing in place), node hooks and pre-hooks, multi-grad hooks,
post-accumulate-grad hooks, retain_grad and a second backward, saved-tensor
hook pairs, anomaly mode, mutation of saved tensors, autograd.grad with
grad_outputs, and no_grad / enable_grad / inference_mode blocks. A program runs
once with ``T`` bound to refgrad and once with ``T`` bound to torch, and after
every statement everything observable about every tensor is traced, those that
autograd.grad returned (``_g``) included: shape, dtype, strides, requires_grad,
is_leaf, the names of the nodes of its graph (in preorder), version, values
(of a huge tensor, evenly spaced ones) and ``.grad``; a statement that raises
is traced by its exception's type and first line. The first statement where
the traces part is reported, and the differences are counted by template (the
grad mode left out), so the largest groups come first; each program shown is
cut to the statements its difference needs. Needs torch installed.
"""

import argparse
import collections
import math
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch  # noqa: E402
from templates import PRELUDE, program  # noqa: E402

import refgrad  # noqa: E402


class Values(tuple):
    """A tensor's values, equal to another's within float32 rounding.

    Equality within a tolerance is not transitive and cannot agree with any
    hash, so Values are compared only, never hashed.
    """

    def __eq__(self, other) -> bool:
        return len(self) == len(other) and all(_close(a, b) for a, b in zip(self, other))

    def __ne__(self, other) -> bool:  # tuple's own != would compare exactly
        return not self == other

    __hash__ = None


def _close(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)
    return a == b


MOST_VALUES = 1 << 20


def _values(t) -> Values:
    """``t``'s values, or evenly spaced ones (at most ``MOST_VALUES``) of a huge tensor.

    A value read as a Python float costs some 32 bytes; a program can make a
    tensor of 10**8 elements or more (``addr`` of two long vectors), and it is
    read after every statement, in both libraries at once.
    """
    flat = t.detach().reshape(-1)
    if flat.numel() > MOST_VALUES:
        flat = flat[::-(-flat.numel() // MOST_VALUES)]
    return Values(flat.tolist())


def _read(read):
    """``read()``, or what it raised: reading grad_fn can refuse (a stale view)."""
    try:
        return read()
    except Exception as raised:  # noqa: BLE001 - the refusal is what is compared
        return (type(raised).__name__, str(raised).splitlines()[0] if str(raised) else "")


def graph_names(node, most: int = 24) -> tuple:
    """The names of the first ``most`` nodes reached from ``node``, in preorder."""
    names, seen, stack = [], set(), [node]
    while stack and len(names) < most:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        stack.extend(next_node for next_node, _ in reversed(node.next_functions))
    return tuple(names)


def observe(t) -> tuple:
    """Everything observable about one tensor, as plain values."""
    node = _read(lambda: t.grad_fn)
    leaf = _read(lambda: t.is_leaf)
    grad = t.grad if leaf is True else None  # a non-leaf's .grad warns
    return (tuple(t.shape), str(t.dtype).split(".")[-1], t.stride(), t.requires_grad, leaf,
            node if node is None or isinstance(node, tuple) else graph_names(node),
            _read(lambda: t._version), _read(lambda: _values(t)),
            None if grad is None else (_read(lambda: _values(grad)), _read(lambda: grad._version)))


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
    exec(PRELUDE, namespace)  # noqa: S102 - the prelude is ours
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
    fields = ("shape", "dtype", "stride", "requires_grad", "is_leaf", "graph",
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


MODE_BLOCK = r"^with (T\.(no_grad|enable_grad|inference_mode|set_grad_enabled)\([^()]*\)(, )?)+: "


def template(line: str) -> str:
    """The statement with its variable names and grad mode blanked: the group it counts in."""
    return re.sub(r"v\d+", "v", re.sub(MODE_BLOCK, "", line))


def group(found) -> tuple:
    """The group a difference counts in: its statement's template, and what differs."""
    line, what = found
    return template(line), what.split(":")[1].strip() if ":" in what else what


def minimize(lines: list, found) -> list:
    """The program cut to the statements the difference needs, up to where it shows.

    Statements are dropped one at a time, last first, keeping each drop after
    which the program still parts at the same statement in the same way; the
    first statement that binds each name stays (programs rename nothing).
    """
    key, lines = group(found), lines[:lines.index(found[0]) + 1]
    for i in range(len(lines) - 2, -1, -1):
        shorter = lines[:i] + lines[i + 1:]
        again = first_difference(shorter)
        if again is not None and again[0] == lines[-1] and group(again) == key:
            lines = shorter
    return lines


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
            groups[group(found)].append((seed, lines, *found))
    total = sum(len(g) for g in groups.values())
    print(f"{total} of {args.programs} programs differ, in {len(groups)} groups")
    for (line, fields), found in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n## {len(found)}x  {line}  [{fields.strip()}]")
        for seed, lines, at, what in found[:args.show]:
            print(f"# seed {seed}: at `{at}`: {what}")
            print("\n".join("    " + x for x in minimize(lines, (at, what))))


if __name__ == "__main__":
    main()
