"""Versions of results computed from inference tensors outside inference mode: torch's kernels
that fill their fresh result through other ops have those writes counted, since autograd (and
the guard it sets) is skipped. Normal operands, or inference mode, leave every result at 0.
The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises


def _versions(result):
    if isinstance(result, torch.Tensor):
        return result._version
    return tuple(r._version for r in result)


def _operands():
    return (torch.tensor([[0.1, 0.5, 0.2], [0.7, 0.3, 0.4]]), torch.tensor([0.3, 0.1, 0.2]),
            torch.tensor(0.5))


def _ix(like, values):
    """An index, an inference tensor when ``like`` is one, as every operand must be."""
    with torch.inference_mode(like.is_inference()):
        return torch.tensor(values)


# (call, version(s) of its result when its operands are inference tensors)
CASES = {
    "exp": (lambda x, v, s: x.exp(), 0),
    "abs": (lambda x, v, s: x.abs(), 1),
    "nan_to_num": (lambda x, v, s: x.nan_to_num(), 1),
    "logical_not": (lambda x, v, s: x.logical_not(), 1),
    "2 ** x": (lambda x, v, s: 2 ** x, 1),
    "x ** 2": (lambda x, v, s: x ** 2, 0),
    "x + x": (lambda x, v, s: x + x, 0),
    "sum": (lambda x, v, s: x.sum(), 1),
    "sum(0)": (lambda x, v, s: x.sum(0, keepdim=True), 1),
    "nansum": (lambda x, v, s: x.nansum(0), 1),
    "prod": (lambda x, v, s: x.prod(0), 1),
    "mean": (lambda x, v, s: x.mean(), 2),
    "mean(0)": (lambda x, v, s: x.mean(0), 2),
    "max": (lambda x, v, s: x.max(), 1),
    "max(0)": (lambda x, v, s: x.max(0), (2, 2)),
    "max(0, keepdim)": (lambda x, v, s: x.max(0, keepdim=True), (0, 0)),
    "min(1)": (lambda x, v, s: x.min(1), (2, 2)),
    "max of 0-d": (lambda x, v, s: s.max(0), (1, 1)),
    "amax": (lambda x, v, s: x.amax(0), 1),
    "aminmax": (lambda x, v, s: x.aminmax(), (1, 1)),
    "aminmax(dim)": (lambda x, v, s: x.aminmax(dim=0), (2, 2)),
    "aminmax(dim, keepdim)": (lambda x, v, s: x.aminmax(dim=0, keepdim=True), (0, 0)),
    "var": (lambda x, v, s: x.var(), 1),
    "var(0)": (lambda x, v, s: x.var(0), 0),
    "std of a vector": (lambda x, v, s: v.std(0), 1),
    "logsumexp": (lambda x, v, s: x.logsumexp(0), 1),
    "cumsum of 0-d": (lambda x, v, s: s.cumsum(0), 1),
    "cumprod of 0-d": (lambda x, v, s: s.cumprod(0, dtype=torch.float64), 1),
    "logcumsumexp of 0-d": (lambda x, v, s: s.logcumsumexp(0), 1),
    "cumsum(1)": (lambda x, v, s: x.cumsum(1), 0),
    "cumsum of nothing": (lambda x, v, s: x[:0].cumsum(0), 1),
    "cumprod of nothing": (lambda x, v, s: x[:, :0].cumprod(1), 1),
    "logcumsumexp of nothing": (lambda x, v, s: x[:0].logcumsumexp(0), 0),
    "any": (lambda x, v, s: x.any(0), 1),
    "median(0)": (lambda x, v, s: x.median(0), (1, 1)),
    "mode": (lambda x, v, s: x.mode(0), (2, 2)),
    "mode keepdim": (lambda x, v, s: x.mode(0, keepdim=True), (0, 0)),
    "kthvalue": (lambda x, v, s: x.kthvalue(1, 0), (1, 1)),
    "sort": (lambda x, v, s: x.sort(), (1, 1)),
    "argsort": (lambda x, v, s: x.argsort(), 1),
    "cummax": (lambda x, v, s: x.cummax(0), (1, 1)),
    "cumsum": (lambda x, v, s: x.cumsum(0), 0),
    "repeat": (lambda x, v, s: x.repeat(2, 1), 1),
    "repeat none": (lambda x, v, s: x.repeat(0, 1), 0),
    "rot90": (lambda x, v, s: x.rot90(), 1),
    "rot90 twice": (lambda x, v, s: x.rot90(2), 0),
    "pad": (lambda x, v, s: F.pad(x, (1, 1)), 2),
    "pad by nothing": (lambda x, v, s: F.pad(x, (0, 0)), 1),
    "diag_embed": (lambda x, v, s: v.diag_embed(), 2),
    "diag of a matrix": (lambda x, v, s: x.diag(), 1),
    "block_diag": (lambda x, v, s: torch.block_diag(x, v, x), 4),
    "dot": (lambda x, v, s: v.dot(v), 1),
    "mv": (lambda x, v, s: x @ v, 1),
    "mm": (lambda x, v, s: x @ x.t(), 0),
    "qr wide": (lambda x, v, s: torch.linalg.qr(x), (1, 2)),
    "qr tall": (lambda x, v, s: torch.linalg.qr(x.t()), (1, 1)),
    "qr r": (lambda x, v, s: torch.linalg.qr(x, mode="r"), (0, 2)),
    "unique": (lambda x, v, s: x.unique(return_inverse=True), (1, 1)),
    "mse_loss": (lambda x, v, s: F.mse_loss(x, x), 2),
    "mse_loss none": (lambda x, v, s: F.mse_loss(x, x, reduction="none"), 0),
    "smooth_l1_loss": (lambda x, v, s: F.smooth_l1_loss(x, x, reduction="sum"), 2),
    "hardtanh": (lambda x, v, s: F.hardtanh(x), 1),
    "clone": (lambda x, v, s: x.clone(), 1),
    "inverse": (lambda x, v, s: x[:, :2].inverse(), 3),
    "lstsq": (lambda x, v, s: torch.linalg.lstsq(x[:, :2], x).solution, 1),
    "lu_factor": (lambda x, v, s: torch.linalg.lu_factor(x[:, :2]), (1, 0)),
    "addmm": (lambda x, v, s: torch.addmm(x[:, :2], x[:, :2], x[:, :2]), 1),
    "addmm, beta 0": (lambda x, v, s: torch.addmm(x[:, :2], x[:, :2], x[:, :2], beta=0), 0),
    "linear with a bias": (lambda x, v, s: F.linear(x, x, v[:2]), 1),
    "scatter": (lambda x, v, s: x.scatter(1, _ix(x, [[0, 1], [1, 0]]), 1.0), 1),
    "scatter_add": (lambda x, v, s: x.scatter_add(1, _ix(x, [[0, 1], [1, 0]]), x), 1),
    "index_add": (lambda x, v, s: x.index_add(1, _ix(x, [2, 0]), x[:, :2]), 2),
    "index_add, alpha 2": (lambda x, v, s: x.index_add(1, _ix(x, [2, 0]), x[:, :2], alpha=2), 1),
    "index_fill": (lambda x, v, s: x.index_fill(1, _ix(x, [2, 0]), 1.0), 2),
    "index_put": (lambda x, v, s: x.index_put((_ix(x, [1]),), v), 2),
    "index_put by a mask": (lambda x, v, s: x.index_put((x > 0.3,), v[0]), 0),
    "put": (lambda x, v, s: x.put(_ix(x, [4, 0]), v[:2]), 2),
    "pdist": (lambda x, v, s: F.pdist(x), 1),
    "slice_scatter": (lambda x, v, s: x.slice_scatter(x[:1], 0, 0, 1), 2),
    "rad2deg": (lambda x, v, s: x.rad2deg(), 1),
    "mse_loss of 0-d": (lambda x, v, s: F.mse_loss(s, s), 1),
    "smooth_l1_loss of 0-d": (lambda x, v, s: F.smooth_l1_loss(s, s), 1),
    "soft_margin_loss": (lambda x, v, s: F.soft_margin_loss(x, _ix(x, [1.0, -1.0, 1.0])), 1),
    "soft_margin_loss none": (
        lambda x, v, s: F.soft_margin_loss(v, _ix(v, [1.0, -1.0, 1.0]), reduction="none"), 1),
    "bce with logits none": (
        lambda x, v, s: F.binary_cross_entropy_with_logits(x, x, reduction="none"), 4),
    "bce with logits, weight": (lambda x, v, s: F.binary_cross_entropy_with_logits(
        x, x, _ix(x, [2.0, 1.0, 0.5]), reduction="none"), 5),
    "bce with logits, pos_weight": (lambda x, v, s: F.binary_cross_entropy_with_logits(
        x, x, pos_weight=_ix(x, [2.0, 1.0, 0.5]), reduction="none"), 4),
    "bce with logits, mean": (lambda x, v, s: F.binary_cross_entropy_with_logits(s, s), 0),
}


@pytest.mark.parametrize("name", CASES)
def test_a_result_of_inference_tensors_counts_the_kernels_writes(name):
    call, expected = CASES[name]
    with torch.inference_mode():
        operands = _operands()
    assert _versions(call(*operands)) == expected


@pytest.mark.parametrize("name", CASES)
def test_a_result_of_normal_tensors_starts_at_0_with_grad_or_without(name):
    call, expected = CASES[name]
    zero = 0 if isinstance(expected, int) else (0,) * len(expected)
    operands = _operands()
    with torch.no_grad():
        assert _versions(call(*operands)) == zero
    assert _versions(call(*(o.requires_grad_() for o in operands))) == zero


def test_the_writes_are_counted_under_no_grad_and_for_a_leaf_that_requires_grad():
    with torch.inference_mode():
        x = torch.ones(2, 3)
        leaf = torch.ones(2, 3, requires_grad=True)
    with torch.no_grad():
        assert x.sum()._version == 1
    result = leaf.sum(0)
    assert result._version == 1 and result.grad_fn is None and not result.requires_grad


def test_a_normal_operand_beside_an_inference_tensor_leaves_the_result_at_0():
    with torch.inference_mode():
        x = torch.ones(2, 3)
    assert torch.dot(x[0], torch.ones(3))._version == 0
    assert F.mse_loss(x, torch.zeros(2, 3))._version == 0


def test_inside_inference_mode_a_result_is_an_inference_tensor_with_no_version():
    with torch.inference_mode():
        result = torch.ones(2, 3).mean()
    assert result.is_inference()
    with pytest.raises(RuntimeError, match="Inference tensors do not track version counter"):
        result._version


OUT_CALLS = {  # (call, the op whose out= form refuses)
    "abs": (lambda x: x.abs(), "abs"),
    "nan_to_num": (lambda x: x.nan_to_num(), "nan_to_num"),
    "2 ** x": (lambda x: 2 ** x, "pow"),
    "mean": (lambda x: x.mean(), "sum"),
    "mean(0)": (lambda x: x.mean(0, keepdim=True), "sum"),
    "var": (lambda x: x.var(), "sum"),
    "std": (lambda x: x.std(), "sum"),
    "logsumexp": (lambda x: x.logsumexp(1), "logsumexp"),
    "median(0)": (lambda x: x.median(0), "median"),
    "nanmedian(0)": (lambda x: x.nanmedian(0), "nanmedian"),
    "kthvalue": (lambda x: x.kthvalue(1), "kthvalue"),
    "cummax": (lambda x: x.cummax(1), "cummax"),
    "cummin": (lambda x: x.cummin(0), "cummin"),
    "hardtanh": (lambda x: F.hardtanh(x), "hardtanh"),
    "rad2deg": (lambda x: x.rad2deg(), "rad2deg"),
    "lstsq": (lambda x: torch.linalg.lstsq(x[:, :2], x), "linalg_lstsq"),
}


@pytest.mark.parametrize("name", OUT_CALLS)
def test_an_out_call_given_an_inference_leaf_that_requires_grad_is_refused(name):
    call, refusing = OUT_CALLS[name]
    with torch.inference_mode():
        leaf = torch.tensor([[0.1, 0.5, 0.2], [0.7, 0.3, 0.4]], requires_grad=True)
    with raises(RuntimeError, f"{refusing}(): functions with out=... arguments don't support "
                "automatic differentiation, but one of the arguments requires grad."):
        call(leaf)
    with torch.no_grad():
        assert call(leaf) is not None  # no autograd check in no_grad
    with torch.inference_mode():
        assert call(leaf) is not None


@pytest.mark.parametrize("call, version", [
    (lambda x: x.sum(), 1), (lambda x: x.max(0).values, 2), (lambda x: x.var(0), 0),
    (lambda x: x.std(1), 0), (lambda x: x.exp(), 0),
])
def test_writes_by_other_means_let_an_inference_leaf_that_requires_grad_pass(call, version):
    with torch.inference_mode():
        leaf = torch.tensor([[0.1, 0.5, 0.2], [0.7, 0.3, 0.4]], requires_grad=True)
    result = call(leaf)
    assert result._version == version and result.grad_fn is None and not result.requires_grad
