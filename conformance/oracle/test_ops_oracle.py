"""Oracle test: every op of the 14-16d chapters' rows, on refgrad and on real torch.

Each case is an expression written once against a module ``T`` (torch or
refgrad) and run on both with the same float64 leaves: fixed ones and
Hypothesis-drawn ones, some laid out non-contiguously. The two runs must agree
on forward values and dtype, on the whole recorded graph (node class names and
the ``next_functions`` of every node), on the non-tensor ``_saved_*``
attributes torch shows, on which tensors were saved and in which order
(torch's order from ``saved_tensors_hooks``; refgrad's from the row's
``saves`` entries that were actually saved), and on the gradients of a random
upstream gradient.
"""

from dataclasses import dataclass

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import refgrad
from refgrad.autograd._saved import SavedTensor


@dataclass(frozen=True)
class Case:
    name: str
    shapes: tuple
    fn: object
    low: float = -3.0
    high: float = 3.0
    transposed: bool = False  # leaves are transposed views (non-contiguous)
    # False for a gradient's own graph: torch's hooks also see what the first backward
    # saved for nodes the result does not reach, which no walk of its graph finds
    packs: bool = True


def _idx(T, values, dtype=None):
    return T.tensor(values, dtype=dtype)


def _spread(T):
    """Offsets 10 apart, which keep drawn values of at most 3 from meeting."""
    return T.arange(0.0, 150.0, 10.0, dtype=T.float64).reshape(3, 5)


def _nans_at_or_below_zero(T, x):
    return T.where(x > 0, x, float("nan"))


def _gradient(T, out, x, g):
    return T.autograd.grad(out, x, g, create_graph=True)[0]


def _second(T, out, x, g, h):
    """Both second derivatives, as one tensor whose graph holds everything recorded."""
    wrt_x, wrt_g = T.autograd.grad(_gradient(T, out, x, g), (x, g), h, create_graph=True)
    return wrt_x + wrt_g


def _tied(x):
    """``x`` rounded to whole numbers, so that values tie, with x's gradient."""
    return x - x.detach() + x.detach().round()


