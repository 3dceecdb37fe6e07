"""The values the nodes of a call keep for its backward, as ``_saved_*`` reads them.

The call is a case of conformance/_gradient_graph_cases.py, run with all its leaves
requiring grad (``name``) or with leaf i alone (``name@i``), or one of
conformance/_saved_values_cases.py. Its graph is walked from the output's nodes, and each
node's ``_saved_*`` attributes are written down: a tensor as its dtype, shape, strides,
offset, whether it requires grad, its node's name, which leaf or output it is or shares
memory with, and (all leaves requiring grad) its values, rounded, and a small one's repr;
a number with its Python type; a tuple or a list item by item; None and strings as they
are. conformance/_saved_values_generate.py writes torch's answers; the test
conformance/test_saved_values_swept.py compares them, numbers within a tolerance.
"""

import zlib

import numpy as np
import torch

from conformance._gradient_graph_cases import CASES
from conformance._saved_values_cases import MORE
from conformance.test_gradient_graphs_swept import _leaves

FEW = 4  # a tensor with no more elements is written with its repr too
MANY = 24  # a tensor with more elements is written as a few values and its sums
# Saved tensors whose memory no kernel writes (rrelu's noise when not training): no values.
UNWRITTEN = {("RreluWithNoiseBackward0", "_saved_noise")}


def _number(v):
    return float(f"{float(v):.6g}")


def _values(t):
    flat = [_number(v) if t.is_floating_point() else int(v)
            for v in t.detach().reshape(-1).tolist()]
    if len(flat) <= MANY:
        return flat
    return {"first": flat[:6], "sum": _number(sum(flat)),
            "abs": _number(sum(abs(v) for v in flat)),
            "weighed": _number(sum(i % 7 * v for i, v in enumerate(flat)))}


def _whose(t, known):
    """``leaf<i>``/``out<i>`` for one of them, ``=leaf<i>`` for a tensor sharing its memory."""
    for tag, other in known:
        if t is other:
            return tag
    base = t.untyped_storage().data_ptr()
    return next(("=" + tag for tag, other in known
                 if other.untyped_storage().data_ptr() == base), "-")


def _tensor(t, with_values, known):
    node = t.grad_fn.name() if t.grad_fn is not None else None
    seen = ["tensor", str(t.dtype)[6:], list(t.shape), list(t.stride()), t.storage_offset(),
            t.requires_grad, node, _whose(t, known)]
    if not with_values:
        return seen
    return seen + [_values(t), repr(t) if t.numel() <= FEW else None]


def written(v, with_values=True, known=()):
    """One saved value as JSON can hold it, its Python type kept; ``known``: (tag, tensor)s."""
    if isinstance(v, torch.Tensor):
        return _tensor(v, with_values, known)
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (tuple, list)):
        return [type(v).__name__, [written(x, with_values, known) for x in v]]
    if isinstance(v, float):
        return ["float", _number(v)]
    return [type(v).__name__, v]


def _read(node, name, with_values, known):
    with_values = with_values and (node.name(), name) not in UNWRITTEN
    try:
        return written(getattr(node, name), with_values, known)
    except Exception as e:  # noqa: BLE001 - a refusal is written down as an answer
        return ["raises", type(e).__name__, str(e).splitlines()[0]]


def graph_values(outs, with_values=True, known=()):
    """[node name, [[attribute, value], ...]] for each node reached, depth first."""
    stack = [o.grad_fn for o in reversed(outs) if o.grad_fn is not None]
    seen, found = [], []
    while stack:
        node = stack.pop()
        if any(node is s for s in seen):
            continue
        seen.append(node)
        names = sorted(n for n in dir(node) if n.startswith("_saved_"))
        found.append([node.name(), [[n[len("_saved_"):], _read(node, n, with_values, known)]
                                    for n in names]])
        stack.extend(n for n, _ in reversed(node.next_functions) if n is not None)
    return found


def _more(name):
    """A case of conformance/_saved_values_cases.py: its leaves, all requiring grad."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return [torch.tensor(rng.uniform(-1, 1, shape), dtype=torch.float64, requires_grad=True)
            for shape in MORE[name][0]]


def observe(key):
    """What each node of ``key``'s graph keeps; values only with all leaves requiring grad."""
    name, _, alone = key.partition("@")
    if name in MORE:
        leaves, function = _more(name), MORE[name][1]
    else:
        leaves, function = _leaves(name, int(alone) if alone else None), CASES[name][2]
    out = function(*leaves)
    outs = out if isinstance(out, tuple) else (out,)
    known = [(f"leaf{i}", t) for i, t in enumerate(leaves)] + [
        (f"out{i}", t) for i, t in enumerate(outs) if isinstance(t, torch.Tensor)]
    return graph_values(outs, not alone, known)
