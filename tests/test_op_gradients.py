"""Every differentiable row of the op table, checked with gradcheck and gradgradcheck.

The sweep is driven by the table: RECIPES says, for each row, how to call it (which
function, how many tensor inputs, which values are allowed, which parameters), and
test_every_differentiable_row_has_a_recipe makes sure that no row goes unchecked.
"""

import dataclasses
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import (
    OPS,
    activation_gradients,
    activations,
    arithmetic,
    convolution_backward,
    embedding_gradients,
    indexing,
    loss_gradients,
    loss_kernel_gradients,
    pointwise,
    scattering,
    shaping,
    smooth_gradients,
    trilinear,
)
from refgrad._ops.dispatch import call
from refgrad._ops.pooled import avg_pool
from refgrad._ops.putting import put
from refgrad._ops.rounding import BARE
from refgrad._ops.softmax_backward import log_softmax_backward_data, softmax_backward_data
from refgrad._ops.table import Op, register
from refgrad._tensor import make_tensor
from refgrad.autograd import forward_ad as fwAD
from refgrad.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from refgrad.nn import functional as F  # registers the rows of chapter 16q

# Tighter than torch's default rtol=1e-3, which lets a 0.1% error through exactly.
RTOL = 1e-4


@dataclass(frozen=True)
class Recipe:
    """How to call one row: ``call(*tensors, **params)``."""

    call: Callable
    values: tuple[str, ...] = ("any",)  # per input: any, positive, nonzero, small, inside, ...
    params: Callable = lambda shapes: st.just({})  # shapes -> strategy of keyword params
    min_ndim: int = 0
    max_ndim: int = 3
    broadcast: bool = True  # tensor inputs may have different, broadcastable shapes
    variadic: bool = False  # the tensors are passed as one list (stack)
    twice: bool = True  # twice differentiable: check gradgradcheck too
    shapes: Callable | None = None  # a strategy of the inputs' shapes, when they are tied


def _dims(shapes):
    ndim = len(shapes[0])
    return st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)


def _expand_to(shapes):
    shape = shapes[0]
    lead = st.lists(st.integers(1, 3), max_size=2)
    grown = st.tuples(*(st.integers(1, 3) if n == 1 else st.just(n) for n in shape))
    return st.builds(lambda a, b: {"size": tuple(a) + tuple(b)}, lead, grown)


def _new_shape(shapes):
    shape = shapes[0]
    n = int(np.prod(shape))
    return st.sampled_from([(n,), (1, n), tuple(reversed(shape)), (n, 1, 1)]).map(
        lambda s: {"shape": s})


def _sizes(*names):
    """Shapes of tied sizes: _sizes("nm", "m") draws n and m once for both."""
    letters = sorted(set("".join(names)))
    return st.tuples(*(st.integers(1, 3) for _ in letters)).map(
        lambda ns: [tuple(dict(zip(letters, ns))[c] for c in name) for name in names])


def _dim(shapes):
    return st.integers(0, len(shapes[0]) - 1)


def _dim_keepdim(shapes):
    return st.builds(lambda d, k: {"dim": d, "keepdim": k}, _dim(shapes), st.booleans())


def _dims_keepdim(shapes):
    return st.builds(lambda d, k: {"dim": d, "keepdim": k}, _dims(shapes), st.booleans())


def _dim_and_index(shapes):
    return _dim(shapes).flatmap(lambda d: st.integers(-shapes[0][d], shapes[0][d] - 1).map(
        lambda i: {"dim": d, "index": i}))


def _select_backward_params(shapes):
    g = shapes[0]
    return st.tuples(st.integers(0, len(g)), st.integers(1, 3)).flatmap(
        lambda t: st.integers(0, t[1] - 1).map(lambda i: {
            "input_sizes": g[:t[0]] + (t[1],) + g[t[0]:], "dim": t[0], "index": i}))


def _slice_params(shapes):
    def pick(d):
        n = shapes[0][d]
        return st.tuples(st.integers(0, n - 1), st.integers(1, n + 1), st.integers(1, 2)).map(
            lambda t: {"dim": d, "start": t[0], "end": max(t[1], t[0] + 1), "step": t[2]})

    return _dim(shapes).flatmap(pick)


def _slice_backward_params(shapes):
    g = shapes[0]

    def pick(d, start, step, extra):
        end = start + (g[d] - 1) * step + 1
        sizes = g[:d] + (end + extra,) + g[d + 1:]
        return {"input_sizes": sizes, "dim": d, "start": start, "end": end, "step": step}

    return st.builds(pick, _dim(shapes), st.integers(0, 2), st.integers(1, 2),
                     st.integers(0, 1))


def _int_index(shapes):
    n = shapes[0][0]
    return st.lists(st.integers(-n, n - 1), min_size=1, max_size=4).map(
        lambda ix: {"index": torch.tensor(ix)})  # repeats accumulate in backward


def _index_put_params(shapes):
    n, k = shapes[0][0], shapes[1][0]
    unique = st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True)
    repeated = st.lists(st.integers(0, n - 1), min_size=k, max_size=k)
    return st.booleans().flatmap(lambda acc: (repeated if acc or k > n else unique).map(
        lambda ix: {"index": torch.tensor(ix), "accumulate": acc or k > n}))


_COMPARED = ("eq", "ne", "lt", "le", "gt", "ge")
_INDEX_PUT_SHAPES = st.tuples(st.integers(1, 3), st.integers(1, 3), st.lists(
    st.integers(1, 3), max_size=2)).map(lambda t: [(t[0], *t[2]), (t[1], *t[2])])


def _cat_shapes_of(base, dim, sizes):
    return [base[:dim] + (n,) + base[dim + 1:] for n in sizes]


def _bound_shape(shape, keep):
    """``shape`` with the dimensions ``keep`` marks False at size one."""
    return tuple(n if k else 1 for n, k in zip(shape, keep))


_BOUNDED_SHAPES = st.lists(st.integers(1, 3), max_size=3).flatmap(
    lambda base: st.tuples(st.just(tuple(base)),
                           *(st.lists(st.booleans(), min_size=len(base), max_size=len(base))
                             .map(lambda keep, base=tuple(base): _bound_shape(base, keep))
                             for _ in range(2))).map(list))

_cat_shapes = st.lists(st.integers(1, 3), min_size=1, max_size=3).flatmap(
    lambda base: st.builds(_cat_shapes_of, st.just(tuple(base)),
                           st.integers(0, len(base) - 1),
                           st.lists(st.integers(1, 3), min_size=3, max_size=3)))


def _cat_dim(shapes):
    agree = [d for d in range(len(shapes[0]))
             if all(s[:d] + s[d + 1:] == shapes[0][:d] + shapes[0][d + 1:] for s in shapes)]
    return st.sampled_from(agree).map(lambda d: {"dim": d})


def _dims_as(name):
    return lambda shapes: _dims(shapes).map(lambda dims: {name: tuple(dims)})


def _any_dim(shapes):
    ndim = max(len(shapes[0]), 1)
    return st.integers(-ndim, ndim - 1).map(lambda d: {"dim": d})


def _one_of(name, *values):
    return lambda shapes: st.sampled_from(values).map(lambda v: {name: v})


RECIPES: dict[str, Recipe] = {
    "add": Recipe(lambda a, b, alpha: torch.add(a, b, alpha=alpha), ("any", "any"),
                  _one_of("alpha", 1, 2, -0.5)),
    "sub": Recipe(lambda a, b, alpha: torch.sub(a, b, alpha=alpha), ("any", "any"),
                  _one_of("alpha", 1, 2, -0.5)),
    "rsub": Recipe(lambda a, other: torch.rsub(a, other), params=_one_of("other", 1.5, -2)),
    "rsub_tensor": Recipe(lambda a, b, alpha: torch.rsub(a, b, alpha=alpha), ("any", "any"),
                          _one_of("alpha", 1, 2, -0.5)),
    "mul": Recipe(torch.mul, ("any", "any")),
    "div": Recipe(torch.div, ("any", "nonzero")),
    "reciprocal": Recipe(torch.reciprocal, ("nonzero",)),
    "neg": Recipe(torch.neg),
    "pow": Recipe(lambda a, exponent: torch.pow(a, exponent), ("positive",),
                  _one_of("exponent", 0, 1, 2, 3, 0.5, -1.5, 2.5)),
    "pow_tensor": Recipe(torch.pow, ("positive", "any")),
    "pow_scalar": Recipe(lambda e, base: torch.pow(base, e),
                         params=_one_of("base", 0.5, 2.0, 3.0)),
    "where": Recipe(lambda a, b, condition: torch.where(condition, a, b), ("any", "any"),
                    lambda shapes: st.integers(0, 2**32 - 1).map(
                        lambda seed: {"condition": _condition(shapes, seed)})),
    "exp": Recipe(torch.exp),
    "log": Recipe(torch.log, ("positive",)),
    "sin": Recipe(torch.sin),
    "cos": Recipe(torch.cos),
    "clone": Recipe(torch.clone),
    "_to_copy": Recipe(lambda a: a.to(torch.float64, copy=True)),
    "sum": Recipe(torch.sum),
    "sum_dim": Recipe(lambda a, dim, keepdim: torch.sum(a, dim, keepdim), min_ndim=1,
                      params=lambda shapes: st.builds(
                          lambda d, k: {"dim": d, "keepdim": k}, _dims(shapes), st.booleans())),
    # reshape of a non-viewable input would record _unsafe_view instead
    "view": Recipe(lambda a, shape: a.contiguous().view(shape), params=_new_shape),
    # reshape's view of a tensor that is not contiguous, whatever the layout drawn: a
    # dimension of size 1 added, which every layout can view
    "_reshape_alias": Recipe(lambda a, shape: call(OPS["_reshape_alias"], (a,), {"shape": shape}),
                             params=lambda shapes: st.sampled_from(
                                 [(1, *shapes[0]), (*shapes[0], 1)]).map(lambda s: {"shape": s})),
    "expand": Recipe(lambda a, size: a.expand(size), params=_expand_to),
    "unsqueeze": Recipe(torch.unsqueeze, params=lambda shapes: st.integers(
        -len(shapes[0]) - 1, len(shapes[0])).map(lambda d: {"dim": d})),
    "squeeze_dim": Recipe(torch.squeeze, min_ndim=1, params=lambda shapes: st.integers(
        -len(shapes[0]), len(shapes[0]) - 1).map(lambda d: {"dim": d})),
    "squeeze_dims": Recipe(torch.squeeze, min_ndim=1, params=lambda shapes: _dims(shapes).map(
        lambda d: {"dim": tuple(d)})),
    "unbind": Recipe(torch.unbind, min_ndim=1, params=lambda shapes: st.integers(
        0, len(shapes[0]) - 1).map(lambda d: {"dim": d})),
    "stack": Recipe(lambda *ts, dim: torch.stack(list(ts), dim), ("any", "any", "any"),
                    broadcast=False, variadic=True,
                    params=lambda shapes: st.integers(0, len(shapes[0])).map(
                        lambda d: {"dim": d})),
    "tan": Recipe(torch.tan, ("small",)),
    "tanh": Recipe(torch.tanh),
    "sigmoid": Recipe(torch.sigmoid),
    "sqrt": Recipe(torch.sqrt, ("positive",)),
    "rsqrt": Recipe(torch.rsqrt, ("positive",)),
    "relu": Recipe(torch.relu, ("nonzero",)),  # away from the kink at 0
    "threshold_backward": Recipe(pointwise.threshold_backward, ("any", "nonzero"),
                                 params=_one_of("threshold", 0, -0.5), broadcast=False),
    "tanh_backward": Recipe(pointwise.tanh_backward, ("any", "small"), broadcast=False),
    "sigmoid_backward": Recipe(pointwise.sigmoid_backward, ("any", "unit"), broadcast=False),
    # the rows a backward formula calls to scale, shift or divide by a number
    "mul_scalar": Recipe(arithmetic.mul_scalar, params=_one_of("number", 2, -0.5, 1.5)),
    "div_scalar": Recipe(arithmetic.div_scalar, params=_one_of("number", 2, -0.5, 1.5)),
    "add_scalar": Recipe(arithmetic.add_scalar, params=_one_of("number", 1, -0.5)),
    "sub_scalar": Recipe(arithmetic.sub_scalar, params=_one_of("number", 1, -0.5)),
    "sign": Recipe(torch.sign, ("nonzero",)),
    "abs": Recipe(torch.abs, ("nonzero",)),
    "clamp": Recipe(lambda a, bounds: torch.clamp(a, *bounds),
                    params=_one_of("bounds", (-0.5, 0.5), (None, 0.3), (-0.3, None))),
    # Bounds no larger than the input: torch's gradient refuses the others, and so does refgrad's
    "clamp_tensor": Recipe(torch.clamp, ("any", "any", "any"), shapes=_BOUNDED_SHAPES),
    "clamp_min": Recipe(lambda a, min: torch.clamp_min(a, min), params=_one_of("min", -0.5, 1)),
    "clamp_min_tensor": Recipe(torch.clamp_min, ("any", "any")),
    "clamp_max": Recipe(lambda a, max: torch.clamp_max(a, max), params=_one_of("max", 0.5, -1)),
    "clamp_max_tensor": Recipe(torch.clamp_max, ("any", "any")),
    "maximum": Recipe(torch.maximum, ("any", "any")),
    "minimum": Recipe(torch.minimum, ("any", "any")),
    "dot": Recipe(torch.dot, ("any", "any"), shapes=_sizes("n", "n")),
    "mv": Recipe(torch.mv, ("any", "any"), shapes=_sizes("nm", "m")),
    "mm": Recipe(torch.mm, ("any", "any"), shapes=_sizes("nm", "mp")),
    "bmm": Recipe(torch.bmm, ("any", "any"), shapes=_sizes("bnm", "bmp")),
    # indexing and shaping
    "select": Recipe(torch.select, min_ndim=1, params=_dim_and_index),
    "select_backward": Recipe(lambda g, **p: indexing.select_backward(g, **p),
                              params=_select_backward_params),
    # the row itself: a full-range slice spelled a[...] records AliasBackward0, as in torch
    "slice": Recipe(lambda a, **p: call(OPS["slice"], (a,), p), min_ndim=1,
                    params=_slice_params),
    "slice_backward": Recipe(lambda g, **p: indexing.slice_backward(g, **p), min_ndim=1,
                             params=_slice_backward_params),
    "index": Recipe(lambda a, index: a[index], min_ndim=1, params=_int_index),
    "index_put": Recipe(
        lambda a, v, index, accumulate: torch.index_put(a, [index], v, accumulate),
        ("any", "any"), params=_index_put_params, shapes=_INDEX_PUT_SHAPES),
    # the row index's backward records, called directly
    "_index_put_impl_": Recipe(
        lambda a, v, index, accumulate: call(OPS["_index_put_impl_"], (a, v), {
            "indices": [index], "accumulate": accumulate}),
        ("any", "any"), params=_index_put_params, shapes=_INDEX_PUT_SHAPES),
    "transpose": Recipe(torch.transpose, min_ndim=1, params=lambda shapes: st.tuples(
        _dim(shapes), _dim(shapes)).map(lambda d: {"dim0": d[0], "dim1": d[1]})),
    "t": Recipe(torch.t, max_ndim=2),
    "permute": Recipe(lambda a, dims: torch.permute(a, dims), params=lambda shapes: st.permutations(
        range(len(shapes[0]))).map(lambda d: {"dims": tuple(d)})),
    "squeeze": Recipe(torch.squeeze),
    # the in-place view ops, on a copy (a leaf that requires grad refuses them)
    "squeeze_": Recipe(lambda a: a.clone().squeeze_()),
    "squeeze_dim_": Recipe(lambda a, dim: a.clone().squeeze_(dim), min_ndim=1,
                           params=lambda shapes: st.integers(
                               -len(shapes[0]), len(shapes[0]) - 1).map(lambda d: {"dim": d})),
    "squeeze_dims_": Recipe(lambda a, dim: a.clone().squeeze_(dim), min_ndim=1,
                            params=lambda shapes: _dims(shapes).map(lambda d: {"dim": tuple(d)})),
    "unsqueeze_": Recipe(lambda a, dim: a.clone().unsqueeze_(dim),
                         params=lambda shapes: st.integers(
                             -len(shapes[0]) - 1, len(shapes[0])).map(lambda d: {"dim": d})),
    "t_": Recipe(lambda a: a.clone().t_(), max_ndim=2),
    "transpose_": Recipe(lambda a, dim0, dim1: a.clone().transpose_(dim0, dim1), min_ndim=1,
                         params=lambda shapes: st.tuples(_dim(shapes), _dim(shapes)).map(
                             lambda d: {"dim0": d[0], "dim1": d[1]})),
    "alias": Recipe(lambda a: a[...]),
    "_unsafe_view": Recipe(lambda a, shape: shaping.unsafe_view(a, shape), params=_new_shape),
    "cat": Recipe(lambda *ts, dim: torch.cat(list(ts), dim), ("any", "any", "any"),
                  broadcast=False, variadic=True, shapes=_cat_shapes, params=_cat_dim),
    # reductions
    "mean": Recipe(torch.mean),
    "mean_dim": Recipe(torch.mean, min_ndim=1, params=_dims_keepdim),
    "max": Recipe(torch.max),
    "min": Recipe(torch.min),
    "max_dim": Recipe(torch.max, min_ndim=1, params=_dim_keepdim),
    "min_dim": Recipe(torch.min, min_ndim=1, params=_dim_keepdim),
    "prod": Recipe(torch.prod),
    "prod_dim": Recipe(torch.prod, min_ndim=1, params=_dim_keepdim),
    "logsumexp": Recipe(torch.logsumexp, min_ndim=1, params=_dims_keepdim),
    "softmax": Recipe(torch.softmax, min_ndim=1, params=lambda shapes: _dim(shapes).map(
        lambda d: {"dim": d})),
    "log_softmax": Recipe(torch.log_softmax, min_ndim=1, params=lambda shapes: _dim(
        shapes).map(lambda d: {"dim": d})),
    # the rows the softmaxes' backward records, called directly, 0-d and negative dims included
    "_softmax_backward_data": Recipe(
        lambda g, y, dim: softmax_backward_data(g, y, dim, torch.float64),
        ("any", "unit"), params=_any_dim, broadcast=False),
    "_log_softmax_backward_data": Recipe(
        lambda g, y, dim: log_softmax_backward_data(g, y, dim, torch.float64),
        ("any", "any"), params=_any_dim, broadcast=False),
}


