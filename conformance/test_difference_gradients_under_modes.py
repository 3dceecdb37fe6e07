"""Black-box tests: the steps a dispatch mode sees of the gradients of maximum, fmax, clamp
by tensors, lerp, the infinity norm, sub and the losses built on a difference (l1,
pairwise_distance, triplet_margin_loss, gaussian_nll_loss, margin_ranking_loss): each
gradient made only where it is wanted, in torch's order, with torch's masks. Then the
forward steps of margin_ranking_loss, gaussian_nll_loss's check of the variance, put,
isfinite and clamp_'s bounds. The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode, other_operand, transposed_leaf, unique_preorder

F = torch.nn.functional
F64 = torch.float64

Calls = calling_mode()


def _steps(seen) -> list:
    """Each call as `name(args)`, tensors shown as T; keywords left out."""
    return [name.removeprefix("aten.") + "(" + ", ".join(map(str, args)) + ")"
            for name, args, _ in seen]


# The leaf x is transposed; o, of x's shape, needs no gradient unless a case asks.
BACKWARD = {
    "maximum": lambda x, o: torch.maximum(x, o),
    "maximum_both": lambda x, o: torch.maximum(x, o.requires_grad_()),
    "minimum_other": lambda x, o: torch.minimum(o, x),
    "fmax": lambda x, o: torch.fmax(x, o),
    "fmin_both": lambda x, o: torch.fmin(x, o.requires_grad_()),
    "clamp_t": lambda x, o: x.clamp(o * 0.5, o),
    "clamp_t_bounds": lambda x, o: o.clamp(x * 0.5, x),
    "clamp_t_max": lambda x, o: o.clamp(o * 0.5, x),
    "clamp_min_t": lambda x, o: torch.clamp_min(x, o.requires_grad_()),
    "clamp_max_t": lambda x, o: torch.clamp_max(o, x),
    "lerp": lambda x, o: torch.lerp(x, o, 0.3),
    "lerp_end": lambda x, o: torch.lerp(o, x, 0.3),
    "norm_inf": lambda x, o: x.norm(float("inf")),
    "norm_inf_dim": lambda x, o: torch.linalg.vector_norm(x, float("-inf"), dim=1),
    "sub": lambda x, o: x - o,
    "rsub": lambda x, o: torch.rsub(o, x, alpha=2),
    "l1": lambda x, o: F.l1_loss(x, o),
    "pdist": lambda x, o: F.pairwise_distance(x, o),
    "triplet": lambda x, o: F.triplet_margin_loss(x, o, o * 2),
    "gauss": lambda x, o: F.gaussian_nll_loss(x, o, o + 1),
    "margin": lambda x, o: F.margin_ranking_loss(x[0], x[1], torch.ones(3, dtype=F64)),
}
# What a mode sees of y.sum().backward() after the sum, the seed's ones_like and its expand.
SEEN_BACKWARD = {
    "maximum": ["div.Scalar(T, 2)", "eq.Tensor(T, T)", "where.self(T, T, T)", "lt.Tensor(T, T)",
        "masked_fill_.Scalar(T, T, 0)", "new_empty_strided.default(T, [2, 3], [1, 2])",
        "copy_.default(T, T)"],
    "maximum_both": ["div.Scalar(T, 2)", "eq.Tensor(T, T)", "where.self(T, T, T)",
        "gt.Tensor(T, T)", "masked_fill_.Scalar(T, T, 0)", "div.Scalar(T, 2)", "eq.Tensor(T, T)",
        "where.self(T, T, T)", "lt.Tensor(T, T)", "masked_fill_.Scalar(T, T, 0)",
        "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)",
        "new_empty_strided.default(T, [2, 3], [3, 1])", "copy_.default(T, T)"],
    "minimum_other": ["div.Scalar(T, 2)", "eq.Tensor(T, T)", "where.self(T, T, T)",
        "lt.Tensor(T, T)", "masked_fill_.Scalar(T, T, 0)",
        "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)"],
    "fmax": ["ge.Tensor(T, T)", "isnan.default(T)", "logical_or_.default(T, T)",
        "logical_not_.default(T)", "masked_fill.Scalar(T, T, 0)",
        "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)"],
    "fmin_both": ["le.Tensor(T, T)", "isnan.default(T)", "logical_or_.default(T, T)",
        "masked_fill.Scalar(T, T, 0)", "le.Tensor(T, T)", "isnan.default(T)",
        "logical_or_.default(T, T)", "logical_not_.default(T)", "masked_fill.Scalar(T, T, 0)",
        "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)", "detach.default(T)"],
    "clamp_t": ["scalar_tensor.default(0.0)", "ge.Tensor(T, T)", "le.Tensor(T, T)",
        "logical_and.default(T, T)", "where.self(T, T, T)", "detach.default(T)"],
    "clamp_t_bounds": ["scalar_tensor.default(0.0)", "lt.Tensor(T, T)", "lt.Tensor(T, T)",
        "logical_and.default(T, T)", "where.self(T, T, T)", "gt.Tensor(T, T)", "lt.Tensor(T, T)",
        "logical_or.default(T, T)", "where.self(T, T, T)", "mul.Tensor(T, 0.5)",
        "add.Tensor(T, T)", "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)"],
    "clamp_t_max": ["scalar_tensor.default(0.0)", "gt.Tensor(T, T)", "lt.Tensor(T, T)",
        "logical_or.default(T, T)", "where.self(T, T, T)",
        "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)"],
    "clamp_min_t": ["scalar_tensor.default(0.0)", "lt.Tensor(T, T)", "where.self(T, T, T)",
        "scalar_tensor.default(0.0)", "ge.Tensor(T, T)", "where.self(T, T, T)",
        "detach.default(T)", "new_empty_strided.default(T, [2, 3], [3, 1])", "copy_.default(T, T)"],
    "clamp_max_t": ["scalar_tensor.default(0.0)", "gt.Tensor(T, T)", "where.self(T, T, T)",
        "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)"],
    "lerp": ["mul.Scalar(T, 0.7)", "new_empty_strided.default(T, [2, 3], [1, 2])",
        "copy_.default(T, T)"],
    "lerp_end": ["mul.Scalar(T, 0.3)", "new_empty_strided.default(T, [2, 3], [1, 2])",
        "copy_.default(T, T)"],
    "norm_inf": ["detach.default(T)", "abs.default(T)", "eq.Tensor(T, T)", "isnan.default(T)",
        "logical_or.default(T, T)", "sum.dim_IntList(T, [], True)", "div.Tensor(T, T)",
        "mul.Tensor(T, T)", "sgn.default(T)", "mul.Tensor(T, T)", "detach.default(T)"],
    "norm_inf_dim": ["detach.default(T)", "unsqueeze.default(T, 1)", "unsqueeze.default(T, 1)",
        "abs.default(T)", "eq.Tensor(T, T)", "isnan.default(T)", "logical_or.default(T, T)",
        "sum.dim_IntList(T, [1], True)", "div.Tensor(T, T)", "mul.Tensor(T, T)", "sgn.default(T)",
        "mul.Tensor(T, T)", "detach.default(T)"],
    "sub": ['new_empty_strided.default(T, [2, 3], [1, 2])', 'copy_.default(T, T)'],
    "rsub": ['new_empty_strided.default(T, [2, 3], [1, 2])', 'copy_.default(T, T)'],
    "l1": ["expand.default(T, [2, 3])", "div.Scalar(T, 6)", "sgn.default(T)", "mul.Tensor(T, T)",
        "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)"],
    "pdist": ["detach.default(T)", "unsqueeze.default(T, 1)", "unsqueeze.default(T, 1)",
        "div.Tensor(T, T)", "eq.Scalar(T, 0)", "masked_fill_.Scalar(T, T, 0)", "mul.Tensor(T, T)",
        "detach.default(T)"],
    "triplet": ["expand.default(T, [2])", "div.Scalar(T, 2)", "scalar_tensor.default(0.0)",
        "ge.Scalar(T, 0)", "where.self(T, T, T)", "neg.default(T)", "detach.default(T)",
        "unsqueeze.default(T, 1)", "unsqueeze.default(T, 1)", "div.Tensor(T, T)",
        "eq.Scalar(T, 0)", "masked_fill_.Scalar(T, T, 0)", "mul.Tensor(T, T)", "detach.default(T)",
        "unsqueeze.default(T, 1)", "unsqueeze.default(T, 1)", "div.Tensor(T, T)",
        "eq.Scalar(T, 0)", "masked_fill_.Scalar(T, T, 0)", "mul.Tensor(T, T)", "add.Tensor(T, T)",
        "detach.default(T)"],
    "gauss": ["expand.default(T, [2, 3])", "div.Scalar(T, 6)", "mul.Tensor(T, 0.5)",
        "div.Tensor(T, T)", "pow.Tensor_Scalar(T, 1.0)", "mul.Scalar(T, 2.0)", "mul.Tensor(T, T)",
        "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)"],
    "margin": ["expand.default(T, [3])", "div.Scalar(T, 3)", "scalar_tensor.default(0.0)",
        "ge.Scalar(T, 0)", "where.self(T, T, T)", "mul.Tensor(T, T)", "neg.default(T)",
        "select_backward.default(T, [2, 3], 0, 1)", "select_backward.default(T, [2, 3], 0, 0)",
        "add.Tensor(T, T)", "new_empty_strided.default(T, [2, 3], [1, 2])", "copy_.default(T, T)"],
}


@pytest.mark.parametrize("name", BACKWARD)
def test_a_mode_sees_torchs_gradient_steps(name):
    x = transposed_leaf()
    y = BACKWARD[name](x, other_operand(x))
    with Calls() as mode:
        y.sum().backward()
    assert _steps(mode.seen)[3:] == SEEN_BACKWARD[name]


FORWARD = {
    "margin": lambda x, o: F.margin_ranking_loss(x[0], x[1], o[0]),
    "gauss": lambda x, o: F.gaussian_nll_loss(x, o, o),
    "put": lambda x, o: x.put(torch.tensor([0, 4]), o[0, :2], accumulate=True),
    "isfinite": lambda x, o: torch.isfinite(o),
    "isfinite_int": lambda x, o: torch.isfinite(o.long()),
    "clamp_min": lambda x, o: o.clamp_(min=0.5),
    "clamp_max": lambda x, o: o.clamp_(max=0.5),
    "clamp_both": lambda x, o: o.clamp_(0.1, max=0.5),
    "clip_tensor": lambda x, o: o.clip_(max=o * 2),
}
SEEN_FORWARD = {
    "margin": ["select.int(T, 0, 0)", "select.int(T, 0, 1)", "select.int(T, 0, 0)",
        "sub.Tensor(T, T)", "neg.default(T)", "mul.Tensor(T, T)", "add.Scalar(T, 0.0)",
        "clone.default(T)", "clamp_min_.default(T, 0)", "mean.default(T)"],
    "gauss": ["lt.Scalar(T, 0)", "any.default(T)", "_local_scalar_dense.default(T)",
        "clone.default(T)", "clamp_.default(T, 1e-06)", "log.default(T)", "sub.Tensor(T, T)",
        "pow.Tensor_Scalar(T, 2)", "div.Tensor(T, T)", "add.Tensor(T, T)", "mul.Tensor(T, 0.5)",
        "mean.default(T)"],
    "put": ["lift_fresh.default(T)", "select.int(T, 0, 0)", "slice.Tensor(T, 0, 0, 2)",
        "put.default(T, T, T, True)"],
    "isfinite": ['abs.default(T)', 'ne.Scalar(T, inf)', 'eq.Tensor(T, T)', 'mul.Tensor(T, T)'],
    "isfinite_int": ['_to_copy.default(T)', 'ones_like.default(T)'],
    "clamp_min": ['clamp_.default(T, 0.5)'],
    "clamp_max": ['clamp_.default(T, None, 0.5)'],
    "clamp_both": ['clamp_.default(T, 0.1, 0.5)'],
    "clip_tensor": ['mul.Tensor(T, 2)', 'clamp_.Tensor(T, None, T)'],
}


@pytest.mark.parametrize("name", FORWARD)
def test_a_mode_sees_torchs_forward_steps(name):
    x = transposed_leaf()
    o = other_operand(x)
    with Calls() as mode:
        FORWARD[name](x, o)
    assert _steps(mode.seen) == SEEN_FORWARD[name]


# grad() asked for o alone: x's gradient is not made, though x has an edge.
ASKED = {
    "sub": (lambda x, o: x - o, ["neg.default(T)"]),
    "maximum": (lambda x, o: torch.maximum(x, o), [
        "div.Scalar(T, 2)", "eq.Tensor(T, T)", "where.self(T, T, T)", "gt.Tensor(T, T)",
        "masked_fill_.Scalar(T, T, 0)"]),
    "lerp": (lambda x, o: torch.lerp(x, o, 0.3), ["mul.Scalar(T, 0.3)"]),
    "clamp": (lambda x, o: x.clamp(o * 0.5, o), [
        "scalar_tensor.default(0.0)", "lt.Tensor(T, T)", "lt.Tensor(T, T)",
        "logical_and.default(T, T)", "where.self(T, T, T)", "gt.Tensor(T, T)", "lt.Tensor(T, T)",
        "logical_or.default(T, T)", "where.self(T, T, T)", "mul.Tensor(T, 0.5)",
        "add.Tensor(T, T)"]),
}


@pytest.mark.parametrize("name", ASKED)
def test_a_gradient_not_asked_for_is_not_made(name):
    call, expected = ASKED[name]
    x = transposed_leaf()
    o = other_operand(x).requires_grad_()
    y = call(x, o)
    with Calls() as mode:
        torch.autograd.grad(y.sum(), o)
    assert _steps(mode.seen)[3:] == expected


# The gradient of (y * y).sum(), made with create_graph=True: its graph's node names in
# preorder, its strides and version, and the gradient of its sum.
TWICE = {
    "maximum": (lambda x, o: torch.maximum(x, o), [
        "MaskedFillBackward0", "WhereBackward0", "DivBackward1", "AddBackward0", "MulBackward0",
        "MaximumBackward0", "AccumulateGrad", "MulBackward0"], (1, 2), 1, [2, 2, 2, 0, 0, 0]),
    "fmax": (lambda x, o: torch.fmax(x, o), [
        "MaskedFillBackward0", "AddBackward0", "MulBackward0", "FmaxBackward0", "AccumulateGrad",
        "MulBackward0"], (3, 1), 0, [2, 2, 2, 0, 0, 0]),
    "clamp_t": (lambda x, o: x.clamp(o * 0.5, o), [
        "WhereBackward0", "AddBackward0", "MulBackward0", "ClampBackward0", "AccumulateGrad",
        "MulBackward0"], (1, 2), 0, [0, 0, 0, 2, 2, 2]),
    "lerp": (lambda x, o: torch.lerp(x, o, 0.3), [
        "MulBackward1", "AddBackward0", "MulBackward0", "LerpBackward0", "AccumulateGrad",
        "MulBackward0"], (1, 2), 0, [0.98] * 6),
    "norm_inf": (lambda x, o: x.norm(float("inf")), [
        "MulBackward0", "SgnBackward0", "AccumulateGrad", "MulBackward0", "DivBackward0",
        "AddBackward0", "MulBackward0", "LinalgVectorNormBackward0", "MulBackward0"], (1, 2), 0,
        [0, 0, 0, 0, 0, 2]),
    "l1": (lambda x, o: F.l1_loss(x, o), [
        "MulBackward0", "DivBackward1", "ExpandBackward0", "AddBackward0", "MulBackward0",
        "MeanBackward0", "AbsBackward0", "SubBackward0", "AccumulateGrad", "MulBackward0",
        "SgnBackward0"], (3, 1), 0, [0] * 6),
    "gauss": (lambda x, o: F.gaussian_nll_loss(x, o, o + 1), [
        "MulBackward0", "DivBackward0", "MulBackward0", "DivBackward1", "ExpandBackward0",
        "AddBackward0", "MulBackward0", "MeanBackward0", "MulBackward0", "AddBackward0",
        "DivBackward0", "PowBackward0", "SubBackward0", "AccumulateGrad", "MulBackward0",
        "MulBackward1", "PowBackward0"], (3, 1), 0,
        [0.096155713422, 0.076715693606, 0.063755680396, 0.057668984557, 0.050329813281,
         0.044621568954]),
}


@pytest.mark.parametrize("name", TWICE)
def test_the_gradients_graph_layout_and_values_are_torchs(name):
    call, nodes, stride, version, values = TWICE[name]
    x = transposed_leaf()
    y = call(x, other_operand(x))
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert unique_preorder(g.grad_fn) == nodes
    assert (g.stride(), g._version) == (stride, version)
    (twice,) = torch.autograd.grad(g.sum(), x)
    assert twice.flatten().tolist() == pytest.approx(values, abs=1e-11)
