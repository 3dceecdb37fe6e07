"""Black-box tests: an out= call under a dispatch mode reaches it as torch's out overload
for the form the arguments pick (sum.IntList_out, max.dim_max, sort.values_stable, ...),
with torch's layout of the arguments, its names for the written tensors, the ops an alias
stands for where autograd is on, and the steps of the composites that write out= themselves
(linalg.norm). What the mode's func writes is what the call writes without a mode. The same
assertions run on torch.
"""

import contextlib
import warnings

import pytest
import torch

from conformance._support import calling_mode


def _shown(value):
    if isinstance(value, torch.Tensor):
        return "T"
    if isinstance(value, list | tuple):
        return type(value)(_shown(v) for v in value)
    return value if isinstance(value, bool | int | float | str | type(None)) else str(value)


Calls = calling_mode(_shown)


class _Inputs:
    """The operands, and empty outs of each dtype a case writes."""

    def __init__(self):
        d = torch.float64
        self.x = torch.tensor([[0.2, 0.5, 0.7], [0.3, 0.9, 0.4]], dtype=d)
        self.y = torch.tensor([[0.6, 0.1, 0.8], [0.25, 0.35, 0.45]], dtype=d)
        self.m = torch.tensor([[2.0, 0.5, 0.1], [0.5, 3.0, 0.2], [0.1, 0.2, 4.0]], dtype=d)
        self.v = torch.tensor([0.2, 0.5, 0.7], dtype=d)
        self.i = torch.tensor([[1, 2, 3], [4, 5, 6]])
        self.b = torch.tensor([[True, False, True], [False, True, True]])
        self.ix2 = torch.tensor([[0, 1], [2, 0]])
        self.u, self.ui = torch.tensor([[[[0.5]]]], dtype=d), torch.tensor([[[[3]]]])
        self.xg, self.mg = self.x.clone().requires_grad_(), self.m.clone().requires_grad_()
        self.vg = self.v.clone().requires_grad_()
        self.o, self.o2 = torch.empty(0, dtype=d), torch.empty(0, dtype=d)
        self.o3 = torch.zeros(3, dtype=d)  # holds elements: resized with a warning
        self.oi, self.ob = torch.empty(0, dtype=torch.int64), torch.empty(0, dtype=torch.bool)
        self.oi32, self.oi32b = (torch.empty(0, dtype=torch.int32) for _ in range(2))

    def outs(self):
        return [self.o, self.o2, self.o3, self.oi, self.ob, self.oi32, self.oi32b]


def _made(dtype: str):
    """What a mode sees of an empty tensor a composite makes for a result it drops."""
    return ("aten.empty.memory_format", ([0],),
            {"dtype": f"torch.{dtype}", "layout": "torch.strided", "device": "cpu"})


