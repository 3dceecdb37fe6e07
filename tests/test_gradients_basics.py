"""The gradients of arithmetic, pointwise functions, reductions, shapes, indexing and
pieces, checked with gradcheck and gradgradcheck."""

import numpy as np
from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import OPS, arithmetic, pointwise, shaping, slicing
from refgrad._ops.dispatch import call
from refgrad._ops.softmax_backward import log_softmax_backward_data, softmax_backward_data
from tests._gradient_support import (
    Recipe,
    _any_dim,
    _condition,
    _dim,
    _dim_keepdim,
    _dims,
    _dims_keepdim,
    _index_put_params,
    _mask,
    _one_of,
    _sizes,
    _spread_params,
    _wide,
    gradient_tests,
)


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
    "select_backward": Recipe(lambda g, **p: slicing.select_backward(g, **p),
                              params=_select_backward_params),
    # the row itself: a full-range slice spelled a[...] records AliasBackward0, as in torch
    "slice": Recipe(lambda a, **p: call(OPS["slice"], (a,), p), min_ndim=1,
                    params=_slice_params),
    "slice_backward": Recipe(lambda g, **p: slicing.slice_backward(g, **p), min_ndim=1,
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


def _norm_params(shapes):
    dims = st.one_of(st.none(), _dims(shapes).map(tuple)) if shapes[0] else st.none()
    orders = st.sampled_from([1, 2, 3, 1.5, 0.5, -1, float("inf"), float("-inf")])
    return st.builds(lambda o, d, k: {"ord": o, "dim": d, "keepdim": k}, orders, dims,
                     st.booleans())


def _extreme_params(shapes):
    dims = st.just(()) if not shapes[0] else st.one_of(st.just(()), _dims(shapes).map(tuple))
    return st.builds(lambda d, k: {"dim": d, "keepdim": k}, dims, st.booleans())


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


test_first_order, test_second_order = gradient_tests(RECIPES)