def _wide(min_ndim=1):
    """Shapes with every size at least 2, so that var's correction leaves freedom."""
    return st.lists(st.integers(2, 3), min_size=min_ndim, max_size=3).map(lambda s: [tuple(s)])


def _spread_params(shapes):
    dims = st.one_of(st.none(), _dims(shapes).map(tuple))
    return st.builds(lambda d, c, k: {"dim": d, "correction": c, "keepdim": k}, dims,
                     st.sampled_from([0, 1, 0.5, None]), st.booleans())


def _norm_params(shapes):
    dims = st.one_of(st.none(), _dims(shapes).map(tuple)) if shapes[0] else st.none()
    orders = st.sampled_from([1, 2, 3, 1.5, 0.5, -1, float("inf"), float("-inf")])
    return st.builds(lambda o, d, k: {"ord": o, "dim": d, "keepdim": k}, orders, dims,
                     st.booleans())


def _extreme_params(shapes):
    dims = st.just(()) if not shapes[0] else st.one_of(st.just(()), _dims(shapes).map(tuple))
    return st.builds(lambda d, k: {"dim": d, "keepdim": k}, dims, st.booleans())


def _mask(shapes):
    return st.integers(0, 2**32 - 1).map(lambda seed: {"mask": _condition(shapes[:1], seed)})


def _repeats(shapes):
    ndim = len(shapes[0])
    return st.lists(st.integers(1, 3), min_size=ndim, max_size=ndim + 2).map(
        lambda r: {"repeats": tuple(r)})


def _split_params(shapes):
    return st.builds(lambda d, n: {"dim": d, "split_size": n}, _dim(shapes), st.integers(1, 3))


def _sizes_summing_to(n):
    # no empty pieces: gradgradcheck has nothing to perturb in an empty output
    cuts = st.lists(st.integers(1, n - 1), max_size=2, unique=True).map(sorted) if n > 1 else (
        st.just([]))
    return cuts.map(lambda c: [b - a for a, b in zip([0, *c], [*c, n])])


def _split_sizes_params(shapes):
    return _dim(shapes).flatmap(lambda d: _sizes_summing_to(shapes[0][d]).map(
        lambda sizes: {"dim": d, "split_sizes": sizes}))


def _gather_params(shapes):
    shape = shapes[0]

    def index(d, sizes, seed):
        rng = np.random.default_rng(seed)
        return {"dim": d, "index": torch.tensor(rng.integers(0, shape[d], sizes))}

    def pick(d):
        sizes = st.tuples(*(st.integers(1, 3) if k == d else st.integers(1, n)
                            for k, n in enumerate(shape)))
        return st.builds(index, st.just(d), sizes, st.integers(0, 2**32 - 1))

    return _dim(shapes).flatmap(pick)


RECIPES.update({
    "var": Recipe(lambda a, **p: torch.var(a, **p), shapes=_wide(), params=_spread_params),
    "std": Recipe(lambda a, **p: a.std(**p), shapes=_wide(), params=_spread_params),
    # away from zero, where |x| has its kink
    "linalg_vector_norm": Recipe(lambda a, **p: torch.linalg.vector_norm(a, **p), ("nonzero",),
                                 params=_norm_params),
    "amax": Recipe(lambda a, **p: torch.amax(a, **p), params=_extreme_params),
    "amin": Recipe(lambda a, **p: a.amin(**p), params=_extreme_params),
    "cumsum": Recipe(lambda a, dim: torch.cumsum(a, dim), params=lambda shapes: st.integers(
        -max(len(shapes[0]), 1), max(len(shapes[0]), 1) - 1).map(lambda d: {"dim": d})),
    "masked_fill": Recipe(lambda a, mask: torch.masked_fill(a, mask, 0.5), params=_mask),
    "masked_fill_tensor": Recipe(lambda a, v, mask: a.masked_fill(mask, v), ("any", "any"),
                                 params=_mask, shapes=st.lists(st.integers(1, 3), max_size=3).map(
                                     lambda s: [tuple(s), ()])),
    "repeat": Recipe(lambda a, repeats: a.repeat(repeats), params=_repeats),
    "split": Recipe(lambda a, split_size, dim: torch.split(a, split_size, dim), min_ndim=1,
                    params=_split_params),
    "split_with_sizes": Recipe(lambda a, split_sizes, dim: a.split(split_sizes, dim),
                               min_ndim=1, params=_split_sizes_params),
    "unsafe_split": Recipe(lambda a, split_size, dim: torch.unsafe_split(a, split_size, dim),
                           min_ndim=1, params=_split_params),
    "unsafe_split_with_sizes": Recipe(
        lambda a, split_sizes, dim: a.unsafe_split_with_sizes(split_sizes, dim), min_ndim=1,
        params=_split_sizes_params),
    "gather": Recipe(lambda a, dim, index: torch.gather(a, dim, index), min_ndim=1,
                     params=_gather_params),
})


# The rows of in-place ops and views (chapters 26 and 27), called out of place.
_IP = torch._ops.inplace_writes
_DV = torch._ops.diagonal_view
RECIPES.update({
    "zero_": Recipe(lambda a: call(_IP.ZERO, (a,))),
    # Bounds that leave nothing to chance, so that the draws repeat.
    "uniform_": Recipe(lambda a: call(OPS["uniform_"], (a,), {
        "generator": None, "low": 0.5, "high": 0.5})),
    "normal_": Recipe(lambda a: call(OPS["normal_"], (a,), {
        "generator": None, "mean": -1.5, "std": 0.0})),
    "exponential_": Recipe(lambda a: call(OPS["exponential_"], (a,), {
        "generator": None, "lambd": float("inf")})),
    "random_.from": Recipe(lambda a: call(OPS["random_.from"], (a,), {
        "generator": None, "low": 3, "high": 4})),
    "random_.to": Recipe(lambda a: call(OPS["random_.to"], (a,), {
        "generator": None, "high": 1})),
    # A generator seeded afresh at each call, so that the draws repeat; on a contiguous
    # copy, since draws follow memory order and the oracle's torch leaves are contiguous.
    "random_": Recipe(lambda a: call(OPS["random_"], (a.contiguous(),), {
        "generator": torch.Generator().manual_seed(0)})),
    "cauchy_": Recipe(lambda a: call(OPS["cauchy_"], (a.contiguous(),), {
        "generator": torch.Generator().manual_seed(0), "median": 1.5, "sigma": 2.0})),
    "log_normal_": Recipe(lambda a: call(OPS["log_normal_"], (a.contiguous(),), {
        "generator": torch.Generator().manual_seed(0), "mean": 0.5, "std": 0.25})),
    "geometric_": Recipe(lambda a: call(OPS["geometric_"], (a.contiguous(),), {
        "generator": torch.Generator().manual_seed(0), "p": 0.25})),
    # Rates of zero: counts of zero, whatever the generator holds.
    "poisson": Recipe(lambda a: call(OPS["poisson"], (a * 0.0,), {"generator": None})),
    # Probabilities of exactly 1 and standard deviations of 0, so that the draws are
    # constant, as torch's zero gradients say.
    "bernoulli": Recipe(lambda a: call(OPS["bernoulli"], (a * 0.0 + 1.0,), {
        "generator": None})),
    "normal.Tensor_float": Recipe(lambda a: call(OPS["normal.Tensor_float"], (a * 0.0 + 3.0,), {
        "std": 0.0, "generator": None})),
    "normal.float_Tensor": Recipe(lambda a: call(OPS["normal.float_Tensor"], (a * 0.0,), {
        "mean": 2.0, "generator": None})),
    "normal.Tensor_Tensor": Recipe(lambda a, b: call(OPS["normal.Tensor_Tensor"], (
        a * 0.0 + 3.0, b * 0.0), {"generator": None}), ("any", "any"),
        # one shape: torch's forward mode fails on this row's broadcasting
        shapes=st.just([(2, 3), (2, 3)])),
    "bernoulli_.Tensor": Recipe(lambda a, b: call(OPS["bernoulli_.Tensor"], (a, b * 0.0 + 1.0), {
        "generator": None}), ("any", "any"), shapes=st.just([(2, 3), (2, 3)])),
    "bernoulli_.float": Recipe(lambda a: call(OPS["bernoulli_.float"], (a,), {
        "generator": None, "p": 1.0})),
    "fill_": Recipe(lambda a: call(_IP.FILL, (a,), {"value": 2.0})),
    "fill_.Tensor": Recipe(lambda a, v: call(_IP.FILL_TENSOR, (a, v)), ("any", "any"),
                           shapes=st.just([(2, 3), ()])),
    "copy_": Recipe(lambda a, s: call(_IP.COPY, (a, s), {"src_dtype": s.dtype}),
                    ("any", "any"), shapes=st.sampled_from([[(2, 3), (3,)], [(2, 3), (2, 3)]])),
    "index_put_": Recipe(
        lambda a, v, index, accumulate: call(_IP.INDEX_PUT_, (a, v), {
            "indices": [index], "accumulate": accumulate}),
        ("any", "any"), params=_index_put_params,
        shapes=st.tuples(st.integers(1, 3), st.integers(1, 3), st.lists(
            st.integers(1, 3), max_size=2)).map(lambda t: [(t[0], *t[2]), (t[1], *t[2])])),
    "diagonal": Recipe(lambda a, **p: torch.diagonal(a, **p),
                       shapes=st.sampled_from([[(3, 4)], [(2, 3, 3)]]),
                       params=lambda shapes: st.builds(
                           lambda o, d: {"offset": o, "dim1": d[0], "dim2": d[1]},
                           st.integers(-1, 1), st.sampled_from([(0, 1), (1, 0), (-1, 0)]))),
    "diagonal_backward": Recipe(
        lambda g: call(_DV.DIAGONAL_BACKWARD, (g,), {
            "input_sizes": (3, 4), "offset": 1, "dim1": 0, "dim2": 1}),
        shapes=st.just([(3,)])),
    "unfold": Recipe(lambda a, **p: a.unfold(**p), shapes=st.sampled_from([[(5,)], [(2, 4)]]),
                     params=lambda shapes: st.builds(
                         lambda size, step: {"dimension": -1, "size": size, "step": step},
                         st.integers(1, 3), st.integers(1, 3))),
    "unfold_backward": Recipe(
        lambda g: call(torch._ops.windows.UNFOLD_BACKWARD, (g,), {
            "input_sizes": (2, 5), "dim": 1, "size": 3, "step": 1}),  # windows that overlap
        shapes=st.just([(2, 3, 3)])),
    # Comparisons written in place: values far from the number or tensor compared with.
    **{f"{name}_": Recipe(lambda a, name=name: call(OPS[f"{name}_"], (a,), {
        "other": 1.5, "self_dtype": a.dtype}), ("small",)) for name in _COMPARED},
    **{f"{name}_.Tensor": Recipe(lambda a, b, name=name: call(OPS[f"{name}_.Tensor"], (a, b), {
        "self_dtype": a.dtype}), ("small", "above_one"),
        shapes=st.sampled_from([[(2, 3), (3,)], [(2, 3), (2, 3)]])) for name in _COMPARED},
    "_fw_primal": Recipe(lambda a: call(OPS["_fw_primal"], (a,))),  # unpack_dual's primal
    # Steps and saw teeth: their jumps are rare among values drawn at random.
    "div_mode": Recipe(lambda a, b, rounding_mode: torch.div(a, b, rounding_mode=rounding_mode),
                       ("any", "nonzero"), _one_of("rounding_mode", None, "trunc", "floor")),
    "remainder": Recipe(torch.remainder, ("any", "nonzero")),
    "fmod": Recipe(torch.fmod, ("any", "nonzero")),
    "remainder_by_number": Recipe(lambda a, other: torch.remainder(a, other),
                                  params=_one_of("other", 1.5, -0.75, 2)),
    "fmod_by_number": Recipe(lambda a, other: torch.fmod(a, other),
                             params=_one_of("other", 1.5, -0.75, 2)),
    "floor": Recipe(torch.floor), "ceil": Recipe(torch.ceil), "round": Recipe(torch.round),
    "trunc": Recipe(torch.trunc), "frac": Recipe(torch.frac),
    "round_decimals": Recipe(lambda a, decimals: torch.round(a, decimals=decimals),
                             params=_one_of("decimals", 1, 2, -1)),
    "log1p": Recipe(torch.log1p, ("positive",)), "log2": Recipe(torch.log2, ("positive",)),
    "log10": Recipe(torch.log10, ("positive",)), "expm1": Recipe(torch.expm1),
    "exp2": Recipe(torch.exp2), "sinh": Recipe(torch.sinh), "cosh": Recipe(torch.cosh),
    "asin": Recipe(torch.asin, ("inside",)), "acos": Recipe(torch.acos, ("inside",)),
    "atan": Recipe(torch.atan), "asinh": Recipe(torch.asinh),
    "acosh": Recipe(torch.acosh, ("above_one",)), "atanh": Recipe(torch.atanh, ("inside",)),
    "deg2rad": Recipe(torch.deg2rad), "rad2deg": Recipe(torch.rad2deg),
    "atan2": Recipe(torch.atan2, ("nonzero", "nonzero")),
    "flip": Recipe(lambda a, dims: torch.flip(a, dims), min_ndim=1, params=_dims_as("dims")),
    "roll": Recipe(lambda a, **p: torch.roll(a, **p), min_ndim=1, params=lambda shapes: st.one_of(
        st.just({"shifts": 1}), _dims_as("dims")(shapes).map(
            lambda p: {"shifts": tuple(range(1, len(p["dims"]) + 1)), **p}))),
    "tril": Recipe(lambda a, diagonal: torch.tril(a, diagonal), min_ndim=2,
                   params=_one_of("diagonal", 0, 1, -1)),
    "triu": Recipe(lambda a, diagonal: a.triu(diagonal), min_ndim=2,
                   params=_one_of("diagonal", 0, 2, -1)),
    "lerp": Recipe(lambda a, b, weight: torch.lerp(a, b, weight), ("any", "any"),
                   _one_of("weight", 0.25, 0.75, -0.5, 1.5)),
    "lerp_tensor": Recipe(torch.lerp, ("any", "any", "any")),
    "addcmul": Recipe(lambda a, b, c, value: torch.addcmul(a, b, c, value=value),
                      ("any", "any", "any"), _one_of("value", 1, 0.5, -2)),
    "addcdiv": Recipe(lambda a, b, c, value: torch.addcdiv(a, b, c, value=value),
                      ("any", "any", "nonzero"), _one_of("value", 1, 0.5, -2)),
    "nan_to_num": Recipe(torch.nan_to_num),
    "sort": Recipe(lambda a, **p: torch.sort(a, **p).values, min_ndim=1,
                   params=lambda shapes: st.builds(lambda d, down: {"dim": d, "descending": down},
                                                   _dim(shapes), st.booleans())),
    "topk": Recipe(lambda a, **p: torch.topk(a, **p).values, min_ndim=1,
                   params=lambda shapes: _dim(shapes).flatmap(lambda d: st.builds(
                       lambda k, big: {"dim": d, "k": k, "largest": big},
                       st.integers(1, shapes[0][d]), st.booleans()))),
    "masked_select": Recipe(lambda a, mask: torch.masked_select(a, mask), params=_mask),
    "index_select": Recipe(lambda a, dim, index: torch.index_select(a, dim, index), min_ndim=1,
                           params=lambda shapes: _dim(shapes).flatmap(lambda d: st.lists(
                               st.integers(0, shapes[0][d] - 1), min_size=1, max_size=4).map(
                               lambda i: {"dim": d, "index": torch.tensor(i, dtype=torch.int64)}))),
    # on a contiguous tensor, whose storage holds its elements in order, as torch's does
    "as_strided": Recipe(lambda a: torch.as_strided(a.contiguous(), (2, 2), (1, 3), 1),
                         shapes=st.just([(2, 3)])),
    "as_strided_": Recipe(lambda a: a.contiguous().clone().as_strided_((2, 2), (1, 3), 1),
                          shapes=st.just([(2, 3)])),
    # refgrad's gradient of the input, not torch's: see the chapter "Views"
    "as_strided_scatter": Recipe(
        lambda a, s: torch.as_strided_scatter(a.contiguous(), s, (2, 2), (1, 3), 1),
        ("any", "any"), shapes=st.just([(2, 3), (2, 2)])),
    # zeros: cumprod's gradient is a polynomial there, which finite differences check well
    "cumprod": Recipe(lambda a, dim: torch.cumprod(a, dim), ("zeros",), params=_any_dim),
    "cummax": Recipe(lambda a, dim: torch.cummax(a, dim).values, params=_any_dim),
    "cummin": Recipe(lambda a, dim: a.cummin(dim)[0], params=_any_dim),
    "logcumsumexp": Recipe(lambda a, dim: a.logcumsumexp(dim), params=_any_dim),
    "logaddexp": Recipe(torch.logaddexp, ("any", "any")),
    "logaddexp2": Recipe(torch.logaddexp2, ("any", "any")),
    "hypot": Recipe(torch.hypot, ("nonzero", "nonzero")),
    "xlogy": Recipe(torch.xlogy, ("any", "positive")),
    "number_xlogy": Recipe(lambda b, self: torch.xlogy(self, b), ("positive",),
                           params=_one_of("self", 1.5, -2, 0)),
    "xlogy_by_number": Recipe(lambda a, other: a.xlogy(other), params=_one_of("other", 2.5, 3)),
    "logit": Recipe(lambda a, eps: torch.logit(a, eps), ("unit",),
                    params=_one_of("eps", None, 0.05, -1.0)),
    "sgn": Recipe(torch.sgn),
    "erf": Recipe(torch.erf), "erfc": Recipe(torch.erfc),
    "erfinv": Recipe(torch.erfinv, ("inside",)),
    "nansum": Recipe(lambda a, **p: torch.nansum(a, **p), ("nans",),
                     params=lambda shapes: st.one_of(st.just({}), _dims_keepdim(shapes)
                                                     if shapes[0] else st.just({"dim": 0}))),
})


