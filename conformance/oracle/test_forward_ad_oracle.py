"""Oracle test: forward-mode tangents of every op-table row, refgrad against torch.

The rows are driven by the white-box sweep of tests/test_gradients_*.py: the
RECIPES tests/test_op_gradients.py gathers say how to call each differentiable
row, and ``drawn_case`` draws the float64 inputs (some laid out
non-contiguously) and the parameters. Here each
row also gets random float64 tangents; the same call is made inside a dual
level on refgrad and, through TORCH_CALLS, on real torch. Every output must
agree on its value, and on its tangent: present or not, dtype and values.
"""

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import refgrad
from tests._gradient_support import _laid_out
from tests.test_gradients_complex import COMPLEX_ROWS
from tests.test_gradients_linalg import _eigh_invariants, _svd_invariants
from tests.test_gradients_sampling import UPSAMPLINGS, interpolating
from tests.test_op_gradients import (
    DIFFERENTIABLE,
    RECIPES,
    TORCH_NAMES,
    WITHOUT_FORWARD_FORMULA,
    drawn_case,
)

aten = torch.ops.aten


def _without_warnings(run):
    """``run()``, its warnings silenced: index_reduce warns, once, that it is a beta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run()


TORCH_CALLS = {
    "add": lambda a, b, alpha: torch.add(a, b, alpha=alpha),
    "sub": lambda a, b, alpha: torch.sub(a, b, alpha=alpha),
    "rsub": lambda a, other: torch.rsub(a, other),
    "rsub_tensor": lambda a, b, alpha: torch.rsub(a, b, alpha=alpha),
    "mul": torch.mul, "div": torch.div, "reciprocal": torch.reciprocal, "neg": torch.neg,
    "pow": lambda a, exponent: torch.pow(a, exponent),
    "pow_tensor": torch.pow,
    "pow_scalar": lambda e, base: torch.pow(base, e),
    "where": lambda a, b, condition: torch.where(condition, a, b),
    "exp": torch.exp, "log": torch.log, "sin": torch.sin, "cos": torch.cos,
    "clone": torch.clone,
    "_to_copy": lambda a: a.to(torch.float64, copy=True),
    "sum": torch.sum,
    "sum_dim": lambda a, dim, keepdim: torch.sum(a, dim, keepdim),
    "view": lambda a, shape: a.contiguous().view(shape),
    "_reshape_alias": lambda a, shape: a.reshape(shape),
    "expand": lambda a, size: a.expand(size),
    "unsqueeze": torch.unsqueeze, "squeeze_dim": torch.squeeze, "unbind": torch.unbind,
    "squeeze_dims": torch.squeeze,
    "stack": lambda *ts, dim: torch.stack(list(ts), dim),
    "tan": torch.tan, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "sqrt": torch.sqrt,
    "rsqrt": torch.rsqrt, "relu": torch.relu, "sign": torch.sign, "abs": torch.abs,
    "clamp": lambda a, bounds: torch.clamp(a, *bounds),
    "clamp_tensor": torch.clamp,
    "clamp_min": lambda a, min: torch.clamp_min(a, min), "clamp_min_tensor": torch.clamp_min,
    "clamp_max": lambda a, max: torch.clamp_max(a, max), "clamp_max_tensor": torch.clamp_max,
    "maximum": torch.maximum, "minimum": torch.minimum,
    "dot": torch.dot, "mv": torch.mv, "mm": torch.mm, "bmm": torch.bmm,
    "squeeze_": lambda a: a.clone().squeeze_(),
    "squeeze_dim_": lambda a, dim: a.clone().squeeze_(dim),
    "squeeze_dims_": lambda a, dim: a.clone().squeeze_(dim),
    "unsqueeze_": lambda a, dim: a.clone().unsqueeze_(dim),
    "t_": lambda a: a.clone().t_(),
    "transpose_": lambda a, dim0, dim1: a.clone().transpose_(dim0, dim1),
    "select": torch.select,
    "threshold_backward": lambda g, self, threshold: aten.threshold_backward(g, self, threshold),
    "tanh_backward": aten.tanh_backward, "sigmoid_backward": aten.sigmoid_backward,
    "mul_scalar": lambda a, number: aten.mul.Scalar(a, number),
    "div_scalar": lambda a, number: aten.div.Scalar(a, number),
    "add_scalar": lambda a, number: aten.add.Scalar(a, number),
    "sub_scalar": lambda a, number: aten.sub.Scalar(a, number),
    "select_backward": lambda g, input_sizes, dim, index: aten.select_backward(
        g, input_sizes, dim, index),
    "slice": lambda a, dim, start, end, step: aten.slice(a, dim, start, end, step),
    "slice_backward": lambda g, input_sizes, dim, start, end, step: aten.slice_backward(
        g, input_sizes, dim, start, end, step),
    "index": lambda a, index: a[index],
    "index_put": lambda a, v, index, accumulate: torch.index_put(a, [index], v, accumulate),
    # the row index's backward records computes what the public one does
    "_index_put_impl_": lambda a, v, index, accumulate: torch.index_put(
        a, [index], v, accumulate),
    "transpose": torch.transpose, "t": torch.t,
    "permute": lambda a, dims: torch.permute(a, dims),
    "squeeze": torch.squeeze,
    "alias": lambda a: a[...],
    "_unsafe_view": lambda a, shape: aten._unsafe_view(a, shape),
    "cat": lambda *ts, dim: torch.cat(list(ts), dim),
    "mean": torch.mean, "mean_dim": torch.mean, "max": torch.max, "min": torch.min,
    "max_dim": torch.max, "min_dim": torch.min, "prod": torch.prod, "prod_dim": torch.prod,
    "logsumexp": torch.logsumexp, "softmax": torch.softmax, "log_softmax": torch.log_softmax,
    "_softmax_backward_data": lambda g, y, dim: aten._softmax_backward_data(
        g, y, dim, torch.float64),
    "_log_softmax_backward_data": lambda g, y, dim: aten._log_softmax_backward_data(
        g, y, dim, torch.float64),
    "zero_": lambda a: a.clone().zero_(),
    **{f"{name}_": lambda a, name=name, **p: getattr(a.clone(), f"{name}_")(1.5)
       for name in ("eq", "ne", "lt", "le", "gt", "ge")},
    **{f"{name}_.Tensor": lambda a, b, name=name, **p: getattr(a.clone(), f"{name}_")(b)
       for name in ("eq", "ne", "lt", "le", "gt", "ge")},
    "uniform_": lambda a: a.clone().uniform_(0.5, 0.5),
    "normal_": lambda a: a.clone().normal_(-1.5, 0.0),
    "exponential_": lambda a: a.clone().exponential_(float("inf")),
    "random_.from": lambda a: a.clone().random_(3, 4),
    "random_.to": lambda a: a.clone().random_(1),
    "random_": lambda a: a.clone().random_(generator=torch.Generator().manual_seed(0)),
    "cauchy_": lambda a: a.clone().cauchy_(1.5, 2.0, generator=torch.Generator().manual_seed(0)),
    "log_normal_": lambda a: a.clone().log_normal_(
        0.5, 0.25, generator=torch.Generator().manual_seed(0)),
    "geometric_": lambda a: a.clone().geometric_(0.25,
                                                 generator=torch.Generator().manual_seed(0)),
    "poisson": lambda a: torch.poisson(a * 0.0),
    "bernoulli_.float": lambda a: a.clone().bernoulli_(1.0),
    "bernoulli": lambda a: torch.bernoulli(a * 0.0 + 1.0),
    "bernoulli_.Tensor": lambda a, b: a.clone().bernoulli_(b * 0.0 + 1.0),
    "normal.Tensor_float": lambda a: torch.normal(a * 0.0 + 3.0, 0.0),
    "normal.float_Tensor": lambda a: torch.normal(2.0, a * 0.0),
    "normal.Tensor_Tensor": lambda a, b: torch.normal(a * 0.0 + 3.0, b * 0.0),
    "fill_": lambda a: a.clone().fill_(2.0),
    "fill_.Tensor": lambda a, v: a.clone().fill_(v),
    "copy_": lambda a, s: a.clone().copy_(s),
    "index_put_": lambda a, v, index, accumulate: a.clone().index_put_([index], v, accumulate),
    "diagonal": lambda a, offset, dim1, dim2: torch.diagonal(a, offset, dim1, dim2),
    "diagonal_backward": lambda g: aten.diagonal_backward(g, (3, 4), 1, 0, 1),
    "unfold": lambda a, **p: a.unfold(**p),
    "unfold_backward": lambda g: aten.unfold_backward(g, (2, 5), 1, 3, 1),
    "as_strided": lambda a: torch.as_strided(a, (2, 2), (1, 3), 1),
    "as_strided_": lambda a: a.contiguous().clone().as_strided_((2, 2), (1, 3), 1),
    "as_strided_scatter": lambda a, s: torch.as_strided_scatter(a.contiguous(), s, (2, 2),
                                                                (1, 3), 1),
    "_fw_primal": lambda a: torch.autograd.forward_ad.unpack_dual(a).primal,
    "div_mode": lambda a, b, rounding_mode: torch.div(a, b, rounding_mode=rounding_mode),
    "remainder": torch.remainder, "fmod": torch.fmod,
    "remainder_by_number": lambda a, other: torch.remainder(a, other),
    "fmod_by_number": lambda a, other: torch.fmod(a, other),
    "floor": torch.floor, "ceil": torch.ceil, "round": torch.round, "trunc": torch.trunc,
    "frac": torch.frac, "round_decimals": lambda a, decimals: torch.round(a, decimals=decimals),
    "log1p": torch.log1p, "log2": torch.log2, "log10": torch.log10, "expm1": torch.expm1,
    "exp2": torch.exp2, "sinh": torch.sinh, "cosh": torch.cosh, "asin": torch.asin,
    "acos": torch.acos, "atan": torch.atan, "asinh": torch.asinh, "acosh": torch.acosh,
    "atanh": torch.atanh, "deg2rad": torch.deg2rad, "rad2deg": torch.rad2deg,
    "atan2": torch.atan2,
    "flip": lambda a, dims: torch.flip(a, dims), "roll": lambda a, **p: torch.roll(a, **p),
    "tril": torch.tril, "triu": torch.triu,
    "lerp": lambda a, b, weight: torch.lerp(a, b, weight), "lerp_tensor": torch.lerp,
    "addcmul": lambda a, b, c, value: torch.addcmul(a, b, c, value=value),
    "addcdiv": lambda a, b, c, value: torch.addcdiv(a, b, c, value=value),
    "nan_to_num": torch.nan_to_num,
    "sort": lambda a, **p: torch.sort(a, **p).values,
    "masked_select": lambda a, mask: torch.masked_select(a, torch.tensor(mask.tolist())),
    "topk": lambda a, **p: torch.topk(a, **p).values,
    "index_select": lambda a, dim, index: torch.index_select(a, dim, torch.tensor(index.tolist(),
                                                                                  dtype=torch.int64)),
    "var": lambda a, **p: torch.var(a, **p), "std": lambda a, **p: a.std(**p),
    "linalg_vector_norm": lambda a, **p: torch.linalg.vector_norm(a, **p),
    "amax": lambda a, **p: torch.amax(a, **p), "amin": lambda a, **p: a.amin(**p),
    "cumsum": lambda a, dim: torch.cumsum(a, dim),
    "masked_fill": lambda a, mask: torch.masked_fill(a, mask, 0.5),
    "masked_fill_tensor": lambda a, v, mask: a.masked_fill(mask, v),
    "repeat": lambda a, repeats: a.repeat(repeats),
    "split": lambda a, split_size, dim: torch.split(a, split_size, dim),
    "split_with_sizes": lambda a, split_sizes, dim: a.split(split_sizes, dim),
    "unsafe_split": lambda a, split_size, dim: torch.unsafe_split(a, split_size, dim),
    "unsafe_split_with_sizes": lambda a, split_sizes, dim: a.unsafe_split_with_sizes(
        split_sizes, dim),
    "gather": lambda a, dim, index: torch.gather(a, dim, index),
    "cumprod": lambda a, dim: torch.cumprod(a, dim),
    "cummax": lambda a, dim: torch.cummax(a, dim).values,
    "cummin": lambda a, dim: a.cummin(dim)[0], "logcumsumexp": lambda a, dim: a.logcumsumexp(dim),
    "logaddexp": torch.logaddexp, "logaddexp2": torch.logaddexp2, "hypot": torch.hypot,
    "xlogy": torch.xlogy, "number_xlogy": lambda b, self: torch.xlogy(self, b),
    "xlogy_by_number": lambda a, other: a.xlogy(other),
    "logit": lambda a, eps: torch.logit(a, eps), "sgn": torch.sgn, "erf": torch.erf,
    "erfc": torch.erfc, "erfinv": torch.erfinv, "nansum": lambda a, **p: torch.nansum(a, **p),
    "scatter": lambda a, s, dim, index: a.scatter(dim, index, s),
    "scatter_value": lambda a, dim, index: torch.scatter(a, dim, index, -1.5),
    "scatter_add": lambda a, s, dim, index: torch.scatter_add(a, dim, index, s),
    "scatter_reduce": lambda a, s, **p: a.scatter_reduce(src=s, **p),
    "index_reduce": lambda a, s, **p: _without_warnings(
        lambda: a.index_reduce(p.pop("dim"), torch.tensor(p.pop("index").tolist()), s, **p)),
    "conj_physical_": lambda a: a.clone().conj_physical_(),
    "index_add": lambda a, s, dim, index, alpha: a.index_add(dim, index, s, alpha=alpha),
    "index_copy": lambda a, s, dim, index: torch.index_copy(a, dim, index, s),
    "index_fill": lambda a, dim, index: a.index_fill(dim, index, 0.5),
    "index_fill_tensor": lambda a, v, dim, index: torch.index_fill(a, dim, index, v),
    "masked_scatter": lambda a, s, mask: a.masked_scatter(mask, s),
    "masked_scatter_backward": lambda g, mask: aten.masked_scatter_backward(
        g, torch.tensor(mask.tolist()), g.shape),
    "take": lambda a, index: torch.take(a, index),
    "put": lambda a, s, index, accumulate: torch.put(a, index, s, accumulate),
    "addmm": lambda a, b, c, **p: torch.addmm(a, b, c, **p),
    "addmv": lambda a, b, c, **p: torch.addmv(a, b, c, **p),
    "baddbmm": lambda a, b, c, **p: torch.baddbmm(a, b, c, **p),
    "addbmm": lambda a, b, c, **p: torch.addbmm(a, b, c, **p),
    "vdot": torch.vdot, "trace": torch.trace,
    "linalg_cross": lambda a, b, dim: torch.linalg.cross(a, b, dim=dim),
    "diag_embed": lambda a, **p: torch.diag_embed(a, **p),
    "diagonal_copy": lambda a, diagonal: torch.diag(a, diagonal),
    "rot90": lambda a, k, dims: torch.rot90(a, k, dims),
    "block_diag": lambda *ts: torch.block_diag(*ts),
    "linalg_det": lambda a: torch.linalg.det(_conditioned(a)),
    "linalg_slogdet": lambda a: torch.linalg.slogdet(_conditioned(a)).logabsdet,
    "linalg_inv_ex": lambda a: torch.linalg.inv(_conditioned(a)),
    "cholesky": lambda a, upper: torch.cholesky(
        a @ a.mT + torch.eye(a.shape[-1], dtype=a.dtype), upper),
    "linalg_cholesky_ex": lambda a, upper: torch.linalg.cholesky(
        a @ a.mT + torch.eye(a.shape[-1], dtype=a.dtype), upper=upper),
    "linalg_solve_ex": lambda a, b, left: torch.linalg.solve(_conditioned(a), b, left=left),
    "linalg_svd": lambda a, full_matrices: _svd_invariants(torch.linalg.svd(
        _spread(a), full_matrices=full_matrices)),
    "linalg_eigh": lambda a, UPLO: _eigh_invariants(torch.linalg.eigh(_spread(a + a.mT),
                                                                      UPLO=UPLO)),
    "linalg_qr": lambda a, mode: tuple(torch.linalg.qr(_spread(a), mode=mode)),
    "linalg_matrix_exp": torch.linalg.matrix_exp,
    "linalg_pinv": lambda a, hermitian: torch.linalg.pinv(
        _spread(a + a.mT) if hermitian else _spread(a), hermitian=hermitian),
    "linalg_lstsq": lambda a, b, driver: tuple(torch.linalg.lstsq(
        _spread(a), b, driver=driver)[:2]),
    "linalg_solve_triangular": lambda a, b, **flags: torch.linalg.solve_triangular(
        _conditioned(a), b, **flags),
    "triangular_solve": lambda b, a, **flags: _quietly(torch.triangular_solve, b, _conditioned(a),
                                                      **flags),
    "linalg_lu_factor_ex": lambda a: torch.linalg.lu_factor_ex(_pivoted(a)).LU,
    "linalg_lu": lambda a: tuple(torch.linalg.lu(_pivoted(a)))[1:],
    "lu_unpack": lambda lu: tuple(torch.lu_unpack(lu, _last_row_pivots(lu)))[1:],
    "linalg_lu_solve": lambda lu, b, **flags: torch.linalg.lu_solve(
        _conditioned(lu), _last_row_pivots(lu), b, **flags),
    "cholesky_solve": lambda b, u, upper: torch.cholesky_solve(b, _factor(u, upper), upper),
    "cholesky_inverse": lambda u, upper: torch.cholesky_inverse(_factor(u, upper), upper),
    "addr": lambda m, u, v, **p: torch.addr(m, u, v, **p),
    "dist": lambda a, b, p: torch.dist(a, b, p),
    # chapter "More shapes, more elementwise"
    "select_scatter": lambda a, s, dim, index: torch.select_scatter(a, s, dim, index),
    "slice_scatter": lambda a, s, **p: torch.slice_scatter(a, s, **p),
    "diagonal_scatter": lambda a, s, **p: torch.diagonal_scatter(a, s, **p),
    "narrow_copy": lambda a, start: torch.narrow_copy(a, 0, start, 1),
    "fmax": torch.fmax, "fmin": torch.fmin, "copysign": torch.copysign,
    "copysign_number": lambda a, other: torch.copysign(a, other), "ldexp": torch.ldexp,
    "angle": torch.angle, "frexp": torch.frexp,
    "nextafter": torch.nextafter,
    "var_mean": lambda a, **p: torch.var_mean(a, **p),
    "std_mean": lambda a, **p: torch.std_mean(a, **p),
    "norm_dims": lambda a, b, p, keepdim: torch.pairwise_distance(a, b, p, keepdim=keepdim),
    "renorm": lambda a, **p: torch.renorm(a, **p), "elu": torch.selu,
    "celu": lambda a, alpha: torch.celu(a, alpha),
    "threshold": lambda a, threshold: torch.threshold(a, threshold, 2.0),
    "hardshrink": lambda a, lambd: a.hardshrink(lambd),
    "median": torch.median, "nanmedian": lambda a: a.nanmedian(),
    "median_dim": lambda a, **p: torch.median(a, **p).values,
    "nanmedian_dim": lambda a, **p: a.nanmedian(**p)[0],
    "kthvalue": lambda a, **p: torch.kthvalue(a, **p).values,
    "mode": lambda a, **p: torch.mode(a, **p).values,
    "aminmax": lambda a, **p: tuple(torch.aminmax(a, **p)),
    "lgamma": torch.lgamma, "digamma": torch.digamma,
    "polygamma": lambda a, n: torch.polygamma(n, a), "mvlgamma": lambda a, p: torch.mvlgamma(a, p),
    "polygamma_": lambda a, n: a.clone().polygamma_(n),
    "i0": torch.i0, "special_i0e": torch.special.i0e, "special_i1": torch.special.i1,
    "special_i1e": torch.special.i1e, "sinc": torch.sinc, "special_entr": torch.special.entr,
    "special_ndtri": torch.special.ndtri, "special_log_ndtr": torch.special.log_ndtr,
    "special_erfcx": torch.special.erfcx, "special_xlog1py": torch.special.xlog1py,
    "number_xlog1py": lambda b, self: torch.special.xlog1py(self, b),
    "xlog1py_by_number": lambda a, other: torch.special.xlog1py(a, other),
    "igamma": lambda x: torch.special.gammainc(torch.full_like(x.detach(), 2.5), x),
    "igammac": lambda x: torch.igammac(torch.full_like(x.detach(), 1.5), x),
    "special_zeta": lambda q: torch.special.zeta(torch.full_like(q.detach(), 2.5), q),
    "number_zeta": lambda q, self: torch.special.zeta(self, q),
    "elu_": lambda a: torch.selu_(a.clone()),
    "celu_": lambda a, alpha: torch.celu_(a.clone(), alpha),
    "threshold_": lambda a, threshold: torch.threshold_(a.clone(), threshold, 2.0),
    "_cdist_forward": lambda a, b, p: torch.cdist(a, b, p, "donot_use_mm_for_euclid_dist"),
    "_pdist_forward": lambda a, p: torch.pdist(a, p), "_euclidean_dist": torch._euclidean_dist,
}
TORCH_CALLS.update({  # rows of the layers' chapters: parametrizations, recurrent layers
    "_weight_norm_interface": lambda v, g, dim: torch._weight_norm_interface(v, g, dim)[0],
    "_pack_padded_sequence": lambda a, lengths, batch_first: (
        torch.nn.utils.rnn.pack_padded_sequence(a, lengths, batch_first).data),
})


TORCH_CALLS.update({  # torch.nn.functional's rows, chapter 16q
    "leaky_relu": lambda a, negative_slope: F.leaky_relu(a, negative_slope),
    "leaky_relu_": lambda a, negative_slope: F.leaky_relu(a.clone(), negative_slope, True),
    "gelu": lambda a, approximate: F.gelu(a, approximate=approximate),
    "silu": F.silu, "mish": F.mish,
    "softplus": lambda a, beta, threshold: F.softplus(a, beta, threshold),
    "hardtanh": lambda a, min_val, max_val: F.hardtanh(a, min_val, max_val),
    "hardsigmoid": lambda a: F.hardsigmoid(a * 2), "hardswish": lambda a: F.hardswish(a * 2),
    "log_sigmoid": F.logsigmoid, "softshrink": lambda a, lambd: F.softshrink(a, lambd),
    "glu": lambda a, dim: F.glu(a, dim),
})


TORCH_CALLS.update({  # torch.nn.functional's losses, chapter 16q
    "mse_loss": lambda a, b, reduction: F.mse_loss(a, b, reduction=reduction),
    "huber_loss": lambda a, b, reduction, delta: F.huber_loss(a, b, reduction, delta),
    "smooth_l1_loss": lambda a, b, reduction, beta: F.smooth_l1_loss(
        a, b, reduction=reduction, beta=beta),
    "binary_cross_entropy": lambda a, b, reduction, weighted: F.binary_cross_entropy(
        a, b, torch.full_like(a.detach(), 1.5) if weighted else None, reduction=reduction),
    "binary_cross_entropy_with_logits": lambda a, b, reduction, weighted: (
        F.binary_cross_entropy_with_logits(
            a, b, torch.full_like(a.detach(), 1.5) if weighted else None, reduction=reduction,
            pos_weight=torch.full_like(a.detach(), 0.5) if weighted else None)),
    "nll_loss": lambda a, reduction, target: F.nll_loss(a, target, reduction=reduction,
                                                        ignore_index=-1),
    "nll_loss2d": lambda a, reduction, target, weight: F.nll_loss(
        a.flatten().view(a.shape), target, weight, reduction=reduction, ignore_index=-1),
})
TORCH_CALLS.update({  # gradients that are rows of their own, chapters 16n, 16q and 16t
    "hardtanh_backward": lambda g, a: aten.hardtanh_backward(g, a, -0.25, 0.25),
    "leaky_relu_backward": lambda g, a: aten.leaky_relu_backward(g, a, 0.2, False),
    "hardshrink_backward": lambda g, a: aten.hardshrink_backward(g, a, 0.25),
    "softshrink_backward": lambda g, a: aten.softshrink_backward(g, a, 0.25),
    "elu_backward": lambda g, a, is_result: aten.elu_backward(g, 1.5, 1.25, 0.75, is_result, a),
    "hardswish_backward": lambda g, a: aten.hardswish_backward(g, a * 2),
    "softplus_backward": lambda g, a: aten.softplus_backward(g, a, 2.0, 1.0),
    "rrelu_with_noise_backward": lambda g, a, training: aten.rrelu_with_noise_backward(
        g, a, torch.full_like(a.detach(), 0.25), 0.1, 0.3, training, False),
    **{name: lambda g, a, b, reduction, name=name, fixed=fixed: getattr(aten, name)(
        g.sum() if reduction else g, a, b, reduction, *fixed)
       for name, fixed in (("mse_loss_backward", ()), ("huber_loss_backward", (0.5,)),
                           ("smooth_l1_loss_backward", (0.75,)))},
})
TORCH_CALLS.update({  # the gradients of chapter 16x, rows of their own
    "gelu_backward": lambda g, a, approximate: aten.gelu_backward(g, a, approximate=approximate),
    "log_sigmoid_backward": lambda g, a: aten.log_sigmoid_backward(
        g, a, aten.log_sigmoid_forward(a.detach())[1]),
    "glu_backward": lambda g, a, dim: aten.glu_backward(g.narrow(dim, 0, a.shape[dim] // 2), a,
                                                        dim),
    "soft_margin_loss_backward": lambda g, a, reduction: aten.soft_margin_loss_backward(
        g.sum() if reduction else g, a, torch.ones_like(a.detach()).neg_(), reduction),
    "binary_cross_entropy_backward": lambda g, a, b, reduction, weighted: (
        aten.binary_cross_entropy_backward(g.sum() if reduction else g, a, b, torch.full_like(
            a.detach(), 1.5) if weighted else None, reduction)),
})
TORCH_CALLS.update({  # torch.nn.functional's layers, chapter 16q
    "_prelu_kernel": F.prelu,
    "_prelu_kernel_backward": aten._prelu_kernel_backward,
    "embedding": lambda w, indices: F.embedding(indices, w),
    "_embedding_bag": lambda w, p: F.embedding_bag(
        torch.tensor([1, 2, 1, 0, 3]), w, torch.tensor([0, 2, 2]), mode="sum",
        per_sample_weights=p),
    "constant_pad_nd": lambda a, pad: F.pad(a, pad, value=1.5),
    **{f"{kind}_pad{k}d": lambda a, padding, mode=mode: F.pad(a, padding, mode)
       for kind, mode in (("reflection", "reflect"), ("replication", "replicate"))
       for k in (1, 2, 3)},
    "native_layer_norm": lambda a, w, b, normalized_shape: torch.native_layer_norm(
        a, normalized_shape, w, b, 1e-5),  # the statistics too: no tangent
})
TORCH_CALLS.update({  # the normalization layers, chapter "Normalization layers"
    "native_batch_norm": lambda a, w, b, training: torch.native_batch_norm(
        a, w, b, torch.full((a.shape[1],), 0.25, dtype=a.dtype, device=a.device),
        torch.full((a.shape[1],), 1.5, dtype=a.dtype, device=a.device), training, 0.1, 1e-5),
    "native_group_norm": lambda a, w, b, num_groups: F.group_norm(a, num_groups, w, b),
    "avg_pool2d": lambda a, kernel_size: F.avg_pool2d(a, kernel_size, stride=1),
    "avg_pool3d": lambda a, kernel_size: F.avg_pool3d(a, kernel_size, stride=1),
})


def _torch_layer_norm_grads(g, a, w, normalized_shape):
    primal = torch.autograd.forward_ad.unpack_dual(a).primal
    _, mean, rstd = torch.native_layer_norm(primal, normalized_shape, None, None, 1e-5)
    b = torch.ones(normalized_shape, dtype=a.dtype)
    return aten.native_layer_norm_backward(g, a, normalized_shape, mean, rstd, w, b,
                                           [True, True, True])


def _torch_batch_norm_grads(g, a, w, train):
    primal = torch.autograd.forward_ad.unpack_dual(a).primal
    _, mean, invstd = torch.native_batch_norm(primal, None, None, None, None, True, 0.1, 1e-5)
    if not train:
        mean, invstd = mean[:0], invstd[:0]
    running = [torch.full((a.shape[1],), v, dtype=a.dtype) for v in (0.25, 1.5)]
    return aten.native_batch_norm_backward(g, a, w, *running, mean, invstd, train, 1e-5,
                                           [True, True, True])


TORCH_CALLS.update({  # the normalizations' gradients, chapter "Gradients of the normalizations"
    "native_layer_norm_backward": _torch_layer_norm_grads,
    "native_batch_norm_backward": _torch_batch_norm_grads,
})

TORCH_CALLS.update({  # more of torch.nn.functional, chapter 16t
    "rrelu_with_noise": lambda a, training: torch.rrelu(
        a, 0.1, 0.3, training, torch.Generator().manual_seed(0)),
    "rrelu_with_noise_": lambda a, training: torch.rrelu_(
        a * 1, 0.1, 0.3, training, torch.Generator().manual_seed(0)),
    "soft_margin_loss": lambda a, reduction: F.soft_margin_loss(
        a, torch.ones_like(a.detach()).neg_(), reduction=reduction),
    "multi_margin_loss": lambda a, target, reduction: F.multi_margin_loss(
        a, torch.tensor(target.tolist()), 2, 0.5, reduction=reduction),
    "multilabel_margin_loss_forward": lambda a, target, reduction: F.multilabel_margin_loss(
        a, torch.tensor(target.tolist()), reduction=reduction),
})

TORCH_CALLS.update({  # chapter "Convolution and pooling"
    "convolution": lambda a, w, b, **p: (
        (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d) if "output_padding" in p
        else (F.conv1d, F.conv2d, F.conv3d))[w.ndim - 3](a, w, b, **p),
    "max_pool2d_with_indices": lambda a, **p: F.max_pool2d(a, return_indices=True, **p),
    "max_pool3d_with_indices": lambda a, **p: F.max_pool3d(a, return_indices=True, **p),
    "conv_tbc": lambda a, w, b, pad: torch.conv_tbc(a, w, b, pad),  # chapter 21i
    "_adaptive_avg_pool2d": lambda a, output_size: F.adaptive_avg_pool2d(a, output_size),
    "_adaptive_avg_pool3d": lambda a, output_size: F.adaptive_avg_pool3d(a, output_size),
    "adaptive_max_pool2d": lambda a, output_size: F.adaptive_max_pool2d(a, output_size, True),
    "adaptive_max_pool3d": lambda a, output_size: F.adaptive_max_pool3d(a, output_size, True),
})
TORCH_CALLS.update({  # the pads', pools' and nll_loss's gradients, rows of their own
    **{f"{kind}_pad{k}d_backward": lambda g, a, padding, name=f"{kind}_pad{k}d_backward": getattr(
        aten, name)(g, a, padding) for kind in ("reflection", "replication") for k in (1, 2, 3)},
    "max_pool2d_with_indices_backward": lambda g, a, indices: (
        aten.max_pool2d_with_indices_backward(g, a, [2, 2], [1, 1], [0, 0], [1, 1], False,
                                              indices)),
    "max_pool3d_with_indices_backward": lambda g, a, indices: (
        aten.max_pool3d_with_indices_backward(g, a, [2] * 3, [1] * 3, [0] * 3, [1] * 3, False,
                                              indices)),
    "adaptive_max_pool2d_backward": aten.adaptive_max_pool2d_backward,
    "adaptive_max_pool3d_backward": aten.adaptive_max_pool3d_backward,
    "avg_pool2d_backward": lambda g, a, **p: aten.avg_pool2d_backward(g, a, *p.values()),
    "avg_pool3d_backward": lambda g, a, **p: aten.avg_pool3d_backward(g, a, *p.values()),
    "_adaptive_avg_pool2d_backward": lambda g, a, **sizes: aten._adaptive_avg_pool2d_backward(g, a),
    "_adaptive_avg_pool3d_backward": lambda g, a, **sizes: aten._adaptive_avg_pool3d_backward(g, a),
    **{name: lambda g, a, target, reduction, name=name: getattr(aten, name)(
        g, a.contiguous() if "2d" in name else a, target,
        torch.tensor([2.0, 0.5, 1.0], dtype=torch.float64) if "2d" in name else None,
        ("none", "mean", "sum").index(reduction), -1, aten.nll_loss_forward(
            a, target, None, ("none", "mean", "sum").index(reduction), -1)[1] if "2d" not in name
        else aten.nll_loss2d_forward(a, target, torch.tensor([2.0, 0.5, 1.0],
                                                             dtype=torch.float64),
                                     ("none", "mean", "sum").index(reduction), -1)[1])
       for name in ("nll_loss_backward", "nll_loss2d_backward")},
})

TORCH_CALLS.update({  # chapter "Upsampling"
    **{name: interpolating(F, mode) for name, (mode, n) in UPSAMPLINGS.items()},
    **{f"{name}_backward": getattr(aten, f"{name}_backward") for name in UPSAMPLINGS},
})

TORCH_CALLS.update({  # chapter "Transposed convolution and rearranging layers"
    "pixel_shuffle": lambda a, **p: F.pixel_shuffle(a, **p),
    "pixel_unshuffle": lambda a, **p: F.pixel_unshuffle(a, **p),
    "channel_shuffle": lambda a, **p: F.channel_shuffle(a, **p),
    "im2col": lambda a, **p: F.unfold(a, **p),
    "col2im": lambda a, **p: F.fold(a, **p),
})

TORCH_CALLS.update({  # chapter "Attention and sampling"
    "_safe_softmax": lambda a, dim: torch._safe_softmax(a, dim),
    "_scaled_dot_product_flash_attention_for_cpu": lambda q, k, v, is_causal=False, scale=None: (
        aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, 0.0, is_causal, scale=scale)[0]),
    "grid_sampler_2d": lambda a, g, **p: F.grid_sample(a, g, **p),
    "grid_sampler_3d": lambda a, g, **p: F.grid_sample(a, g, **p),
    "affine_grid_generator": lambda t, size, align_corners: F.affine_grid(t, size, align_corners),
    **{f"grid_sampler_{n}d_backward": lambda g, a, grid, n=n, **p: getattr(
        aten, f"grid_sampler_{n}d_backward")(g, a, grid, p["interpolation_mode"],
                                            p["padding_mode"], p["align_corners"], [True, True])
       for n in (2, 3)},
})
TORCH_CALLS.update({  # the gradient kernels' rows, chapter 16x
    "embedding_dense_backward": lambda g, indices, padding_idx: aten.embedding_dense_backward(
        g, indices, 4, padding_idx, False),
    "_trilinear": lambda a, w, b: torch._trilinear(a, w, b, [1, 3], [0], [1, 2], [2, 3]),
})
TORCH_CALLS.update({  # the convolution's gradient, a row of its own (chapter 16x)
    "convolution_backward": lambda g, a, w, **p: aten.convolution_backward(
        g, a, w, **p, output_mask=[True, True, True]),
})

TORCH_CALLS.update({  # chapter "Copies of views, and other names of torch's namespace"
    "alias_copy": lambda a: torch.alias_copy(a),
    "as_strided_copy": lambda a: torch.as_strided_copy(a.contiguous(), (2, 2), (1, 3), 1),
    "expand_copy": lambda a, size: torch.expand_copy(a, size),
    "permute_copy": lambda a, dims: torch.permute_copy(a, dims),
    "select_copy": lambda a, dim, index: torch.select_copy(a, dim, index),
    "slice_copy": lambda a, **p: torch.slice_copy(a, **p),
    "split_copy": lambda a, split_size, dim: torch.split_copy(a, split_size, dim),
    "split_with_sizes_copy": lambda a, split_sizes, dim: torch.split_with_sizes_copy(
        a, split_sizes, dim),
    "squeeze_copy": lambda a: torch.squeeze_copy(a),
    "squeeze_dim_copy": lambda a, dim: torch.squeeze_copy(a, dim),
    "squeeze_dims_copy": lambda a, dim: torch.squeeze_copy(a, dim),
    "t_copy": lambda a: torch.t_copy(a),
    "transpose_copy": lambda a, dim0, dim1: torch.transpose_copy(a, dim0, dim1),
    "unbind_copy": lambda a, dim: torch.unbind_copy(a, dim),
    "unfold_copy": lambda a, **p: torch.unfold_copy(a, **p),
    "unsqueeze_copy": lambda a, dim: torch.unsqueeze_copy(a, dim),
    "view_copy": lambda a, shape: torch.view_copy(a, shape),
    "fill": lambda a: torch.fill(a, 2.0), "fill.Tensor": lambda a, v: torch.fill(a, v),
    "norm.Scalar": lambda a, p: torch.norm_except_dim(a, p, -1),
})
def _slow(name):
    def run(a, w, b, **params):
        return getattr(torch._C._nn, name)(a, w, tuple(w.shape[2:]), b, **params)

    return run


TORCH_CALLS.update({  # torch._C._nn's slow convolutions, chapter "Saved values, part three"
    name: _slow(name) for name in ("slow_conv3d", "slow_conv_dilated2d", "slow_conv_dilated3d",
                                   "slow_conv_transpose2d", "slow_conv_transpose3d")})
TORCH_CALLS.update({  # thnn_conv2d's rows and torch._convolution, chapter "Saved values, part four"
    "_slow_conv2d_forward": _slow("thnn_conv2d"),
    "_slow_conv2d_backward": lambda g, a, w, **p: aten._slow_conv2d_backward(
        g, a, w, **p, output_mask=[True, True, True]),
    "_convolution": lambda a, w, b, stride, padding: torch._convolution(
        a, w, b, stride, padding, [1, 1], False, [0, 0], 1, False, False, True),
})
TORCH_CALLS.update({  # fake quantization, chapter 19roa: the recipes' numbers
    "fake_quantize_per_channel_affine_cachemask": lambda a, **p: (  # p holds refgrad's
        torch.fake_quantize_per_channel_affine(a, torch.full((a.shape[0],), 2.0 ** -50),
                                               torch.zeros(a.shape[0], dtype=torch.int32),
                                               0, -(2 ** 50), 2 ** 50)),
    "fake_quantize_per_tensor_affine_cachemask": lambda a, **p: (
        torch.fake_quantize_per_tensor_affine(a, 1e-30, 0, 0, 0)),
    "_fake_quantize_per_tensor_affine_cachemask_tensor_qparams": lambda a, **p: (
        torch.fake_quantize_per_tensor_affine(a, torch.tensor(1e-30), torch.tensor(0), 0, 0)),
})
TORCH_CALLS.update({  # the unpools, the fractional max pools and native_dropout, chapter 16z
    "max_unpool2d": lambda a, **p: F.max_unpool2d(a, **p),
    "max_unpool3d": lambda a, **p: F.max_unpool3d(a, **p),
    "fractional_max_pool2d": lambda a, **p: F.fractional_max_pool2d(a, return_indices=True, **p),
    "fractional_max_pool3d": lambda a, **p: F.fractional_max_pool3d(a, return_indices=True, **p),
    "fractional_max_pool2d_backward": lambda g, a, indices: aten.fractional_max_pool2d_backward(
        g, a, [2, 2], [3, 2], indices),
    "fractional_max_pool3d_backward": lambda g, a, indices: aten.fractional_max_pool3d_backward(
        g, a, [2, 2, 2], [2, 3, 2], indices),
    "native_dropout": lambda a, p, train: (torch.manual_seed(0), torch.native_dropout(
        a.contiguous(), p, train))[1],
    "_ctc_loss": lambda a, targets, **p: F.ctc_loss(  # targets may be refgrad's
        a.log_softmax(2), torch.tensor(targets.tolist()), **p, reduction="none"),
    "_ctc_loss_tensor": lambda a, targets, input_lengths, target_lengths, **p: torch._ctc_loss(
        a.log_softmax(2), torch.tensor(targets.tolist()), torch.tensor(input_lengths.tolist()),
        torch.tensor(target_lengths.tolist()), **p)[0],
})
TORCH_CALLS["linalg_householder_product"] = (  # chapter 16ra
    lambda a, tau: torch.linalg.householder_product(a, tau * 0.25))
TORCH_CALLS["slice_inverse"] = lambda a, s, **p: aten.slice_inverse(a, s, **p)  # chapter 27a
TORCH_CALLS["ormqr"] = (  # chapter 16ra
    lambda a, tau, c, left, transpose: torch.ormqr(a, tau * 0.25, c, left, transpose))
TORCH_CALLS["segment_reduce"] = (  # chapter "The remaining tensor methods"
    lambda a, reduce: torch.segment_reduce(a, reduce, lengths=torch.tensor([1, a.shape[0] - 1])))
TORCH_CALLS["mkldnn_rnn_layer"] = (  # chapter "An LSTM layer as one node"
    lambda x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, has_biases: torch.mkldnn_rnn_layer(
        x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, [], 2, 2, 1, has_biases, False, False,
        True)[:3])
TORCH_CALLS["_standard_gamma"] = (  # chapter "The gamma family"
    lambda a: torch._standard_gamma(a * 0.0 + 1.0, generator=torch.Generator().manual_seed(0)))
# chapter 02c: complex results read as their parts, as tests/test_gradients_complex.py does
TORCH_CALLS.update({
    "complex": lambda a, b: torch.view_as_real(torch.complex(a, b)),
    "polar": lambda a, b: torch.view_as_real(torch.polar(a, b)),
    "view_as_real": lambda a, b: torch.view_as_real(torch.complex(a, b) * torch.complex(b, a)),
    "view_as_complex": lambda a: torch.view_as_real(torch.view_as_complex(a.contiguous()) ** 2),
    "conj": lambda a, b: torch.view_as_real((torch.complex(a, b) * a).conj().resolve_conj()),
    "conj_physical": lambda a, b: torch.view_as_real(torch.conj_physical(torch.complex(a, b) * b)),
})

# torch's float64 trigamma is good to about 5e-10 relative, refgrad's to about 1e-15 (chapter
# "Special functions"): values and tangents that go through it are compared to 1e-8.
THROUGH_TRIGAMMA = {"digamma", "polygamma", "polygamma_"}


def _conditioned(a):
    """As the white-box recipes make them: well away from a singular matrix."""
    return a + 3 * torch.eye(a.shape[-1], dtype=a.dtype)


def _pivoted(a):
    """As the white-box recipes make them: rows that must be swapped."""
    m, n = a.shape[-2:]
    return 0.1 * a + torch.eye(m, n, dtype=a.dtype).flip(-2) * torch.arange(n, 0, -1,
                                                                           dtype=a.dtype)


def _last_row_pivots(lu):
    m, n = lu.shape[-2:]
    return torch.full(tuple(lu.shape[:-2]) + (min(m, n),), m, dtype=torch.int32)


def _factor(u, upper):
    t = u.triu() if upper else u.tril()
    return t + 2 * torch.eye(u.shape[-1], dtype=u.dtype)


def _quietly(function, *args, **kwargs):
    """A deprecated function's result, without its warning (given once, so not every time)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tuple(function(*args, **kwargs))


