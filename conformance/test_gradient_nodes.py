"""Gradients that are operations of their own: their nodes, what those keep, and values.

torch computes the gradients of the clamping and shrinking activations, of elu
and its relatives, of hardswish and softplus, and of the squared-error, Huber and
smooth L1 losses with one operation each (``hardtanh_backward``,
``mse_loss_backward``). Under ``create_graph=True`` a gradient therefore carries one
node, ``HardtanhBackwardBackward0``, with an edge for the incoming gradient and one
per input, and a second derivative goes through it. These tests name those nodes,
their edges and what they keep, the shapes a saved-tensor hook is handed while the
first gradient is made, and the second derivatives.
"""

import math

import pytest
import torch
import torch.nn.functional as F

from conformance._support import preorder_names

X = [-2.5, -1.0, -0.25, 0.5, 1.5, 3.5, 7.0, 0.0]
Y = [0.5, -0.5, 0.25, 1.0, -2.0, 3.0, 0.5, 0.0]
ZEROS = [0.0] * 8
EDGES = [None, "AccumulateGrad"]
LOSS_EDGES = [None, "AccumulateGrad", "AccumulateGrad"]
ELU_KEEPS = ["alpha", "grad_output", "input_scale", "is_result", "scale", "self_or_result"]
RRELU_KEEPS = ["lower", "noise", "self", "training", "upper"]
PAIR = [(8,), (8,)]

# name: (function, node of the input's gradient, what it keeps, shapes packed, second
# derivative for the input). Each mask is flat in the input: its second derivative is
# zeros, not an error.
ACTIVATIONS = {
    "hardtanh": (lambda x: F.hardtanh(x), "HardtanhBackwardBackward0",
                 ["max_val", "min_val", "self"], [(8,)], ZEROS),
    "relu6": (F.relu6, "HardtanhBackwardBackward0", ["max_val", "min_val", "self"], [(8,)],
              ZEROS),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.25), "LeakyReluBackwardBackward0",
                   ["negative_slope", "self"], [(8,)], ZEROS),
    "hardshrink": (lambda x: F.hardshrink(x, 0.5), "HardshrinkBackwardBackward0",
                   ["lambd", "self"], [(8,)], ZEROS),
    "softshrink": (lambda x: F.softshrink(x, 0.5), "SoftshrinkBackwardBackward0",
                   ["lambd", "self"], [(8,)], ZEROS),
    "rrelu": (F.rrelu, "RreluWithNoiseBackwardBackward0", RRELU_KEEPS, PAIR, ZEROS),
    "rrelu_training": (lambda x: F.rrelu(x, training=True), "RreluWithNoiseBackwardBackward0",
                       RRELU_KEEPS, PAIR, ZEROS),
    "elu": (lambda x: F.elu(x, 2.0), "EluBackwardBackward0", ELU_KEEPS, PAIR,
            [0.05390357599268374, 1.0826822658929016, 4.852245277701067, 0, 0, 0, 0, 0]),
    "selu": (F.selu, "EluBackwardBackward0", ELU_KEEPS, PAIR,
             [0.04165281988441036, 0.8366192517432097, 3.7494673565719525, 0, 0, 0, 0, 0]),
    "celu": (lambda x: F.celu(x, 0.5), "EluBackwardBackward0", ELU_KEEPS, PAIR,
             [0.0001815997190499394, 0.07326255555493673, 1.4715177646857693, 0, 0, 0, 0, 0]),
    "hardswish": (F.hardswish, "HardswishBackwardBackward0", ["grad_output", "self"], PAIR,
                  [-2 / 9, 1 / 9, 5 / 18, 4 / 9, 2 / 3, 0.0, 0.0, 1 / 3]),
    "softplus": (lambda x: F.softplus(x, 2.0, 1.0), "SoftplusBackwardBackward0",
                 ["beta", "grad_output", "self", "threshold"], PAIR,
                 [0.00017797780893518395, 0.0500621686947069, 0.3548938346985475, 0, 0, 0, 0,
                  0.5]),
}


def _first_and_second(function, *inputs):
    """The gradients of ``function``'s sum with create_graph, the shapes packed meanwhile,
    and the gradient of the sum of their squares."""
    packed = []

    def pack(t):
        packed.append(tuple(t.shape))
        return t

    out = function(*inputs)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        grads = torch.autograd.grad(out.sum(), inputs, create_graph=True)
    second = torch.autograd.grad(sum((g * g).sum() for g in grads), inputs)
    return grads, packed, second


def _kept(node):
    return sorted(name[len("_saved_"):] for name in dir(node) if name.startswith("_saved_"))


def _edges(node):
    return [None if f is None else type(f).__name__ for f, _ in node.next_functions]


