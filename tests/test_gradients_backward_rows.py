"""The gradients of the rows that are themselves gradients: of losses, activations,
pads and pools."""

from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import (
    OPS,
    activation_gradients,
    activations,
    embedding_gradients,
    loss_gradients,
    loss_kernel_gradients,
    smooth_activations,
    smooth_gradients,
    trilinear,
)
from refgrad._ops.dispatch import call
from refgrad.nn import functional as F  # registers the rows of chapter 16q
from tests._gradient_support import (
    Recipe,
    _gradient_row,
    _indexed,
    _one_of,
    _targeted,
    gradient_tests,
)

RECIPES: dict[str, Recipe] = {}


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
    "softplus_backward": Recipe(lambda g, a: smooth_activations.softplus_backward(g, a, 2.0, 1.0),
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


test_first_order, test_second_order = gradient_tests(RECIPES)