def _spread(a):
    """As the white-box recipes make them: singular values apart and away from zero."""
    m, n = a.shape[-2:]
    return 0.1 * a + torch.eye(m, n, dtype=a.dtype) * torch.arange(n, 0, -1, dtype=a.dtype)


def test_every_differentiable_row_has_a_torch_call():
    assert set(TORCH_CALLS) == set(DIFFERENTIABLE)


def _to_torch(value):
    if isinstance(value, refgrad.Tensor):
        # Contiguous: torch's as_strided reads memory, refgrad's reads logical order.
        return torch.tensor(value.numpy().copy(order="C"))
    if isinstance(value, refgrad.dtype):
        return getattr(torch, value.name)
    if isinstance(value, list | tuple):
        return type(value)(_to_torch(v) for v in value)
    return value


def _outputs(result):
    return list(result) if isinstance(result, tuple | list) else [result]


def _run(lib, call, primals, tangents, params):
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        duals = [fw.make_dual(p, t) for p, t in zip(primals, tangents)]
        return [(o.detach().numpy(), str(o.dtype), _tangent(fw, o))
                for o in _outputs(call(*duals, **params))]


def _tangent(fw, output):
    tangent = fw.unpack_dual(output).tangent
    # force: torch's tangent of sgn is a zero tensor, which refuses a plain numpy()
    return None if tangent is None else (str(tangent.dtype), tangent.detach().numpy(force=True))