CASES = [
    # elementwise
    Case("tan", ((3, 4),), lambda T, x: x.tan(), -1.2, 1.2),
    Case("tanh", ((3, 4),), lambda T, x: T.tanh(x)),
    Case("sigmoid", ((5,),), lambda T, x: x.sigmoid()),
    Case("relu", ((3, 4),), lambda T, x: T.relu(x), transposed=True),
    Case("abs", ((6,),), lambda T, x: abs(x)),
    Case("sqrt", ((2, 3),), lambda T, x: x.sqrt(), 0.1, 4.0),
    Case("rsqrt", ((2, 3),), lambda T, x: T.rsqrt(x), 0.1, 4.0),
    Case("clamp", ((4, 3),), lambda T, x: x.clamp(-0.5, 0.8)),
    Case("clamp_min", ((4,),), lambda T, x: T.clamp(x, min=0.1)),
    Case("clamp_max", ((4,),), lambda T, x: x.clamp(max=0.3)),
    Case("maximum", ((3, 1), (4,)), lambda T, x, y: T.maximum(x, y)),
    Case("minimum", ((2, 3), (2, 3)), lambda T, x, y: x.minimum(y), transposed=True),
    Case("max_binary", ((3,), (3,)), lambda T, x, y: T.max(x, y)),
    # division that rounds, and remainders (divisors kept away from zero)
    Case("remainder", ((3, 4), (4,)), lambda T, x, y: x % (y - 3.5), 0.0, 3.0),
    Case("remainder_number", ((3, 4),), lambda T, x: T.remainder(x, -1.25)),
    Case("fmod", ((2, 3), (2, 3)), lambda T, x, y: T.fmod(x, y + 0.5), 0.0, 3.0,
         transposed=True),
    Case("fmod_number", ((5,),), lambda T, x: x.fmod(0.75)),
    Case("div_floor", ((3, 4), (4,)), lambda T, x, y: x.div(y + 1.0, rounding_mode="floor"),
         0.0, 3.0),
    Case("div_trunc_number", ((5,),), lambda T, x: T.div(x, -0.7, rounding_mode="trunc")),
    Case("div_none", ((2, 3), (3,)), lambda T, x, y: T.div(x, y + 1.0, rounding_mode=None),
         0.0, 3.0),
    Case("float_power", ((4,), (4,)), lambda T, x, y: T.float_power(x, y), 0.2, 2.0),
    # the long tail of elementwise functions
    Case("steps", ((3, 4),), lambda T, x: x.floor() + x.ceil() * x.round() - T.trunc(x)),
    Case("round_decimals_frac", ((5,),), lambda T, x: T.round(x, decimals=1) + x.frac()),
    Case("logs", ((2, 3),), lambda T, x: x.log1p() + T.log2(x) * x.log10(), 0.2, 3.0,
         transposed=True),
    Case("exps", ((4,),), lambda T, x: x.expm1() * T.exp2(x)),
    Case("hyperbolic", ((3, 2),), lambda T, x: x.sinh() + T.cosh(x) * x.asinh()),
    Case("inverse_trig", ((5,),), lambda T, x: x.asin() + T.acos(x) * x.atan() + x.atanh(),
         -0.9, 0.9),
    Case("acosh", ((4,),), lambda T, x: T.acosh(x + 1.1), 0.0, 2.0),
    Case("degrees", ((3,),), lambda T, x: x.deg2rad() * T.rad2deg(x)),
    Case("atan2", ((3, 1), (4,)), lambda T, x, y: T.atan2(x, y)),
    Case("square", ((3,),), lambda T, x: x.square()),
    # moves, blends and fused arithmetic
    Case("flip_roll", ((2, 3, 2),), lambda T, x: x.flip((0, -1)).roll((1, -1), (1, 2))),
    Case("roll_flat", ((3, 2),), lambda T, x: T.roll(x, 2), transposed=True),
    Case("triangles", ((3, 4),), lambda T, x: x.tril(1) * T.triu(x, -1)),
    Case("diff", ((3, 4), (3, 1)), lambda T, x, p: T.diff(x, n=2, dim=1, prepend=p)),
    Case("lerp", ((3, 4), (4,)), lambda T, x, y: T.lerp(x, y.expand(3, 4), 0.3)),
    Case("lerp_tensor", ((3, 4), (3, 4), (4,)),
         lambda T, x, y, w: T.lerp(x, y, w.expand(3, 4))),
    Case("addcmul", ((3, 4), (3, 1), (4,)), lambda T, x, a, b: T.addcmul(x, a, b, value=-0.5)),
    Case("addcdiv", ((4,), (2, 4), (4,)), lambda T, x, a, b: x.addcdiv(a, b + 3.5, value=2),
         0.0, 3.0),
    # infinities where the drawn values are 0 (nan would not compare equal in the saved lists)
    Case("nan_to_num", ((5,),), lambda T, x: T.nan_to_num(x.reciprocal(), posinf=7.0), 0.0, 3.0),
    Case("index_select", ((3, 4),), lambda T, x: x.index_select(0, T.tensor([2, 0, 2]))
         * T.index_select(x, -1, T.tensor([1, 1, 3, 0])).sum()),
    Case("sort", ((3, 4),), lambda T, x: T.sort(x, 1, descending=True).values * x.sort(0)[0]),
    # distinct values: among equal ones, torch's topk picks positions of its own choosing
    Case("topk", ((3, 5),), lambda T, x: T.topk(x + _spread(T), 2).values.sum()
         + (x - _spread(T)).topk(1, 0, False)[0]),
    # running rows, zeros included: cumprod's gradient through them
    Case("cumprod", ((3, 4),), lambda T, x: x.cumprod(1) + T.cumprod(x * (x > 0), 0)),
    # no zeros: there torch's gradient mixes in the float32 result, refgrad's keeps to float64
    Case("cumprod_dtype", ((5,),), lambda T, x: T.cumprod(x, 0, dtype=T.float32), 0.5, 3.0),
    Case("cummax_cummin", ((3, 5),), lambda T, x: T.cummax(x + _spread(T), 1).values
         * x.cummin(0)[0]),
    Case("logcumsumexp", ((3, 4),), lambda T, x: x.logcumsumexp(1) + T.logcumsumexp(x, 0)),
    # special functions
    Case("logaddexp", ((3, 1), (4,)), lambda T, x, y: T.logaddexp(x, y) * x.logaddexp2(y)),
    Case("hypot", ((2, 3), (3,)), lambda T, x, y: T.hypot(x, y), 0.5, 3.0),
    Case("xlogy", ((2, 3), (3,)), lambda T, x, y: T.xlogy(x, y) + x.xlogy(2.5)
         + T.xlogy(2, y), 0.0, 3.0),
    Case("logit", ((5,),), lambda T, x: T.logit(x) * x.logit(eps=0.3), 0.05, 0.95),
    Case("sgn", ((5,),), lambda T, x: x.sgn() * x),
    Case("erf", ((2, 3),), lambda T, x: x.erf() + T.erfc(x) * (x / 4).erfinv()),
    Case("nansum_nanmean", ((3, 4),), lambda T, x: T.nansum(_nans_at_or_below_zero(T, x), 1)
         * _nans_at_or_below_zero(T, x).nanmean(0)[:3] + _nans_at_or_below_zero(T, -x).nansum()),
    Case("masked_select", ((2, 3), (3,)), lambda T, x, v: T.masked_select(x, x > 0)
         + v.masked_select(T.tensor([[True], [False]])).sum()),
    # writes by index (the duplicate targets are deliberate: torch's gradients for them)
    Case("scatter", ((3, 4), (2, 4)), lambda T, x, s: x.scatter(
        0, _idx(T, [[0, 1, 2, 0], [0, 0, 0, 0]]), s)),
    Case("scatter_value", ((3, 4),), lambda T, x: T.scatter(x, -1, _idx(T, [[3], [0]]), 2.5)),
    Case("scatter_add", ((3, 4), (3, 3)), lambda T, x, s: T.scatter_add(
        x, 1, _idx(T, [[0, 0, 3], [1, 2, 1], [3, 3, 3]]), s), transposed=True),
    Case("scatter_add_int32", ((3, 4), (1, 4)), lambda T, x, s: x.scatter_add(
        0, _idx(T, [[2, 2, 0, 1]], T.int32), s)),
    Case("index_add", ((4, 3), (5, 3)), lambda T, x, s: x.index_add(
        0, _idx(T, [1, 3, 1, 0, 1]), s, alpha=-2.0)),
    Case("index_add_dim1", ((2, 4), (2, 2)), lambda T, x, s: T.index_add(
        x, -1, _idx(T, [3, 3], T.int32), s), transposed=True),
    Case("index_copy", ((4, 3), (3, 3)), lambda T, x, s: x.index_copy(0, _idx(T, [2, 0, 2]), s)),
    Case("index_fill", ((3, 4),), lambda T, x: x.index_fill(1, _idx(T, [0, -1, 0]), -1.5)),
    Case("index_fill_tensor", ((3, 4), ()), lambda T, x, v: T.index_fill(
        x, 0, _idx(T, [2, 0, 2]), v)),
    Case("masked_scatter", ((3, 4), (13,)), lambda T, x, s: x.masked_scatter(x > 0, s)),
    Case("masked_scatter_bcast", ((4,), (9,)), lambda T, x, s: T.masked_scatter(
        x, _idx(T, [[True, False, True, True]] * 2), s)),
    Case("take", ((3, 4),), lambda T, x: x.take(_idx(T, [[0, 11], [-1, 5], [5, 5]]))),
    Case("take_along_dim", ((3, 4),), lambda T, x: T.take_along_dim(x, _idx(T, [[0], [2]]), 0)),
    Case("take_along_dim_flat", ((3, 4),), lambda T, x: x.take_along_dim(_idx(T, [1, 1, 10]))),
    *[Case(f"scatter_reduce_{how}_{keep}", ((3, 4), (3, 4)), lambda T, x, s, how=how, keep=keep:
           x.scatter_reduce(0, _idx(T, [[0, 1, 2, 0], [0, 0, 1, 0], [2, 2, 2, 0]]), s, how,
                            include_self=keep))
      for how in ("sum", "prod", "mean", "amax", "amin") for keep in (True, False)],
    Case("scatter_inplace", ((3, 4), (2, 4)), lambda T, x, s: (x * 1).scatter_(
        0, _idx(T, [[0, 1, 2, 0], [1, 1, 1, 1]]), s).scatter_add_(
        1, _idx(T, [[0, 0, 3, 0]]), s[:1])),
    Case("index_inplace", ((4, 3), (2, 3)), lambda T, x, s: (x * 1).index_add_(
        0, _idx(T, [3, 3]), s, alpha=0.5).index_copy_(0, _idx(T, [1, 0]), s).index_fill_(
        1, _idx(T, [2]), 4.0)),
    Case("reduce_inplace", ((3, 4), (3, 4)), lambda T, x, s: (x * 1).scatter_reduce_(
        0, _idx(T, [[0, 1, 2, 0], [0, 0, 1, 0], [2, 2, 2, 0]]), s, "prod")),
    Case("masked_scatter_inplace", ((3, 4), (7,)), lambda T, x, s: (x * 1).masked_scatter_(
        _idx(T, [True, False, False, True]), s)),
    # reductions
    Case("mean", ((3, 4),), lambda T, x: x.mean()),
    Case("mean_dim", ((3, 4),), lambda T, x: x.mean(1)),
    Case("mean_dims", ((2, 3, 4),), lambda T, x: T.mean(x, (0, -1), keepdim=True)),
    Case("max", ((3, 4),), lambda T, x: x.max()),
    Case("min", ((5,),), lambda T, x: T.min(x)),
    Case("max_dim", ((3, 4),), lambda T, x: x.max(1)[0]),
    Case("max_dim_keep", ((3, 4),), lambda T, x: x.max(-1, keepdim=True).values),
    Case("min_dim", ((3, 4),), lambda T, x: T.min(x, 0).values, transposed=True),
    Case("prod", ((2, 3),), lambda T, x: x.prod()),
    Case("prod_dim", ((3, 4),), lambda T, x: x.prod(1)),
    Case("prod_dim_keep", ((3, 4),), lambda T, x: T.prod(x, -1, keepdim=True)),
    Case("logsumexp", ((3, 4),), lambda T, x: x.logsumexp(1)),
    Case("logsumexp_dims", ((2, 3, 4),), lambda T, x: T.logsumexp(x, (0, 2), keepdim=True)),
    Case("softmax", ((3, 4),), lambda T, x: x.softmax(1)),
    Case("softmax_fn", ((3, 4),), lambda T, x: T.softmax(x, 0), transposed=True),
    Case("log_softmax", ((3, 4),), lambda T, x: x.log_softmax(-1)),
    # their gradients, with create_graph=True: _softmax_backward_data's rows and formulas
    Case("softmax_gradient", ((3, 4), (3, 4)), lambda T, x, g: _gradient(T, x.softmax(1), x, g)),
    Case("log_softmax_gradient", ((3, 4), (3, 4)),
         lambda T, x, g: _gradient(T, x.log_softmax(-1), x, g), transposed=True),
    Case("softmax_gradient_0d", ((), ()), lambda T, x, g: _gradient(T, x.softmax(0), x, g)),
    Case("amax_gradient", ((3, 4), (3,)), lambda T, x, g: _gradient(T, _tied(x).amax(1), x, g),
         packs=False),
    Case("amin_gradient_0d", ((), ()), lambda T, x, g: _gradient(T, x.amin(), x, g), packs=False),
    Case("amax_gradient_0d_along_0", ((), (1,)),
         lambda T, x, g: _gradient(T, x.amax(0), x, g[0]), packs=False),
    Case("masked_select_gradient", ((2, 3), (4,)), lambda T, x, g: _gradient(
        T, x.masked_select(_idx(T, [[True, False, True], [False, True, True]])), x, g),
        packs=False),
    # both gradients: refgrad makes a formula's every share (chapter "The op table")
    Case("masked_scatter_gradient", ((2, 3), (7,), (2, 3)), lambda T, x, s, g: T.cat([
        share.reshape(-1) for share in T.autograd.grad(
            x.masked_scatter(_idx(T, [[True, False, True], [False, True, True]]), s), (x, s), g,
            create_graph=True)]), packs=False),
    Case("take_gradient", ((2, 3), (2, 2)), lambda T, x, g: _gradient(
        T, x.take(_idx(T, [[0, 4], [4, -1]])), x, g), packs=False),
    Case("cumprod_gradient_with_zeros", ((2, 4), (2, 4)), lambda T, x, g: _gradient(
        T, (x * _idx(T, [[1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 0.0]], T.float64)).cumprod(1),
        x, g), packs=False),
    Case("prod_gradient_with_zeros", ((3, 2), (2,)), lambda T, x, g: _gradient(
        T, (x * _idx(T, [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], T.float64)).prod(0), x, g),
        packs=False),
    Case("softmax_second", ((3, 4), (3, 4), (3, 4)),
         lambda T, x, g, h: _second(T, T.softmax(x, -2), x, g, h), packs=False),
    Case("log_softmax_second", ((2, 5), (2, 5), (2, 5)),
         lambda T, x, g, h: _second(T, x.log_softmax(1), x, g, h), transposed=True, packs=False),
    # measures of spread and size
    Case("var", ((3, 4),), lambda T, x: x.var()),
    Case("var_dim", ((3, 4),), lambda T, x: x.var(1)),
    Case("var_dims_keep", ((2, 3, 4),), lambda T, x: T.var(x, (0, -1), correction=0,
                                                            keepdim=True)),
    Case("var_unbiased", ((3, 4),), lambda T, x: x.var(0, unbiased=False), transposed=True),
    Case("var_correction_none", ((3, 4),), lambda T, x: x.var(1, correction=None)),
    Case("var_old_spelling", ((3, 4),), lambda T, x: T.var(x, False)),
    Case("std", ((3, 4),), lambda T, x: x.std()),
    Case("std_dim", ((3, 4),), lambda T, x: T.std(x, -1, keepdim=True)),
    Case("std_correction", ((3, 4),), lambda T, x: x.std(dim=0, correction=2)),
    Case("std_fraction", ((3, 4),), lambda T, x: x.std(correction=0.5), transposed=True),
    Case("norm", ((3, 4),), lambda T, x: x.norm()),
    Case("norm_1", ((3, 4),), lambda T, x: x.norm(1)),
    Case("norm_3_dim", ((3, 4),), lambda T, x: x.norm(3, dim=1)),
    Case("norm_1.5_keep", ((3, 4),), lambda T, x: x.norm(1.5, dim=0, keepdim=True)),
    Case("norm_half", ((3, 4),), lambda T, x: x.norm(0.5)),
    Case("norm_negative", ((3, 4),), lambda T, x: T.norm(x, -2.0, 1)),
    Case("norm_inf", ((3, 4),), lambda T, x: x.norm(float("inf"))),
    Case("norm_neg_inf_dim", ((3, 4),), lambda T, x: T.linalg.vector_norm(x, float("-inf"), 1)),
    Case("norm_0", ((3, 4),), lambda T, x: T.linalg.vector_norm(x, 0)),
    Case("norm_0_plus", ((3, 4),), lambda T, x: T.linalg.vector_norm(x, 0) + x.sum()),
    Case("vector_norm", ((2, 3, 4),), lambda T, x: T.linalg.vector_norm(x, 2.5, dim=(0, 2),
                                                                          keepdim=True)),
    Case("norm_fro_dim", ((3, 4),), lambda T, x: T.norm(x, "fro", dim=1), transposed=True),
    Case("amax", ((3, 4),), lambda T, x: x.amax(1)),
    Case("amax_all", ((3, 4),), lambda T, x: T.amax(x)),
    Case("amax_dims", ((2, 3, 4),), lambda T, x: x.amax((0, -1), keepdim=True)),
    Case("amin", ((3, 4),), lambda T, x: T.amin(x, -1), transposed=True),
    Case("amin_scalar", ((),), lambda T, x: x.amin(0)),
    Case("cumsum", ((3, 4),), lambda T, x: x.cumsum(1)),
    Case("cumsum_neg", ((2, 3, 4),), lambda T, x: T.cumsum(x, -2), transposed=True),
    Case("cumsum_scalar", ((),), lambda T, x: x.cumsum(0)),
    # the float32 result is converted back, so that the gradient arriving is float32
    Case("cumsum_dtype", ((3, 4),), lambda T, x: x.cumsum(0, dtype=T.float32).double()),
    # masks, pieces, tiles and gathers
    Case("masked_fill", ((3, 4),), lambda T, x: x.masked_fill(x > 0.5, 2.0)),
    Case("masked_fill_bcast", ((3, 4),), lambda T, x: x.masked_fill(
        _idx(T, [True, False, False, True]), -1)),
    Case("masked_fill_grows", ((4,),), lambda T, x: T.masked_fill(
        x, _idx(T, [[True, False, True, False]] * 2), 0.0)),
    Case("masked_fill_tensor", ((3, 4), ()), lambda T, x, v: x.masked_fill(x < 0, v)),
    Case("masked_fill_const_tensor", ((3, 4),), lambda T, x: x.masked_fill(
        x < 0, T.tensor(1.5))),
    Case("repeat", ((3, 4),), lambda T, x: x.repeat(2, 3)),
    Case("repeat_more", ((3, 4),), lambda T, x: x.repeat(2, 1, 3), transposed=True),
    Case("repeat_scalar", ((),), lambda T, x: x.repeat((3, 2))),
    Case("split", ((5, 4),), lambda T, x: x.split(2)[2]),
    Case("split_dim", ((5, 4),), lambda T, x: T.split(x, 3, dim=-1)[0]),
    Case("split_sizes", ((5, 4),), lambda T, x: x.split([1, 4])[1]),
    Case("split_all", ((5, 4),), lambda T, x: T.stack(x.split(2, 1), 0)),
    Case("chunk", ((5, 4),), lambda T, x: x.chunk(2)[1]),
    Case("chunk_dim", ((5, 4),), lambda T, x: T.chunk(x, 3, -1)[0], transposed=True),
    Case("gather", ((3, 4),), lambda T, x: x.gather(1, _idx(T, [[0, 0], [1, 3], [2, 2]]))),
    Case("gather_dim0", ((3, 4),), lambda T, x: T.gather(x, -2, _idx(T, [[0, 2, 1, 0]])),
         transposed=True),
    Case("gather_int32", ((3, 4),), lambda T, x: x.gather(0, _idx(T, [[2, 2]], T.int32))),
    Case("outer", ((3,), (4,)), lambda T, x, y: T.outer(x, y)),
    Case("outer_method", ((3,), (4,)), lambda T, x, y: x.outer(y)),
    Case("ger_const", ((3,),), lambda T, x: T.ger(x, T.ones(4, dtype=T.float64))),
    # linear algebra
    Case("mm", ((2, 3), (3, 4)), lambda T, x, y: x.mm(y)),
    Case("mm_nc", ((2, 3), (3, 4)), lambda T, x, y: T.mm(x, y), transposed=True),
    Case("dot", ((3,), (3,)), lambda T, x, y: T.dot(x, y)),
    Case("mv", ((2, 3), (3,)), lambda T, x, y: x.mv(y)),
    Case("bmm", ((2, 2, 3), (2, 3, 4)), lambda T, x, y: T.bmm(x, y)),
    Case("matmul_11", ((3,), (3,)), lambda T, x, y: x @ y),
    Case("matmul_21", ((2, 3), (3,)), lambda T, x, y: x @ y),
    Case("matmul_12", ((3,), (3, 4)), lambda T, x, y: x @ y),
    Case("matmul_22", ((2, 3), (3, 4)), lambda T, x, y: T.matmul(x, y)),
    Case("matmul_31", ((2, 2, 3), (3,)), lambda T, x, y: x @ y),
    Case("matmul_32", ((2, 2, 3), (3, 4)), lambda T, x, y: x @ y),
    Case("matmul_23", ((2, 3), (2, 3, 4)), lambda T, x, y: x @ y),
    Case("matmul_33", ((2, 2, 3), (2, 3, 4)), lambda T, x, y: x @ y),
    Case("matmul_13", ((3,), (2, 3, 4)), lambda T, x, y: x @ y),
    Case("matmul_bcast", ((3, 1, 2, 3), (4, 3, 5)), lambda T, x, y: x @ y),
    Case("matmul_3v_bcast", ((2, 1, 2, 3), (3,)), lambda T, x, y: x.unsqueeze(1) @ y),
    Case("matmul_const", ((2, 3, 4),), lambda T, x: T.ones(2, 3, dtype=T.float64) @ x),
    Case("matmul_const_right", ((4, 2, 3),), lambda T, x: x @ T.ones(3, 2, dtype=T.float64)),
    Case("matmul_nc", ((3, 2, 3), (3, 4)), lambda T, x, y: x.transpose(0, 1) @ y),
    # products added to a tensor, and more products
    Case("addmm", ((2, 3), (2, 4), (4, 3)), lambda T, a, x, y: T.addmm(a, x, y, beta=2,
                                                                        alpha=0.5)),
    Case("addmm_bias", ((3,), (2, 4), (4, 3)), lambda T, a, x, y: a.addmm(x, y.detach()),
         transposed=True),
    Case("addmm_beta0", ((3, 3), (3, 3)), lambda T, a, x: T.addmm(a, x, x, beta=0)),
    Case("addmv", ((2,), (2, 3), (3,)), lambda T, a, m, v: T.addmv(a, m, v, alpha=-1)),
    Case("baddbmm", ((1, 3), (2, 2, 4), (2, 4, 3)), lambda T, a, x, y: T.baddbmm(
        a, x, y, beta=0.5, alpha=2)),
    Case("addbmm", ((2, 3), (4, 2, 5), (4, 5, 3)), lambda T, a, x, y: a.addbmm(x, y, beta=3)),
    Case("addmm_", ((2, 3), (2, 4), (4, 3)), lambda T, a, x, y: (a * 1).addmm_(x, y)),
    Case("vdot", ((3,), (3,)), lambda T, x, y: T.vdot(x, y) * x.vdot(x)),
    Case("trace", ((3, 4),), lambda T, x: T.trace(x) * x.trace()),
    Case("cross", ((4, 3), (1, 3)), lambda T, x, y: T.linalg.cross(x, y)),
    Case("cross_dim", ((3, 2), (3, 2)), lambda T, x, y: x.cross(y, dim=0), transposed=True),
    Case("kron", ((2, 3), (3,)), lambda T, x, y: T.kron(x, y)),
    Case("kron_method", ((2,), (2, 2)), lambda T, x, y: x.kron(y)),
    Case("tensordot", ((2, 3, 4), (3, 4, 5)), lambda T, x, y: T.tensordot(x, y)),
    Case("tensordot_lists", ((2, 3, 4), (4, 3, 5)), lambda T, x, y: T.tensordot(
        x, y, ([1, 2], [1, 0]))),
    Case("tensordot_size_one", ((2, 1), (3, 4)), lambda T, x, y: T.tensordot(x, y, ([1], [0]))),
    Case("tensordot_vectors", ((3,), (3,)), lambda T, x, y: T.tensordot(x, y, 1)),
    Case("tensordot_outer", ((2,), (3,)), lambda T, x, y: T.tensordot(x, y, 0),
         transposed=True),
    Case("inner", ((2, 3), (4, 3)), lambda T, x, y: T.inner(x, y)),
    Case("inner_method", ((2, 2, 3), (3,)), lambda T, x, y: x.inner(y), transposed=True),
    Case("inner_number", ((2, 3), ()), lambda T, x, y: T.inner(x, y)),
    Case("einsum_mm", ((2, 3), (3, 4)), lambda T, x, y: T.einsum("ij,jk->ik", x, y)),
    Case("einsum_transposed", ((2, 3), (4, 3)), lambda T, x, y: T.einsum("ij,kj", x, y),
         transposed=True),
    Case("einsum_batch", ((2, 2, 3, 4), (2, 2, 5, 4)), lambda T, x, y: T.einsum(
        "bhqd,bhkd->bhqk", x, y)),
    Case("einsum_three", ((2, 3), (4, 3, 5), (2, 5)), lambda T, x, y, z: T.einsum(
        "bn,anm,bm->ba", x, y, z)),
    Case("einsum_diagonal", ((3, 3, 2),), lambda T, x: T.einsum("iij->ji", x)),
    Case("unfold_windows", ((2, 7),), lambda T, x: x.unfold(1, 3, 2).unfold(0, 1, 1) * x[0, 0]),
    Case("einsum_trace", ((3, 3),), lambda T, x: T.einsum("ii", x)),
    Case("einsum_outer", ((3,), (2,)), lambda T, x, y: T.einsum("i,j->ij", x, y)),
    Case("einsum_ellipsis", ((5, 2, 3), (3, 4)), lambda T, x, y: T.einsum(
        "...ij,...jk->...ik", x, y)),
    Case("einsum_sum_alone", ((2, 3), (3,)), lambda T, x, y: T.einsum("ij,j->", x, y)),
    Case("einsum_repeated", ((3,), (3,), (3,)), lambda T, x, y, z: T.einsum("i,i,i->", [x, y, z])),
    # new shapes from old ones
    Case("diag_vector", ((3,),), lambda T, x: T.diag(x, -1)),
    Case("diag_matrix", ((3, 4),), lambda T, x: x.diag(1) * T.diag(x)[:3]),
    Case("diag_embed", ((2, 3),), lambda T, x: T.diag_embed(x, 1, 0, 2)),
    Case("diag_embed_default", ((2, 3),), lambda T, x: x.diag_embed(-1)),
    Case("tile", ((2, 3),), lambda T, x: x.tile(2, 1, 2)),
    Case("tile_short", ((2, 3),), lambda T, x: T.tile(x, (3,)), transposed=True),
    Case("repeat_interleave", ((2, 3),), lambda T, x: x.repeat_interleave(2)),
    Case("repeat_interleave_dim", ((2, 3),), lambda T, x: T.repeat_interleave(x, 3, dim=-1)),
    Case("repeat_interleave_counts", ((3, 2),), lambda T, x: x.repeat_interleave(
        T.tensor([2, 0, 1]), dim=0)),
    Case("repeat_interleave_one", ((3, 2),), lambda T, x: x.repeat_interleave(T.tensor(2))),
    Case("tensor_split", ((3, 5),), lambda T, x: T.tensor_split(x, 3, dim=1)[1]),
    Case("tensor_split_at", ((5, 2),), lambda T, x: T.cat(x.tensor_split([1, 7, 3]), 0)),
    Case("unflatten", ((3, 4),), lambda T, x: x.unflatten(1, (2, -1))),
    Case("unflatten_nc", ((3, 4),), lambda T, x: T.unflatten(x, 0, (3, 1)), transposed=True),
    Case("rot90", ((2, 3),), lambda T, x: T.rot90(x)),
    Case("rot90_back", ((2, 3, 2),), lambda T, x: x.rot90(-3, (2, 0))),
    Case("fliplr_flipud", ((2, 3),), lambda T, x: x.fliplr() * T.flipud(x)),
    Case("meshgrid", ((3,), (2,)), lambda T, x, y: T.stack(T.meshgrid(x, y, indexing="ij"))),
    Case("meshgrid_xy", ((3,), (2,), ()), lambda T, x, y, z: T.stack(
        T.meshgrid([x, y, z], indexing="xy"))),
    # shapes
    Case("reshape", ((2, 3),), lambda T, x: x.reshape(3, 2)),
    Case("reshape_copy", ((2, 3),), lambda T, x: x.t().reshape(6)),
    Case("reshape_nc_leaf", ((3, 4),), lambda T, x: T.reshape(x, (-1,)), transposed=True),
    Case("reshape_alias", ((2, 3),), lambda T, x: x.t().reshape(1, 3, 2)),
    Case("reshape_alias_expanded", ((1, 3),), lambda T, x: x.expand(2, 3).reshape(2, 3, 1)),
    Case("transpose", ((2, 3, 4),), lambda T, x: x.transpose(-1, 0)),
    Case("t", ((2, 3),), lambda T, x: T.t(x)),
    Case("T", ((2, 3),), lambda T, x: x.T),
    Case("mT", ((2, 3, 4),), lambda T, x: x.mT),
    Case("permute", ((2, 3, 4),), lambda T, x: x.permute(2, 0, 1)),
    Case("permute_neg", ((2, 3, 4),), lambda T, x: T.permute(x, (-1, 0, 1))),
    Case("squeeze_all", ((2, 1, 3, 1),), lambda T, x: x.squeeze()),
    Case("flatten", ((2, 3, 4),), lambda T, x: x.flatten()),
    Case("flatten_part", ((2, 3, 4),), lambda T, x: T.flatten(x, 1)),
    Case("flatten_nc", ((3, 4),), lambda T, x: x.flatten(), transposed=True),
    Case("cat", ((2, 3), (1, 3)), lambda T, x, y: T.cat([x, y])),
    Case("cat_last", ((2, 3), (2, 1)), lambda T, x, y: T.cat((x, y), -1)),
    Case("stack", ((2, 3), (2, 3)), lambda T, x, y: T.stack([x, y], 1)),
    Case("unbind", ((3, 2),), lambda T, x: x.unbind(0)[1]),
    Case("iterate", ((3, 2),), lambda T, x: list(x)[2]),
    Case("narrow", ((4, 3),), lambda T, x: x.narrow(-1, 1, 2)),
    Case("select", ((4, 3),), lambda T, x: T.select(x, 1, -1)),
    # indexing
    Case("idx_int", ((3, 4),), lambda T, x: x[1]),
    Case("idx_neg", ((3, 4),), lambda T, x: x[-1]),
    Case("idx_two_ints", ((3, 4),), lambda T, x: x[2, 1]),
    Case("idx_slice", ((3, 4),), lambda T, x: x[:, 1:]),
    Case("idx_single_slice", ((3, 4),), lambda T, x: x[:]),
    Case("idx_step", ((5, 4),), lambda T, x: x[1::2, ::3]),
    Case("idx_neg_slice", ((5, 4),), lambda T, x: x[-4:-1]),
    Case("idx_full", ((3, 4),), lambda T, x: x[0:3, :]),
    Case("idx_ellipsis", ((2, 3, 4),), lambda T, x: x[..., 0]),
    Case("idx_ellipsis_only", ((2, 3),), lambda T, x: x[...]),
    Case("idx_none", ((3, 4),), lambda T, x: x[None, 1, ..., None]),
    Case("idx_bool", ((4,),), lambda T, x: x[_idx(T, [True, False, True, True])]),
    Case("idx_mask", ((3, 4),), lambda T, x: x[x > 0]),
    Case("idx_long", ((4,),), lambda T, x: x[_idx(T, [1, 0, 1, 3])]),
    Case("idx_list", ((4, 3),), lambda T, x: x[[0, 2, 2]]),
    Case("idx_two_tensors", ((4, 3),), lambda T, x: x[_idx(T, [0, 3]), _idx(T, [2, 2])]),
    Case("idx_split_tensors", ((3, 2, 4),), lambda T, x: x[_idx(T, [0]), :, _idx(T, [1])]),
    Case("idx_mixed", ((4, 3),), lambda T, x: x[1:, None, _idx(T, [0, 0])]),
    Case("idx_int_then_tensor", ((4, 3),), lambda T, x: x[0, _idx(T, [2, 1])]),
    Case("idx_bool_scalar", ((2, 3),), lambda T, x: x[True]),
    # order statistics (chapter 16k); _tied rounds the values but keeps the gradient
    Case("median_all", ((3, 4),), lambda T, x: _tied(x).median()),
    Case("median_dim", ((3, 4),), lambda T, x: _tied(x).median(1).values),
    Case("median_keepdim", ((4, 3),), lambda T, x: T.median(_tied(x), 0, True).values),
    Case("nanmedian_all", ((3, 4),), lambda T, x: _nans_at_or_below_zero(T, x).nanmedian()),
    Case("nanmedian_dim", ((3, 4),),
         lambda T, x: _nans_at_or_below_zero(T, x).nanmedian(-1).values),
    Case("kthvalue_ties", ((3, 6),), lambda T, x: _tied(x).kthvalue(4, 1).values),
    Case("mode_ties", ((3, 6),), lambda T, x: _tied(x).mode(1).values),
    Case("aminmax_all", ((3, 4),), lambda T, x: sum(_tied(x).aminmax())),
    Case("aminmax_dim", ((3, 4),), lambda T, x: (lambda r: r.min * 2 + r.max)(
        T.aminmax(_tied(x), dim=0, keepdim=True))),
    Case("quantile_linear", ((3, 5),), lambda T, x: T.quantile(x, 0.3, dim=1)),
    Case("quantile_vector", ((3, 5),), lambda T, x: x.quantile(
        _idx(T, [0.1, 0.5, 1.0], T.float64), dim=0, keepdim=True)),
    Case("quantile_all_midpoint", ((3, 4),), lambda T, x: T.quantile(
        x, 0.45, interpolation="midpoint")),
    Case("quantile_modes", ((2, 5),), lambda T, x: sum(T.quantile(
        x, _idx(T, [0.2, 0.6], T.float64), dim=-1, interpolation=mode)
        for mode in ("lower", "higher", "nearest"))),
    Case("nanquantile", ((3, 4),), lambda T, x: T.nanquantile(
        _nans_at_or_below_zero(T, x), _idx(T, [0.25, 0.75], T.float64), dim=1)),
    # more special functions, and distances between sets
    Case("xlog1py", ((2, 3), (3,)), lambda T, x, y: T.special.xlog1py(x, y)
         + T.special.xlog1py(x, 2.5) + T.special.xlog1py(2, y), 0.0, 3.0),
    Case("erfcx", ((2, 3),), lambda T, x: T.special.erfcx(x)),
    Case("gammainc", ((2, 3),), lambda T, x: T.special.gammainc(T.full_like(x.detach(), 1.5), x)
         * T.igammac(T.full_like(x.detach(), 3.0), x), 0.1, 3.0),
    Case("selu_celu_threshold_", ((2, 3),), lambda T, x: T.selu_(x.clone())
         + T.celu_(x.clone(), 0.7) * T.threshold_(x.clone(), 0.5, -2.0)),
    Case("cdist", ((3, 2), (4, 2)), lambda T, x, y: sum(
        T.cdist(x, y, p, "donot_use_mm_for_euclid_dist") for p in (0.0, 0.5, 1.0, 2.0, 3.0))
         + T.cdist(x, y, float("inf"))),
    Case("cdist_batched", ((2, 3, 2), (1, 4, 2)), lambda T, x, y: T.cdist(x, y, 1.5)),
    Case("cdist_by_product", ((2, 30, 2), (1, 4, 2)), lambda T, x, y: T.cdist(x, y)),
    Case("pdist", ((4, 3),), lambda T, x: sum(T.pdist(x, p) for p in (0.0, 1.0, 2.0, 2.5))
         + T.pdist(x, float("inf"))),
]


