"""The gradients of in-place ops and views, called out of place, and of the copies of
views (chapters 26, 27 and 16y)."""

import dataclasses

from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import OPS
from refgrad._ops.dispatch import call
from tests._gradient_support import (
    _COMPARED,
    Recipe,
    _any_dim,
    _dim,
    _dims_as,
    _dims_keepdim,
    _index_put_params,
    _mask,
    _one_of,
    gradient_tests,
)
from tests.test_gradients_basics import RECIPES as BASICS

RECIPES: dict[str, Recipe] = {}


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
    # A concentration of exactly 1 whatever the input, from a generator seeded afresh: the
    # draw does not move with the input, and the chain rule's zero agrees with finite
    # differences (which cannot see the implicit gradient of a reparameterized draw: chapter
    # "The gamma family"). Once only: the gradient's own derivative is refused, as torch's is.
    "_standard_gamma": Recipe(lambda a: call(OPS["_standard_gamma"], (a * 0.0 + 1.0,), {
        "generator": torch.Generator().manual_seed(0)}), twice=False),
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
        "self_dtype": a.dtype, "other_info": (b.shape, b.dtype)}), ("small", "above_one"),
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
_VIEWS = {**BASICS, **RECIPES}  # the views' recipes, from test_gradients_basics too
RECIPES.update({name: dataclasses.replace(_VIEWS[view], call=call)
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


test_first_order, test_second_order = gradient_tests(RECIPES)
