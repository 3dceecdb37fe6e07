"""Gradients' own graphs, and freed graphs, swept over torch.nn.functional and its kin.

For each case (conformance/_gradient_graph_cases.py), with all its leaves requiring grad
and then with each alone: (a) under create_graph=True, whether each gradient is None,
requires grad, and its grad_fn's name; (b) whether a second pass through a graph already
walked raises, for the function's graph and for its gradient's; (c) the second
derivative's graph, and which third derivatives a third pass gives. The expectations
(conformance/_gradient_graph_expected.json: each answer with the cases that give it; '-'
no gradient, '.' one not requiring grad, else its node's name) are torch's; the same
assertions run on torch.
"""

import json
import pathlib
import zlib

import numpy as np
import pytest
import torch

from conformance._gradient_graph_cases import CASES

FREED = "Trying to backward through the graph a second time"
EXPECTED = {case: tuple(entry["answer"]) for entry in json.loads(
    pathlib.Path(__file__).with_name("_gradient_graph_expected.json").read_text())
    for case in entry["cases"]}


def _leaves(name, alone):
    shapes, scales, _ = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return [torch.tensor(rng.uniform(-1, 1, shape) * scale, dtype=torch.float64,
                         requires_grad=alone is None or i == alone)
            for i, (shape, scale) in enumerate(zip(shapes, scales))]


def _weighed(tensors, seed):
    """A sum of the tensors that require grad, each weighed by fixed values; None if none."""
    rng = np.random.default_rng(seed)
    terms = [(t * torch.tensor(rng.uniform(-1, 1, tuple(t.shape)), dtype=t.dtype)).sum()
             for t in tensors if t is not None and t.requires_grad]
    return sum(terms[1:], terms[0]) if terms else None


def _seen(grads):
    """'-' for no gradient, '.' for one that does not require grad, else its node's name."""
    return " ".join("-" if g is None else g.grad_fn.name() if g.requires_grad else "."
                    for g in grads)


def _refused(e):
    return f"refused: {type(e).__name__}: {str(e).splitlines()[0]}"


def _twice(total, wanted):
    """What a second pass through ``total``'s graph does, once a first has freed it."""
    try:
        torch.autograd.grad(total, wanted, allow_unused=True)
    except (RuntimeError, NotImplementedError) as e:
        return _refused(e)  # a derivative torch does not have: refused from the first pass
    try:
        torch.autograd.grad(total, wanted, allow_unused=True)
    except RuntimeError as e:
        return "freed" if str(e).startswith(FREED) else _refused(e)
    return "ran"


def observe(key):
    """(first pass twice, gradients, gradient's graph twice, second derivatives, third)."""
    name, _, alone = key.partition("@")
    alone = int(alone) if alone else None

    def start():
        leaves = _leaves(name, alone)
        out = CASES[name][2](*leaves)
        outs = out if isinstance(out, tuple) else (out,)
        return [t for t in leaves if t.requires_grad], _weighed(outs, 1)

    wanted, total = start()
    found = [_twice(total, wanted)]
    wanted, total = start()
    first = torch.autograd.grad(total, wanted, create_graph=True, allow_unused=True)
    found.append(_seen(first))
    second = _weighed(first, 2)
    if second is None:
        return (*found, None, None, None)
    found.append(_twice(second, wanted))
    wanted, total = start()
    second = _weighed(torch.autograd.grad(total, wanted, create_graph=True, allow_unused=True), 2)
    try:
        grads = torch.autograd.grad(second, wanted, create_graph=True, allow_unused=True)
    except (RuntimeError, NotImplementedError) as e:
        return (*found, _refused(e), None)
    found.append(_seen(grads))
    third = _weighed(grads, 3)
    if third is None:
        return (*found, None)
    return (*found, _seen(torch.autograd.grad(third, wanted, allow_unused=True)))


# Left as they are (chapter 16zgs_gradient_graphs_swept): the fields that differ from torch's.
# grid_sample with the grid alone requiring grad: refgrad's second derivative for the grid is
# autograd's of its own gradient (an AddBackward0, requiring grad even where torch's 2-d
# bilinear one does not); conv_tbc's gradients are not torch's in-place copies (CopySlices).
LEFT = {
    **{f"grid_sample2d_{mode}_{padding}_{align}@1": (3, 4)
       for mode in ("bilinear", "bicubic") for padding in ("zeros", "border", "reflection")
       for align in (False, True)},
    **{f"grid_sample3d_bilinear_{padding}_{align}@1": (3, 4)
       for padding in ("zeros", "border", "reflection") for align in (False, True)},
    "conv_tbc": (1,),
}


@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta")
@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_gradient_graphs_are_torchs(key):
    found, expected = observe(key), EXPECTED[key]
    kept = [i for i in range(len(expected)) if i not in LEFT.get(key, ())]
    assert [found[i] for i in kept] == [expected[i] for i in kept]


def test_every_case_is_expected():
    keys = {name for name in CASES} | {f"{name}@{i}" for name, (shapes, _, _) in CASES.items()
                                       if len(shapes) > 1 for i in range(len(shapes))}
    assert keys == set(EXPECTED)


def test_a_sampling_gradient_of_an_input_alone_requires_grad():
    x = torch.rand(1, 1, 4, 4, requires_grad=True)
    grid = torch.rand(1, 3, 3, 2) * 2 - 1
    (g,) = torch.autograd.grad(torch.nn.functional.grid_sample(
        x, grid, align_corners=False).pow(2).sum(), x, create_graph=True)
    node = g.grad_fn
    assert g.requires_grad and node.name() == "GridSampler2DBackwardBackward0"
    assert [type(n).__name__ if n else None for n, _ in node.next_functions] == [
        "MulBackward0", "AccumulateGrad", None]
    assert node._saved_grid.shape == (1, 3, 3, 2) and node._saved_input.shape == (1, 1, 4, 4)
    assert node._saved_grad_output.shape == (1, 1, 3, 3)
    (g ** 2).sum().backward()
    assert x.grad is not None  # through the squared output, not the input's own gradient
    with pytest.raises(RuntimeError, match=f"^{FREED}"):
        node._saved_grid  # noqa: B018


@pytest.mark.parametrize("grid_requires_grad", [False, True])
def test_a_freed_sampling_gradient_refuses_a_second_pass(grid_requires_grad):
    x = torch.rand(1, 1, 4, 4, requires_grad=True)
    grid = (torch.rand(1, 3, 3, 2) * 2 - 1).requires_grad_(grid_requires_grad)
    (g,) = torch.autograd.grad(torch.nn.functional.grid_sample(
        x, grid, align_corners=False).sum(), x, create_graph=True)
    total = (g * g).sum()
    assert torch.autograd.grad(total, x, allow_unused=True) == (None,)
    with pytest.raises(RuntimeError, match=f"^{FREED}"):
        torch.autograd.grad(total, x, allow_unused=True)