# Writes by index (chapter 16h). scatter and index_copy get distinct targets: where two
# elements land on one place, torch's gradient reaches the one overwritten too, which
# finite differences would not see.
_SCATTER_SHAPES = st.sampled_from([[(3, 4), (2, 4)], [(4,), (3,)], [(2, 3, 2), (2, 2, 2)],
                                   [(3, 2), (3, 2)]])


def _scatter_params(shapes, distinct):
    target, source = shapes[0], shapes[1]
    dims = [d for d in range(len(target))
            if all(source[k] <= target[k] for k in range(len(target)) if k != d)]

    def index(d, seed):
        rng = np.random.default_rng(seed)
        if not distinct:
            return {"dim": d, "index": torch.tensor(rng.integers(0, target[d], source))}
        wide = source[:d] + (target[d],) + source[d + 1:]
        order = np.argsort(rng.random(wide), axis=d)  # a shuffle of each line along d
        return {"dim": d, "index": torch.tensor(np.take(order, range(source[d]), axis=d))}

    return st.builds(index, st.sampled_from(dims), st.integers(0, 2**32 - 1))


def _slices_params(shapes, distinct):
    target, source = shapes[0], shapes[1]
    d = next(k for k in range(len(target)) if target[k] != source[k] or k == len(target) - 1)

    def index(seed):
        rng = np.random.default_rng(seed)
        picks = (rng.permutation(target[d])[:source[d]] if distinct
                 else rng.integers(0, target[d], source[d]))
        return {"dim": d, "index": torch.tensor(picks, dtype=torch.int64)}

    return st.integers(0, 2**32 - 1).map(index)


def _fill_params(shapes):
    return _dim(shapes).flatmap(lambda d: st.lists(
        st.integers(-shapes[0][d], shapes[0][d] - 1), min_size=1, max_size=4).map(
        lambda i: {"dim": d, "index": torch.tensor(i, dtype=torch.int64)}))


def _take_params(shapes):
    n = int(np.prod(shapes[0]))
    return st.lists(st.integers(-n, n - 1), min_size=1, max_size=4).map(
        lambda i: {"index": torch.tensor(i)})


def _put_params(shapes):
    """Positions for each source element: repeats only where the writes accumulate."""
    n, k = int(np.prod(shapes[0])), int(np.prod(shapes[1]))
    unique = st.permutations(range(-n, 0)).map(lambda p: list(p[:k]))
    repeated = st.lists(st.integers(-n, n - 1), min_size=k, max_size=k)
    return st.booleans().flatmap(lambda acc: (repeated if acc else unique).map(
        lambda ix: {"index": torch.tensor(ix), "accumulate": acc}))


def _reduce_params(shapes):
    return st.builds(lambda p, reduce, include_self: {**p, "reduce": reduce,
                                                      "include_self": include_self},
                     _scatter_params(shapes, False),
                     st.sampled_from(["sum", "prod", "mean", "amax", "amin"]), st.booleans())


def _index_reduce_params(shapes):
    return st.builds(lambda p, reduce, include_self: {**p, "reduce": reduce,
                                                      "include_self": include_self},
                     _slices_params(shapes, False),
                     st.sampled_from(["prod", "mean", "amax", "amin"]), st.booleans())


RECIPES.update({
    # called through its row: the function warns, once, that it is a beta
    "index_reduce": Recipe(lambda a, s, **p: call(OPS["index_reduce"], (a, s), p),
                           ("nonzero", "nonzero"), params=_index_reduce_params,
                           shapes=st.sampled_from([[(3, 4), (5, 4)], [(3, 4), (3, 2)],
                                                   [(4,), (6,)]])),
    "conj_physical_": Recipe(lambda a: call(OPS["conj_physical_"], (a,))),
    "scatter": Recipe(lambda a, s, dim, index: a.scatter(dim, index, s), ("any", "any"),
                      params=lambda shapes: _scatter_params(shapes, True), shapes=_SCATTER_SHAPES),
    "scatter_value": Recipe(lambda a, dim, index: torch.scatter(a, dim, index, -1.5),
                            params=lambda shapes: _scatter_params(shapes * 2, False),
                            shapes=_SCATTER_SHAPES.map(lambda s: s[:1])),
    "scatter_add": Recipe(lambda a, s, dim, index: torch.scatter_add(a, dim, index, s),
                          ("any", "any"), params=lambda shapes: _scatter_params(shapes, False),
                          shapes=_SCATTER_SHAPES),
    "scatter_reduce": Recipe(lambda a, s, **p: a.scatter_reduce(src=s, **p), ("nonzero", "nonzero"),
                             params=_reduce_params, shapes=_SCATTER_SHAPES),
    "index_add": Recipe(lambda a, s, dim, index, alpha: a.index_add(dim, index, s, alpha=alpha),
                        ("any", "any"), shapes=st.sampled_from([[(3, 4), (5, 4)], [(3, 4), (3, 2)],
                                                                [(4,), (6,)]]),
                        params=lambda shapes: st.builds(lambda p, alpha: {**p, "alpha": alpha},
                                                        _slices_params(shapes, False),
                                                        st.sampled_from([1, 2.0, -0.5]))),
    "index_copy": Recipe(lambda a, s, dim, index: torch.index_copy(a, dim, index, s),
                         ("any", "any"), params=lambda shapes: _slices_params(shapes, True),
                         shapes=st.sampled_from([[(4, 3), (2, 3)], [(3, 4), (3, 4)],
                                                 [(2, 3), (2, 2)]])),
    "index_fill": Recipe(lambda a, dim, index: a.index_fill(dim, index, 0.5), min_ndim=1,
                         params=_fill_params),
    "index_fill_tensor": Recipe(lambda a, v, dim, index: torch.index_fill(a, dim, index, v),
                                ("any", "any"), params=lambda shapes: _fill_params(shapes).map(
                                    lambda p: {**p, "index": p["index"] % shapes[0][p["dim"]]}),
                                shapes=st.sampled_from([[(3, 4), ()], [(2,), ()]])),
    "masked_scatter": Recipe(lambda a, s, mask: a.masked_scatter(mask, s), ("any", "any"),
                             params=_mask, shapes=st.sampled_from([[(3, 4), (12,)],
                                                                   [(2, 3), (7,)],
                                                                   [(3, 2), (3, 2)]])),
    "take": Recipe(lambda a, index: torch.take(a, index), params=_take_params),
    # the row masked_scatter's source gradient records, called directly; torch's forward
    # formula for it works only when the sizes are the gradient's own
    # the row take's gradient records, called directly
    "put": Recipe(lambda a, s, index, accumulate: put(a, index, s, accumulate),
                  ("any", "any"), params=_put_params,
                  shapes=st.sampled_from([[(3, 4), (5,)], [(2, 3), (2, 2)], [(4,), (4,)],
                                          [(), ()]])),
    "masked_scatter_backward": Recipe(
        lambda g, mask: scattering.masked_scatter_backward(g, mask, tuple(g.shape)),
        params=_mask),
})


def _scales(shapes):
    return st.sampled_from([(1, 1), (0.5, -2), (0, 1.5), (-1, 0)]).map(
        lambda p: {"beta": p[0], "alpha": p[1]})


def _added(function):
    return lambda a, b, c, beta, alpha: function(a, b, c, beta=beta, alpha=alpha)


def _cross_dim(shapes):
    return st.just({"dim": next(d for d, n in enumerate(shapes[0]) if n == 3)})


RECIPES.update({
    # input broadcast to the product's shape, or of the product's shape
    "addmm": Recipe(_added(torch.addmm), ("any",) * 3, _scales, shapes=st.one_of(
        _sizes("np", "nm", "mp"), _sizes("p", "nm", "mp"))),
    "addmv": Recipe(_added(torch.addmv), ("any",) * 3, _scales, shapes=st.one_of(
        _sizes("n", "nm", "m"), st.just([(), (2, 3), (3,)]))),
    "baddbmm": Recipe(_added(torch.baddbmm), ("any",) * 3, _scales, shapes=st.one_of(
        _sizes("bnp", "bnm", "bmp"), _sizes("np", "bnm", "bmp"))),
    "addbmm": Recipe(_added(torch.addbmm), ("any",) * 3, _scales, shapes=st.one_of(
        _sizes("np", "bnm", "bmp"), _sizes("p", "bnm", "bmp"))),
    "vdot": Recipe(torch.vdot, ("any", "any"), shapes=_sizes("n", "n")),
    "trace": Recipe(torch.trace, shapes=_sizes("nm")),
    "linalg_cross": Recipe(lambda a, b, dim: torch.linalg.cross(a, b, dim=dim), ("any", "any"),
                           _cross_dim, shapes=st.sampled_from([
                               [(3,), (3,)], [(2, 3), (1, 3)], [(3, 2), (3, 2)]])),
    "diag_embed": Recipe(lambda a, **p: torch.diag_embed(a, **p), min_ndim=1,
                         params=lambda shapes: st.builds(
                             lambda k, dims: {"offset": k, "dim1": dims[0], "dim2": dims[1]},
                             st.sampled_from([0, 1, -2]),
                             st.sampled_from([(-2, -1), (-1, 0), (0, 1)]))),
    "diagonal_copy": Recipe(lambda a, diagonal: torch.diag(a, diagonal), shapes=_sizes("nm"),
                            params=_one_of("diagonal", 0, 1, -1)),
    "rot90": Recipe(lambda a, k, dims: torch.rot90(a, k, dims), min_ndim=2,
                    params=lambda shapes: st.builds(lambda k, dims: {"k": k, "dims": dims},
                                                    st.sampled_from([1, 2, 3, -1, 0]),
                                                    st.sampled_from([(0, 1), (1, 0), (-1, 0)]))),
    "block_diag": Recipe(lambda *ts: torch.block_diag(*ts), ("any", "any", "any"),
                         broadcast=False, variadic=True, shapes=st.lists(st.lists(
                             st.integers(1, 3), max_size=2).map(tuple), min_size=3, max_size=3)),
})