CASES = [  # (id, the call, whether inside inference_mode, what the mode sees)
    ("sum_dim", lambda t: torch.sum(t.x, 0, out=t.o), False,
     [("aten.sum.IntList_out", ("T", [0]), {"out": "T"})]),
    ("sum_dims_keep", lambda t: torch.sum(t.x, (0, 1), True, out=t.o), False,
     [("aten.sum.IntList_out", ("T", [0, 1], True), {"out": "T"})]),
    ("sum_dim_keyword", lambda t: torch.sum(t.x, dim=1, out=t.o), False,
     [("aten.sum.IntList_out", ("T", [1]), {"out": "T"})]),
    ("prod_dim", lambda t: torch.prod(t.x, 0, out=t.o), False,
     [("aten.prod.int_out", ("T", 0), {"out": "T"})]),
    ("mean_dim", lambda t: torch.mean(t.x, 1, out=t.o), False,
     [("aten.mean.out", ("T", [1]), {"out": "T"})]),
    ("amax_dim", lambda t: torch.amax(t.x, 1, out=t.o), False,
     [("aten.amax.out", ("T", [1]), {"out": "T"})]),
    ("logsumexp", lambda t: torch.logsumexp(t.x, 1, True, out=t.o), False,
     [("aten.logsumexp.out", ("T", [1], True), {"out": "T"})]),
    ("softmax", lambda t: torch.softmax(t.x, 1, out=t.o), False,
     [("aten.softmax.int_out", ("T", 1), {"out": "T"})]),
    ("where", lambda t: torch.where(t.b, t.x, t.y, out=t.o), False,
     [("aten.where.self_out", ("T", "T", "T"), {"out": "T"})]),
    ("add_number", lambda t: torch.add(t.x, 2, out=t.o), False,
     [("aten.add.out", ("T", 2), {"out": "T"})]),
    ("add_alpha", lambda t: torch.add(t.x, t.y, alpha=2, out=t.o), False,
     [("aten.add.out", ("T", "T"), {"alpha": 2, "out": "T"})]),
    ("div_mode", lambda t: torch.div(t.x, t.y, rounding_mode='floor', out=t.o), False,
     [("aten.div.out_mode", ("T", "T"), {"rounding_mode": "floor", "out": "T"})]),
    ("div_mode_none", lambda t: torch.div(t.x, t.y, rounding_mode=None, out=t.o), False,
     [("aten.div.out_mode", ("T", "T"), {"rounding_mode": None, "out": "T"})]),
    ("pow_tensor_scalar", lambda t: torch.pow(t.x, 2, out=t.o), False,
     [("aten.pow.Tensor_Scalar_out", ("T", 2), {"out": "T"})]),
    ("pow_scalar", lambda t: torch.pow(2, t.x, out=t.o), False,
     [("aten.pow.Scalar_out", (2, "T"), {"out": "T"})]),
    ("pow_tensors", lambda t: torch.pow(t.x, t.y, out=t.o), False,
     [("aten.pow.Tensor_Tensor_out", ("T", "T"), {"out": "T"})]),
    ("float_power_whole", lambda t: torch.float_power(t.x, 2, out=t.o), True,
     [("aten.float_power.Tensor_Scalar_out", ("T", 2), {"out": "T"})]),
    ("eq_number", lambda t: torch.eq(t.x, 0.5, out=t.ob), False,
     [("aten.eq.Scalar_out", ("T", 0.5), {"out": "T"})]),
    ("gt_tensor", lambda t: torch.gt(t.x, t.y, out=t.ob), False,
     [("aten.gt.Tensor_out", ("T", "T"), {"out": "T"})]),
    ("bitwise_and_number", lambda t: torch.bitwise_and(t.i, 3, out=t.oi), False,
     [("aten.bitwise_and.Scalar_out", ("T", 3), {"out": "T"})]),
    ("left_shift_number", lambda t: torch.bitwise_left_shift(t.i, 1, out=t.oi), False,
     [("aten.bitwise_left_shift.Tensor_Scalar_out", ("T", 1), {"out": "T"})]),
    ("remainder_number", lambda t: torch.remainder(t.x, 0.5, out=t.o), False,
     [("aten.remainder.Scalar_out", ("T", 0.5), {"out": "T"})]),
    ("fmod_tensor", lambda t: torch.fmod(t.x, t.y, out=t.o), False,
     [("aten.fmod.Tensor_out", ("T", "T"), {"out": "T"})]),
    ("copysign_number", lambda t: torch.copysign(t.x, -0.5, out=t.o), False,
     [("aten.copysign.Scalar_out", ("T", -0.5), {"out": "T"})]),
    ("xlogy_self_number", lambda t: torch.xlogy(2, t.x, out=t.o), False,
     [("aten.xlogy.OutScalar_Self", (2, "T"), {"out": "T"})]),
    ("xlogy_other_number", lambda t: torch.xlogy(t.x, 0.5, out=t.o), False,
     [("aten.xlogy.OutScalar_Other", ("T", 0.5), {"out": "T"})]),
    ("special_xlogy", lambda t: torch.special.xlogy(2, t.x, out=t.o), False,
     [("aten.xlogy.OutScalar_Self", (2, "T"), {"out": "T"})]),
    ("special_xlogy_whole", lambda t: torch.special.xlogy(2, t.x, out=t.o), True,
     [("aten.special_xlogy.self_scalar_out", (2, "T"), {"out": "T"})]),
    ("special_xlog1py_number", lambda t: torch.special.xlog1py(t.x, 0.5, out=t.o), False,
     [("aten.special_xlog1py.other_scalar_out", ("T", 0.5), {"out": "T"})]),
    ("isin_number_first", lambda t: torch.isin(0.5, t.v, out=t.ob), False,
     [("aten.isin.Scalar_Tensor_out", (0.5, "T"), {"out": "T"})]),
    ("searchsorted_number", lambda t: torch.searchsorted(t.v, 0.5, out=t.oi), False,
     [("aten.searchsorted.Scalar_out", ("T", 0.5), {"out": "T"})]),
    ("clamp_max_keyword", lambda t: torch.clamp(t.x, max=0.6, out=t.o), False,
     [("aten.clamp.out", ("T", None, 0.6), {"out": "T"})]),
    ("clamp_tensor_max", lambda t: torch.clamp(t.x, max=t.y, out=t.o), False,
     [("aten.clamp.Tensor_out", ("T", None, "T"), {"out": "T"})]),
    ("clamp_min_tensor", lambda t: torch.clamp_min(t.x, t.y, out=t.o), False,
     [("aten.clamp_min.Tensor_out", ("T", "T"), {"out": "T"})]),
    ("clip", lambda t: torch.clip(t.x, 0.3, 0.6, out=t.o), False,
     [("aten.clamp.out", ("T", 0.3, 0.6), {"out": "T"})]),
    ("clip_whole", lambda t: torch.clip(t.x, t.y, out=t.o), True,
     [("aten.clip.Tensor_out", ("T", "T"), {"out": "T"})]),
    ("lerp_number", lambda t: torch.lerp(t.x, t.y, 0.3, out=t.o), False,
     [("aten.lerp.Scalar_out", ("T", "T", 0.3), {"out": "T"})]),
    ("lerp_tensor", lambda t: torch.lerp(t.x, t.y, t.y, out=t.o), False,
     [("aten.lerp.Tensor_out", ("T", "T", "T"), {"out": "T"})]),
    ("round_decimals", lambda t: torch.round(t.x, decimals=1, out=t.o), False,
     [("aten.round.decimals_out", ("T",), {"decimals": 1, "out": "T"})]),
    ("special_round", lambda t: torch.special.round(t.x, out=t.o), False,
     [("aten.round.decimals_out", ("T",), {"decimals": 0, "out": "T"})]),
    ("special_round_whole", lambda t: torch.special.round(t.x, out=t.o), True,
     [("aten.special_round.out", ("T",), {"out": "T"})]),
    ("scatter_value", lambda t: torch.scatter(t.x, 1, t.ix2, 0.5, out=t.o), False,
     [("aten.scatter.value_out", ("T", 1, "T", 0.5), {"out": "T"})]),
    ("scatter_reduce", lambda t: torch.scatter(t.x, 1, t.ix2, t.y, reduce='add', out=t.o), False,
     [("aten.scatter.reduce_out", ("T", 1, "T", "T"), {"reduce": "add", "out": "T"})]),
    ("scatter_value_reduce",
     lambda t: torch.scatter(t.x, 1, t.ix2, 0.5, reduce='add', out=t.o),
     False,
     [("aten.scatter.value_reduce_out", ("T", 1, "T", 0.5), {"reduce": "add", "out": "T"})]),
    ("scatter_reduce_two",
     lambda t: torch.scatter_reduce(t.x, 1, t.ix2, t.y, 'amax', include_self=False, out=t.o),
     False,
     [("aten.scatter_reduce.two_out", ("T", 1, "T", "T", "amax"),
       {"include_self": False, "out": "T"})]),
    ("gather_default_kept_out",
     lambda t: torch.gather(t.x, 1, t.ix2, sparse_grad=False, out=t.o),
     False,
     [("aten.gather.out", ("T", 1, "T"), {"out": "T"})]),
    ("all", lambda t: torch.all(t.b, out=t.ob), False,
     [("aten.all.all_out", ("T",), {"out": "T"})]),
    ("all_dim", lambda t: torch.all(t.b, 1, out=t.ob), False,
     [("aten.all.out", ("T", 1), {"out": "T"})]),
    ("any_dims", lambda t: torch.any(t.b, (0, 1), out=t.ob), False,
     [("aten.any.dims_out", ("T", [0, 1]), {"out": "T"})]),
    ("any_dim_none", lambda t: torch.any(t.b, dim=None, out=t.ob), False,
     [("aten.any.dims_out", ("T",), {"out": "T"})]),
    ("std_correction", lambda t: torch.std(t.x, 1, correction=0, out=t.o), False,
     [("aten.std.correction_out", ("T", [1]), {"correction": 0, "out": "T"})]),
    ("std", lambda t: torch.std(t.x, out=t.o), False,
     [("aten.std.correction_out", ("T",), {"out": "T"})]),
    ("std_unbiased", lambda t: torch.std(t.x, 1, False, out=t.o), False,
     [("aten.std.correction_out", ("T", [1]), {"correction": 0, "out": "T"})]),
    ("std_unbiased_whole", lambda t: torch.std(t.x, 1, keepdim=True, out=t.o), True,
     [("aten.std.out", ("T", [1], True, True), {"out": "T"})]),
    ("var_dim", lambda t: torch.var(t.x, 1, out=t.o), False,
     [("aten.var.correction_out", ("T", [1]), {"correction": 1, "out": "T"})]),
    ("quantile_number_whole", lambda t: torch.quantile(t.x, 0.3, 1, out=t.o), True,
     [("aten.quantile.scalar_out", ("T", 0.3, 1), {"out": "T"})]),
    ("max_dim", lambda t: torch.max(t.x, 1, out=(t.o, t.oi)), False,
     [("aten.max.dim_max", ("T", 1), {"max": "T", "max_values": "T"})]),
    ("max_dim_keep", lambda t: torch.max(t.x, 1, True, out=(t.o, t.oi)), False,
     [("aten.max.dim_max", ("T", 1, True), {"max": "T", "max_values": "T"})]),
    ("max_other", lambda t: torch.max(t.x, t.y, out=t.o), False,
     [("aten.maximum.out", ("T", "T"), {"out": "T"})]),
    ("max_other_whole", lambda t: torch.max(t.x, t.y, out=t.o), True,
     [("aten.max.out", ("T", "T"), {"out": "T"})]),
    ("min_dim", lambda t: torch.min(t.x, 1, out=(t.o, t.oi)), False,
     [("aten.min.dim_min", ("T", 1), {"min": "T", "min_indices": "T"})]),
    ("sort", lambda t: torch.sort(t.x, out=(t.o, t.oi)), False,
     [("aten.sort.values", ("T",), {"values": "T", "indices": "T"})]),
    ("sort_descending", lambda t: torch.sort(t.x, descending=True, out=(t.o, t.oi)), False,
     [("aten.sort.values", ("T", -1, True), {"values": "T", "indices": "T"})]),
    ("sort_stable", lambda t: torch.sort(t.x, stable=True, out=(t.o, t.oi)), False,
     [("aten.sort.values_stable", ("T",), {"stable": True, "values": "T", "indices": "T"})]),
    ("topk_smallest", lambda t: torch.topk(t.x, 2, largest=False, out=(t.o, t.oi)), False,
     [("aten.topk.values", ("T", 2, -1, False), {"values": "T", "indices": "T"})]),
    ("kthvalue", lambda t: torch.kthvalue(t.x, 2, out=(t.o, t.oi)), False,
     [("aten.kthvalue.values", ("T", 2), {"values": "T", "indices": "T"})]),
    ("median_dim", lambda t: torch.median(t.x, 1, out=(t.o, t.oi)), False,
     [("aten.median.dim_values", ("T", 1), {"values": "T", "indices": "T"})]),
    ("mode", lambda t: torch.mode(t.x, out=(t.o, t.oi)), False,
     [("aten.mode.values", ("T",), {"values": "T", "indices": "T"})]),
    ("cummax", lambda t: torch.cummax(t.x, 1, out=(t.o, t.oi)), False,
     [("aten.cummax.out", ("T", 1), {"values": "T", "indices": "T"})]),
    ("aminmax", lambda t: torch.aminmax(t.x, dim=1, out=(t.o, t.o2)), False,
     [("aten.aminmax.out", ("T",), {"dim": 1, "min": "T", "max": "T"})]),
    ("slogdet_whole", lambda t: torch.linalg.slogdet(t.m, out=(t.o, t.o2)), True,
     [("aten.linalg_slogdet.out", ("T",), {"sign": "T", "logabsdet": "T"})]),
    ("svd", lambda t: torch.linalg.svd(t.m, out=(t.o, t.o2, t.o3)), False,
     [("aten._linalg_svd.U", ("T", True), {"U": "T", "S": "T", "Vh": "T"})]),
    ("svd_whole", lambda t: torch.linalg.svd(t.m, False, out=(t.o, t.o2, t.o3)), True,
     [("aten.linalg_svd.U", ("T", False), {"U": "T", "S": "T", "Vh": "T"})]),
    ("eigh", lambda t: torch.linalg.eigh(t.m, out=(t.o, t.o2)), False,
     [("aten._linalg_eigh.eigenvalues", ("T",), {"eigenvalues": "T", "eigenvectors": "T"})]),
    ("eigh_whole", lambda t: torch.linalg.eigh(t.m, out=(t.o, t.o2)), True,
     [("aten.linalg_eigh.eigvals", ("T",), {"eigvals": "T", "eigvecs": "T"})]),
    ("qr", lambda t: torch.linalg.qr(t.m, 'complete', out=(t.o, t.o2)), False,
     [("aten.linalg_qr.out", ("T", "complete"), {"Q": "T", "R": "T"})]),
    ("lu_factor_ex", lambda t: torch.linalg.lu_factor_ex(t.m, out=(t.o, t.oi32, t.oi32b)), False,
     [("aten.linalg_lu_factor_ex.out", ("T",), {"LU": "T", "pivots": "T", "info": "T"})]),
    ("cholesky_ex", lambda t: torch.linalg.cholesky_ex(t.m, out=(t.o, t.oi32)), False,
     [("aten.linalg_cholesky_ex.L", ("T",), {"L": "T", "info": "T"})]),
    ("inv_ex", lambda t: torch.linalg.inv_ex(t.m, out=(t.o, t.oi32)), False,
     [("aten.linalg_inv_ex.inverse", ("T",), {"inverse": "T", "info": "T"})]),
    ("matrix_rank_float", lambda t: torch.linalg.matrix_rank(t.m, atol=0.1, out=t.oi), True,
     [("aten.linalg_matrix_rank.atol_rtol_float_out", ("T",), {"atol": 0.1, "out": "T"})]),
    ("pinv", lambda t: torch.linalg.pinv(t.m, hermitian=True, out=t.o), True,
     [("aten.linalg_pinv.atol_rtol_tensor_out", ("T",), {"hermitian": True, "out": "T"})]),
    ("cond_string", lambda t: torch.linalg.cond(t.m, 'fro', out=t.o), True,
     [("aten.linalg_cond.p_str_out", ("T", "fro"), {"out": "T"})]),
    ("matrix_norm_whole", lambda t: torch.linalg.matrix_norm(t.m, out=t.o), True,
     [("aten.linalg_matrix_norm.str_ord_out", ("T",), {"out": "T"})]),
    ("matrix_norm", lambda t: torch.linalg.matrix_norm(t.m, out=t.o), False,
     [("aten.linalg_vector_norm.default", ("T", 2, [0, 1]), {}),
      ("aten.resize_.default", ("T", []), {}),
      ("aten.copy_.default", ("T", "T"), {})]),
    ("matrix_norm_order_whole", lambda t: torch.linalg.matrix_norm(t.m, 2, out=t.o), True,
     [("aten.linalg_matrix_norm.out", ("T", 2), {"out": "T"})]),
    ("linalg_norm", lambda t: torch.linalg.norm(t.x, out=t.o), False,
     [("aten.linalg_vector_norm.default", ("T", 2.0), {}),
      ("aten.resize_.default", ("T", []), {}),
      ("aten.copy_.default", ("T", "T"), {})]),
    ("linalg_norm_dim", lambda t: torch.linalg.norm(t.x, 3, 1, out=t.o), False,
     [("aten.linalg_vector_norm.default", ("T", 3, [1]), {}),
      ("aten.resize_.default", ("T", [2]), {}),
      ("aten.copy_.default", ("T", "T"), {})]),
    ("linalg_norm_nuc", lambda t: torch.linalg.norm(t.m, 'nuc', out=t.o), False,
     [("aten.permute.default", ("T", [0, 1]), {}),
      ("aten._linalg_svd.default", ("T",), {}),
      ("aten.sum.dim_IntList", ("T", [-1]), {}),
      ("aten.resize_.default", ("T", []), {}),
      ("aten.copy_.default", ("T", "T"), {})]),
    ("linalg_norm_resized", lambda t: torch.linalg.norm(t.x, 3, 1, out=t.o3), False,
     [("aten.linalg_vector_norm.default", ("T", 3, [1]), {}),
      ("aten.resize_.default", ("T", [2]), {}),
      ("aten.copy_.default", ("T", "T"), {})]),
    ("linalg_norm_whole", lambda t: torch.linalg.norm(t.m, 'fro', out=t.o), True,
     [("aten.linalg_norm.ord_str_out", ("T", "fro"), {"out": "T"})]),
    ("vector_norm_dim", lambda t: torch.linalg.vector_norm(t.x, 3, 1, out=t.o), False,
     [("aten.linalg_vector_norm.out", ("T", 3, [1]), {"out": "T"})]),
    ("norm", lambda t: torch.norm(t.x, out=t.o), False,
     [("aten.linalg_vector_norm.out", ("T",), {"out": "T"})]),
    ("norm_p_dim", lambda t: torch.norm(t.x, 3, 1, out=t.o), False,
     [("aten.linalg_vector_norm.out", ("T", 3, [1]), {"out": "T"})]),
    ("norm_fro_dims", lambda t: torch.norm(t.x, 'fro', (0, 1), out=t.o), False,
     [("aten.linalg_vector_norm.out", ("T", 2, [0, 1]), {"out": "T"})]),
    ("norm_nuc_whole", lambda t: torch.norm(t.m, 'nuc', out=t.o), True,
     [("aten.linalg_matrix_norm.str_ord_out", ("T", "nuc", [0, 1]), {"out": "T"})]),
    ("diff_prepend_whole", lambda t: torch.diff(t.x, prepend=t.y, out=t.o), True,
     [("aten.diff.out", ("T", 1, -1, "T"), {"out": "T"})]),
    ("slice_scatter_whole",
     lambda t: torch.slice_scatter(t.x, t.y[:, :2], dim=1, end=2, out=t.o),
     True,
     [("aten.slice.Tensor", ("T", 1, 0, 2), {}),
      ("aten.slice_scatter.out", ("T", "T", 1, None, 2), {"out": "T"})]),
    ("tensordot_whole", lambda t: torch.tensordot(t.x, t.y, dims=([1], [1]), out=t.o), True,
     [("aten.tensordot.out", ("T", "T", [1], [1]), {"out": "T"})]),
    ("tensordot_int_whole", lambda t: torch.tensordot(t.x, t.y.t(), dims=1, out=t.o), True,
     [("aten.t.default", ("T",), {}), ("aten.tensordot.out", ("T", "T", [-1], [0]), {"out": "T"})]),
    ("tensorinv_whole", lambda t: torch.linalg.tensorinv(t.m, ind=1, out=t.o), True,
     [("aten.linalg_tensorinv.out", ("T", 1), {"out": "T"})]),
    ("absolute", lambda t: torch.absolute(t.x, out=t.o), False,
     [("aten.abs.out", ("T",), {"out": "T"})]),
    ("absolute_whole", lambda t: torch.absolute(t.x, out=t.o), True,
     [("aten.absolute.out", ("T",), {"out": "T"})]),
    ("arctan2", lambda t: torch.arctan2(t.x, t.y, out=t.o), False,
     [("aten.atan2.out", ("T", "T"), {"out": "T"})]),
    ("divide_mode", lambda t: torch.divide(t.x, t.y, rounding_mode='trunc', out=t.o), False,
     [("aten.div.out_mode", ("T", "T"), {"rounding_mode": "trunc", "out": "T"})]),
    ("divide_mode_whole", lambda t: torch.divide(t.x, t.y, rounding_mode='trunc', out=t.o), True,
     [("aten.divide.out_mode", ("T", "T"), {"rounding_mode": "trunc", "out": "T"})]),
    ("concat", lambda t: torch.concat([t.x, t.y], out=t.o), False,
     [("aten.cat.out", (["T", "T"],), {"out": "T"})]),
    ("special_expit", lambda t: torch.special.expit(t.x, out=t.o), False,
     [("aten.sigmoid.out", ("T",), {"out": "T"})]),
    ("special_gammaln", lambda t: torch.special.gammaln(t.x, out=t.o), False,
     [("aten.lgamma.out", ("T",), {"out": "T"})]),
    ("special_logsumexp", lambda t: torch.special.logsumexp(t.x, 1, out=t.o), False,
     [("aten.logsumexp.out", ("T", [1]), {"out": "T"})]),
    ("special_multigammaln", lambda t: torch.special.multigammaln(t.x + 2, 2, out=t.o), False,
     [("aten.add.Tensor", ("T", 2), {}), ("aten.mvlgamma.out", ("T", 2), {"out": "T"})]),
    ("orgqr", lambda t: torch.orgqr(t.m, t.v, out=t.o), False,
     [("aten.linalg_householder_product.out", ("T", "T"), {"out": "T"})]),
    ("logit_eps", lambda t: torch.logit(t.x, eps=0.1, out=t.o), False,
     [("aten.logit.out", ("T", 0.1), {"out": "T"})]),
    ("cumsum_dim_keyword", lambda t: torch.cumsum(t.x, dim=1, out=t.o), False,
     [("aten.cumsum.out", ("T", 1), {"out": "T"})]),
    ("argsort_stable_whole", lambda t: torch.argsort(t.x, stable=True, dim=0, out=t.oi), True,
     [("aten.argsort.stable_out", ("T",), {"stable": True, "dim": 0, "out": "T"})]),
    ("nanquantile_tensor_whole", lambda t: torch.nanquantile(t.x, t.v[:2], out=t.o), True,
     [("aten.slice.Tensor", ("T", 0, 0, 2), {}),
      ("aten.nanquantile.out", ("T", "T"), {"out": "T"})]),
    ("histc_bins", lambda t: torch.histc(t.x, 4, out=t.o), False,
     [("aten.histc.out", ("T", 4), {"out": "T"})]),
    ("square", lambda t: torch.square(t.x, out=t.o), False,
     [("aten.pow.Tensor_Scalar_out", ("T", 2), {"out": "T"})]),
    ("square_whole", lambda t: torch.square(t.x, out=t.o), True,
     [("aten.square.out", ("T",), {"out": "T"})]),
    ("matmul_matrices", lambda t: torch.matmul(t.x, t.m, out=t.o), False,
     [("aten.mm.out", ("T", "T"), {"out": "T"})]),
    ("matmul_matrix_vector", lambda t: torch.matmul(t.m, t.v, out=t.o), False,
     [("aten.mv.out", ("T", "T"), {"out": "T"})]),
    ("matmul_vectors", lambda t: torch.matmul(t.v, t.v, out=t.o), False,
     [("aten.dot.out", ("T", "T"), {"out": "T"})]),
    ("diag_of_matrix", lambda t: torch.diag(t.m, 1, out=t.o), False,
     [("aten.diagonal_copy.out", ("T", 1), {"out": "T"})]),
    ("diag_of_vector", lambda t: torch.diag(t.v, out=t.o), False,
     [("aten.diag_embed.out", ("T",), {"out": "T"})]),
    ("outer", lambda t: torch.outer(t.v, t.v, out=t.o), False,
     [("aten.view.default", ("T", [3, 1]), {}), ("aten.mul.out", ("T", "T"), {"out": "T"})]),
    ("cross", lambda t: torch.cross(t.m, t.m, out=t.o), False,
     [("aten.linalg_cross.out", ("T", "T"), {"dim": 0, "out": "T"})]),
    ("cross_whole", lambda t: torch.cross(t.m, t.m, 1, out=t.o), True,
     [("aten.cross.out", ("T", "T", 1), {"out": "T"})]),
    ("hstack_matrices", lambda t: torch.hstack([t.x, t.y], out=t.o), False,
     [("aten.cat.out", (["T", "T"], 1), {"out": "T"})]),
    ("vstack_matrices", lambda t: torch.vstack([t.x, t.y], out=t.o), False,
     [("aten.cat.out", (["T", "T"],), {"out": "T"})]),
    ("row_stack_matrices", lambda t: torch.row_stack([t.x, t.y], out=t.o), False,
     [("aten.cat.out", (["T", "T"],), {"out": "T"})]),
    ("column_stack_matrices", lambda t: torch.column_stack([t.x, t.y], out=t.o), False,
     [("aten.cat.out", (["T", "T"], 1), {"out": "T"})]),
    ("vecdot", lambda t: torch.linalg.vecdot(t.x, t.y, out=t.o), False,
     [("aten.mul.Tensor", ("T", "T"), {}), ("aten.sum.IntList_out", ("T", [-1]), {"out": "T"})]),
    ("float_power_number", lambda t: torch.float_power(t.x, 2, out=t.o), False,
     [("aten.pow.Tensor_Scalar_out", ("T", 2.0), {"out": "T"})]),
    ("float_power_of_number", lambda t: torch.float_power(2, t.x, out=t.o), False,
     [("aten.pow.Scalar_out", (2.0, "T"), {"out": "T"})]),
    ("linalg_inv", lambda t: torch.linalg.inv(t.m, out=t.o), False,
     [_made("int32"),
      ("aten.linalg_inv_ex.inverse", ("T",), {"inverse": "T", "info": "T"}),
      ("aten._linalg_check_errors.default", ("T", "linalg.inv"), {"is_matrix": True})]),
    ("linalg_inv_whole", lambda t: torch.linalg.inv(t.m, out=t.o), True,
     [("aten.linalg_inv.out", ("T",), {"out": "T"})]),
    ("inverse", lambda t: torch.inverse(t.m, out=t.o), False,
     [_made("int32"),
      ("aten.linalg_inv_ex.inverse", ("T",), {"inverse": "T", "info": "T"}),
      ("aten._linalg_check_errors.default", ("T", "linalg.inv"), {"is_matrix": True})]),
    ("cholesky_upper", lambda t: torch.linalg.cholesky(t.m, upper=True, out=t.o), False,
     [_made("int32"),
      ("aten.linalg_cholesky_ex.L", ("T",), {"upper": True, "L": "T", "info": "T"}),
      ("aten._linalg_check_errors.default", ("T", "linalg.cholesky"), {"is_matrix": True})]),
    ("lu_factor", lambda t: torch.linalg.lu_factor(t.m, out=(t.o, t.oi32)), False,
     [_made("int32"),
      ("aten.linalg_lu_factor_ex.out", ("T",), {"LU": "T", "pivots": "T", "info": "T"}),
      ("aten._linalg_check_errors.default", ("T", "torch.linalg.lu_factor"), {"is_matrix": True})]),
    ("msort", lambda t: torch.msort(t.x, out=t.o), False,
     [_made("int64"),
      ("aten.sort.values", ("T", 0), {"values": "T", "indices": "T"})]),
    ("argsort_stable", lambda t: torch.argsort(t.x, stable=True, dim=0, out=t.oi), False,
     [_made("float64"),
      ("aten.sort.values_stable", ("T",),
       {"stable": True, "dim": 0, "values": "T", "indices": "T"})]),
    ("eigvalsh", lambda t: torch.linalg.eigvalsh(t.m, "U", out=t.o), False,
     [_made("float64"),
      ("aten._linalg_eigh.eigenvalues", ("T", "U", False),
       {"eigenvalues": "T", "eigenvectors": "T"})]),
    ("svdvals", lambda t: torch.linalg.svdvals(t.m, out=t.o), False,
     [_made("float64"),
      _made("float64"),
      ("aten._linalg_svd.U", ("T", False, False), {"U": "T", "S": "T", "Vh": "T"})]),
    ("svdvals_whole", lambda t: torch.linalg.svdvals(t.m, out=t.o), True,
     [("aten.linalg_svdvals.out", ("T",), {"out": "T"})]),
    ("ger", lambda t: torch.ger(t.v, t.v, out=t.o), False,
     [("aten.view.default", ("T", [3, 1]), {}), ("aten.mul.out", ("T", "T"), {"out": "T"})]),
    ("dstack", lambda t: torch.dstack([t.x, t.y], out=t.o), False,
     [("aten.unsqueeze.default", ("T", -1), {}),
      ("aten.unsqueeze.default", ("T", -1), {}),
      ("aten.cat.out", (["T", "T"], 2), {"out": "T"})]),
    ("vstack_vectors", lambda t: torch.vstack([t.v, t.v], out=t.o), False,
     [("aten.unsqueeze.default", ("T", 0), {}),
      ("aten.unsqueeze.default", ("T", 0), {}),
      ("aten.cat.out", (["T", "T"],), {"out": "T"})]),
    ("hstack_numbers", lambda t: torch.hstack([t.v[0], t.v[1]], out=t.o), False,
     [("aten.select.int", ("T", 0, 0), {}),
      ("aten.select.int", ("T", 0, 1), {}),
      ("aten.view.default", ("T", [1]), {}),
      ("aten.view.default", ("T", [1]), {}),
      ("aten.cat.out", (["T", "T"],), {"out": "T"})]),
    ("column_stack_vectors", lambda t: torch.column_stack([t.v, t.v], out=t.o), False,
     [("aten.view.default", ("T", [3, 1]), {}),
      ("aten.view.default", ("T", [3, 1]), {}),
      ("aten.cat.out", (["T", "T"], 1), {"out": "T"})]),
    ("diff", lambda t: torch.diff(t.x, out=t.o), False,
     [("aten.slice.Tensor", ("T", -1, 0, 2), {}),
      ("aten.slice.Tensor", ("T", -1, 1, 3), {}),
      ("aten.sub.out", ("T", "T"), {"out": "T"})]),
    ("diff_twice", lambda t: torch.diff(t.x, 2, 0, out=t.o), False,
     [("aten.slice.Tensor", ("T", 0, 0, 1), {}),
      ("aten.slice.Tensor", ("T", 0, 1, 2), {}),
      ("aten.sub.Tensor", ("T", "T"), {}),
      ("aten.slice.Tensor", ("T", 0, 0, 0), {}),
      ("aten.slice.Tensor", ("T", 0, 1, 1), {}),
      ("aten.sub.out", ("T", "T"), {"out": "T"})]),
    ("diff_prepend", lambda t: torch.diff(t.x, prepend=t.y, out=t.o), False,
     [("aten.cat.default", (["T", "T"], -1), {}),
      ("aten.slice.Tensor", ("T", -1, 0, 5), {}),
      ("aten.slice.Tensor", ("T", -1, 1, 6), {}),
      ("aten.sub.out", ("T", "T"), {"out": "T"})]),
    ("cond", lambda t: torch.linalg.cond(t.m, out=t.o), False,
     [("aten._linalg_svd.default", ("T",), {}),
      ("aten.slice.Tensor", ("T", -1, 0, 1), {}),
      ("aten.slice.Tensor", ("T", -1, 2, 3), {}),
      ("aten.div.Tensor", ("T", "T"), {}),
      ("aten.squeeze.dim", ("T", -1), {}),
      ("aten.resize_.default", ("T", []), {}),
      ("aten.copy_.default", ("T", "T"), {})]),
    ("tensorsolve", lambda t: torch.linalg.tensorsolve(t.m, t.v, out=t.o), False,
     [("aten.view.default", ("T", [3, 3]), {}),
      ("aten._linalg_solve_ex.default", ("T", "T"), {}),
      ("aten._linalg_check_errors.default", ("T", "torch.linalg.solve"), {"is_matrix": True}),
      ("aten.view.default", ("T", [3]), {}),
      ("aten.resize_.default", ("T", [3]), {}),
      ("aten.copy_.default", ("T", "T"), {})]),
    ("unpool2d", lambda t: torch._C._nn.max_unpool2d(t.u, t.ui, [2, 2], out=t.o), False,
     [("aten.max_unpool2d.out", ("T", "T", [2, 2]), {"out": "T"})]),
]