def _same(got, expected):
    """Exact, but for the exponentials, which may differ in the last place or two."""
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g == e if e in (0.0, 0.5) else math.isclose(g, e, rel_tol=1e-14), (got, expected)


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_an_activation_gradient_is_one_node(name):
    function, node, kept, packed, second = ACTIVATIONS[name]
    torch.manual_seed(0)
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    (grad,), shapes, (again,) = _first_and_second(function, x)
    assert type(grad.grad_fn).__name__ == node
    assert _edges(grad.grad_fn) == EDGES
    assert _kept(grad.grad_fn) == kept
    assert shapes == packed
    _same(again.tolist(), second)


@pytest.mark.parametrize(("function", "node"), [
    (lambda x: F.hardtanh(x * 1, -2.0, 2.0, inplace=True), "HardtanhBackwardBackward0"),
    (lambda x: F.leaky_relu(x * 1, 0.25, inplace=True), "LeakyReluBackwardBackward0"),
    (lambda x: F.elu(x * 1, 2.0, inplace=True), "EluBackwardBackward0"),
    (lambda x: torch.selu_(x * 1), "EluBackwardBackward0"),
    (lambda x: torch.celu_(x * 1, 0.5), "EluBackwardBackward0"),
])
def test_an_in_place_activation_gradient_is_the_same_node(function, node):
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    (grad,), _, _ = _first_and_second(function, x)
    below = grad.grad_fn.next_functions[0][0]  # the gradient of x * 1 multiplies it
    assert type(below).__name__ == node
    if node == "EluBackwardBackward0":
        assert below._saved_is_result is True


def test_hardsigmoid_gradient_has_no_derivative():
    x = torch.tensor([-4.0, -1.0, 0.5, 3.5], requires_grad=True)
    (grad,) = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
    assert grad.tolist() == [0.0, 0.1666666716337204, 0.1666666716337204, 0.0]
    assert grad.grad_fn.name() == "torch::autograd::NotImplemented"
    assert _edges(grad.grad_fn) == ["AccumulateGrad"]  # no edge for the incoming gradient
    with pytest.raises(RuntimeError,
                       match="^derivative for aten::hardsigmoid_backward is not implemented$"):
        grad.sum().backward()
    assert x.grad is None


def test_elu_second_derivative_at_zero_is_zero_and_nan_takes_the_positive_side():
    x = torch.tensor([0.0, float("nan")], dtype=torch.float64, requires_grad=True)
    (grad,) = torch.autograd.grad(F.elu(x, 2.0).sum(), x, create_graph=True)
    assert grad.tolist() == [2.0, 1.0]
    (again,) = torch.autograd.grad(grad[0], x)
    assert again.tolist() == [0.0, 0.0]


def test_float16_hardtanh_compares_in_float32_and_hardshrink_in_float16():
    x = torch.tensor([1.3, 0.4001], dtype=torch.float16, requires_grad=True)
    (grad,) = torch.autograd.grad(F.hardtanh(x, -1.3, 1.3).sum(), x)
    assert grad.tolist() == [1.0, 1.0]  # float16's 1.3 is just below 1.3
    (grad,) = torch.autograd.grad(F.hardshrink(x, 0.4001).sum(), x)
    assert grad.tolist() == [1.0, 0.0]  # float16's 0.4001 is lambd in float16


# name: (function, node, what it keeps, shapes packed, second derivative for the input; the
# target's is its negation).
LOSSES = {
    "mse_loss": (F.mse_loss, "MseLossBackwardBackward0",
                 ["grad_output", "reduction", "self", "target"], [(), (8,), (8,)] * 2,
                 [-0.75, -0.125, -0.125, -0.125, 0.875, 0.125, 1.625, 0.0]),
    "mse_loss_none": (lambda x, y: F.mse_loss(x, y, reduction="none"),
                      "MseLossBackwardBackward0", ["grad_output", "reduction", "self", "target"],
                      [(8,)] * 6, [-48.0, -8.0, -8.0, -8.0, 56.0, 8.0, 104.0, 0.0]),
    "huber_loss": (lambda x, y: F.huber_loss(x, y, delta=0.75), "HuberLossBackwardBackward0",
                   ["delta", "grad_output", "reduction", "self", "target"],
                   [(), (8,), (8,)] * 2,
                   [-0.0, -0.03125, -0.03125, -0.03125, 0.0, 0.03125, 0.0, 0.0]),
    "huber_loss_none": (lambda x, y: F.huber_loss(x, y, reduction="none"),
                        "HuberLossBackwardBackward0",
                        ["delta", "grad_output", "reduction", "self", "target"], [(8,)] * 6,
                        [-0.0, -2.0, -2.0, -2.0, 0.0, 2.0, 0.0, 0.0]),
    "smooth_l1_loss": (lambda x, y: F.smooth_l1_loss(x, y, reduction="sum", beta=1.0),
                       "SmoothL1LossBackwardBackward0",
                       ["beta", "grad_output", "reduction", "self", "target"],
                       [(), (8,), (8,)] * 2, [-0.0, -2.0, -2.0, -2.0, 0.0, 2.0, 0.0, 0.0]),
}