def _leaves(T, arrays, transposed):
    leaves = []
    for a in arrays:
        if transposed and a.ndim >= 2:
            base = T.tensor(np.ascontiguousarray(np.swapaxes(a, 0, -1)))
            leaves.append(base.transpose(0, -1).requires_grad_())
        else:
            leaves.append(T.tensor(a).requires_grad_())
    return leaves


def _label(t, leaves, shape, dtype, has_grad_fn):
    for i, leaf in enumerate(leaves):
        if t is leaf:
            return f"in{i}"
    return f"{tuple(shape)}{'R' if has_grad_fn else ''}{dtype}"


def _torch_run(case, arrays):
    leaves = _leaves(torch, arrays, case.transposed)
    packs = []

    def pack(t):
        packs.append(_label(t, leaves, t.shape, str(t.dtype)[6:], t.grad_fn is not None))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = case.fn(torch, *leaves)
    return leaves, out, packs


def _refgrad_packs(nodes, leaves):
    packs = []
    for node in sorted((n for n in nodes if hasattr(n, "_saved")), key=lambda n: n._seq):
        for saved in node._saved:
            for one in saved if isinstance(saved, tuple) else (saved,):
                if isinstance(one, SavedTensor):
                    t = one._original
                    if t is None:
                        dtype = str(refgrad._dtype.from_numpy(one._data.dtype))[6:]
                        packs.append(f"{tuple(one._data.shape)}R{dtype}")
                    else:
                        packs.append(_label(t, leaves, t.shape, str(t.dtype)[6:], t.grad_fn))
    return packs