def _conditioned(a):
    """Small entries and 3 on the diagonal: well away from a singular matrix."""
    return a + 3 * torch.eye(a.shape[-1], dtype=a.dtype, device=a.device)


def _positive_definite(a):
    return a @ a.mT + torch.eye(a.shape[-1], dtype=a.dtype, device=a.device)


_SQUARE = st.sampled_from([[(1, 1)], [(2, 2)], [(3, 3)], [(2, 3, 3)], [(2, 1, 2, 2)]])
_SOLVE_SHAPES = st.sampled_from([[(2, 2), (2,)], [(3, 3), (3, 2)], [(2, 3, 3), (3,)],
                                 [(2, 3, 3), (2, 3)], [(2, 2), (3, 2, 1)], [(2, 2, 2), (3, 2)],
                                 [(3, 3), (3, 3)], [(1, 1), (1,)]])


def _solve_sides(shapes):
    a, b = shapes
    n = a[-1]
    vector = len(b) == 1 or b == a[:-1]
    sides = [left for left, fits in ((True, vector or b[-2] == n),
                                     (False, not vector and b[-1] == n)) if fits]
    return st.sampled_from(sides).map(lambda left: {"left": left})


def _spread(a):
    """Small entries on n, n-1, ..., 1 down the diagonal: singular values apart and away from 0."""
    m, n = a.shape[-2:]
    steps = torch.arange(n, 0, -1, dtype=a.dtype, device=a.device)
    return 0.1 * a + torch.eye(m, n, dtype=a.dtype, device=a.device) * steps


def _symmetric(a):
    """A symmetric matrix with its eigenvalues apart."""
    return _spread(a + a.mT)


def _svd_invariants(result):
    """What does not depend on the signs of the singular vectors."""
    U, S, Vh = result
    k = S.shape[-1]
    U, Vh = U[..., :k], Vh[..., :k, :]
    return S, U * U, Vh * Vh, U @ Vh


def _eigh_invariants(result):
    L, V = result
    return L, V * V, (V * L.unsqueeze(-2)) @ V.mT


def _qr_modes(shapes):
    m, n = shapes[0][-2:]
    return st.sampled_from(["reduced", "complete"] if m <= n else ["reduced"]).map(
        lambda mode: {"mode": mode})


def _hermitian_if_square(shapes):
    m, n = shapes[0][-2:]
    return st.sampled_from([False, True] if m == n else [False]).map(
        lambda hermitian: {"hermitian": hermitian})


_MATRICES = st.sampled_from([[(1, 1)], [(2, 2)], [(3, 2)], [(2, 3)], [(3, 1)], [(2, 3, 3)],
                             [(2, 1, 2, 3)], [(2, 3, 2)]])


RECIPES.update({
    "linalg_svd": Recipe(
        lambda a, full_matrices: _svd_invariants(torch.linalg.svd(
            _spread(a), full_matrices=full_matrices)), ("small",),
        _one_of("full_matrices", False, True), shapes=_MATRICES),
    "linalg_eigh": Recipe(
        lambda a, UPLO: _eigh_invariants(torch.linalg.eigh(_symmetric(a), UPLO=UPLO)),
        ("small",), _one_of("UPLO", "L", "U"), shapes=_SQUARE),
    # Householder reflections fix the signs of Q's columns the same way in every LAPACK.
    "linalg_qr": Recipe(lambda a, mode: tuple(torch.linalg.qr(_spread(a), mode=mode)),
                        ("small",), _qr_modes, shapes=_MATRICES),
    "linalg_matrix_exp": Recipe(torch.linalg.matrix_exp, ("any",), shapes=_SQUARE),
    # A full rank kept under the steps of gradcheck: the pseudo-inverse is smooth there.
    "linalg_pinv": Recipe(lambda a, hermitian: torch.linalg.pinv(
        _symmetric(a) if hermitian else _spread(a), hermitian=hermitian), ("small",),
        _hermitian_if_square, shapes=_MATRICES),
})



RECIPES.update({
    "linalg_det": Recipe(lambda a: torch.linalg.det(_conditioned(a)), ("small",), shapes=_SQUARE),
    "linalg_slogdet": Recipe(lambda a: torch.linalg.slogdet(_conditioned(a)).logabsdet,
                             ("small",), shapes=_SQUARE),
    "linalg_inv_ex": Recipe(lambda a: torch.linalg.inv(_conditioned(a)), ("small",),
                            shapes=_SQUARE),
    "linalg_cholesky_ex": Recipe(
        lambda a, upper: torch.linalg.cholesky(_positive_definite(a), upper=upper), ("small",),
        _one_of("upper", False, True), shapes=_SQUARE),
    "linalg_solve_ex": Recipe(
        lambda a, b, left: torch.linalg.solve(_conditioned(a), b, left=left), ("small", "any"),
        _solve_sides, shapes=_SOLVE_SHAPES),
    "addr": Recipe(lambda m, u, v, **p: torch.addr(m, u, v, **p), ("any",) * 3, _scales,
                   shapes=st.one_of(_sizes("nm", "n", "m"), _sizes("m", "n", "m"))),
    "dist": Recipe(lambda a, b, p: torch.dist(a, b, p), ("any", "any"),
                   _one_of("p", 2, 1, 3, 1.5, float("inf"))),
})


_TRIANGULAR_SHAPES = st.sampled_from([[(2, 2), (2, 1)], [(3, 3), (3, 2)], [(2, 3, 3), (3, 3)],
                                      [(2, 2), (3, 2, 2)], [(1, 1), (1, 3)], [(2, 2), (1, 2)]])


def _triangular_flags(shapes):
    a, b = shapes
    lefts = [left for left, side in ((True, -2), (False, -1)) if b[side] == a[-1]]
    return st.fixed_dictionaries({"upper": st.booleans(), "left": st.sampled_from(lefts),
                                  "unitriangular": st.booleans()})


def _old_triangular_flags(shapes):
    return st.fixed_dictionaries({"upper": st.booleans(), "transpose": st.booleans(),
                                  "unitriangular": st.booleans()})


def _triangular_solve(b, a, **flags):
    with warnings.catch_warnings():  # torch.triangular_solve is deprecated: warned once
        warnings.simplefilter("ignore")
        return tuple(torch.triangular_solve(b, _conditioned(a), **flags))


RECIPES.update({
    "linalg_solve_triangular": Recipe(
        lambda a, b, **flags: torch.linalg.solve_triangular(_conditioned(a), b, **flags),
        ("small", "any"), _triangular_flags, shapes=_TRIANGULAR_SHAPES),
    # A kept at full rank: the solution is smooth there, for every driver.
    "linalg_lstsq": Recipe(
        lambda a, b, driver: tuple(torch.linalg.lstsq(_spread(a), b, driver=driver)[:2]),
        ("small", "any"), _one_of("driver", "gels", "gelsy", "gelsd", "gelss"),
        shapes=st.sampled_from([[(3, 2), (3, 2)], [(2, 2), (2, 1)], [(2, 3), (2, 2)],
                                [(2, 3, 2), (2, 3, 1)], [(3, 2), (3,)], [(2, 3, 2), (2, 3)],
                                [(1, 3, 2), (2, 3, 2)], [(2, 3, 2), (1, 3, 1)]])),
    "triangular_solve": Recipe(
        _triangular_solve, ("any", "small"), _old_triangular_flags,
        # torch's tangent of cloned_coefficient is not broadcast: A's batch is the whole batch
        shapes=_TRIANGULAR_SHAPES.map(lambda shapes: [shapes[1], shapes[0]]).filter(
            lambda shapes: shapes[0][-2] == shapes[1][-1] and len(shapes[1]) >= len(shapes[0]))),
})


def _pivoted(a):
    """Small entries, and larger ones on the anti-diagonal: rows that must be swapped."""
    m, n = a.shape[-2:]
    steps = torch.arange(n, 0, -1, dtype=a.dtype, device=a.device)
    return 0.1 * a + torch.eye(m, n, dtype=a.dtype, device=a.device).flip(-2) * steps


def _last_row_pivots(lu):
    """Valid pivots for any LU: each step swaps with the last row."""
    m, n = lu.shape[-2:]
    return torch.full(tuple(lu.shape[:-2]) + (min(m, n),), m, dtype=torch.int32,
                      device=lu.device)


def _lu_solve_flags(shapes):
    a, b = shapes
    lefts = [left for left, side in ((True, -2), (False, -1)) if b[side] == a[-1]]
    return st.fixed_dictionaries({"left": st.sampled_from(lefts), "adjoint": st.booleans()})


RECIPES.update({
    "linalg_lu_factor_ex": Recipe(lambda a: torch.linalg.lu_factor_ex(_pivoted(a)).LU,
                                  ("small",), shapes=_MATRICES),
    "linalg_lu": Recipe(lambda a: tuple(torch.linalg.lu(_pivoted(a)))[1:], ("small",),
                        shapes=_MATRICES),
    "lu_unpack": Recipe(lambda lu: tuple(torch.lu_unpack(lu, _last_row_pivots(lu)))[1:],
                        shapes=_MATRICES),
    "linalg_lu_solve": Recipe(
        lambda lu, b, **flags: torch.linalg.lu_solve(_conditioned(lu), _last_row_pivots(lu), b,
                                                     **flags),
        ("small", "any"), _lu_solve_flags, shapes=_TRIANGULAR_SHAPES),
})


def _factor(u, upper):
    """A Cholesky factor: one triangle, well away from a zero on its diagonal."""
    t = u.triu() if upper else u.tril()
    return t + 2 * torch.eye(u.shape[-1], dtype=u.dtype, device=u.device)


RECIPES.update({
    "cholesky_solve": Recipe(
        lambda b, u, upper: torch.cholesky_solve(b, _factor(u, upper), upper), ("any", "small"),
        _one_of("upper", False, True),
        shapes=_TRIANGULAR_SHAPES.map(lambda shapes: [shapes[1], shapes[0]]).filter(
            lambda shapes: shapes[0][-2] == shapes[1][-1])),
    "cholesky_inverse": Recipe(lambda u, upper: torch.cholesky_inverse(_factor(u, upper), upper),
                               ("small",), _one_of("upper", False, True), shapes=_SQUARE),
})


def _pick(*choices):
    return lambda shapes: st.sampled_from(choices)


RECIPES.update({
    # chapter "More shapes, more elementwise"
    "select_scatter": Recipe(lambda a, s, dim, index: torch.select_scatter(a, s, dim, index),
                             ("any", "any"), _pick({"dim": 0, "index": -1},
                                                   {"dim": 0, "index": 0}),
                             shapes=_sizes("nm", "m")),
    "slice_scatter": Recipe(lambda a, s, **p: torch.slice_scatter(a, s, **p), ("any", "any"),
                            _pick({"dim": 1, "start": 1, "end": None, "step": 2},
                                  {"dim": -1, "start": -2, "end": None, "step": 1},
                                  {"dim": 1, "start": 0, "end": 2, "step": 1}),
                            shapes=st.just([(3, 4), (3, 2)])),
    "diagonal_scatter": Recipe(lambda a, s, **p: torch.diagonal_scatter(a, s, **p),
                               ("any", "any"),
                               _pick({"offset": 0, "dim1": 0, "dim2": 1},
                                     {"offset": 1, "dim1": 0, "dim2": 1},
                                     {"offset": 0, "dim1": 1, "dim2": 0}),
                               shapes=st.just([(3, 4), (3,)])),
    # a negative start only where the piece ends before the last element: see the
    # chapter's differences for torch's gradient at the end
    "narrow_copy": Recipe(lambda a, start: torch.narrow_copy(a, 0, start, 1), shapes=_wide(),
                          params=_one_of("start", 0, 1, -2)),
    "fmax": Recipe(torch.fmax, ("any", "any")),
    "fmin": Recipe(torch.fmin, ("any", "any")),
    "copysign": Recipe(torch.copysign, ("nonzero", "nonzero")),
    "copysign_number": Recipe(lambda a, other: torch.copysign(a, other), ("nonzero",),
                              _one_of("other", -1.5, 2, -0.0)),
    "ldexp": Recipe(torch.ldexp, ("any", "small")),
    "nextafter": Recipe(torch.nextafter, ("any", "any")),
    # angle's one jump, at zero, is out of reach; frexp's, at powers of two, rarely met
    "angle": Recipe(torch.angle, ("nonzero",)),
    "frexp": Recipe(torch.frexp),
    "var_mean": Recipe(lambda a, **p: torch.var_mean(a, **p), shapes=_wide(),
                       params=_spread_params),
    "std_mean": Recipe(lambda a, **p: torch.std_mean(a, **p), shapes=_wide(),
                       params=_spread_params),
    "norm_dims": Recipe(lambda a, b, p, keepdim: torch.pairwise_distance(a, b, p, keepdim=keepdim),
                        ("any", "any"), min_ndim=1, params=lambda shapes: st.builds(
                            lambda p, k: {"p": p, "keepdim": k},
                            st.sampled_from([1.0, 2.0, 3.0, 1.5]), st.booleans())),
    "renorm": Recipe(lambda a, **p: torch.renorm(a, **p), min_ndim=2,
                     params=lambda shapes: st.builds(
                         lambda p, d, m: {"p": p, "dim": d, "maxnorm": m},
                         st.sampled_from([1, 2, 3]), st.sampled_from([0, 1, -1]),
                         st.sampled_from([0.5, 1.0, 100.0]))),
    "elu": Recipe(torch.selu),
    "celu": Recipe(lambda a, alpha: torch.celu(a, alpha), params=_one_of("alpha", 1.0, 0.5, 2)),
    "threshold": Recipe(lambda a, threshold: torch.threshold(a, threshold, 2.0),
                        params=_one_of("threshold", 0.1, -0.5)),
    "hardshrink": Recipe(lambda a, lambd: a.hardshrink(lambd),
                         params=_one_of("lambd", 0.5, 0.3)),
})


def _kth(shapes):
    return _dim(shapes).flatmap(lambda d: st.builds(
        lambda k, keep: {"k": k, "dim": d, "keepdim": keep}, st.integers(1, shapes[0][d]),
        st.booleans()))


def _maybe_dim_keepdim(shapes):
    return st.one_of(st.just({}), _dim_keepdim(shapes)) if shapes[0] else st.just({})


RECIPES.update({
    # order statistics (chapter 16k): drawn values are distinct, so no ties decide
    "median": Recipe(torch.median),
    "nanmedian": Recipe(lambda a: a.nanmedian()),
    "median_dim": Recipe(lambda a, **p: torch.median(a, **p).values, min_ndim=1,
                         params=_dim_keepdim),
    "nanmedian_dim": Recipe(lambda a, **p: a.nanmedian(**p)[0], min_ndim=1, params=_dim_keepdim),
    "kthvalue": Recipe(lambda a, **p: torch.kthvalue(a, **p).values, min_ndim=1, params=_kth),
    "mode": Recipe(lambda a, **p: torch.mode(a, **p).values, min_ndim=1, params=_dim_keepdim),
    "aminmax": Recipe(lambda a, **p: tuple(torch.aminmax(a, **p)), params=_maybe_dim_keepdim),
})