def check_row(name, data):
    leaves, params, rng = drawn_case(data, name)
    primals = [leaf.detach() for leaf in leaves]
    layouts = data.draw(st.lists(st.sampled_from(["contiguous", "strided", "transposed"]),
                                 min_size=len(leaves), max_size=len(leaves)))
    tangents = [_laid_out(rng.uniform(-1.0, 1.0, p.shape), layout).detach()
                for p, layout in zip(primals, layouts)]
    ours = _run(refgrad, RECIPES[name].call, primals, tangents, params)
    theirs = _run(torch, TORCH_CALLS[name], [_to_torch(p) for p in primals],
                  [_to_torch(t) for t in tangents], {k: _to_torch(v) for k, v in params.items()})
    assert len(ours) == len(theirs)
    loose = name in THROUGH_TRIGAMMA
    for (value, dtype, tangent), (t_value, t_dtype, t_tangent) in zip(ours, theirs):
        assert dtype == t_dtype
        np.testing.assert_allclose(value, t_value, rtol=1e-8 if loose else 1e-12, atol=1e-12)
        assert (tangent is None) == (t_tangent is None), name
        if tangent is not None:
            assert tangent[0] == t_tangent[0], name
            np.testing.assert_allclose(tangent[1], t_tangent[1], rtol=1e-8 if loose else 1e-10,
                                       atol=1e-12)




