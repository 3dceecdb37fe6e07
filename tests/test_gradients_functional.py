"""The gradients of torch.nn.functional's activations, losses, layers and
normalizations."""

from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import OPS
from refgrad._ops.dispatch import call
from refgrad._ops.pooled import avg_pool
from refgrad.nn import functional as F  # registers the rows of chapter 16q
from refgrad.nn.utils.rnn import pack_padded_sequence
from tests._gradient_support import Recipe, _one_of, _reductions, _targeted, gradient_tests

RECIPES: dict[str, Recipe] = {}


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


def _weights(shapes):
    return st.builds(lambda r, w: {"reduction": r, "weighted": w},
                     st.sampled_from(["mean", "sum", "none"]), st.booleans())


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
    "_embedding_bag": Recipe(  # "mean" and "max" are checked against torch in conformance
        lambda w, p: F.embedding_bag(torch.tensor([1, 2, 1, 0, 3]), w, torch.tensor([0, 2, 2]),
                                     mode="sum", per_sample_weights=p), ("any", "any"),
        shapes=st.just([(4, 3), (5,)]), twice=False),
    "_pack_padded_sequence": Recipe(  # the packed data: each step's rows of the sequences
        lambda a, lengths, batch_first: pack_padded_sequence(a, lengths, batch_first).data,
        shapes=st.just([(3, 2, 2)]), params=lambda shapes: st.sampled_from([
            {"lengths": [3, 1], "batch_first": False},
            {"lengths": [2, 2, 1], "batch_first": True}])),
    "mkldnn_rnn_layer": Recipe(  # one LSTM layer: its outputs, last h and last c
        lambda *tensors, reverse, has_biases: call(OPS["mkldnn_rnn_layer"], tensors, {
            "reverse": reverse, "batch_sizes": (), "mode": 2, "hidden_size": 2,
            "num_layers": 1, "has_biases": has_biases, "bidirectional": False,
            "batch_first": False, "train": True})[:3], ("small",) * 7,
        shapes=st.just([(3, 2, 2), (8, 2), (8, 2), (8,), (8,), (2, 2), (2, 2)]),
        params=lambda shapes: st.sampled_from([{"reverse": False, "has_biases": True},
                                               {"reverse": True, "has_biases": True}])),
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
                {"normalized_shape": normalized_shape})


def _batch_norm_grads(g, a, w, train):
    from refgrad._ops.batch_norm_gradient import BATCH_NORM_BACKWARD
    from refgrad._ops.norm_gradients import statistics

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


# torch._weight_norm's fused form (chapter "Parametrizations"): its second derivative takes the
# saved norms as constants, as torch's does, so only the first is checked.
RECIPES["_weight_norm_interface"] = Recipe(
    lambda v, g, dim: torch._weight_norm_interface(v, g, dim)[0], ("nonzero", "any"),
    shapes=st.sampled_from([[(3, 4), (3, 1)], [(3, 4), (1, 4)], [(2, 3, 2), (2, 1, 1)]]),
    params=lambda shapes: st.just({"dim": 0 if shapes[1][0] != 1 else len(shapes[0]) - 1}),
    twice=False)


# torch.segment_reduce (chapter "The remaining tensor methods"): two segments, neither empty
# (an empty mean is NaN); its gradient has no derivative, as torch's has none.
RECIPES["segment_reduce"] = Recipe(
    lambda a, reduce: torch.segment_reduce(a, reduce, lengths=torch.tensor([1, a.shape[0] - 1])),
    shapes=st.sampled_from([[(4,)], [(5, 2)], [(3, 2, 2)]]),
    params=_one_of("reduce", "sum", "mean", "max", "min", "prod"), twice=False)


test_first_order, test_second_order = gradient_tests(RECIPES)