# Special functions (chapter 16m). The scaled Bessel functions and entr keep away from zero,
# where |x| and log x have kinks and poles; mvlgamma's input stays above (p - 1) / 2.
RECIPES.update({
    "lgamma": Recipe(torch.lgamma, ("positive",)),
    "digamma": Recipe(torch.digamma, ("positive",)),
    "polygamma": Recipe(lambda a, n: torch.polygamma(n, a), ("positive",),
                        params=_one_of("n", 0, 1, 2)),
    "polygamma_": Recipe(lambda a, n: call(OPS["polygamma_"], (a,), {"n": n}), ("positive",),
                         params=_one_of("n", 0, 1, 2)),
    "mvlgamma": Recipe(lambda a, p: torch.mvlgamma(a, p), ("above_one",),
                       params=_one_of("p", 1, 2, 3)),
    "i0": Recipe(torch.i0),
    "special_i0e": Recipe(torch.special.i0e, ("nonzero",)),
    "special_i1": Recipe(torch.special.i1),
    "special_i1e": Recipe(torch.special.i1e, ("nonzero",)),
    "sinc": Recipe(torch.sinc),
    "special_entr": Recipe(torch.special.entr, ("positive",)),
    "special_ndtri": Recipe(torch.special.ndtri, ("unit",)),
    "special_log_ndtr": Recipe(torch.special.log_ndtr),
    "special_erfcx": Recipe(torch.special.erfcx),
    "special_xlog1py": Recipe(torch.special.xlog1py, ("any", "positive")),
    "number_xlog1py": Recipe(lambda b, self: torch.special.xlog1py(self, b), ("positive",),
                             params=_one_of("self", 1.5, -2, 0)),
    "xlog1py_by_number": Recipe(lambda a, other: torch.special.xlog1py(a, other),
                                params=_one_of("other", 2.5, 3, -0.5)),
    # The derivative for a is torch's NotImplementedError: a is a constant here, of x's shape
    # and on its device.
    "igamma": Recipe(lambda x: torch.special.gammainc(torch.full_like(x.detach(), 2.5), x),
                     ("positive",)),
    "igammac": Recipe(lambda x: torch.igammac(torch.full_like(x.detach(), 1.5), x),
                      ("positive",)),
})


# cdist and pdist (chapter 16n): the row a small cdist records, the product form larger ones
# record, and pdist's. Their gradients cannot be differentiated, as in torch: REFUSING below.
_TWO_SETS = st.sampled_from([[(3, 2), (4, 2)], [(2, 3, 2), (1, 4, 2)], [(1, 3), (2, 3)]])
_ANY_P = _one_of("p", 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, float("inf"))
RECIPES.update({
    "_cdist_forward": Recipe(lambda a, b, p: torch.cdist(a, b, p, "donot_use_mm_for_euclid_dist"),
                             ("any", "any"), params=_ANY_P, shapes=_TWO_SETS, twice=False),
    "_pdist_forward": Recipe(lambda a, p: torch.pdist(a, p), params=_ANY_P,
                             shapes=st.sampled_from([[(4, 2)], [(3, 3)], [(2, 1)]]), twice=False),
    "_euclidean_dist": Recipe(lambda a, b: call(OPS["_euclidean_dist"], (a, b)), ("any", "any"),
                              shapes=_TWO_SETS),
})


# The in-place activations' rows (chapter 16n), called out of place.
RECIPES.update({
    "elu_": Recipe(lambda a: call(OPS["elu_"], (a,), {
        "alpha": 1.6732632423543772, "scale": 1.0507009873554805, "input_scale": 1})),
    "celu_": Recipe(lambda a, alpha: call(OPS["celu_"], (a,), {"alpha": alpha}),
                    params=_one_of("alpha", 1.0, 0.3, 2)),
    "threshold_": Recipe(lambda a, threshold: call(OPS["threshold_"], (a,), {
        "threshold": threshold, "value": 2.0}), params=_one_of("threshold", 0.1, -0.5)),
})


# The activations of torch.nn.functional (chapter 16q). Values run from -4 to 4 where a
# function changes its piece at +-3; hardtanh's bounds sit among the values drawn.
RECIPES.update({
    "leaky_relu": Recipe(lambda a, negative_slope: F.leaky_relu(a, negative_slope), ("nonzero",),
                         params=_one_of("negative_slope", 0.01, 0.3, -0.5)),
    "leaky_relu_": Recipe(lambda a, negative_slope: call(OPS["leaky_relu_"], (a,), {
        "negative_slope": negative_slope}), ("nonzero",), params=_one_of("negative_slope", 0.2)),
    "gelu": Recipe(lambda a, approximate: F.gelu(a, approximate=approximate),
                   params=_one_of("approximate", "none", "tanh")),
    "silu": Recipe(F.silu), "mish": Recipe(F.mish),
    "softplus": Recipe(lambda a, beta, threshold: F.softplus(a, beta, threshold),
                       params=lambda shapes: st.sampled_from(
                           [{"beta": 1, "threshold": 20}, {"beta": 2.0, "threshold": 1.0},
                            {"beta": 0.5, "threshold": -5.0}])),
    "hardtanh": Recipe(lambda a, min_val, max_val: F.hardtanh(a, min_val, max_val),
                       params=lambda shapes: st.sampled_from(
                           [{"min_val": -1.0, "max_val": 1.0}, {"min_val": 0, "max_val": 6}])),
    "hardsigmoid": Recipe(lambda a: F.hardsigmoid(a * 2), twice=False),  # as torch: refused
    "hardswish": Recipe(lambda a: F.hardswish(a * 2)),
    "log_sigmoid": Recipe(F.logsigmoid),
    "softshrink": Recipe(lambda a, lambd: F.softshrink(a, lambd), params=_one_of("lambd", 0.5, 0)),
    "glu": Recipe(lambda a, dim: F.glu(a, dim), shapes=st.sampled_from([[(4,)], [(2, 4)]]),
                  params=_one_of("dim", -1, 0)),
})


def _reductions(**more):
    return lambda shapes: st.sampled_from(["mean", "sum", "none"]).map(
        lambda r: {"reduction": r, **more})


def _weights(shapes):
    return st.builds(lambda r, w: {"reduction": r, "weighted": w},
                     st.sampled_from(["mean", "sum", "none"]), st.booleans())


def _targeted(shapes):
    """Reductions, and class indices for an input of ``shapes[0]``, classes along dimension 1,
    some of them -1: ignored."""
    n, c, *rest = shapes[0]
    target = torch.tensor(np.arange(n * int(np.prod(rest))).reshape(n, *rest) % (c + 1) - 1)
    return _reductions(target=target)(shapes)


# The losses of torch.nn.functional (chapter 16q): targets that require a gradient too.
RECIPES.update({
    "mse_loss": Recipe(lambda a, b, reduction: F.mse_loss(a, b, reduction=reduction),
                       ("any", "any"), params=_reductions(), broadcast=False),
    "huber_loss": Recipe(lambda a, b, reduction, delta: F.huber_loss(a, b, reduction, delta),
                         ("any", "any"), params=_reductions(delta=0.5), broadcast=False),
    "smooth_l1_loss": Recipe(
        lambda a, b, reduction, beta: F.smooth_l1_loss(a, b, reduction=reduction, beta=beta),
        ("any", "any"), params=_reductions(beta=0.75), broadcast=False),
    "binary_cross_entropy": Recipe(
        lambda a, b, reduction, weighted: F.binary_cross_entropy(
            a, b, torch.full_like(a.detach(), 1.5) if weighted else None, reduction=reduction),
        ("unit", "unit"), params=_weights, broadcast=False),
    "binary_cross_entropy_with_logits": Recipe(
        lambda a, b, reduction, weighted: F.binary_cross_entropy_with_logits(
            a, b, torch.full_like(a.detach(), 1.5) if weighted else None, reduction=reduction,
            pos_weight=torch.full_like(a.detach(), 0.5) if weighted else None),
        ("any", "unit"), params=_weights, broadcast=False),
    "nll_loss": Recipe(lambda a, reduction, target: F.nll_loss(
        a, target, reduction=reduction, ignore_index=-1),
        shapes=st.sampled_from([[(3, 4)], [(5, 2)]]), params=_targeted),
    "nll_loss2d": Recipe(lambda a, reduction, target, weight: F.nll_loss(
        # torch's nll_loss2d_backward refuses a transposed input (chapter 16q): a row-major
        # copy, whose tangent is row-major too
        a.flatten().view(a.shape), target, weight, reduction=reduction, ignore_index=-1),
        shapes=st.just([(2, 3, 2, 2)]), params=lambda shapes: _targeted(shapes).map(
            lambda p: {**p, "weight": torch.tensor([2.0, 0.5, 1.0], dtype=torch.float64)})),
})

# The layers of torch.nn.functional (chapter 16q).
RECIPES.update({
    "_prelu_kernel": Recipe(lambda a, w: F.prelu(a, w), ("nonzero", "any"),
                            shapes=st.sampled_from([[(2, 3, 2), (3,)], [(2, 3), (1,)],
                                                    [(3,), (1,)]])),
    "_prelu_kernel_backward": Recipe(
        lambda g, a, w: call(OPS["_prelu_kernel_backward"], (g, a, w)), ("any", "nonzero", "any"),
        shapes=st.sampled_from([[(2, 3, 2), (2, 3, 2), (1, 3, 1)], [(2, 3), (2, 3), (1,)]])),
    "embedding": Recipe(lambda w, indices: F.embedding(indices, w), shapes=st.just([(4, 3)]),
                        # padding_idx and scale_grad_by_freq change the gradient, not the
                        # values: no finite difference sees them, so the conformance tests
                        # check them against torch instead
                        params=lambda shapes: st.just({"indices": torch.tensor([[1, 2, 1],
                                                                                [0, 3, 1]])})),
    "constant_pad_nd": Recipe(lambda a, pad: F.pad(a, pad, value=1.5), min_ndim=2,
                              params=_one_of("pad", (1, 2), (0, 1, 1, 0), (-1, 1))),
    **{f"{kind}_pad{k}d": Recipe(
        lambda a, padding, mode=mode: F.pad(a, padding, mode), shapes=st.just([shape]),
        params=_one_of("padding", padding, tuple(-p if p > 1 else p for p in padding)))
       for kind, mode in (("reflection", "reflect"), ("replication", "replicate"))
       for k, shape, padding in ((1, (2, 3, 4), (2, 1)), (2, (1, 2, 3, 4), (1, 2, 2, 1)),
                                 (3, (1, 1, 3, 3, 4), (1, 1, 2, 0, 1, 2)))},
    "native_layer_norm": Recipe(
        lambda a, w, b, normalized_shape: torch.native_layer_norm(  # the statistics too
            a, normalized_shape, w, b, 1e-5),
        ("any", "any", "any"), shapes=st.sampled_from([[(2, 3), (3,), (3,)],
                                                       [(2, 2, 3), (2, 3), (2, 3)]]),
        params=lambda shapes: st.just({"normalized_shape": shapes[1]})),
})

# The normalization layers (chapter "Normalization layers"): fresh running statistics per call.
RECIPES.update({
    "native_batch_norm": Recipe(
        lambda a, w, b, training: torch.native_batch_norm(
            a, w, b, torch.full((a.shape[1],), 0.25, dtype=a.dtype, device=a.device),
            torch.full((a.shape[1],), 1.5, dtype=a.dtype, device=a.device), training, 0.1, 1e-5),
        ("any", "any", "any"), shapes=st.sampled_from([[(3, 2), (2,), (2,)],
                                                       [(2, 3, 2), (3,), (3,)]]),
        params=lambda shapes: st.sampled_from([{"training": True}, {"training": False}])),
    "native_group_norm": Recipe(
        lambda a, w, b, num_groups: F.group_norm(a, num_groups, w, b),
        ("any", "any", "any"), shapes=st.sampled_from([[(2, 4), (4,), (4,)],
                                                       [(2, 4, 3), (4,), (4,)]]),
        params=lambda shapes: st.sampled_from([{"num_groups": 2}, {"num_groups": 1}])),
    "avg_pool2d": Recipe(lambda a, kernel_size: avg_pool(a, kernel_size),
                         shapes=st.just([(1, 2, 4, 3)]),
                         params=_one_of("kernel_size", (3, 1), (2, 2), (1, 1))),
    "avg_pool3d": Recipe(lambda a, kernel_size: avg_pool(a, kernel_size),
                         shapes=st.just([(1, 1, 3, 2, 3)]),
                         params=_one_of("kernel_size", (3, 1, 1), (2, 2, 2))),
})


# The gradients of layer_norm and batch_norm (chapter "Gradients of the normalizations"): the
# statistics come from the input's values, as the forward would give them; the second
# derivative takes them as constants, as torch's does, so no third is checked.
def _layer_norm_grads(g, a, w, normalized_shape):  # the bias gets no gradient: a constant
    from refgrad._ops.norm_gradients import LAYER_NORM_BACKWARD, statistics

    axes = tuple(range(a.ndim - len(normalized_shape), a.ndim))
    mean, rstd = statistics(a, axes, 1e-5, keepdims=True)
    b = torch.ones(normalized_shape, dtype=a.dtype, device=a.device)
    return call(LAYER_NORM_BACKWARD, (g, a, mean, rstd, w, b),
                {"normalized_shape": normalized_shape, "eps": 1e-5})


def _batch_norm_grads(g, a, w, train):
    from refgrad._ops.norm_gradients import BATCH_NORM_BACKWARD, statistics

    mean, invstd = statistics(a, (0, *range(2, a.ndim)), 1e-5, keepdims=False)
    if not train:
        mean, invstd = mean[:0], invstd[:0]
    running = [torch.full((a.shape[1],), v, dtype=a.dtype, device=a.device) for v in (0.25, 1.5)]
    return call(BATCH_NORM_BACKWARD, (g, a, w, mean, invstd), {
        "running_mean": running[0], "running_var": running[1], "train": train, "eps": 1e-5})


RECIPES.update({
    "native_layer_norm_backward": Recipe(
        _layer_norm_grads, ("any",) * 3, twice=False,
        shapes=st.sampled_from([[(2, 3), (2, 3), (3,)], [(2, 2, 3), (2, 2, 3), (2, 3)]]),
        params=lambda shapes: st.just({"normalized_shape": shapes[2]})),
    "native_batch_norm_backward": Recipe(
        _batch_norm_grads, ("any",) * 3, twice=False,
        shapes=st.sampled_from([[(3, 2), (3, 2), (2,)], [(2, 3, 2), (2, 3, 2), (3,)]]),
        params=lambda shapes: st.sampled_from([{"train": True}, {"train": False}])),
})


# More of torch.nn.functional (chapter 16t): rrelu's slopes drawn from a generator seeded
# afresh on every call, so that every evaluation draws the same ones.
def _rrelu(a, training, inplace=False):
    generator = torch.Generator().manual_seed(0)
    if inplace:
        return torch.rrelu_(a * 1, 0.1, 0.3, training, generator)
    return torch.rrelu(a, 0.1, 0.3, training, generator)