# torch's forward formula for these is not the derivative (finite differences disagree with
# it); refgrad's tangents are the derivative: chapter "Solvers", where refgrad differs.
TORCH_TANGENT_IS_WRONG = {"cholesky_inverse"}
# torch's tangent of ATen's norm over every dimension has the wrong size, and torch refuses
# it: so does refgrad (chapter "Copies of views, and other names of torch's namespace").
TORCH_TANGENT_IS_WRONG |= {"norm.Scalar"}


@pytest.mark.parametrize("name", [n for n in DIFFERENTIABLE if n not in
                                  TORCH_TANGENT_IS_WRONG | set(WITHOUT_FORWARD_FORMULA)
                                  | COMPLEX_ROWS])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_tangents_match_torch(name, data):
    check_row(name, data)


@pytest.mark.parametrize("name", sorted(COMPLEX_ROWS))
def test_torch_has_the_tangents_refgrad_refuses_through_complex_rows(name):
    """A deliberate difference (NOTE [No complex tangents]): torch's tangent exists."""
    count = len(RECIPES[name].values)
    primals = [torch.rand(3, 2, dtype=torch.float64) + 0.5 for _ in range(count)]
    with torch.autograd.forward_ad.dual_level():
        duals = [torch.autograd.forward_ad.make_dual(p, torch.ones_like(p)) for p in primals]
        out = TORCH_CALLS[name](*duals)
        assert torch.autograd.forward_ad.unpack_dual(out).tangent.shape == out.shape


