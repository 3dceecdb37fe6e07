"""Black-box tests: the in-place activations of torch.nn.functional: values, the nodes they
record and what those keep, gradients, versions, and the refusals of leaves and integers.
"""

import math

import pytest
import torch
import torch.nn.functional as F

from conformance._support import matrix_leaf, raises, saved_names

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
X = [-1.5, -0.25, 0.5, 2.0]
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _elu(x, alpha):
    return x if x > 0 else alpha * math.expm1(x)


CASES = {  # name: (call, value of x, derivative at x, node, saved)
    "relu_": (F.relu_, lambda x: max(x, 0.0), lambda x: float(x > 0), "ReluBackward0",
              ["_saved_result"]),
    "elu_": (lambda t: F.elu_(t, 0.5), lambda x: _elu(x, 0.5),
             lambda x: 1.0 if x > 0 else 0.5 * math.exp(x), "EluBackward1",
             ["_saved_alpha", "_saved_input_scale", "_saved_result", "_saved_scale"]),
    "celu_": (lambda t: F.celu_(t, 2.0), lambda x: _elu(x / 2, 2.0) if x <= 0 else x,
              lambda x: 1.0 if x > 0 else math.exp(x / 2), "CeluBackward1",
              ["_saved_alpha", "_saved_result"]),
    "selu_": (F.selu_, lambda x: SELU_SCALE * _elu(x, SELU_ALPHA),
              lambda x: SELU_SCALE * (1.0 if x > 0 else SELU_ALPHA * math.exp(x)),
              "EluBackward1",
              ["_saved_alpha", "_saved_input_scale", "_saved_result", "_saved_scale"]),
    "leaky_relu_": (lambda t: F.leaky_relu_(t, 0.2), lambda x: x if x > 0 else 0.2 * x,
                    lambda x: 1.0 if x > 0 else 0.2, "LeakyReluBackward1",
                    ["_saved_negative_slope", "_saved_result"]),
    "hardtanh_": (lambda t: F.hardtanh_(t, -0.5, 1.0), lambda x: min(max(x, -0.5), 1.0),
                  lambda x: float(-0.5 < x < 1.0), "HardtanhBackward0",
                  ["_saved_max_val", "_saved_min_val", "_saved_self"]),
    "threshold_": (lambda t: F.threshold_(t, 0.0, 7.0), lambda x: x if x > 0 else 7.0,
                   lambda x: float(x > 0), "ThresholdBackward1",
                   ["_saved_self", "_saved_threshold"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_in_place_activation_values_nodes_and_gradients(name):
    call, value, slope, node, saved = CASES[name]
    x = matrix_leaf(X)
    y = x * 1
    out = call(y)
    assert out is y and y._version == 1
    assert type(y.grad_fn).__name__ == node and saved_names(y.grad_fn) == saved
    assert y.tolist() == pytest.approx([value(v) for v in X], rel=1e-12)
    y.backward(torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64))
    assert x.grad.tolist() == pytest.approx(
        [w * slope(v) for w, v in zip([1, 2, 3, 4], X)], rel=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_in_place_activations_refuse_a_leaf_and_rewrite_a_view(name):
    call = CASES[name][0]
    x = matrix_leaf(X)
    with raises(RuntimeError, LEAF):
        call(x)
    assert x._version == 0 and x.tolist() == X
    base = x * 1
    view = base[1:]
    call(view)
    assert type(base.grad_fn).__name__ == "CopySlices"
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"
    base.sum().backward()
    assert x.grad[0].item() == 1.0


def test_in_place_activations_without_grad_write_and_bump_the_version():
    t = torch.tensor([-1.0, 3.0])
    assert F.hardtanh_(t) is t and t.tolist() == [-1.0, 1.0] and t._version == 1
    F.leaky_relu_(t, 0.5)
    assert t.tolist() == [-0.5, 1.0] and t._version == 2


def test_the_bounds_and_slopes_the_in_place_forms_take():
    t = torch.tensor([0.5, 3.0])
    F.hardtanh_(t, 2.0, 1.0)  # no check of the order: the kernel clamps to max_val last
    assert t.tolist() == [1.0, 1.0]
    with raises(ValueError, "min_val cannot be greater than max_val"):
        F.hardtanh(torch.tensor([0.5, 3.0]), 2.0, 1.0, inplace=True)
    t = torch.tensor([5, -3])
    F.hardtanh_(t)
    assert t.tolist() == [1, -1] and t.dtype is torch.int64
    t = torch.tensor([0.5, -3.0])
    F.elu_(t, 2.0, 1.0, 0.5)
    assert t.tolist() == pytest.approx([0.5, 2.0 * math.expm1(-1.5)], rel=1e-6)


def test_a_negative_slope_in_place_cannot_be_differentiated():
    y = matrix_leaf(X) * 1
    F.leaky_relu_(y, -0.5)
    with pytest.raises(RuntimeError, match="In-place leakyReLu backward calculation"):
        y.sum().backward()


@pytest.mark.parametrize("call, kernel", [(F.elu_, "elu_cpu"), (F.celu_, "elu_cpu"),
                                          (F.selu_, "elu_cpu"),
                                          (F.leaky_relu_, "leaky_relu_cpu")])
def test_integer_inputs_are_refused_by_the_kernel(call, kernel):
    t = torch.tensor([1, 2])
    with raises(NotImplementedError, f'"{kernel}" not implemented for \'Long\''):
        call(t)
    assert t._version == 0


@pytest.mark.parametrize("name", sorted(CASES))
def test_in_place_forms_read_their_arguments_as_torch_does(name):
    with raises(TypeError, f"{name}(): argument 'input' (position 1) must be Tensor, not list"):
        getattr(F, name)([1.0])


def test_argument_counts_and_names():
    with raises(TypeError, "elu_() takes from 1 to 4 positional arguments but 5 were given"):
        F.elu_(torch.tensor([5.0]), 1, 2, 3, 4)
    for name in ("elu_", "hardtanh_", "leaky_relu_"):
        with raises(TypeError, f'{name}() missing 1 required positional arguments: "input"'):
            getattr(F, name)(self=torch.tensor([5.0]))
    assert F.elu_(input=torch.tensor([-3.0])).item() == pytest.approx(math.expm1(-3.0))


@pytest.mark.parametrize("name, call, node", [
    ("relu", F.relu, "ReluBackward0"), ("elu", F.elu, "EluBackward1"),
    ("celu", F.celu, "CeluBackward1"), ("selu", F.selu, "EluBackward1"),
    ("leaky_relu", F.leaky_relu, "LeakyReluBackward1"), ("hardtanh", F.hardtanh,
                                                          "HardtanhBackward0"),
    ("relu6", F.relu6, "HardtanhBackward0"),
    ("threshold", lambda t, inplace: F.threshold(t, 0.0, 7.0, inplace=inplace),
     "ThresholdBackward1"),
    ("rrelu", F.rrelu, "RreluWithNoiseBackward1"),
])
def test_inplace_true_writes_and_records_the_in_place_node(name, call, node):
    x = matrix_leaf(X)
    y = x * 1
    assert call(y, inplace=True) is y and y._version == 1
    assert type(y.grad_fn).__name__ == node
    assert y.tolist() == call(x.detach(), inplace=False).tolist()
    with raises(RuntimeError, LEAF):
        call(x, inplace=True)
