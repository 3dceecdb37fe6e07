"""Oracle test: scaled_dot_product_attention, grid_sample and affine_grid, refgrad against
real torch 2.13.

Collected only in the oracle session, where torch is installed. Each case runs on both
libraries from the same NumPy operands: the whole graph (every node's name, its saved
values, numbers as they are and tensors by shape, strides and dtype, walked along
next_functions), the values, the result's strides and dtype, every gradient as the
kernels hand it on (strides and version) and as a leaf's .grad keeps it must agree.
"""

import itertools

import numpy as np
import pytest
import torch

import refgrad


def _shown(value, lib):
    if isinstance(value, lib.Tensor):
        return ("tensor", tuple(value.shape), value.stride(), str(value.dtype))
    return value


def _graph(out, lib):
    """Every node below ``out`` in preorder, with its saved attributes."""
    found, stack = [], [(out.grad_fn, 0)]
    while stack:
        node, depth = stack.pop()
        if node is None:
            found.append((depth, None))
            continue
        saved = {name: _shown(getattr(node, name), lib) for name in dir(node)
                 if name.startswith("_saved_")}
        found.append((depth, node.name(), saved))
        stack.extend((child, depth + 1) for child, _ in reversed(node.next_functions))
    return found


def _run(lib, arrays, grads, call):
    leaves = [lib.tensor(a, requires_grad=g) for a, g in zip(arrays, grads)]
    out = call(lib, *leaves)
    graph = _graph(out, lib) if out.grad_fn is not None else None
    raw = ()
    if out.requires_grad:
        probe = lib.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)))
        wanted = [leaf for leaf in leaves if leaf.requires_grad]
        raw = tuple((g.stride(), g._version) for g in lib.autograd.grad(
            out, wanted, probe, retain_graph=True))  # as the kernels hand them on
        out.backward(probe)
    found = [(leaf.grad.detach().numpy(), leaf.grad.stride(), leaf.grad._version)
             if leaf.grad is not None else None for leaf in leaves]
    return out.detach().numpy(), out.stride(), str(out.dtype), graph, raw, found


def _agree(arrays, grads, call, rtol):
    mine, theirs = (_run(lib, arrays, grads, call) for lib in (refgrad, torch))
    np.testing.assert_allclose(mine[0], theirs[0], rtol=rtol, atol=rtol)
    assert mine[1:5] == theirs[1:5]
    for a, b in zip(mine[5], theirs[5]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a[0], b[0], rtol=rtol, atol=rtol)
            assert a[1:] == b[1:]  # the .grad's strides and version


RNG = np.random.default_rng(7)
SHAPES = {
    "three_dims": [(2, 3, 4), (2, 5, 4), (2, 5, 6)],
    "four_dims_math": [(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6)],
    "four_dims_fused": [(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)],
    "grouped": [(2, 4, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)],
}
OPTIONS = [{}, {"is_causal": True}, {"scale": 0.3}, {"scale": -0.3}, {"mask": "bool"},
           {"mask": "float"}, {"mask": "grad"}]


@pytest.mark.parametrize(("shapes", "options", "dtype", "grads"), list(itertools.product(
    sorted(SHAPES), OPTIONS, (np.float64, np.float32), ((True, True, True), (False, True, False),
                                                        (False, False, False)))))
def test_attention_agrees(shapes, options, dtype, grads):
    shapes = SHAPES[shapes]
    arrays = [RNG.standard_normal(s).astype(dtype) for s in shapes]
    mask = options.get("mask")
    size = (shapes[0][-2], shapes[1][-2])
    if mask == "bool":
        arrays.append(RNG.random(size) > 0.3)
    elif mask is not None:
        arrays.append(RNG.standard_normal(size).astype(dtype))
    grads = grads + ((mask == "grad",) if mask else ())
    extra = {k: v for k, v in options.items() if k != "mask"}
    if shapes[0][1] != shapes[1][1] and len(shapes[0]) == 4:
        extra["enable_gqa"] = True

    def call(lib, q, k, v, m=None):
        return lib.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m, **extra)

    _agree(arrays, grads, call, 1e-12 if dtype == np.float64 else 2e-6)


GRIDS = {2: ((2, 3, 4, 5), (2, 3, 2, 2)), 3: ((1, 2, 3, 4, 2), (1, 2, 2, 3, 3))}


@pytest.mark.parametrize(("n", "mode", "padding", "align_corners", "dtype"), [
    case for case in itertools.product((2, 3), ("bilinear", "nearest", "bicubic"),
                                       ("zeros", "border", "reflection"), (False, True),
                                       (np.float64, np.float32))
    if not (case[0] == 3 and case[1] == "bicubic")])
def test_grid_sample_agrees(n, mode, padding, align_corners, dtype):
    image, grid = GRIDS[n]
    arrays = [RNG.standard_normal(image).astype(dtype),
              RNG.uniform(-1.3, 1.3, grid).astype(dtype)]

    def call(lib, x, g):
        return lib.nn.functional.grid_sample(x, g, mode, padding, align_corners)

    _agree(arrays, (True, True), call, 1e-12 if dtype == np.float64 else 1e-5)


@pytest.mark.parametrize(("size", "align_corners", "dtype"), list(itertools.product(
    [(2, 1, 3, 4), (1, 2, 1, 5), (2, 1, 2, 3, 4)], (False, True), (np.float64, np.float32))))
def test_affine_grid_agrees(size, align_corners, dtype):
    n = len(size) - 2
    theta = RNG.standard_normal((size[0], n, n + 1)).astype(dtype)

    def call(lib, t):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the unit-size warning, checked elsewhere
            return lib.nn.functional.affine_grid(t, size, align_corners)

    _agree([theta], (True,), call, 1e-12 if dtype == np.float64 else 1e-6)