@pytest.mark.parametrize("name", sorted(WITHOUT_FORWARD_FORMULA))
def test_both_refuse_a_tangent_where_torch_has_no_forward_formula(name):
    shapes, params = WITHOUT_FORWARD_FORMULA[name]
    for lib, call in ((refgrad, RECIPES[name].call), (torch, TORCH_CALLS[name])):
        primals = [lib.ones(*shape, dtype=lib.float64) * 1.5 for shape in shapes]
        with lib.autograd.forward_ad.dual_level():
            duals = [lib.autograd.forward_ad.make_dual(p, lib.ones_like(p)) for p in primals]
            with pytest.raises(NotImplementedError, match=f"^Trying to use forward AD with "
                               f"{TORCH_NAMES.get(name, name)} that does not support it because "
                               "it has not been implemented yet"):
                call(*duals, **params)


def _tangent_gradients(lib, call, primals, tangents, params, weights):
    """Gradients of sum(tangent * weight) over the outputs: forward, then reverse."""
    fw = lib.autograd.forward_ad
    leaves = [p.detach().requires_grad_() for p in primals + tangents]
    with fw.dual_level():
        duals = [fw.make_dual(p, t) for p, t in zip(leaves, leaves[len(primals):])]
        found = [fw.unpack_dual(o).tangent for o in _outputs(call(*duals, **params))]
    loss = sum((t * w).sum() for t, w in zip(found, weights) if t is not None)
    if not getattr(loss, "requires_grad", False):
        return [np.zeros(tuple(x.shape)) for x in leaves]
    grads = lib.autograd.grad(loss, leaves, allow_unused=True)
    return [np.zeros(tuple(x.shape)) if g is None else g.numpy(force=True)  # torch's zero tensors
            for x, g in zip(leaves, grads)]


