"""More calls for conformance/test_saved_values_swept.py: numbers of each kind and sizes.

Each case is the shapes of its float64 leaves and the function of them. The calls give
numbers as ints where torch's operator takes a double (torch keeps a double), Scalars as
ints, floats and bools (torch keeps them as given), optional numbers left out, strings,
dimensions and sizes; and views, whose nodes keep sizes, strides and offsets.
"""

import torch
import torch.nn.functional as F


def _eye():
    return torch.eye(3).double()


_T = torch.tensor
_ATTENTION = [(1, 2, 3, 4)] * 3
_SQUARE = [(3, 4), (3, 4)]
MORE = {
    # doubles given as ints
    "huber_int": (_SQUARE, lambda a, b: F.huber_loss(a, b, delta=2)),
    "smooth_l1_int": (_SQUARE, lambda a, b: F.smooth_l1_loss(a, b, beta=2)),
    "logit_int": ([(3, 4)], lambda a: torch.logit(a.sigmoid(), 0)),
    "logit_bool": ([(3, 4)], lambda a: a.sigmoid().logit(True)),
    "group_norm_int": ([(2, 4, 3)], lambda a: F.group_norm(a, 2, eps=1)),
    "native_group_norm": ([(2, 4, 3)], lambda a:
        torch.native_group_norm(a, None, None, 2, 4, 3, 2, 1)[0]),
    "batch_norm_int": ([(3, 4)], lambda a: F.batch_norm(
        a, torch.zeros(4).double(), torch.ones(4).double(), training=True, momentum=1, eps=1)),
    "native_batch_norm": ([(3, 4)], lambda a:
        torch.native_batch_norm(a, None, None, None, None, True, 0, 1)[0]),
    "instance_norm_int": ([(2, 3, 4)], lambda a: F.instance_norm(a, eps=1)),
    "sdpa_scale_int": (_ATTENTION, lambda a, b, c:
        F.scaled_dot_product_attention(a, b, c, scale=1)),
    "sdpa_dropout_int": (_ATTENTION, lambda a, b, c:
        F.scaled_dot_product_attention(a, b, c, dropout_p=0)),
    "native_dropout_int": ([(3, 4)], lambda a: torch.native_dropout(a, 0, True)[0]),
    "cross_entropy_smoothing_int": ([(3, 4)], lambda a:
        F.cross_entropy(a, _T([0, 3, 1]), label_smoothing=1)),
    "pdist_int": ([(3, 4)], lambda a: torch.pdist(a, 1)),
    "cdist_int": ([(3, 4), (2, 4)], lambda a, b: torch.cdist(a, b, 1)),
    "quantile_int": ([(3, 4)], lambda a: a.quantile(0, dim=1)),
    "rrelu_int": ([(3, 4)], lambda a: F.rrelu(a, 0, 1, training=False)),
    "triplet_int": ([(3, 4)] * 3, lambda a, b, c: F.triplet_margin_loss(a, b, c, 2, 1, 0)),
    "pairwise_int": (_SQUARE, lambda a, b: F.pairwise_distance(a, b, 1, 0)),
    "interp_scale_int": ([(1, 1, 2, 3)], lambda a:
        F.interpolate(a, scale_factor=2, mode="bilinear")),
    "interp_scale_float": ([(1, 1, 2, 3)], lambda a:
        F.interpolate(a, scale_factor=(1.5, 2), mode="bicubic", align_corners=True)),
    "interp_nearest1d_scale": ([(1, 1, 3)], lambda a:
        F.interpolate(a, scale_factor=1.7, mode="nearest")),
    "interp_trilinear_scale": ([(1, 1, 2, 2, 3)], lambda a:
        F.interpolate(a, scale_factor=2, mode="trilinear")),
    "lp_pool_int": ([(1, 2, 4, 4)], lambda a: F.lp_pool2d(a, 1, 2)),
    "var_float_correction": ([(3, 4)], lambda a: a.var(0, correction=0.5)),
    "std_int_correction": ([(3, 4)], lambda a: a.std(1, correction=2)),
    "norm_int": ([(3, 4)], lambda a: a.norm(2, 1)),
    "vector_norm_int": ([(3, 4)], lambda a: torch.linalg.vector_norm(a, 3, 1)),
    "dist_int": (_SQUARE, lambda a, b: torch.dist(a, b, 1)),
    # Scalars, kept as given
    "mul_int": ([(3, 4)], lambda a: a * 2),
    "mul_float": ([(3, 4)], lambda a: a * 2.5),
    "mul_bool": ([(3, 4)], lambda a: a * True),
    "mul_zero_dim": ([(3, 4)], lambda a: a * _T(2)),
    "add_alpha_int": (_SQUARE, lambda a, b: torch.add(a, b, alpha=2)),
    "sub_alpha_float": (_SQUARE, lambda a, b: torch.sub(a, b, alpha=0.5)),
    "rsub_scalar": ([(3, 4)], lambda a: torch.rsub(a, 2, alpha=3)),
    "div_floor": (_SQUARE, lambda a, b: torch.div(a, b.abs() + 1, rounding_mode="floor")),
    "div_scalar_trunc": ([(3, 4)], lambda a: torch.div(a, 2, rounding_mode="trunc")),
    "pow_int": ([(3, 4)], lambda a: a ** 2),
    "pow_float": ([(3, 4)], lambda a: a.abs() ** 1.5),
    "pow_bool": ([(3, 4)], lambda a: torch.pow(a, True)),
    "pow_scalar_base_int": ([(3, 4)], lambda a: torch.pow(3, a)),
    "clamp_min": ([(3, 4)], lambda a: a.clamp(min=0)),
    "clamp_max_float": ([(3, 4)], lambda a: a.clamp(max=0.5)),
    "clamp_mixed": ([(3, 4)], lambda a: torch.clamp(a, min=0, max=1.5)),
    "clamp_bool": ([(3, 4)], lambda a: torch.clamp(a, min=False)),
    "clamp_tensor_min": (_SQUARE, lambda a, b: a.clamp(min=b)),
    "lerp_int": (_SQUARE, lambda a, b: torch.lerp(a, b, 1)),
    "addcmul_int": ([(3, 4)] * 3, lambda a, b, c: torch.addcmul(a, b, c, value=2)),
    "addmm_floats": ([(3, 2), (3, 4), (4, 2)], lambda a, b, c:
        torch.addmm(a, b, c, beta=0.5, alpha=2)),
    "addbmm": ([(3, 2), (2, 3, 4), (2, 4, 2)], lambda a, b, c:
        torch.addbmm(a, b, c, beta=2, alpha=0.5)),
    "addmv_beta_zero": ([(3,), (3, 4), (4,)], lambda a, b, c: torch.addmv(a, b, c, beta=0)),
    "leaky_int": ([(3, 4)], lambda a: F.leaky_relu(a, 1)),
    "threshold_int": ([(3, 4)], lambda a: F.threshold(a, 0, 2)),
    "hardtanh_int": ([(3, 4)], lambda a: F.hardtanh(a, -1, 1)),
    "elu_int": ([(3, 4)], lambda a: F.elu(a, 2)),
    "celu_int": ([(3, 4)], lambda a: F.celu(a, 1)),
    "softplus_floats": ([(3, 4)], lambda a: F.softplus(a, 1.5, 10.5)),
    "softshrink_int": ([(3, 4)], lambda a: F.softshrink(a, 1)),
    "renorm_int": ([(3, 4)], lambda a: a.renorm(1, 1, 2)),
    "nan_to_num_int": ([(3, 4)], lambda a: torch.nan_to_num(a, 0, 1, -1)),
    "fmod_int": ([(3, 4)], lambda a: torch.fmod(a, 2)),
    "xlogy_int": ([(3, 4)], lambda a: torch.xlogy(a, 2)),
    "masked_fill_int": ([(3, 4)], lambda a: a.masked_fill(a > 0, 2)),
    "index_fill_float": ([(3, 4)], lambda a: a.index_fill(0, _T([1]), 0.5)),
    "multi_margin_int": ([(3, 4)], lambda a: F.multi_margin_loss(a, _T([0, 3, 1]), 1, 2)),
    "special_zeta": ([(3, 4)], lambda a: torch.special.zeta(a.abs() + 2, 2.0)),
    "polygamma_one": ([(3, 4)], lambda a: torch.polygamma(1, a.abs() + 0.5)),
    # optional numbers left out, strings
    "logit_none": ([(3, 4)], lambda a: torch.logit(a.sigmoid())),
    "rms_norm_none": ([(3, 4)], lambda a: F.rms_norm(a, [4])),
    "gelu_none": ([(3, 4)], lambda a: F.gelu(a, approximate="none")),
    "quantile_midpoint": ([(3, 4)], lambda a:
        a.quantile(_T([0.2, 0.9]).double(), 1, interpolation="midpoint")),
    "cdist_mm": ([(3, 4), (2, 4)], lambda a, b: torch.cdist(a, b, 2, "use_mm_for_euclid_dist")),
    "sdpa_mask": (_ATTENTION, lambda a, b, c:
        F.scaled_dot_product_attention(a, b, c, attn_mask=torch.zeros(3, 3).double())),
    # dimensions, sizes, strides and offsets
    "sum_dims": ([(2, 3, 4)], lambda a: a.sum((0, 2))),
    "mean_dims": ([(2, 3, 4)], lambda a: a.mean([0, -1])),
    "sum_dtype": ([(3, 4)], lambda a: a.sum(dtype=torch.float32)),
    "logsumexp_dims": ([(2, 3, 4)], lambda a: a.logsumexp((0, 2), keepdim=True)),
    "view": ([(3, 4)], lambda a: a.view(4, 3) * 1),
    "expand": ([(3, 1)], lambda a: a.expand(-1, 4) * 1),
    "permute": ([(2, 3, 4)], lambda a: a.permute(2, 0, 1) * 1),
    "narrow": ([(3, 4)], lambda a: a.narrow(1, 1, 2) * 1),
    "select": ([(3, 4)], lambda a: a.select(1, -1) * 1),
    "slice_step": ([(6, 4)], lambda a: a[1:5:2] * 1),
    "index_tensor": ([(5, 3)], lambda a: a[_T([0, 2, 2])]),
    "index_mask": ([(3, 4)], lambda a: a[a > 0]),
    "squeeze_all": ([(3, 1, 4)], lambda a: a.squeeze() * 1),
    "cat": ([(2, 4), (3, 4)], lambda a, b: torch.cat([a, b]) * 1),
    "split_sizes": ([(6, 4)], lambda a: a.split([2, 4])[1] * 1),
    "unbind": ([(3, 4)], lambda a: a.unbind(1)[2] * 1),
    "repeat": ([(2, 3)], lambda a: a.repeat(2, 1, 2)),
    "flip": ([(3, 4)], lambda a: a.flip(0, 1)),
    "diagonal": ([(3, 4)], lambda a: torch.diagonal(a, -1, 1, 0) * 1),
    "as_strided": ([(3, 4)], lambda a: a.as_strided((2, 2), (1, 2), 1) * 1),
    "unfold_size": ([(6,)], lambda a: a.unfold(0, 3, 2) * 1),
    "slice_scatter": ([(6, 4), (2, 4)], lambda a, b: torch.slice_scatter(a, b, 0, 1, 5, 2)),
    "as_strided_scatter": ([(9,), (2, 2)], lambda a, b:
        torch.as_strided_scatter(a, b, (2, 2), (3, 1), 1)),
    "index_put_pairs": ([(3, 4), (2,)], lambda a, b: a.index_put((_T([0, 1]), _T([2, 3])), b)),
    "conv1d_groups": ([(1, 4, 5), (2, 2, 3)], lambda a, b:
        F.conv1d(a, b, groups=2, padding="same")),
    "conv2d_dilation": ([(1, 1, 5, 5), (1, 1, 2, 2)], lambda a, b:
        F.conv2d(a, b, dilation=2, padding=(1, 0))),
    "conv_transpose1d": ([(1, 2, 3), (2, 1, 2)], lambda a, b:
        F.conv_transpose1d(a, b, output_padding=1, stride=2)),
    "avg_pool_divisor": ([(1, 1, 4, 4)], lambda a: F.avg_pool2d(a, 2, 1, 1, True, False, 3)),
    "max_pool_dilation": ([(1, 1, 5, 5)], lambda a: F.max_pool2d(a, 2, 1, 1, 2, ceil_mode=True)),
    "embedding_padding": ([(5, 3)], lambda a: F.embedding(_T([0, 2, 4]), a, padding_idx=2)),
    "matrix_power": ([(3, 3)], lambda a: torch.linalg.matrix_power(a + 3 * _eye(), -2)),
    "solve_right": ([(3, 3), (2, 3)], lambda a, b:
        torch.linalg.solve(a + 3 * _eye(), b, left=False)),
    "triangular_right": ([(3, 3), (2, 3)], lambda a, b: torch.linalg.solve_triangular(
        a.tril() + 3 * _eye(), b, upper=False, left=False, unitriangular=True)),
    "cholesky_solve_upper": ([(3, 3), (3, 2)], lambda a, b:
        torch.cholesky_solve(b, a.triu() + 3 * _eye(), upper=True)),
    "linalg_norm_vector_ord": ([(4,)], lambda a: torch.linalg.norm(a, 3)),
    "linalg_norm_vector_dim": ([(4,)], lambda a: torch.linalg.norm(a, 3, 0)),
    "conv2d_valid": ([(1, 1, 3, 3), (1, 1, 2, 2)], lambda a, b: F.conv2d(a, b, padding="valid")),
    "convolution_short_sizes": ([(1, 1, 3, 3), (1, 1, 2, 2)], lambda a, b:
        torch.convolution(a, b, None, (1, 1), (0,), (1, 1), False, (0,), 1)),
    # sizes kept as given: a one-element list stands for every dimension
    "conv3d_short": ([(1, 1, 4, 4, 4), (1, 1, 2, 2, 2)], lambda a, b:
        F.conv3d(a, b, padding=[1], stride=[2])),
    "conv_transpose2d_short": ([(1, 1, 3, 3), (1, 1, 2, 2)], lambda a, b:
        F.conv_transpose2d(a, b, stride=[2], output_padding=[1])),
    "conv1d_valid_bias": ([(1, 1, 5), (1, 1, 2), (1,)], lambda a, b, c:
        F.conv1d(a, b, c, padding="valid")),
    "convolution_no_bias": ([(1, 1, 3, 3), (1, 1, 2, 2)], lambda a, b:
        torch.convolution(a, b, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)),
    "convolution_twice": ([(1, 1, 4, 4), (1, 1, 2, 2)], lambda a, b: torch.autograd.grad(
        torch.convolution(a, b, None, [2], [1], [1], False, [0], 1).pow(2).sum(), a,
        create_graph=True)[0]),
    "max_pool2d_short": ([(1, 1, 4, 4)], lambda a: F.max_pool2d(a, [2], [1], [1])),
    "max_pool3d_short": ([(1, 1, 3, 3, 3)], lambda a: F.max_pool3d(a, [2], [1])),
    "avg_pool2d_no_stride": ([(1, 1, 4, 4)], lambda a: F.avg_pool2d(a, [2, 2])),
    "reflect_pad_short": ([(1, 2, 4)], lambda a: F.pad(a, [1, 2], mode="reflect")),
    "unfold_kernel_int": ([(1, 1, 4, 4)], lambda a: F.unfold(a, 2, padding=1)),
    # torch._C._nn's bindings
    "nn_avg_pool2d_short": ([(1, 1, 4, 4)], lambda a: torch._C._nn.avg_pool2d(a, [2])),
    "nn_avg_pool3d": ([(1, 1, 2, 2, 3)], lambda a:
        torch._C._nn.avg_pool3d(a, [1], [1], [0], True, False, 2)),
    "nn_elu_": ([(3, 4)], lambda a: torch._C._nn.elu_(a * 1, 2, 1.5, 1)),
    "nn_hardtanh_": ([(3, 4)], lambda a: torch._C._nn.hardtanh_(a * 1, -1, 1)),
    "nn_leaky_relu_": ([(3, 4)], lambda a: torch._C._nn.leaky_relu_(a * 1, 1)),
    "nn_gelu_tanh": ([(3, 4)], lambda a: torch._C._nn.gelu(a, approximate="tanh")),
    "nn_softplus_int": ([(3, 4)], lambda a: torch._C._nn.softplus(a, 2, 10)),
    "nn_softshrink_int": ([(3, 4)], lambda a: torch._C._nn.softshrink(a, 1)),
    "nn_log_sigmoid": ([(3, 4)], lambda a: torch._C._nn.log_sigmoid(a)),
    "nn_linear": ([(2, 3), (4, 3), (4,)], lambda a, b, c: torch._C._nn.linear(a, b, c)),
    "nn_max_unpool2d": ([(1, 1, 4, 4)], lambda a:
        torch._C._nn.max_unpool2d(*F.max_pool2d(a, 2, return_indices=True), [4, 4])),
    "nn_max_unpool3d": ([(1, 1, 2, 2, 2)], lambda a: torch._C._nn.max_unpool3d(
        *F.max_pool3d(a, 2, return_indices=True), [2, 2, 2], [2, 2, 2], [0, 0, 0])),
    "nn_nearest2d_scale_w": ([(1, 1, 2, 3)], lambda a:
        torch._C._nn.upsample_nearest2d(a, [4, 6], None, 2)),
    "nn_nearest1d_int": ([(1, 1, 3)], lambda a: torch._C._nn.upsample_nearest1d(a, 5)),
    "nn_bilinear2d_factors": ([(1, 1, 2, 3)], lambda a:
        torch._C._nn.upsample_bilinear2d(a, None, True, [1.5, 2])),
    "nn_bicubic2d_scale_h": ([(1, 1, 2, 3)], lambda a:
        torch._C._nn.upsample_bicubic2d(a, [3, 5], False, 1.5, None)),
    "nn_trilinear3d_scales": ([(1, 1, 2, 2, 3)], lambda a:
        torch._C._nn.upsample_trilinear3d(a, [3, 3, 4], False, 1, 2, 3)),
    "nn_linear1d_factors": ([(1, 1, 3)], lambda a:
        torch._C._nn.upsample_linear1d(a, None, False, [2])),
    "nn_nearest_exact3d": ([(1, 1, 2, 2, 2)], lambda a:
        torch._C._nn._upsample_nearest_exact3d(a, None, [2, 1.5, 1])),
    "nn_bilinear_aa": ([(1, 1, 4, 4)], lambda a:
        torch._C._nn._upsample_bilinear2d_aa(a, [3, 3], False)),
    "nn_bicubic_aa": ([(1, 1, 4, 4)], lambda a:
        torch._C._nn._upsample_bicubic2d_aa(a, None, False, [0.5, 0.75])),
    "nn_bilinear_twice": ([(1, 1, 2, 3)], lambda a: torch.autograd.grad(
        torch._C._nn.upsample_bilinear2d(a, [3, 5], False, 1.5, None).pow(2).sum(), a,
        create_graph=True)[0]),
    # rows the graphs above do not reach
    "addr": ([(3, 4), (3,), (4,)], lambda a, b, c: torch.addr(a, b, c, beta=2, alpha=0.5)),
    "baddbmm": ([(2, 3, 2), (2, 3, 4), (2, 4, 2)], lambda a, b, c:
        torch.baddbmm(a, b, c, beta=0.5, alpha=2)),
    "amin_dims": ([(2, 3, 4)], lambda a: a.amin((0, 2), keepdim=True)),
    "aminmax": ([(3, 4)], lambda a: torch.aminmax(a, dim=1)[0]),
    "celu_": ([(3, 4)], lambda a: F.celu(a * 1, 2, inplace=True)),
    "clamp_max_int": ([(3, 4)], lambda a: torch.clamp_max(a, 1)),
    "cummin": ([(3, 4)], lambda a: torch.cummin(a, 1)[0]),
    "diag_embed": ([(2, 3)], lambda a: torch.diag_embed(a, 1, 0, 2)),
    "diagonal_scatter": ([(3, 4), (3,)], lambda a, b: torch.diagonal_scatter(a, b, 1)),
    "div_int": ([(3, 4)], lambda a: a / 2),
    "index_add_alpha": ([(3, 4), (2, 4)], lambda a, b: a.index_add(0, _T([0, 2]), b, alpha=2)),
    "index_fill_tensor": ([(3, 4)], lambda a: a.index_fill(1, _T([0]), _T(2.0).double())),
    "max_dim": ([(3, 4)], lambda a: a.max(1)[0]),
    "min_dim_keep": ([(3, 4)], lambda a: a.min(-1, keepdim=True)[0]),
    "mode": ([(3, 4)], lambda a: torch.mode(a, 0)[0]),
    "mvlgamma": ([(3, 4)], lambda a: torch.mvlgamma(a.abs() + 2, 2)),
    "nanmedian_dim": ([(3, 4)], lambda a: a.nanmedian(1)[0]),
    "nansum_dims": ([(3, 4)], lambda a: a.nansum((0,), keepdim=True)),
    "pixel_unshuffle": ([(1, 1, 4, 4)], lambda a: F.pixel_unshuffle(a, 2)),
    "prod_dim": ([(3, 4)], lambda a: a.prod(1, keepdim=True)),
    "put_accumulate": ([(3, 4), (2,)], lambda a, b: a.put(_T([0, 5]), b, accumulate=True)),
    "rot90": ([(3, 4)], lambda a: torch.rot90(a, 3, [0, 1])),
    "rsub_tensor": (_SQUARE, lambda a, b: torch.rsub(a, b, alpha=2)),
    "scatter_value": ([(3, 4)], lambda a: a.scatter(1, _T([[0], [1], [2]]), 2.5)),
    "select_scatter": ([(3, 4), (4,)], lambda a, b: torch.select_scatter(a, b, 0, -1)),
    "split_int": ([(3, 4)], lambda a: a.split(3, 1)[1] * 1),
    "squeeze_dims": ([(3, 1, 1, 4)], lambda a: a.squeeze((1, 2)) * 1),
    "std_mean": ([(3, 4)], lambda a: torch.std_mean(a, 1, correction=0)[0]),
    "threshold_": ([(3, 4)], lambda a: F.threshold(a * 1, 0, 2, inplace=True)),
    "triangular_solve": ([(3, 3), (3, 2)], lambda a, b: torch.triangular_solve(
        b, a.triu() + 3 * _eye(), upper=True, transpose=True)[0]),
    "cholesky_inverse_upper": ([(3, 3)], lambda a:
        torch.cholesky_inverse(a.triu() + 3 * _eye(), upper=True)),
    "lu": ([(3, 3)], lambda a: torch.linalg.lu(a)[2]),
    "lu_solve_adjoint": ([(3, 3), (2, 3)], lambda a, b: torch.linalg.lu_solve(
        *torch.linalg.lu_factor(a + 3 * _eye()), b, left=False, adjoint=True)),
    "xlogy_number": ([(3, 4)], lambda a: torch.xlogy(2, a.abs() + 0.5)),
    "xlog1py_number": ([(3, 4)], lambda a: torch.special.xlog1py(2, a.abs())),
    "xlog1py_by_number": ([(3, 4)], lambda a: torch.special.xlog1py(a, 2)),
    "zeta_number": ([(3, 4)], lambda a: torch.special.zeta(2, a.abs() + 1)),
    "nearest_exact1d": ([(1, 1, 3)], lambda a:
        F.interpolate(a, scale_factor=2, mode="nearest-exact")),
    "nearest_exact3d": ([(1, 1, 2, 2, 2)], lambda a:
        F.interpolate(a, size=3, mode="nearest-exact")),
    # the operators themselves, their reduction and numbers given by position
    "aten_smooth_l1": (_SQUARE, lambda a, b: torch.ops.aten.smooth_l1_loss(a, b, 1, 2)),
    "aten_huber": (_SQUARE, lambda a, b: torch.ops.aten.huber_loss(a, b, 1, 2)),
}