def _graph(out):
    """Every node reachable from ``out``, breadth first, with its edges' names."""
    order, seen, queue = [], set(), [out.grad_fn]
    while queue:
        node = queue.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        queue.extend(n for n, _ in node.next_functions)
    return order


def _shape_of_graph(nodes):
    return [
        (type(n).__name__, [(type(c).__name__ if c is not None else None, i)
                            for c, i in n.next_functions])
        for n in nodes
    ]


def _plain(value):
    """A non-tensor saved attribute, with torch's unsigned display of negative ints."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, int):
        return value % 2**64
    if isinstance(value, tuple | list):
        return tuple(_plain(v) for v in value)
    return value


def _saved_attributes(theirs, ours):
    for t_node, r_node in zip(theirs, ours):
        shown = {n for n in dir(t_node) if n.startswith("_saved")}
        assert {n for n in dir(r_node) if n.startswith("_saved")} == shown, type(t_node).__name__
        for name in dir(t_node):
            if not name.startswith("_saved_"):
                continue
            expected = getattr(t_node, name)
            got = getattr(r_node, name)
            if isinstance(expected, torch.Tensor):
                # a saved intermediate that cancels exactly (logaddexp2(x, x) at x = -1) is
                # 0 in one library and a rounding away from it in the other
                np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(),
                                           atol=1e-13)
            elif isinstance(expected, tuple) and any(isinstance(e, torch.Tensor) for e in expected):
                assert len(got) == len(expected), name
                for e, g in zip(expected, got):
                    assert (e is None) == (g is None), name
                    if e is not None:
                        np.testing.assert_array_equal(g.numpy(), e.numpy())
            else:
                assert _plain(got) == _plain(expected), (type(t_node).__name__, name)


def check(case, arrays, seed=0):
    t_leaves, t_out, t_packs = _torch_run(case, arrays)
    r_leaves = _leaves(refgrad, arrays, case.transposed)
    r_out = case.fn(refgrad, *r_leaves)
    assert str(r_out.dtype) == str(t_out.dtype)
    assert tuple(r_out.shape) == tuple(t_out.shape)
    np.testing.assert_allclose(r_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-12,
                               atol=1e-12)
    t_nodes, r_nodes = _graph(t_out), _graph(r_out)
    assert _shape_of_graph(r_nodes) == _shape_of_graph(t_nodes)
    if case.packs:
        assert _refgrad_packs(r_nodes, r_leaves) == t_packs
    _saved_attributes(t_nodes, r_nodes)
    upstream = np.random.default_rng(seed).standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(upstream))
    r_out.backward(refgrad.tensor(upstream))
    for t_leaf, r_leaf in zip(t_leaves, r_leaves):
        assert (r_leaf.grad is None) == (t_leaf.grad is None)
        if t_leaf.grad is not None:
            np.testing.assert_allclose(r_leaf.grad.numpy(), t_leaf.grad.numpy(), rtol=1e-10,
                                       atol=1e-12)


def _fixed(case, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(case.low, case.high, size=shape) for shape in case.shapes]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixed_inputs(case):
    for seed in range(3):
        check(case, _fixed(case, seed), seed)


def _drawn(case):
    values = st.one_of(
        st.floats(case.low, case.high, allow_nan=False),
        st.sampled_from([v for v in (0.0, 1.0, -1.0, 0.5) if case.low <= v <= case.high]),
    )
    return st.tuples(*(hnp.arrays(np.float64, shape, elements=values) for shape in case.shapes))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_drawn_inputs(case, data):
    check(case, list(data.draw(_drawn(case))))


def test_prod_gradient_with_zeros():
    rows = [[0.0, 2.0, 3.0], [0.0, 0.0, 4.0], [1.0, 2.0, 5.0]]
    for case in (CASES_BY_NAME["prod_dim"], CASES_BY_NAME["prod"]):
        check(case, [np.array(rows)[:, : case.shapes[0][1]][: case.shapes[0][0]]])


def test_ties_share_the_gradient():
    check(CASES_BY_NAME["max"], [np.array([[1.0, 3.0, 3.0, 0.0]] * 3)])
    check(CASES_BY_NAME["maximum"], [np.ones((3, 1)), np.ones(4)])
    check(CASES_BY_NAME["max_dim"], [np.array([[2.0, 2.0, 1.0, 2.0]] * 3)])
    ties = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0], [-3.0, 1.0, 3.0, -3.0]])
    for name in ("amax", "amax_all", "amin", "norm_inf", "norm_neg_inf_dim"):
        check(CASES_BY_NAME[name], [ties])
    check(CASES_BY_NAME["amax_dims"], [np.ones((2, 3, 4))])


def test_nan_and_zero_edges():
    nan = np.array([[np.nan, 1.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]])
    for name in ("amax", "amin", "norm_inf"):
        check(CASES_BY_NAME[name], [nan])
    zeros = np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, -2.0], [1.0, 1.0, 1.0, 1.0]])
    for name in ("norm", "norm_1", "norm_3_dim", "norm_1.5_keep", "norm_half", "norm_negative",
                 "std", "std_dim", "var_dim", "norm_0_plus"):
        check(CASES_BY_NAME[name], [zeros])


def test_spread_without_freedom_warns_and_matches():
    one = np.array([[2.0, 3.0, 4.0]])
    for expr in (
        lambda T, x: x.var(0),
        lambda T, x: x.std(0, correction=1.5),
        lambda T, x: x.var(correction=3),
        lambda T, x: x[0, 0].var(),
        lambda T, x: x.std(1, correction=4),
        lambda T, x: x.var(correction=4),
        lambda T, x: x.std(correction=3),
    ):
        case = Case("no_freedom", ((1, 3),), expr)
        with pytest.warns(UserWarning, match=r"^(var|std)\(\): degrees of freedom is <= 0"):
            check(case, [one])


def test_var_dim_of_nothing_counts_one_element_as_torch_does():
    # dim=[] reduces everything, but the backward counts 1 - correction degrees of freedom
    rows = [np.array([[1.0, 2.0, 4.0], [0.0, 1.0, 5.0]])]
    check(Case("var_empty_dims", ((2, 3),), lambda T, x: x.var(dim=[], correction=0)), rows)
    check(Case("var_empty_dims_inf", ((2, 3),), lambda T, x: x.var(dim=[])), rows)
    check(Case("std_empty_dims", ((2, 3),), lambda T, x: x.std(dim=())), rows)


def test_split_pieces_refuse_in_place_writes():
    messages = []
    for T in (torch, refgrad):
        x = T.ones(4, requires_grad=True).clone()
        with pytest.raises(RuntimeError) as caught:
            x.split(2)[1].mul_(2)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert messages[1].startswith("Output 1 of Split is a view and is being modified inplace.")


CASES_BY_NAME = {c.name: c for c in CASES}


def test_errors_match():
    for expr in (
        lambda T: T.tensor([1, 2]).mean(),
        lambda T: T.tensor([1, 2]).softmax(0),
        lambda T: T.ones(2, 3).log_softmax(0).long().softmax(0),
        lambda T: T.ones(2).clamp(),
        lambda T: T.ones(2, 3).mm(T.ones(2, 3)),
        lambda T: T.ones(2, 3).mm(T.ones(3, 2, dtype=T.float64)),
        lambda T: T.ones(2).dot(T.ones(3)),
        lambda T: T.ones(2, 2).dot(T.ones(2)),
        lambda T: T.ones(2, 3).mv(T.ones(2)),
        lambda T: T.ones(2, 3, 4).t(),
        lambda T: T.ones(2, 3, 4).bmm(T.ones(2, 3, 4)),
        lambda T: T.ones(2) @ T.tensor(1.0),
        lambda T: T.ones(0).max(),
        lambda T: T.cat([]),
        lambda T: T.cat([T.ones(2), T.ones(2, 2)]),
        lambda T: T.ones(2, 3)[5],
        lambda T: T.ones(2, 3)[0, 0, 0],
        lambda T: T.ones(2, 3)[::-1],
        lambda T: T.ones(3).mT,
        lambda T: T.ones(2, 3, dtype=T.long).var(),
        lambda T: T.ones(2, 3, dtype=T.long).std(5),
        lambda T: T.ones(2, 3).std(2),
        lambda T: T.ones(2, 3).var((0, 0)),
        lambda T: T.ones(2, dtype=T.long).norm(),
        lambda T: T.linalg.vector_norm(T.ones(2), dtype=T.long),
        lambda T: T.linalg.vector_norm(T.ones(2, dtype=T.float64), dtype=T.float32),
        lambda T: T.ones(2, 3).norm(dim=2),
        lambda T: T.ones(0).norm(float("inf")),
        lambda T: T.ones(0, 3).norm(float("-inf"), dim=(1, -2)),
        lambda T: T.ones(2, 3).norm("abc"),
        lambda T: T.ones(2, 2, 2).norm("fro", dim=(0, 1, 2)),
        lambda T: T.ones(2, 3).masked_fill(T.ones(2, 3, dtype=T.long), 1.0),
        lambda T: T.ones(2, 3).masked_fill(T.ones(2, 3, dtype=T.float64), 1.0),
        lambda T: T.ones(2, 3).masked_fill(T.ones(2, 3, dtype=T.uint8), T.tensor(1.0)),
        lambda T: T.ones(2, 3).masked_fill(T.ones(2, dtype=T.bool), 1.0),
        lambda T: T.ones(2, 3).masked_fill(T.ones(2, dtype=T.long), 1.0),
        lambda T: T.ones(2, 3).masked_fill(T.ones(3, dtype=T.bool), T.ones(2)),
        lambda T: T.ones(2, 3).repeat(2),
        lambda T: T.ones(2, 3).repeat(-1, 2),
        lambda T: T.ones(2, 3).split(0),
        lambda T: T.ones(2, 3).split(-1),
        lambda T: T.ones(2, 3).split(2, 2),
        lambda T: T.ones(2, 3).split([1, 1], -1),
        lambda T: T.ones(2, 3).split([1, -1, 3], 1),
        lambda T: T.tensor(1.0).split(1),
        lambda T: T.ones(2, 3).chunk(0),
        lambda T: T.ones(2, 3).chunk(2, 3),
        lambda T: T.tensor(1.0).chunk(1),
        lambda T: T.ones(2, 3).gather(1, T.ones(2, 2)),
        lambda T: T.ones(2, 3).gather(2, T.ones(2, 2, dtype=T.long)),
        lambda T: T.ones(2, 3).gather(1, T.ones(2, dtype=T.long)),
        lambda T: T.ones(2, 3).gather(-1, T.ones(3, 2, dtype=T.long)),
        lambda T: T.ones(2, 3).gather(-1, T.tensor([[0, 5, -1]])),
        lambda T: T.ones(2, 3).gather(1, T.tensor([[-1]])),
        lambda T: T.outer(T.ones(2, 2), T.ones(2)),
        lambda T: T.outer(T.ones(2), T.tensor(1.0)),
        lambda T: T.ones(2, 3).amax(2),
        lambda T: T.ones(2, 3).amin((1, -1)),
        lambda T: T.ones(0).amin(),
        lambda T: T.ones(3, 0).amax((0, -1)),
        lambda T: T.ones(2, 3).cumsum(2),
    ):
        with pytest.raises(Exception) as theirs:
            expr(torch)
        with pytest.raises(Exception) as ours:
            expr(refgrad)
        assert type(ours.value) is type(theirs.value)
        assert str(ours.value) == str(theirs.value)


def test_integer_dtypes_match():
    for expr in (
        lambda T: T.tensor([1, -2, 3]).relu(),
        lambda T: T.tensor([1, -2, 3]).abs(),
        lambda T: T.tensor([1, 2, 3]).sqrt(),
        lambda T: T.tensor([1, 2, 3]).tanh(),
        lambda T: T.tensor([1, 2, 3]).exp(),
        lambda T: T.tensor([1, 2, 3]).clamp(0.5),
        lambda T: T.tensor([1, 2, 3]).clamp(0),
        lambda T: T.maximum(T.tensor([1, 2]), T.tensor([1.5, 0.5])),
        lambda T: T.tensor([1, 2, 3]).prod(),
        lambda T: T.tensor([True, False]).prod(),
        lambda T: T.tensor([1, 2, 3]).logsumexp(0),
        lambda T: T.tensor([[1, 2], [3, 4]]) @ T.tensor([[1, 0], [0, 1]]),
        lambda T: T.cat([T.tensor([1, 2]), T.tensor([0.5])]),
        lambda T: T.tensor([[1, 5], [3, 2]]).max(1).indices,
        lambda T: T.tensor([1, 2, 3]).cumsum(0),
        lambda T: T.tensor([True, False, True]).cumsum(0),
        lambda T: T.tensor([1.5, 2.5]).cumsum(0, dtype=T.int32),
        lambda T: T.tensor([0.1, 0.2, 0.3, 1000.0, 0.7], dtype=T.float16).cumsum(0),
        lambda T: T.tensor([[1, 5], [3, 2]]).amax(1),
        lambda T: T.tensor([True, False]).amin(),
        lambda T: T.tensor([1, 2]).masked_fill(T.tensor([True, False]), 2.7),
        lambda T: T.tensor([True, False]).masked_fill(T.tensor([True, True]), 0),
        lambda T: T.tensor([1.0, 2.0]).masked_fill(T.tensor([True, False]),
                                                   T.tensor(2.5, dtype=T.float64)),
        lambda T: T.tensor([1, 2]).repeat(2),
        lambda T: T.outer(T.tensor([1, 2]), T.tensor([0.5, 1.5])),
        lambda T: T.ger(T.tensor([1, 2]), T.tensor([3, 4])),
        lambda T: T.tensor([[1, 2], [3, 4]]).gather(1, T.tensor([[1], [0]])),
        lambda T: T.tensor([[1.0, 2.0]]).gather(1, T.tensor([[1, 1, 0]], dtype=T.int32)),
        lambda T: T.tensor(5.0).gather(0, T.tensor([0, 0])),
        lambda T: T.tensor([5.0, 6.0]).gather(0, T.tensor(1)),
        lambda T: T.ones(3, dtype=T.float16).var(),
        lambda T: T.linalg.vector_norm(T.ones(3, dtype=T.float16), dtype=T.float32),
        lambda T: T.ones(3).norm(dtype=T.float64),
        lambda T: T.ones(2, 3).var(keepdim=True),
        lambda T: T.ones(2, 3).amax(keepdim=True),
        lambda T: T.tensor([3.0, -4.0]).norm(0),
        lambda T: T.ones(0, 2).norm(dim=0),
        lambda T: T.ones(0, 3).chunk(2)[1],
        lambda T: T.ones(4).split(5)[0],
        lambda T: T.ones(2, 0, 3).repeat(2, 1, 1),
        lambda T: T.tensor([-7, 0, 0]).scatter_reduce(0, T.tensor([0, 0]), T.tensor([3, -4]),
                                                      "mean"),
        lambda T: T.tensor([-7, 0, 0]).scatter_reduce(0, T.tensor([0, 0, 2]),
                                                      T.tensor([3, -4, 5]), "amin",
                                                      include_self=False),
        lambda T: T.tensor([1, 2, 3], dtype=T.int32).scatter_reduce(
            0, T.tensor([0, 0, 2]), T.tensor([3, -4, 5], dtype=T.int32), "prod"),
        lambda T: T.tensor([1, 2, 3], dtype=T.uint8).scatter_reduce(
            0, T.tensor([1, 1]), T.tensor([7, 9], dtype=T.uint8), "amax", include_self=False),
        lambda T: T.zeros(3, dtype=T.long).index_add(0, T.tensor([0, 0]), T.tensor([5, 1]),
                                                     alpha=2),
        lambda T: T.zeros(3, dtype=T.bool).scatter_add(0, T.tensor([0, 0]),
                                                       T.tensor([True, True])),
        lambda T: T.zeros(3, dtype=T.int16).index_fill(0, T.tensor([2]), 2.7),
        lambda T: T.zeros(2, 2, dtype=T.float16).masked_scatter(
            T.tensor([True, False]), T.tensor([1.5, 2.5], dtype=T.float16)),
        lambda T: T.tensor(5.0).take(T.tensor([0, 0])),
    ):
        theirs, ours = expr(torch), expr(refgrad)
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
