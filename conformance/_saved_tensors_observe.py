"""What a case of conformance/_gradient_graph_cases.py saves, as saved-tensor hooks see it.

With all its leaves requiring grad, and then with each alone, the case's forward runs under a
``saved_tensors_hooks`` pair. Each packed tensor is written as one string: its shape,
dtype, whether it requires grad, what it is (``leaf<i>``, ``out``, or ``-`` for another
tensor) and its ``_version`` when packed. A backward then records the unpacks, by pack
index, in order. Last, the ``_saved_`` attributes of the output's node and of its next
nodes, from ``dir()``: each name, with ``*`` where a ``_raw_saved_`` one goes with it.
conformance/_saved_tensors_generate.py writes torch's answers; the test compares.
"""

import torch

from conformance._gradient_graph_cases import CASES
from conformance.test_gradient_graphs_swept import _leaves, _weighed


def _what(t, leaves, outs):
    for i, leaf in enumerate(leaves):
        if t is leaf:
            return f"leaf{i}"
    return "out" if any(t is o for o in outs) else "-"


def _saved_names(node):
    """``Name: a b* ...`` for a node's ``_saved_`` attributes; ``*``: a raw one exists."""
    names = dir(node)
    raw = {n[len("_raw_saved_"):] for n in names if n.startswith("_raw_saved_")}
    saved = [n[len("_saved_"):] for n in names if n.startswith("_saved_")]
    return " ".join([f"{node.name()}:"] + [n + "*" * (n in raw) for n in saved])


def _nodes(outs):
    """The output's node and its next nodes, one level, each with its saved names."""
    node = next((o.grad_fn for o in outs if o.grad_fn is not None), None)
    if node is None:
        return []
    return [_saved_names(node)] + [_saved_names(n) for n, _ in node.next_functions
                                   if n is not None]


def observe(key):
    """[packs, unpack order by pack index, saved names of the output's nodes].

    ``key`` is a case's name, all its leaves requiring grad, or ``name@i``: leaf i alone.
    """
    name, _, alone = key.partition("@")
    leaves = _leaves(name, int(alone) if alone else None)
    packed, versions, unpacked = [], [], []

    def pack(t):
        packed.append(t)
        versions.append(t._version)
        return len(packed) - 1

    def unpack(i):
        unpacked.append(i)
        return packed[i]

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = CASES[name][2](*leaves)
    outs = out if isinstance(out, tuple) else (out,)
    packs = [f"{'x'.join(map(str, t.shape))} {str(t.dtype)[6:]} "
             f"{'rg' if t.requires_grad else 'no'} {_what(t, leaves, outs)} v{v}"
             for t, v in zip(packed, versions)]
    nodes = _nodes(outs)
    total = _weighed(outs, 1)
    if total is not None:
        total.backward()
    return [packs, unpacked, nodes]