def _run(call, whole, mode):
    t = _Inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.inference_mode() if whole else contextlib.nullcontext(), mode:
            call(t)
    return t


@pytest.mark.parametrize("call, whole, expected",
                         [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_a_mode_sees_torchs_out_overload(call, whole, expected):
    mode = Calls()
    _run(call, whole, mode)
    assert mode.seen == expected


@pytest.mark.parametrize("call, whole", [pytest.param(*case[1:3], id=case[0]) for case in CASES])
def test_the_modes_func_writes_what_the_call_writes(call, whole):
    under = _run(call, whole, Calls())
    alone = _run(call, whole, contextlib.nullcontext())
    for written, expected in zip(under.outs(), alone.outs()):
        assert written.shape == expected.shape
        assert torch.equal(written, expected)


def test_the_written_tensors_come_back():
    t = _Inputs()
    with Calls():
        values, indices = torch.max(t.x, 1, out=(t.o, t.oi))
    assert values is t.o and indices is t.oi


@pytest.mark.parametrize("whole", [False, True])
def test_out_none_is_the_functional_form(whole):
    t, mode = _Inputs(), Calls()
    with torch.inference_mode() if whole else contextlib.nullcontext(), mode:
        torch.clip(t.x, 0.2, 0.5, out=None)
        torch.sum(t.x, 0, out=None)
    clip = "aten.clip.default" if whole else "aten.clamp.default"
    assert mode.seen == [(clip, ("T", 0.2, 0.5), {}), ("aten.sum.dim_IntList", ("T", [0]), {})]


NESTED = ["sum_dims_keep", "max_dim", "sort_stable", "std_unbiased", "special_round", "square",
          "matmul_matrices", "cross", "linalg_norm", "linalg_norm_resized", "norm_p_dim",
          "tensordot_whole", "svd_whole", "eigvalsh", "svdvals", "msort", "linalg_inv",
          "dstack", "diff_twice"]


@pytest.mark.parametrize("call, whole, expected",
                         [pytest.param(*case[1:], id=case[0]) for case in CASES
                          if case[0] in NESTED])
def test_a_second_mode_sees_the_same(call, whole, expected):
    outer, inner = Calls(), Calls()
    t = _Inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.inference_mode() if whole else contextlib.nullcontext(), outer, inner:
            call(t)
    assert inner.seen == expected
    assert outer.seen == expected


def test_a_singular_matrix_is_refused_after_the_check():
    mode, m = Calls(), torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
    o = torch.empty(0, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="linalg.inv: The diagonal element 2 is zero"), mode:
        torch.linalg.inv(m, out=o)
    assert [seen[0] for seen in mode.seen] == ["aten.empty.memory_format",
                                               "aten.linalg_inv_ex.inverse",
                                               "aten._linalg_check_errors.default"]


GRAD_CASES = [  # (id, a call whose write autograd refuses, the kernel named, what the mode saw)
    ("inv", lambda t: torch.linalg.inv(t.mg, out=t.o), "linalg_inv_ex",
     ["aten.empty.memory_format"]),
    ("msort", lambda t: torch.msort(t.xg, out=t.o), "sort", ["aten.empty.memory_format"]),
    ("square", lambda t: torch.square(t.xg, out=t.o), "pow", []),
    ("cross", lambda t: torch.cross(t.mg, t.mg, out=t.o), "linalg_cross", []),
    ("eigvalsh", lambda t: torch.linalg.eigvalsh(t.mg, out=t.o), "_linalg_eigh",
     ["aten.empty.memory_format"]),
    ("svdvals", lambda t: torch.linalg.svdvals(t.mg, out=t.o), "_linalg_svd",
     ["aten.empty.memory_format", "aten.empty.memory_format"]),
    ("absolute", lambda t: torch.absolute(t.xg, out=t.o), "abs", []),
    ("std", lambda t: torch.std(t.xg, 1, True, out=t.o), "std", []),
    ("norm", lambda t: torch.norm(t.xg, out=t.o), "linalg_vector_norm", []),
    ("outer", lambda t: torch.outer(t.vg, t.vg, out=t.o), "mul", ["aten.view.default"]),
    ("hstack", lambda t: torch.hstack([t.xg, t.xg], out=t.o), "cat", []),
    ("vecdot", lambda t: torch.linalg.vecdot(t.xg, t.xg, out=t.o), "sum", ["aten.mul.Tensor"]),
    ("argsort", lambda t: torch.argsort(t.xg, stable=True, out=t.oi), "sort",
     ["aten.empty.memory_format"]),
    ("cholesky", lambda t: torch.linalg.cholesky(t.mg, out=t.o), "linalg_cholesky_ex",
     ["aten.empty.memory_format"]),
    ("float_power", lambda t: torch.float_power(t.xg, 2, out=t.o), "pow", []),
]


@pytest.mark.parametrize("call, kernel, seen",
                         [pytest.param(*case[1:], id=case[0]) for case in GRAD_CASES])
def test_a_write_autograd_refuses_is_refused_at_the_kernel(call, kernel, seen):
    t, mode = _Inputs(), Calls()
    with pytest.raises(RuntimeError, match=rf"^{kernel}\(\): functions with out="), mode:
        call(t)
    assert [s[0] for s in mode.seen] == seen


def test_a_write_in_pieces_records_the_copy():
    x = torch.tensor([[0.2, 0.5], [0.3, 0.9]], dtype=torch.float64, requires_grad=True)
    o = torch.empty(0, dtype=torch.float64)
    with Calls():
        written = torch.linalg.norm(x, out=o)
    assert written is o and o.shape == () and o._version == 2
    assert type(o.grad_fn).__name__ == "CopyBackwards"