# torch's forward formulas for these rows write in place into a value that their own
# backward saved, so torch raises when their tangents are differentiated. refgrad can; the
# white-box suite checks those rows against finite differences instead.
TORCH_CANNOT_DIFFERENTIATE = {"softmax", "log_softmax", "logsumexp", "logcumsumexp",
                              "_safe_softmax"}


@pytest.mark.parametrize("name", sorted(TORCH_CANNOT_DIFFERENTIATE))
def test_torch_still_cannot_differentiate_these_tangents(name):
    call = TORCH_CALLS[name]
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        _tangent_gradients(torch, call, [torch.ones(2, 3, dtype=torch.float64)],
                           [torch.ones(2, 3, dtype=torch.float64)], {"dim": 1},
                           [torch.ones(2, 3, dtype=torch.float64)[:, 0]] if name == "logsumexp"
                           else [torch.ones(2, 3, dtype=torch.float64)])


# torch's forward formulas for these rows read the LU factorization their forward saved,
# which torch does not differentiate: differentiated, their tangents miss the terms through
# it. refgrad's are exact; torch's reverse mode, differentiated twice, is the oracle instead.
# (The normalizations' tangents, which read their saved statistics the same way, follow
# torch's formulas, and so differentiate as torch's do: torch's is their oracle.)
TANGENTS_THROUGH_A_CONSTANT_LU = {"linalg_det", "linalg_slogdet", "linalg_solve_ex"}
# The gradient rows take the statistics as constants, as torch's do (chapter 16sa).
TANGENTS_THROUGH_A_CONSTANT_LU |= {"native_layer_norm_backward", "native_batch_norm_backward"}
# torch's tangent of householder_product is right, but differentiated it is not: for a 1x1
# input the product is 1 - tau, whose tangent -dtau does not depend on tau (chapter 16ra).
TANGENTS_THROUGH_A_CONSTANT_LU |= {"linalg_householder_product"}