@pytest.mark.parametrize("name", LOSSES)
def test_a_loss_gradient_is_one_node_for_each_operand(name):
    function, node, kept, packed, second = LOSSES[name]
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    y = torch.tensor(Y, dtype=torch.float64, requires_grad=True)
    grads, shapes, again = _first_and_second(function, x, y)
    for grad in grads:  # the target's gradient is a node of its own, not a negation
        assert type(grad.grad_fn).__name__ == node
        assert _edges(grad.grad_fn) == LOSS_EDGES
        assert _kept(grad.grad_fn) == kept
    assert shapes == packed
    # the target's is the input's negated, but for the last element, where the
    # difference and the first gradient are zero: both are +0 there
    target = [-v for v in second[:-1]] + [0.0]
    for got, expected in zip(again, (second, target)):
        assert [(v, math.copysign(1, v)) for v in got.tolist()] == [
            (v, math.copysign(1, v)) for v in expected]


def test_a_loss_gradient_of_a_nan_difference_has_a_zero_second_derivative():
    x = torch.tensor([float("nan"), 0.25], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.0, 0.0], dtype=torch.float64)
    (grad,) = torch.autograd.grad(F.huber_loss(x, y), x, create_graph=True)
    (again,) = torch.autograd.grad(grad[1], x)
    assert again.tolist() == [0.0, 0.5]


def test_addcdiv_divides_a_filled_tensor_shaped_like_tensor2():
    # value / tensor2, in tensor1's gradient, keeps a tensor of tensor2's shape, not a 0-d one
    x = torch.linspace(-1, 1, 14, dtype=torch.float64).requires_grad_()
    y = torch.linspace(3, 4, 7, dtype=torch.float64).requires_grad_()
    _, shapes, _ = _first_and_second(
        lambda a, b: torch.addcdiv(a[:7], a.reshape(2, 7), b, value=0.5), x, y)
    assert shapes == [(7,), (7,), (2, 7), (7,), (7,), (7,), (2, 7), (2, 7)]


def test_silu_and_mish_gradients_are_written_as_torch_writes_them():
    # the sigmoid taken once, 1 + t a number added, 1 - t a tensor of ones less t
    x = torch.tensor([-1.5, 0.5, 2.0], dtype=torch.float64, requires_grad=True)
    graphs, packed = [], []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t.shape) or t,
                                                  lambda t: t):
        for function in (F.silu, F.mish):
            (grad,) = torch.autograd.grad(function(x).sum(), x, create_graph=True)
            graphs.append(preorder_names(grad.grad_fn, 4))
    assert graphs == [
        "MulBackward0 .MulBackward0 ..None ..SigmoidBackward0 ...AccumulateGrad .AddBackward1 "
        "..MulBackward0 ...AccumulateGrad ...SubBackward0 ....None ....SigmoidBackward0",
        "MulBackward0 .None .AddBackward0 ..TanhBackward0 ...Log1PBackward0 ....ExpBackward0 "
        "..MulBackward0 ...MulBackward0 ....AccumulateGrad ....SigmoidBackward0 ...SubBackward0 "
        "....None ....MulBackward0",
    ]
    assert len(packed) == 19


def test_with_logits_gradient_divides_the_mean_last():
    x = torch.tensor([0.0, 0.0, 0.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.25, 0.5, 1.0], dtype=torch.float64, requires_grad=True)
    grads = torch.autograd.grad(F.binary_cross_entropy_with_logits(x, y), (x, y),
                                create_graph=True)
    assert grads[0].tolist() == [0.25 / 3, 0.0, -0.5 / 3]
    assert [preorder_names(g.grad_fn, 2) for g in grads] == [
        "DivBackward1 .MulBackward0 ..SubBackward0 ..None",
        "DivBackward1 .MulBackward0 ..NegBackward0 ..None"]
    assert [g.grad_fn._saved_other for g in grads] == [3, 3]


def test_binary_cross_entropy_target_gradient_is_minus_logit_over_the_mean():
    p = torch.tensor([0.2, 0.5, 0.7], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([0.25, 0.5, 1.0], dtype=torch.float64, requires_grad=True)
    grads = torch.autograd.grad(F.binary_cross_entropy(p, t), (p, t), create_graph=True)
    assert grads[1].tolist() == [0.46209812037329684, -0.0, -0.28243262012906784]
    assert preorder_names(grads[1].grad_fn, 3) == (
        "DivBackward1 .MulBackward0 ..NegBackward0 ...LogitBackward0 ..None")