def _class_targets(shapes):
    n, classes = shapes[0]
    picked = st.lists(st.integers(0, classes - 1), min_size=n, max_size=n)
    return st.builds(lambda t, reduction: {"target": torch.tensor(t), "reduction": reduction},
                     picked, st.sampled_from(["none", "mean", "sum"]))


def _listed_classes(shapes):
    n, classes = shapes[0]
    row = st.lists(st.integers(-1, classes - 1), min_size=classes, max_size=classes)
    return st.builds(lambda t, reduction: {"target": torch.tensor(t), "reduction": reduction},
                     st.lists(row, min_size=n, max_size=n), st.sampled_from(["none", "sum"]))


RECIPES.update({
    "rrelu_with_noise": Recipe(_rrelu, ("nonzero",), params=_one_of("training", False, True)),
    "rrelu_with_noise_": Recipe(lambda a, training: _rrelu(a, training, True), ("nonzero",),
                                params=_one_of("training", False, True)),
    "soft_margin_loss": Recipe(
        lambda a, reduction: F.soft_margin_loss(a, torch.ones_like(a.detach()).neg_(),
                                                reduction=reduction),
        params=_one_of("reduction", "none", "mean", "sum")),
    "multi_margin_loss": Recipe(
        lambda a, target, reduction: F.multi_margin_loss(a, target, 2, 0.5, reduction=reduction),
        shapes=st.sampled_from([[(3, 4)], [(2, 3)]]), params=_class_targets, twice=False),
    "multilabel_margin_loss_forward": Recipe(  # their gradients are refused, as torch's
        lambda a, target, reduction: F.multilabel_margin_loss(a, target, reduction=reduction),
        shapes=st.sampled_from([[(3, 4)], [(2, 3)]]), params=_listed_classes, twice=False),
})


# Convolution and pooling (chapter 16u): (input, weight, bias) shapes with the parameters
# that fit them; conv1d, conv2d or conv3d by the weight's dimensions.
_CONVOLUTIONS = {
    ((2, 4, 7), (6, 2, 3), (6,)): {"stride": 2, "padding": 1, "dilation": 2, "groups": 2},
    ((1, 3, 6), (2, 3, 3), (2,)): {"padding": "same"},
    ((1, 2, 5, 4), (3, 2, 2, 3), (3,)): {"stride": (2, 1), "padding": (1, 0), "dilation": 1,
                                          "groups": 1},
    ((1, 2, 4, 3), (2, 1, 3, 1), (2,)): {"padding": "same", "groups": 2},
    ((1, 1, 3, 4, 3), (2, 1, 2, 2, 2), (2,)): {"stride": (1, 2, 1), "padding": (0, 1, 1)},
    # transposed (chapter 16w): the weight's channels the other way, and an output_padding
    ((2, 4, 3), (4, 3, 3), (6,)): {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2,
                                   "dilation": 1},
    ((1, 2, 3, 2), (2, 2, 2, 3), (2,)): {"stride": (2, 1), "padding": (0, 1),
                                         "output_padding": (1, 0), "dilation": (1, 2)},
    ((1, 2, 2, 2, 2), (2, 1, 2, 2, 1), (1,)): {"stride": 2, "output_padding": (1, 0, 1)},
}


def _one_of_many(*choices):
    return lambda shapes: st.sampled_from(choices)