def _reverse_over_reverse(lib, call, primals, tangents, params, weights):
    """The same gradients as _tangent_gradients, from two reverse passes: with J the
    Jacobian, <J t, w> has gradient J^T w for t, and for the primals that of <t, J^T w>."""
    leaves = [p.detach().requires_grad_() for p in primals]
    loss = sum((o * w).sum() for o, w in zip(_outputs(call(*leaves, **params)), weights))
    pulled = lib.autograd.grad(loss, leaves, create_graph=True)
    pairing = sum((g * t).sum() for g, t in zip(pulled, tangents))
    if not pairing.requires_grad:  # J does not depend on the primals
        second = [None] * len(leaves)
    else:
        second = lib.autograd.grad(pairing, leaves, allow_unused=True)
    return [np.zeros(tuple(x.shape)) if g is None else g.numpy() for x, g in zip(leaves, second)
            ] + [g.detach().numpy() for g in pulled]


# torch's forward formula for eigh divides by the differences of the eigenvalues, zero on
# the diagonal, and then overwrites that diagonal: differentiated, its tangents are nan
# everywhere. torch's reverse mode, differentiated twice, is the oracle instead.
TANGENTS_TORCH_DIFFERENTIATES_TO_NAN = {"linalg_eigh"}


def test_torch_still_differentiates_eigh_tangents_to_nan():
    a = torch.tensor([[2.0, 0.5], [0.5, -1.0]], dtype=torch.float64)
    t = torch.tensor([[1.0, 0.25], [0.25, 0.5]], dtype=torch.float64)
    call, weights = TORCH_CALLS["linalg_eigh"], [torch.ones(2, dtype=torch.float64),
                                                  torch.ones(2, 2, dtype=torch.float64),
                                                  torch.ones(2, 2, dtype=torch.float64)]
    assert np.isnan(_tangent_gradients(torch, call, [a], [t], {"UPLO": "L"}, weights)[0]).all()
    assert np.isfinite(_reverse_over_reverse(torch, call, [a], [t], {"UPLO": "L"},
                                             weights)[0]).all()


def test_torch_still_differentiates_det_tangents_through_a_constant_lu():
    a, t = torch.tensor([[2.0]], dtype=torch.float64), torch.tensor([[1.0]], dtype=torch.float64)
    weight = torch.tensor(1.0, dtype=torch.float64)
    found = _tangent_gradients(torch, torch.linalg.det, [a], [t], {}, [weight])
    # det of a 1x1 matrix is its entry: its tangent t does not depend on the entry
    assert found[0][0, 0] == pytest.approx(0.5)
    assert _reverse_over_reverse(torch, torch.linalg.det, [a], [t], {}, [weight])[0][0, 0] == 0


# torch's reverse formula for as_strided_scatter's input gives the gradient at the written
# places, the complement of the right one (chapter "Views"): reverse mode through its
# tangent inherits that. refgrad's is right, and checked against finite differences.
TORCH_WRONG_REVERSE = {"as_strided_scatter"}


def test_torch_still_gives_as_strided_scatter_the_complement_of_the_input_gradient():
    x = torch.zeros(4, dtype=torch.float64, requires_grad=True)
    y = torch.as_strided_scatter(x, torch.ones(2, dtype=torch.float64), (2,), (1,), 1)
    (grad,) = torch.autograd.grad(y, x, torch.arange(1.0, 5.0, dtype=torch.float64))
    assert grad.tolist() == [0.0, 2.0, 3.0, 0.0]  # the right one is [1, 0, 0, 4]


# torch's forward formulas for these rows call functions that have no derivative of their
# own (glu_jvp, hardsigmoid_backward): torch refuses to differentiate their tangents. The
# white-box suite checks refgrad's second derivatives against finite differences instead.
TORCH_TANGENTS_WITHOUT_DERIVATIVE = {"glu": "glu_jvp", "hardsigmoid": "hardsigmoid_backward"}


@pytest.mark.parametrize("name", sorted(TORCH_TANGENTS_WITHOUT_DERIVATIVE))
def test_torch_still_refuses_to_differentiate_these_tangents(name):
    one = torch.ones(2, 4, dtype=torch.float64)
    with pytest.raises(RuntimeError, match=f"^derivative for aten::"
                       f"{TORCH_TANGENTS_WITHOUT_DERIVATIVE[name]} is not implemented"):
        _tangent_gradients(torch, TORCH_CALLS[name], [one], [one], {"dim": -1} if name == "glu"
                           else {}, [torch.ones(2, 2 if name == "glu" else 4,
                                                dtype=torch.float64)])


@pytest.mark.parametrize("name", [n for n in DIFFERENTIABLE if n not in TORCH_TANGENT_IS_WRONG
                                  | TORCH_CANNOT_DIFFERENTIATE | set(WITHOUT_FORWARD_FORMULA)
                                  | COMPLEX_ROWS
                                  | TORCH_WRONG_REVERSE
                                  | set(TORCH_TANGENTS_WITHOUT_DERIVATIVE)
                                  | {"glu_backward"}])  # see the test below
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_tangents_differentiate_like_torch(name, data):
    """Reverse mode through the tangents: the second derivatives, row by row."""
    leaves, params, rng = drawn_case(data, name)
    primals = [leaf.detach() for leaf in leaves]
    tangents = [refgrad.tensor(rng.uniform(-1.0, 1.0, p.shape)) for p in primals]
    shapes = [o.shape for o in _outputs(RECIPES[name].call(*primals, **params))]
    weights = [rng.uniform(-1.0, 1.0, tuple(s)) for s in shapes]
    ours = _tangent_gradients(refgrad, RECIPES[name].call, primals, tangents, params,
                              [refgrad.tensor(w) for w in weights])
    t_params = {k: _to_torch(v) for k, v in params.items()}
    t_args = (torch, TORCH_CALLS[name], [_to_torch(p) for p in primals],
              [_to_torch(t) for t in tangents], t_params, [torch.tensor(w) for w in weights])
    if (name, params.get("ord", params.get("p"))) in (("linalg_vector_norm", 1), ("dist", 1)) or (
            name in ("norm_dims", "renorm") and params["p"] == 1):
        # The same in-place write, in torch's formula for the 1-norm only (dist's, and
        # pairwise_distance's and renorm's too): the white-box suite checks refgrad's
        # against finite differences.
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            _tangent_gradients(*t_args)
        return
    theirs = _tangent_gradients(*t_args)
    if name in TANGENTS_THROUGH_A_CONSTANT_LU | TANGENTS_TORCH_DIFFERENTIATES_TO_NAN:
        theirs = _reverse_over_reverse(*t_args)
    if name == "cumprod":
        # torch's tangent formula divides by the input, so differentiated it gives nan at a
        # zero; refgrad's tangent comes from the reverse formula, a polynomial there.
        assert all(np.isfinite(g).all() for g in ours)
        theirs = [np.where(np.isnan(t_g), g, t_g) for g, t_g in zip(ours, theirs)]
    for g, t_g in zip(ours, theirs):
        np.testing.assert_allclose(g, t_g, rtol=1e-9, atol=1e-12)


def test_rows_that_convert_inside_give_torchs_tangent_dtypes():
    for call in (lambda T, x: x.cumsum(0, dtype=T.float32),
                 lambda T, x: x.float().cumsum(0, dtype=T.float64),
                 lambda T, x: x.float().norm(dtype=T.float64)):
        found = []
        for lib in (torch, refgrad):
            primal = lib.tensor([1.0, -2.0, 3.0], dtype=lib.float64)
            tangent = lib.tensor([0.5, 1.0, -1.0], dtype=lib.float64)
            found.append(_run(lib, lambda d, lib=lib, call=call: call(lib, d), [primal],
                              [tangent], {})[0])
        (theirs, ours) = found
        assert ours[1] == theirs[1] and ours[2][0] == theirs[2][0]
        np.testing.assert_allclose(ours[2][1], theirs[2][1], rtol=1e-6)


def test_torch_still_refuses_to_differentiate_glu_backwards_tangent():
    """Like glu's: torch's forward formula for glu_backward calls glu_backward_jvp, which has
    no derivative of its own. refgrad's second derivatives of that row are checked against
    finite differences by the white-box suite."""
    one = torch.ones(2, 4, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="^derivative for aten::glu_backward_jvp is not "
                       "implemented"):
        _tangent_gradients(torch, TORCH_CALLS["glu_backward"], [one, one], [one, one],
                           {"dim": -1}, [one])


def test_both_refuse_the_wrongly_sized_tangent_of_the_norm_over_every_dimension():
    for lib in (torch, refgrad):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            dual = fw.make_dual(lib.ones(2, 3, dtype=lib.float64), lib.ones(2, 3,
                                                                            dtype=lib.float64))
            with pytest.raises(RuntimeError, match="^Trying to set a forward gradient that has "
                               "a different size than that of the original Tensor, this is not "
                               "supported. Tensor is of size \\[\\] while the given forward "
                               "gradient is of size \\[1, 1\\].$"):
                lib.norm_except_dim(dual, 2, -1)
            lone = fw.make_dual(lib.tensor(-2.0, dtype=lib.float64),
                                lib.tensor(0.5, dtype=lib.float64))
            assert fw.unpack_dual(lib.norm_except_dim(lone, 3, -1)).tangent.item() == -0.5


def test_torch_still_differentiates_householder_product_tangents_wrongly():
    a, tau, t_a, t_tau = (torch.tensor(v, dtype=torch.float64)
                          for v in ([[0.3]], [0.5], [[0.2]], [1.0]))
    weight = torch.tensor([[1.0]], dtype=torch.float64)
    args = (torch, torch.linalg.householder_product, [a, tau], [t_a, t_tau], {}, [weight])
    assert _tangent_gradients(*args)[1][0] != 0
    assert _reverse_over_reverse(*args)[1][0] == 0