def conv(a, w, b, **params):
    if "output_padding" in params:  # a transposed convolution (chapter 16w)
        return (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[w.ndim - 3](
            a, w, b, **params)
    return (F.conv1d, F.conv2d, F.conv3d)[w.ndim - 3](a, w, b, **params)


RECIPES.update({
    "convolution": Recipe(conv, ("any", "any", "any"),
                          shapes=st.sampled_from([list(s) for s in _CONVOLUTIONS]),
                          params=lambda shapes: st.just(_CONVOLUTIONS[tuple(shapes)])),
    "max_pool2d_with_indices": Recipe(
        lambda a, **params: F.max_pool2d(a, return_indices=True, **params),
        shapes=st.sampled_from([[(1, 2, 5, 4)], [(2, 4, 3)]]),
        params=_one_of_many({"kernel_size": 2}, {"kernel_size": (3, 2), "stride": 1,
                                                 "padding": 1, "ceil_mode": True},
                            {"kernel_size": 2, "stride": (2, 1), "dilation": (1, 2)})),
    "max_pool3d_with_indices": Recipe(
        lambda a, **params: F.max_pool3d(a, return_indices=True, **params),
        shapes=st.sampled_from([[(1, 1, 3, 4, 3)], [(2, 3, 3, 2)]]),
        params=_one_of_many({"kernel_size": 2}, {"kernel_size": (2, 3, 2), "stride": 1,
                                                 "padding": (1, 1, 0), "ceil_mode": True})),
    "_adaptive_avg_pool2d": Recipe(
        lambda a, output_size: F.adaptive_avg_pool2d(a, output_size),
        shapes=st.sampled_from([[(1, 2, 5, 4)], [(2, 4, 3)]]),
        params=_one_of("output_size", (2, 3), (3, 1), (5, 2))),
    "_adaptive_avg_pool3d": Recipe(
        lambda a, output_size: F.adaptive_avg_pool3d(a, output_size),
        shapes=st.sampled_from([[(1, 1, 3, 4, 3)], [(2, 3, 2, 3)]]),
        params=_one_of("output_size", (2, 3, 2), (1, 2, 1))),
    "adaptive_max_pool2d": Recipe(
        lambda a, output_size: F.adaptive_max_pool2d(a, output_size, return_indices=True),
        shapes=st.sampled_from([[(1, 2, 5, 4)], [(2, 4, 3)]]),
        params=_one_of("output_size", (2, 3), (3, 1), 1)),
    "adaptive_max_pool3d": Recipe(
        lambda a, output_size: F.adaptive_max_pool3d(a, output_size, return_indices=True),
        shapes=st.sampled_from([[(1, 1, 3, 4, 3)], [(2, 3, 2, 3)]]),
        params=_one_of("output_size", (2, 3, 2), (1, 2, 1))),
})


# chapter "Upsampling": each mode's row through F.interpolate, and its gradient's row directly
_RESIZED = {1: (2, 3, 4), 2: (1, 2, 3, 4), 3: (1, 1, 2, 3, 2)}
_SIZINGS = ({"size": 5}, {"scale_factor": 1.7}, {"scale_factor": 2},
            {"scale_factor": 0.7, "recompute_scale_factor": True})
UPSAMPLINGS = {  # the row: (F.interpolate's mode, the number of spatial dimensions)
    **{f"upsample_nearest{n}d": ("nearest", n) for n in (1, 2, 3)},
    **{f"_upsample_nearest_exact{n}d": ("nearest-exact", n) for n in (1, 2, 3)},
    "upsample_linear1d": ("linear", 1), "upsample_bilinear2d": ("bilinear", 2),
    "upsample_bicubic2d": ("bicubic", 2), "upsample_trilinear3d": ("trilinear", 3),
    "_upsample_bilinear2d_aa": ("bilinear-aa", 2), "_upsample_bicubic2d_aa": ("bicubic-aa", 2),
}


def interpolating(functional, mode):
    """A call of ``functional.interpolate`` in ``mode``, antialiased for a mode ending in -aa."""
    return lambda a, **params: functional.interpolate(
        a, mode=mode.removesuffix("-aa"), antialias=mode.endswith("-aa"), **params)


def _sizings(mode):
    if mode.startswith("nearest"):
        return lambda shapes: st.sampled_from(_SIZINGS)
    return lambda shapes: st.sampled_from([{**how, "align_corners": align}
                                           for how in _SIZINGS for align in (False, True)])


def upsampling_gradient_params(name, scaled):
    """The gradient row's parameters: from the input of _RESIZED to an output 1.7 times it."""
    from refgrad._ops.upsample import _SCALES

    mode, n = UPSAMPLINGS[name]
    size = _RESIZED[n]
    params = {"output_size": tuple(int(s * 1.7) for s in size[2:]), "input_size": size}
    if not mode.startswith("nearest"):
        params["align_corners"] = scaled
    return {**params, **{k: 1.7 if scaled else None for k in _SCALES[n]}}


def _gradient_recipe(name):
    from refgrad._ops.upsample import ROWS

    mode, n = UPSAMPLINGS[name]
    grad_shape = (*_RESIZED[n][:2], *upsampling_gradient_params(name, False)["output_size"])
    return Recipe(lambda g, **params: call(ROWS[mode, n][1], (g,), params),
                  shapes=st.just([grad_shape]), params=lambda shapes: st.sampled_from(
                      [upsampling_gradient_params(name, scaled) for scaled in (False, True)]))


RECIPES.update({
    **{name: Recipe(interpolating(F, mode), shapes=st.just([_RESIZED[n]]), params=_sizings(mode))
       for name, (mode, n) in UPSAMPLINGS.items()},
    **{f"{name}_backward": _gradient_recipe(name) for name in UPSAMPLINGS},
})



def _loss_backward(name, **fixed):
    def run(g, a, b, reduction):
        g = g.sum() if reduction else g  # a reduced loss's gradient is a single number
        return loss_gradients.loss_backward(OPS[name], g, a, b, reduction=reduction, **fixed)

    return Recipe(run, ("any", "any", "any"), params=_one_of("reduction", 0, 1, 2),
                  broadcast=False)


def _rrelu_backward(g, a, training):
    noise = torch.full_like(a.detach(), 0.25)
    params = {"noise": noise, "lower": 0.1, "upper": 0.3, "training": training}
    return call(OPS["rrelu_with_noise_backward"], (g, a), params)


# The gradients that are rows of their own (chapters 16n, 16q and 16t): masks away
# from their bounds, and both forms of elu's.
RECIPES.update({
    "hardtanh_backward": Recipe(lambda g, a: activation_gradients.hardtanh_backward(
        g, a, -0.25, 0.25), ("any", "nonzero"), broadcast=False),
    "leaky_relu_backward": Recipe(lambda g, a: activation_gradients.leaky_relu_backward(
        g, a, 0.2), ("any", "nonzero"), broadcast=False),
    "hardshrink_backward": Recipe(lambda g, a: activation_gradients.hardshrink_backward(
        g, a, 0.25), ("any", "nonzero"), broadcast=False),
    "softshrink_backward": Recipe(lambda g, a: activation_gradients.softshrink_backward(
        g, a, 0.25), ("any", "nonzero"), broadcast=False),
    "elu_backward": Recipe(lambda g, a, is_result: activation_gradients.elu_backward(
        g, a, 1.5, 1.25, 0.75, is_result), ("any", "nonzero"), broadcast=False,
        params=_one_of("is_result", False, True)),
    "hardswish_backward": Recipe(lambda g, a: activations.hardswish_backward(g, a * 2),
                                 ("any", "any"), broadcast=False),
    "softplus_backward": Recipe(lambda g, a: activations.softplus_backward(g, a, 2.0, 1.0),
                                ("any", "any"), broadcast=False),
    "rrelu_with_noise_backward": Recipe(_rrelu_backward, ("any", "nonzero"), broadcast=False,
                                        params=_one_of("training", False, True)),
    "mse_loss_backward": _loss_backward("mse_loss_backward"),
    "huber_loss_backward": _loss_backward("huber_loss_backward", delta=0.5),
    "smooth_l1_loss_backward": _loss_backward("smooth_l1_loss_backward", beta=0.75),
    "embedding_dense_backward": Recipe(  # chapter 16x; scaled by frequency, torch's own
        # derivative is not the true one: the conformance tests check that case against torch
        lambda g, indices, padding_idx: embedding_gradients.embedding_dense_backward(
            g, indices, 4, padding_idx, False), shapes=st.just([(2, 3, 3)]),
        params=lambda shapes: st.fixed_dictionaries({
            "indices": st.just(torch.tensor([[1, 2, 1], [0, 3, 1]])),
            "padding_idx": st.sampled_from([-1, 1])})),
    "_trilinear": Recipe(  # as bilinear calls it (chapter 16x)
        lambda a, w, b: trilinear.trilinear(a, w, b, (1, 3), (0,), (1, 2), (2, 3)),
        ("any", "any", "any"), shapes=st.sampled_from([[(2, 3), (4, 3, 2), (2, 2)],
                                                       [(1, 1), (2, 1, 3), (1, 3)]])),
})


def _reduced_backward(backward):
    """``backward`` of a loss's gradient: a single incoming number when the loss was reduced."""
    return lambda g, *rest, reduction, **more: backward(
        g.sum() if reduction else g, *rest, reduction=reduction, **more)


def _glu_backward(g, a, dim):
    half = g.narrow(dim, 0, a.shape[dim] // 2)  # glu's result is half the input along dim
    return smooth_gradients.glu_backward(half, a, dim)


# The gradients of gelu, logsigmoid, glu and two losses, rows of their own (chapter 16x)
RECIPES.update({
    "gelu_backward": Recipe(lambda g, a, approximate: smooth_gradients.gelu_backward(
        g, a, approximate), ("any", "any"), broadcast=False,
        params=_one_of("approximate", "none", "tanh")),
    "log_sigmoid_backward": Recipe(smooth_gradients.log_sigmoid_backward, ("any", "any"),
                                   broadcast=False),
    "glu_backward": Recipe(_glu_backward, ("any", "any"), params=_one_of("dim", -1, 0),
                           shapes=st.sampled_from([[(4,), (4,)], [(2, 4), (2, 4)]])),
    "soft_margin_loss_backward": Recipe(_reduced_backward(
        lambda g, a, reduction: loss_kernel_gradients.soft_margin_loss_backward(
            g, a, torch.ones_like(a.detach()).neg_(), reduction)), ("any", "any"),
        params=_one_of("reduction", 0, 1, 2), broadcast=False),
    "binary_cross_entropy_backward": Recipe(_reduced_backward(
        lambda g, a, b, reduction, weighted: loss_kernel_gradients.binary_cross_entropy_backward(
            g, a, b, torch.full_like(a.detach(), 1.5) if weighted else None, reduction)),
        ("any", "unit", "unit"), broadcast=False, params=lambda shapes: st.builds(
            lambda r, w: {"reduction": r, "weighted": w}, st.sampled_from([0, 1, 2]),
            st.booleans())),
})


# Transposed convolution and rearranging layers (chapter 16w): shapes with the parameters
# that fit them.
_REARRANGED = {
    "pixel_shuffle": {(1, 8, 2, 3): {"upscale_factor": 2}, (9, 2, 1): {"upscale_factor": 3},
                      (2, 1, 4, 1, 2): {"upscale_factor": 2}},
    "pixel_unshuffle": {(1, 2, 4, 6): {"downscale_factor": 2}, (1, 3, 3): {"downscale_factor": 3}},
    "channel_shuffle": {(2, 6, 3, 2): {"groups": 3}, (1, 4, 3): {"groups": 2}},
    "im2col": {(2, 3, 5, 4): {"kernel_size": (2, 3), "padding": 1, "stride": (2, 1)},
               (3, 6, 5): {"kernel_size": 2, "dilation": (2, 1)}},
    "col2im": {(2, 12, 6): {"output_size": (3, 4), "kernel_size": 2},
               (18, 6): {"output_size": (4, 5), "kernel_size": 3, "padding": 1, "stride": 2}},
}
_REARRANGING = {"pixel_shuffle": F.pixel_shuffle, "pixel_unshuffle": F.pixel_unshuffle,
                "channel_shuffle": F.channel_shuffle, "im2col": F.unfold, "col2im": F.fold}


def _rearranging(name):
    cases = _REARRANGED[name]
    return Recipe(lambda a, **params: _REARRANGING[name](a, **params),
                  shapes=st.sampled_from([[s] for s in cases]),
                  params=lambda shapes: st.just(cases[tuple(shapes[0])]))


RECIPES.update({name: _rearranging(name) for name in _REARRANGED})


def _scrambled(shape):
    """Fixed values of ``shape``, no two equal: the max pools' indices come from these."""
    n = int(np.prod(shape))
    return make_tensor(np.random.default_rng(n).permutation(n).reshape(shape).astype(float))


def _indexed(pool, shape, **params):
    """Indices for a max pool's gradient row: the pool of fixed values, not of its inputs."""
    return {"indices": pool(_scrambled(shape), return_indices=True, **params)[1]}


def _gradient_row(name, shapes, params=None):
    """A gradient row of (grad_output, self), called directly: chapters 16q and 16u."""
    return Recipe(lambda g, a, **p: call(OPS[name], (g, a), p), ("any", "any"),
                  shapes=st.sampled_from([list(s) for s in shapes]),
                  params=lambda chosen: st.just(params(chosen) if params else {}))


def _nll_backward(g, a, target, reduction, two_d=False):
    from refgrad._ops.linear_gradients import nll_loss_backward
    from refgrad._ops.nll_loss import _total_weight

    weight = torch.tensor([2.0, 0.5, 1.0], dtype=torch.float64) if two_d else None
    kind = ("none", "mean", "sum").index(reduction)
    a = a.contiguous() if two_d else a  # torch's nll_loss2d_backward refuses other layouts
    total = _total_weight(a, target, weight, kind, -1)
    return nll_loss_backward("nll_loss2d" if two_d else "nll_loss", g, a, target, weight, kind,
                             -1, total)


def _nll_shapes(input_shape):
    return st.sampled_from([[input_shape[:1] + input_shape[2:], input_shape],
                            [(), input_shape]])


# The gradients of the pads, the pools and nll_loss, rows of their own (chapters 16q, 16u).
RECIPES.update({
    **{f"{kind}_pad{k}d_backward": _gradient_row(f"{kind}_pad{k}d_backward", [shapes],
                                                 lambda chosen, pad=pad: {"padding": pad})
       for kind in ("reflection", "replication")
       for k, shapes, pad in ((1, ((2, 8), (2, 5)), (2, 1)),
                              (2, ((1, 2, 7, 6), (1, 2, 4, 3)), (1, 2, 2, 1)),
                              (3, ((1, 1, 5, 5, 4), (1, 1, 3, 3, 2)), (1, 1, 1, 1, 1, 1)))},
    "max_pool2d_with_indices_backward": _gradient_row(
        "max_pool2d_with_indices_backward", [((1, 2, 3, 2), (1, 2, 4, 3))],
        lambda chosen: _indexed(F.max_pool2d, chosen[1], kernel_size=2, stride=1)),
    "max_pool3d_with_indices_backward": _gradient_row(
        "max_pool3d_with_indices_backward", [((1, 1, 2, 2, 1), (1, 1, 3, 3, 2))],
        lambda chosen: _indexed(F.max_pool3d, chosen[1], kernel_size=2, stride=1)),
    "adaptive_max_pool2d_backward": _gradient_row(
        "adaptive_max_pool2d_backward", [((1, 2, 2, 3), (1, 2, 5, 4))],
        lambda chosen: _indexed(F.adaptive_max_pool2d, chosen[1], output_size=(2, 3))),
    "adaptive_max_pool3d_backward": _gradient_row(
        "adaptive_max_pool3d_backward", [((1, 1, 2, 3, 2), (1, 1, 3, 4, 3))],
        lambda chosen: _indexed(F.adaptive_max_pool3d, chosen[1], output_size=(2, 3, 2))),
    "avg_pool2d_backward": _gradient_row(
        "avg_pool2d_backward", [((1, 2, 3, 5), (1, 2, 5, 4))], lambda chosen: {
            "kernel_size": (3, 2), "stride": (2, 1), "padding": (1, 1), "ceil_mode": True,
            "count_include_pad": False, "divisor_override": None}),
    "avg_pool3d_backward": _gradient_row(
        "avg_pool3d_backward", [((1, 1, 4, 5, 4), (1, 1, 3, 4, 3))], lambda chosen: {
            "kernel_size": (2,), "stride": (1,), "padding": (1,), "ceil_mode": False,
            "count_include_pad": True, "divisor_override": 3}),
    "_adaptive_avg_pool2d_backward": _gradient_row(
        "_adaptive_avg_pool2d_backward", [((1, 2, 2, 3), (1, 2, 5, 4)), ((2, 3, 2), (2, 4, 3))],
        lambda chosen: {f"grad_output_sym_argsize_minus_{k}": chosen[0][-k] for k in (1, 2)}),
    "_adaptive_avg_pool3d_backward": _gradient_row(
        "_adaptive_avg_pool3d_backward", [((1, 1, 2, 3, 2), (1, 1, 3, 4, 3))],
        lambda chosen: {f"grad_output_sym_argsize_minus_{k}": chosen[0][-k] for k in (1, 2, 3)}),
    "nll_loss_backward": Recipe(
        _nll_backward, ("any", "any"), shapes=_nll_shapes((3, 4)),
        params=lambda chosen: _targeted([chosen[1]]).filter(
            lambda p: (p["reduction"] == "none") == bool(chosen[0]))),
    "nll_loss2d_backward": Recipe(
        lambda g, a, target, reduction: _nll_backward(g, a, target, reduction, True),
        ("any", "any"), shapes=_nll_shapes((2, 3, 2, 2)),
        params=lambda chosen: _targeted([chosen[1]]).filter(
            lambda p: (p["reduction"] == "none") == bool(chosen[0]))),
})


def _fused_attention(q, k, v, **params):
    """The fused attention row itself: whatever the operands' layout, its output alone."""
    from refgrad._ops import fused_attention

    params = {"dropout_p": 0.0, "attn_mask": None, "is_causal": False, "scale": None, **params}
    return call(fused_attention.FUSED, (q, k, v), params)[0]


# Attention and sampling (chapter 16v): the fused attention row (with grouped heads), the
# safe softmax, grid_sample's rows and affine_grid's. Grids stay inside (-1, 1), and away
# from the pixels' kinks only by chance.
_GRIDS = {((2, 1, 3, 4), (2, 2, 3, 2)): "2d", ((1, 2, 3, 3), (1, 1, 2, 2)): "2d",
          ((1, 1, 2, 3, 2), (1, 2, 1, 2, 3)): "3d"}
RECIPES.update({
    "_safe_softmax": Recipe(lambda a, dim: torch._safe_softmax(a, dim), min_ndim=1,
                            params=lambda shapes: _dim(shapes).map(lambda d: {"dim": d})),
    "_scaled_dot_product_flash_attention_for_cpu": Recipe(
        _fused_attention, ("small", "small", "small"),
        shapes=st.sampled_from([[(1, 2, 3, 2), (1, 2, 4, 2), (1, 2, 4, 2)],
                                [(2, 2, 2, 3), (2, 1, 3, 3), (2, 1, 3, 3)]]),
        params=_one_of_many({"is_causal": False, "scale": None},
                            {"is_causal": True, "scale": 0.7})),
    **{f"grid_sampler_{n}d": Recipe(
        lambda a, g, **params: F.grid_sample(a, g, **params), ("any", "small"),
        shapes=st.sampled_from([list(s) for s, kind in _GRIDS.items() if kind == f"{n}d"]),
        params=lambda shapes, n=n: st.fixed_dictionaries({
            "mode": st.sampled_from(("bilinear", "nearest", "bicubic")[:3 if n == 2 else 2]),
            "padding_mode": st.sampled_from(("zeros", "border", "reflection")),
            "align_corners": st.booleans()})) for n in (2, 3)},
    "affine_grid_generator": Recipe(
        lambda t, size, align_corners: F.affine_grid(t, size, align_corners),
        shapes=st.sampled_from([[(2, 2, 3)], [(1, 3, 4)]]),
        params=lambda shapes: st.booleans().map(lambda align: {
            "size": (2, 1, 3, 2) if shapes[0][1] == 2 else (1, 2, 2, 3, 2),
            "align_corners": align})),
})

# The copies of views (chapter 16y): each row drawn as its view's, called through the copy.
_VIEW_COPIES = {
    "alias_copy": ("alias", lambda a: torch.alias_copy(a)),
    "as_strided_copy": ("as_strided", lambda a: torch.as_strided_copy(
        a.contiguous(), (2, 2), (1, 3), 1)),
    "expand_copy": ("expand", lambda a, size: torch.expand_copy(a, size)),
    "permute_copy": ("permute", lambda a, dims: torch.permute_copy(a, dims)),
    "select_copy": ("select", lambda a, dim, index: torch.select_copy(a, dim, index)),
    "slice_copy": ("slice", lambda a, **p: torch.slice_copy(a, **p)),
    "split_copy": ("split", lambda a, split_size, dim: torch.split_copy(a, split_size, dim)),
    "split_with_sizes_copy": ("split_with_sizes", lambda a, split_sizes, dim:
                              torch.split_with_sizes_copy(a, split_sizes, dim)),
    "squeeze_copy": ("squeeze", lambda a: torch.squeeze_copy(a)),
    "squeeze_dim_copy": ("squeeze_dim", lambda a, dim: torch.squeeze_copy(a, dim)),
    "squeeze_dims_copy": ("squeeze_dims", lambda a, dim: torch.squeeze_copy(a, dim)),
    "t_copy": ("t", lambda a: torch.t_copy(a)),
    "transpose_copy": ("transpose", lambda a, dim0, dim1: torch.transpose_copy(a, dim0, dim1)),
    "unbind_copy": ("unbind", lambda a, dim: torch.unbind_copy(a, dim)),
    "unfold_copy": ("unfold", lambda a, **p: torch.unfold_copy(a, **p)),
    "unsqueeze_copy": ("unsqueeze", lambda a, dim: torch.unsqueeze_copy(a, dim)),
    "view_copy": ("view", lambda a, shape: torch.view_copy(a, shape)),
}
RECIPES.update({name: dataclasses.replace(RECIPES[view], call=call)
                for name, (view, call) in _VIEW_COPIES.items()})
RECIPES.update({  # torch.fill, the out-of-place fill_ (chapter 16y)
    "fill": Recipe(lambda a: torch.fill(a, 2.0)),
    "fill.Tensor": dataclasses.replace(RECIPES["fill_.Tensor"],
                                       call=lambda a, v: torch.fill(a, v)),
    # ATen's norm over every dimension, reached through norm_except_dim (chapter 16y)
    "norm.Scalar": Recipe(lambda a, p: torch.norm_except_dim(a, p, -1), min_ndim=1,
                          params=lambda shapes: st.sampled_from([1, 2, 3]).map(
                              lambda p: {"p": p})),
})

# the convolution's gradient, a row of its own (chapter 16x): grad_output, input, weight
_CONVOLUTION_GRADIENTS = {
    ((1, 2, 3, 3), (1, 2, 4, 4), (2, 2, 2, 2)): {
        "bias_sizes": (2,), "stride": (1, 1), "padding": (0, 0), "dilation": (1, 1),
        "transposed": False, "output_padding": (0, 0), "groups": 1},
    ((2, 6, 3), (2, 4, 5), (6, 2, 3)): {
        "bias_sizes": (6,), "stride": (2,), "padding": (1,), "dilation": (1,),
        "transposed": False, "output_padding": (0,), "groups": 2},
    # no output padding: a third derivative refuses it, as torch's (NOTE [A kept output padding])
    ((1, 2, 6, 4), (1, 2, 3, 2), (2, 2, 2, 3)): {
        "bias_sizes": (2,), "stride": (2, 1), "padding": (0, 1), "dilation": (1, 2),
        "transposed": True, "output_padding": (0, 0), "groups": 1},
}
RECIPES.update({
    "convolution_backward": Recipe(
        lambda g, a, w, **p: convolution_backward.convolution_backward(
            g, a, w, **p, output_mask=(True, True, True)), ("any", "any", "any"),
        shapes=st.sampled_from([list(s) for s in _CONVOLUTION_GRADIENTS]),
        params=lambda shapes: st.just(_CONVOLUTION_GRADIENTS[tuple(shapes)])),
})


# The unpools, the fractional max pools and native_dropout (chapter 16z).
_SAMPLES = {n: make_tensor(np.linspace(0.1, 0.9, 2 * n).reshape(1, 2, n)) for n in (2, 3)}
_FRACTIONAL = {2: ((1, 2, 5, 4), {"kernel_size": 2, "output_size": (3, 2)}),
               3: ((1, 2, 4, 5, 4), {"kernel_size": 2, "output_size": (2, 3, 2)})}


def _fractional(n):
    """The fractional pool's parameters, with its drawn samples fixed."""
    return {**_FRACTIONAL[n][1], "_random_samples": _SAMPLES[n]}


def _fractional_indices(n, shape):
    pool = F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d
    return {"indices": pool(_scrambled(shape), return_indices=True, **_fractional(n))[1]}


def _seeded_dropout(a, p, train):
    torch.manual_seed(0)  # the same mask on every call, drawn in row-major order
    return torch.native_dropout(a.contiguous(), p, train)


RECIPES.update({
    "max_unpool2d": Recipe(
        lambda a, **p: F.max_unpool2d(a, **p), shapes=st.just([(1, 2, 2, 3)]),
        params=lambda shapes: st.just({"kernel_size": 2, **_indexed(
            F.max_pool2d, (1, 2, 4, 6), kernel_size=2)})),
    "max_unpool3d": Recipe(
        lambda a, **p: F.max_unpool3d(a, **p), shapes=st.just([(1, 2, 2, 2, 3)]),
        params=lambda shapes: st.just({"kernel_size": (1, 2, 2), **_indexed(
            F.max_pool3d, (1, 2, 2, 4, 6), kernel_size=(1, 2, 2))})),
    **{f"fractional_max_pool{n}d": Recipe(
        lambda a, n=n, **p: (F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d)(
            a, return_indices=True, **p),
        shapes=st.just([_FRACTIONAL[n][0]]), params=lambda shapes, n=n: st.just(
            _fractional(n))) for n in (2, 3)},
    "fractional_max_pool2d_backward": _gradient_row(
        "fractional_max_pool2d_backward", [((1, 2, 3, 2), (1, 2, 5, 4))],
        lambda chosen: _fractional_indices(2, chosen[1])),
    "fractional_max_pool3d_backward": _gradient_row(
        "fractional_max_pool3d_backward", [((1, 2, 2, 3, 2), (1, 2, 4, 5, 4))],
        lambda chosen: _fractional_indices(3, chosen[1])),
    # train=None is left out: torch's gradient for it is the mask unscaled, not the derivative
    "native_dropout": Recipe(_seeded_dropout, params=_one_of_many(
        {"p": 0.4, "train": True}, {"p": 0.5, "train": False}, {"p": 1.0, "train": True})),
})
RECIPES.update({  # the CTC loss (chapter 16za), through log_softmax: torch's gradient assumes it
    "_ctc_loss": Recipe(
        lambda a, **p: F.ctc_loss(a.log_softmax(2), **p, reduction="none"),
        shapes=st.just([(5, 3, 4)]), twice=False, params=_one_of_many(
            {"targets": torch.tensor([[1, 2, 2], [3, 1, 0], [1, 1, 3]]),
             "input_lengths": [5, 4, 5], "target_lengths": [3, 2, 2]},
            {"targets": torch.tensor([1, 2, 3, 3, 1]), "input_lengths": [5, 2, 4],
             "target_lengths": [2, 1, 2], "blank": 0},
            {"targets": torch.tensor([[0, 1], [2, 2], [1, 0]]), "input_lengths": [4, 5, 3],
             "target_lengths": [2, 2, 1], "blank": 3})),
})


def _condition(shapes, seed):
    shape = np.broadcast_shapes(*shapes)
    return make_tensor(np.asarray(np.random.default_rng(seed).random(shape) < 0.5))


def _values(rng, shape, kind):
    if kind == "small":
        values = rng.uniform(-1.0, 1.0, shape)
    elif kind == "positive":
        values = rng.uniform(0.5, 2.0, shape)
    elif kind == "inside":  # well inside (-1, 1), where asin, acos and atanh are smooth
        values = rng.uniform(-0.9, 0.9, shape)
    elif kind == "unit":  # inside (0, 1), away from logit's poles
        values = rng.uniform(0.1, 0.9, shape)
    elif kind == "nans":  # about a third of them nan, which nansum passes over
        values = np.where(rng.random(shape) > 0.35, rng.uniform(-2.0, 2.0, shape), np.nan)
    elif kind == "zeros":  # about a third of them exactly zero
        values = rng.uniform(-2.0, 2.0, shape) * (rng.random(shape) > 0.35)
    elif kind == "above_one":
        values = rng.uniform(1.1, 3.0, shape)
    elif kind == "nonzero":
        values = rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)
    else:
        values = rng.uniform(-2.0, 2.0, shape)
    return np.asarray(values, dtype=np.float64)


def _laid_out(data, layout):
    """A float64 leaf holding ``data``, contiguous or not."""
    if layout == "strided" and data.ndim:
        # A strided view made with refgrad's own ops: every other element of a stack.
        wide = torch.stack([make_tensor(data), make_tensor(np.zeros_like(data))], -1)
        return wide.unbind(-1)[0].detach().requires_grad_()
    if layout == "transposed" and data.ndim >= 2:
        data = np.ascontiguousarray(data.T).T  # same values, column-major memory
    return make_tensor(data, requires_grad=True)


def _shape_for(data, base, broadcast):
    if not broadcast:
        return base
    drop = data.draw(st.integers(0, len(base)))
    ones = data.draw(st.lists(st.booleans(), min_size=len(base) - drop,
                              max_size=len(base) - drop))
    return tuple(1 if one else n for one, n in zip(ones, base[drop:]))


def _case(data, name):
    """Inputs (leaves), a function of the inputs, and a random generator for one row."""
    inputs, params, rng = drawn_case(data, name)
    return inputs, (lambda *ts: RECIPES[name].call(*ts, **params)), rng


def drawn_case(data, name):
    """Inputs (leaves), keyword parameters and a random generator for one row."""
    recipe = RECIPES[name]
    base = tuple(data.draw(st.lists(st.integers(1, 3), min_size=recipe.min_ndim,
                                    max_size=recipe.max_ndim)))
    many = len(recipe.values) > 1
    shapes = [_shape_for(data, base, recipe.broadcast and many) for _ in recipe.values]
    shapes = [s if len(s) >= recipe.min_ndim else base for s in shapes]
    if recipe.shapes is not None:
        shapes = data.draw(recipe.shapes)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    layouts = data.draw(st.lists(st.sampled_from(["contiguous", "strided", "transposed"]),
                                 min_size=len(shapes), max_size=len(shapes)))
    inputs = tuple(_laid_out(_values(rng, s, kind), layout)
                   for s, kind, layout in zip(shapes, recipe.values, layouts))
    params = data.draw(recipe.params(shapes))
    return inputs, params, rng


def _grad_outputs(outputs, rng):
    return tuple(make_tensor(np.asarray(rng.uniform(-1.0, 1.0, o.shape))) for o in outputs)


def _differentiable(x):
    outputs = tuple(x) if isinstance(x, tuple | list) else (x,)
    return tuple(o for o in outputs if o.requires_grad)


# A NotImplemented row records a node whose backward fails, as torch's does:
# test_rows_without_a_derivative checks those.
# torch has no forward formula for these rows: refgrad refuses their tangents too (the
# forward-mode tests check it). name: (the shapes of the recipe's inputs, its parameters)
WITHOUT_FORWARD_FORMULA = {
    "igamma": ([(2,)], {}), "igammac": ([(2,)], {}),
    "_cdist_forward": ([(3, 2), (4, 2)], {"p": 2.0}), "_pdist_forward": ([(3, 2)], {"p": 1.0}),
    "_euclidean_dist": ([(3, 2), (4, 2)], {}),
    "rrelu_with_noise_": ([(2,)], {"training": False}),
    "index_reduce": ([(3,), (2,)], {"dim": 0, "index": torch.tensor([0, 2]), "reduce": "prod",
                                    "include_self": True}),
    "multi_margin_loss": ([(3, 4)], {"target": torch.tensor([0, 3, 1]), "reduction": "mean"}),
    "multilabel_margin_loss_forward": (
        [(2, 3)], {"target": torch.tensor([[0, -1, 1], [2, 1, 0]]), "reduction": "sum"}),
    "huber_loss_backward": ([(3,), (3,), (3,)], {"reduction": 0}),
    "soft_margin_loss_backward": ([(3,), (3,)], {"reduction": 0}),
    "_scaled_dot_product_flash_attention_for_cpu": ([(1, 1, 2, 2)] * 3, {}),
    "grid_sampler_2d": ([(1, 1, 2, 2), (1, 1, 1, 2)], {"align_corners": False}),
    "grid_sampler_3d": ([(1, 1, 2, 2, 2), (1, 1, 1, 1, 3)], {"align_corners": True}),
    "_ctc_loss": ([(2, 1, 3)], {"targets": torch.tensor([[1]]), "input_lengths": [2],
                                "target_lengths": [1]}),
}

# The rows of cdist's and pdist's gradients record nodes (CdistBackwardBackward0) that
# refuse to be differentiated, as torch's do: test_rows_that_refuse_their_backward. So do
# the in-place inverse hyperbolics' (AsinhBackward1), tested with the in-place functions.
REFUSING = {"_cdist_backward", "_pdist_backward", "asinh_", "acosh_", "atanh_"}
# unique's rows record nodes that refuse any backward: test_unique_rows_refuse_their_backward.
REFUSING |= {"_unique2", "unique_dim", "unique_consecutive"}
DIFFERENTIABLE = sorted(name for name, op in OPS.items() if op.node is not None
                        and op.node != "NotImplemented" and name not in REFUSING)
WITHOUT_DERIVATIVE = sorted(name for name, op in OPS.items() if op.node == "NotImplemented")
COVERED = [name for name in DIFFERENTIABLE if name in RECIPES]  # the others fail below


_UNDERIVABLE_CALLS = {
    "floor_divide": (lambda a: torch.floor_divide(a, a.detach() + 3), "floor_divide"),
    "floor_divide_by_number": (lambda a: a // 2, "floor_divide"),
    "number_floor_divide": (lambda a: 2 // a, "floor_divide"),
    "number_remainder": (lambda a: 2 % a, "remainder"),
    "bernoulli.p": (lambda a: torch.bernoulli(a, 0.5), "bernoulli"),
    "heaviside": (lambda a: torch.heaviside(a, a.detach()), "heaviside"),
    "histogram.bin_ct": (lambda a: torch.histogram(a, 2).hist, "histogram"),
    "histogram.bin_ct_weight": (lambda a: torch.histogram(a, 2, weight=a.detach()).bin_edges,
                                "histogram"),
    "histogram.bins_tensor": (lambda a: torch.histogram(a.detach(), a.sort().values).hist,
                              "histogram"),
    "histogram.bins_tensor_weight": (
        lambda a: torch.histogram(a.detach(), torch.tensor([-3.0, 0.0, 2.0], dtype=a.dtype),
                                  weight=a).hist, "histogram"),
    "scatter.reduce": (lambda a: _warned(lambda: a.scatter(
        0, torch.tensor([1, 1]), a.detach() * 2, reduce="multiply")), "scatter"),
    "scatter.value_reduce": (lambda a: torch.scatter(a, 0, torch.tensor([0]), 2.0, reduce="add"),
                             "scatter"),
    "set_": (lambda a: torch.zeros(3, dtype=torch.float64).set_(a), "set_"),
    "set_.empty": (lambda a: (a * 1).set_(), "set_"),
    "hardsigmoid_backward": (lambda a: torch.autograd.grad(
        F.hardsigmoid(a).sum(), a, create_graph=True)[0], "hardsigmoid_backward"),
    "multi_margin_loss_backward": (lambda a: torch.autograd.grad(
        F.multi_margin_loss(a, torch.tensor([1])), a, create_graph=True)[0],
        "multi_margin_loss_backward"),
    "multilabel_margin_loss_backward": (lambda a: torch.autograd.grad(
        F.multilabel_margin_loss(a, torch.tensor([1, -1])), a, create_graph=True)[0],
        "multilabel_margin_loss_backward"),
    "detach_copy": (lambda a: torch.detach_copy(a), "detach_copy"),
    "native_channel_shuffle": (lambda a: torch.native_channel_shuffle(a.view(1, 2, 1), 2),
                               "native_channel_shuffle"),
    "_ctc_loss_backward": (lambda a: _ctc_gradient(a.view(1, 1, 2)), "_ctc_loss_backward"),
}


def _ctc_gradient(log_probs):
    loss = F.ctc_loss(log_probs, torch.tensor([[1]]), [1], [1])
    return torch.autograd.grad(loss, log_probs, create_graph=True)[0]


def _warned(run):
    """``run()``, which must warn that scatter's reduce= is deprecated."""
    with pytest.warns(UserWarning, match="^The reduce argument of torch.scatter with Tensor src "
                                         "is deprecated"):
        return run()


def test_rows_without_a_derivative():
    assert sorted(_UNDERIVABLE_CALLS) == WITHOUT_DERIVATIVE
    for name, (function, operation) in _UNDERIVABLE_CALLS.items():
        a = torch.tensor([1.5, -2.5], dtype=torch.float64, requires_grad=True)
        out = function(a)
        assert OPS[name].node == type(out.grad_fn).__name__ == "NotImplemented"
        assert out.grad_fn.name() == "torch::autograd::NotImplemented"
        assert dir(out.grad_fn) == [n for n in dir(out.grad_fn) if not n.startswith("_saved")]
        where = operation if operation in BARE else f"aten::{operation}"
        with pytest.raises(RuntimeError, match=f"^derivative for {where} is not implemented$"):
            out.sum().backward()
        assert a.grad is None


@pytest.mark.parametrize(("name", "function"), [
    ("_cdist_backward", lambda a: torch.cdist(a, a.detach() + 1, 1.5)),
    ("_pdist_backward", lambda a: torch.pdist(a, 3.0)),
])
def test_rows_that_refuse_their_backward(name, function):
    a = torch.tensor([[1.5, -2.5], [0.5, 1.0]], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(function(a).sum(), a, create_graph=True)
    assert type(g.grad_fn).__name__ == OPS[name].node
    with pytest.raises(NotImplementedError, match=f"^the derivative for '{name}' is not "
                                                  r"implemented\.$"):
        g.sum().backward()


@pytest.mark.parametrize(("name", "function"), [
    ("_unique2", lambda a: torch.unique(a, return_inverse=True)),
    ("unique_dim", lambda a: torch.unique(a, dim=1, return_counts=True)),
    ("unique_consecutive", lambda a: torch.unique_consecutive(a, return_inverse=True)),
    ("unique_consecutive", lambda a: a.unique_consecutive(dim=0)),
])
def test_unique_rows_refuse_their_backward(name, function):
    a = torch.tensor([[1.5, -2.5], [1.5, -2.5]], dtype=torch.float64, requires_grad=True)
    out = function(a)
    values, rest = (out[0], out[1:]) if isinstance(out, tuple) else (out, ())
    assert type(values.grad_fn).__name__ == OPS[name].node and values.requires_grad
    assert all(t.dtype == torch.int64 and not t.requires_grad for t in rest)
    with pytest.raises(NotImplementedError, match=f"^the derivative for '{name}' is not "
                                                  r"implemented\.$"):
        values.sum().backward()
    assert a.grad is None
    with fwAD.dual_level():
        dual = fwAD.make_dual(a.detach(), torch.ones_like(a))
        with pytest.raises(NotImplementedError, match=f"^Trying to use forward AD with {name} "):
            function(dual)


def test_every_differentiable_row_has_a_recipe():
    assert set(DIFFERENTIABLE) - set(RECIPES) == set()
    assert set(RECIPES) - set(DIFFERENTIABLE) == set()


@pytest.mark.parametrize("name", COVERED)
@settings(max_examples=25)
@given(data=st.data())
def test_first_order(name, data):
    inputs, fn, rng = _case(data, name)
    outputs = _differentiable(fn(*inputs))
    assert type(outputs[0].grad_fn).__name__ == OPS[name].node  # the recipe reaches its row
    assert gradcheck(fn, inputs, rtol=RTOL)
    upstream = _grad_outputs(outputs, rng)
    torch.autograd.backward(outputs, upstream)
    grads = [t.grad._data for t in inputs if t.grad is not None]
    assert len(grads) == len(inputs)
    for k, g in enumerate(grads):
        others = [t._data for t in inputs] + [u._data for u in upstream] + grads[:k]
        assert not any(np.shares_memory(g, o) for o in others)


@pytest.mark.parametrize("name", [n for n in COVERED if RECIPES[n].twice])
@settings(max_examples=10)
@given(data=st.data())
def test_second_order(name, data):
    inputs, fn, rng = _case(data, name)
    outputs = _differentiable(fn(*inputs))
    upstream = tuple(g.requires_grad_() for g in _grad_outputs(outputs, rng))
    assert gradgradcheck(fn, inputs, upstream, rtol=RTOL)


def test_a_derivative_off_by_a_tenth_of_a_percent_is_caught():
    from refgrad._C import _functions
    from refgrad._ops import op_nodes

    row = register(Op(
        "sin_off", "SinOffBackward0", ("self",), forward=np.sin,
        backward=lambda g, self: (g * self.cos() * 1.001,), saves=(("self", ("self",)),),
    ))
    try:
        x = torch.tensor([0.5, 1.0, -2.0], dtype=torch.float64, requires_grad=True)
        wrong = lambda t: call(OPS["sin_off"], (t,))  # noqa: E731
        assert wrong(x).grad_fn.name() == "SinOffBackward0"
        assert gradcheck(torch.sin, (x,), rtol=RTOL)
        with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0"):
            gradcheck(wrong, (x,), rtol=RTOL)
        assert not gradcheck(wrong, (x,), rtol=RTOL, fast_mode=True, raise_exception=False)
        assert gradcheck(wrong, (x,))  # torch's default rtol=1e-3 is exactly 0.1%
    finally:
        del OPS[row.name]
        op_nodes._NODE_CLASSES.pop(row.node, None)
        vars(_functions).pop(row.node, None)
    assert "sin_off" not in OPS
