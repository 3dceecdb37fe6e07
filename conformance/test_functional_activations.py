"""Black-box tests: the activations of torch.nn.functional, their nodes, gradients and
refusals. Expected values come from the formulas, worked out here in Python floats.
"""

import math
import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import first_edges, raises

XS = [-25.0, -3.0, -1.0, -0.25, 0.0, 0.5, 3.0, 25.0]


def _sigmoid(x):
    return 1 / (1 + math.exp(-x))


def _softplus(x, beta=1.0, threshold=20.0):
    return x if x * beta > threshold else math.log1p(math.exp(x * beta)) / beta


def _phi(x):
    return (1 + math.erf(x / math.sqrt(2))) / 2


def _tanh_cdf(x):
    return (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))) / 2


def _tanh_cdf_slope(x):
    t = math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))
    return (1 - t * t) * math.sqrt(2 / math.pi) * (1 + 3 * 0.044715 * x * x) / 2


SIXTH = 0.1666666716337204  # 1/6 rounded to float32: torch's hardsigmoid gradient uses it
CASES = {  # name: (call, value, derivative, node)
    "relu": (F.relu, lambda x: max(x, 0.0), lambda x: float(x > 0), "ReluBackward0"),
    "leaky_relu": (lambda t: F.leaky_relu(t, 0.2), lambda x: x if x > 0 else 0.2 * x,
                   lambda x: 1.0 if x > 0 else 0.2, "LeakyReluBackward0"),
    "elu": (lambda t: F.elu(t, 0.5), lambda x: x if x > 0 else 0.5 * math.expm1(x),
            lambda x: 1.0 if x > 0 else 0.5 * math.exp(x), "EluBackward0"),
    "gelu": (F.gelu, lambda x: x * _phi(x),
             lambda x: _phi(x) + x * math.exp(-x * x / 2) / math.sqrt(2 * math.pi),
             "GeluBackward0"),
    "gelu_tanh": (lambda t: F.gelu(t, approximate="tanh"), lambda x: x * _tanh_cdf(x),
                  lambda x: _tanh_cdf(x) + x * _tanh_cdf_slope(x), "GeluBackward0"),
    "silu": (F.silu, lambda x: x * _sigmoid(x),
             lambda x: _sigmoid(x) * (1 + x * (1 - _sigmoid(x))), "SiluBackward0"),
    "softplus": (lambda t: F.softplus(t, beta=2, threshold=5), lambda x: _softplus(x, 2, 5),
                 lambda x: 1.0 if 2 * x > 5 else _sigmoid(2 * x), "SoftplusBackward0"),
    "mish": (F.mish, lambda x: x * math.tanh(_softplus(x)),
             lambda x: math.tanh(_softplus(x)) + x * _sigmoid(x) * (
                 1 - math.tanh(_softplus(x)) ** 2), "MishBackward0"),
    "hardtanh": (lambda t: F.hardtanh(t, -1.0, 0.5), lambda x: min(max(x, -1.0), 0.5),
                 lambda x: float(-1.0 < x < 0.5), "HardtanhBackward0"),
    "relu6": (F.relu6, lambda x: min(max(x, 0.0), 6.0), lambda x: float(0 < x < 6),
              "HardtanhBackward0"),
    "hardsigmoid": (F.hardsigmoid, lambda x: min(max(x + 3, 0.0), 6.0) / 6,
                    lambda x: SIXTH if -3 < x < 3 else 0.0, "HardsigmoidBackward0"),
    "hardswish": (F.hardswish, lambda x: x * min(max(x + 3, 0.0), 6.0) / 6,
                  lambda x: 0.0 if x <= -3 else x / 3 + 0.5 if x < 3 else 1.0,
                  "HardswishBackward0"),
    "logsigmoid": (F.logsigmoid, lambda x: min(x, 0.0) - math.log1p(math.exp(-abs(x))),
                   lambda x: _sigmoid(-x), "LogSigmoidBackward0"),
    "softsign": (F.softsign, lambda x: x / (1 + abs(x)), lambda x: 1 / (1 + abs(x)) ** 2,
                 "DivBackward0"),
    "tanhshrink": (F.tanhshrink, lambda x: x - math.tanh(x), lambda x: math.tanh(x) ** 2,
                   "SubBackward0"),
    "softshrink": (lambda t: F.softshrink(t, 0.25),
                   lambda x: x - 0.25 if x > 0.25 else x + 0.25 if x < -0.25 else 0.0,
                   lambda x: float(abs(x) > 0.25), "SoftshrinkBackward0"),
    "hardshrink": (lambda t: F.hardshrink(t, 0.25), lambda x: 0.0 if abs(x) <= 0.25 else x,
                   lambda x: float(abs(x) > 0.25), "HardshrinkBackward0"),
    "sigmoid": (F.sigmoid, _sigmoid, lambda x: _sigmoid(x) * (1 - _sigmoid(x)),
                "SigmoidBackward0"),
    "tanh": (F.tanh, math.tanh, lambda x: 1 - math.tanh(x) ** 2, "TanhBackward0"),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values_gradients_and_nodes(name, dtype):
    function, value, derivative, node = CASES[name]
    x = torch.tensor(XS, dtype=getattr(torch, dtype), requires_grad=True)
    y = function(x)
    assert type(y.grad_fn).__name__ == node and y.dtype is x.dtype
    tol = 1e-12 if dtype == "float64" else 2e-6
    assert y.tolist() == pytest.approx([value(v) for v in XS], rel=tol, abs=tol)
    y.backward(torch.full_like(y, 0.75))
    assert x.grad.tolist() == pytest.approx([0.75 * derivative(v) for v in XS], rel=tol, abs=tol)


def test_what_the_nodes_keep():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    node = F.leaky_relu(x, 0.3).grad_fn
    assert node._saved_negative_slope == 0.3 and node._saved_self is x
    node = F.softplus(x).grad_fn
    assert (node._saved_beta, node._saved_threshold) == (1, 20)
    assert F.gelu(x, approximate="tanh").grad_fn._saved_approximate == "tanh"
    assert F.gelu(x).grad_fn._saved_approximate == "none"
    node = F.relu6(x).grad_fn
    assert (node._saved_min_val, node._saved_max_val) == (0, 6)
    assert F.hardtanh(x).grad_fn._saved_min_val == -1.0
    assert F.glu(x).grad_fn._saved_dim == 2**64 - 1  # -1, shown unsigned
    assert F.selu(x).grad_fn._saved_scale == pytest.approx(1.0507009873554805)
    assert F.softshrink(x, 0.75).grad_fn._saved_lambd == 0.75


def test_glu_halves_and_gates():
    x = torch.tensor([[1.0, -2.0, 0.5, 3.0]], dtype=torch.float64, requires_grad=True)
    y = F.glu(x)
    s = [_sigmoid(0.5), _sigmoid(3.0)]
    assert y[0].tolist() == pytest.approx([1.0 * s[0], -2.0 * s[1]], rel=1e-15)
    y.sum().backward()
    assert x.grad[0].tolist() == pytest.approx(
        [s[0], s[1], 1.0 * s[0] * (1 - s[0]), -2.0 * s[1] * (1 - s[1])], rel=1e-14)
    assert F.glu(torch.ones(4, 2), 0).shape == (2, 2)


def test_in_place_nodes():
    base = torch.tensor([-1.0, 2.0], requires_grad=True)
    for call, node, kept in [
        (lambda t: F.relu(t, inplace=True), "ReluBackward0", "result"),
        (lambda t: F.leaky_relu(t, 0.1, inplace=True), "LeakyReluBackward1", "result"),
        (lambda t: F.elu(t, inplace=True), "EluBackward1", "result"),
        (lambda t: F.selu(t, inplace=True), "EluBackward1", "result"),
        (lambda t: F.celu(t, 2.0, inplace=True), "CeluBackward1", "result"),
        (lambda t: F.threshold(t, 0.5, 7.0, inplace=True), "ThresholdBackward1", "self"),
        (lambda t: F.silu(t, inplace=True), "SiluBackward0", "self"),
        (lambda t: F.hardtanh(t, inplace=True), "HardtanhBackward0", "self"),
        (lambda t: F.relu6(t, inplace=True), "HardtanhBackward0", "self"),
        (lambda t: F.mish(t, inplace=True), "MishBackward0", "self"),
        (lambda t: F.hardswish(t, inplace=True), "HardswishBackward0", "self"),
        (lambda t: F.hardsigmoid(t, inplace=True), "HardsigmoidBackward0", "self"),
    ]:
        t = base * 1
        out = call(t)
        assert out is t and t._version == 1
        assert first_edges(out) == [node, "MulBackward0"]
        assert hasattr(out.grad_fn, f"_saved_{kept}")
        out.sum().backward()
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        F.silu(base, inplace=True)


def test_in_place_leaky_relu_with_a_negative_slope_refuses_its_backward():
    t = torch.tensor([-1.0, 2.0], requires_grad=True) * 1
    F.leaky_relu(t, -0.5, inplace=True)
    assert t.tolist() == [0.5, 2.0]
    with pytest.raises(RuntimeError, match="^In-place leakyReLu backward calculation is "
                                           "triggered with a negative slope"):
        t.sum().backward()


def test_integers():
    i = torch.tensor([1, -2])
    assert F.relu(i).tolist() == [1, 0] and F.relu(i).dtype is torch.int64
    assert F.hardtanh(i).tolist() == [1, -1] and F.relu6(i).dtype is torch.int64
    assert F.softsign(i).dtype is torch.float32 and F.tanhshrink(i).dtype is torch.float32
    for function, kernel in [(F.leaky_relu, "leaky_relu_cpu"), (F.elu, "elu_cpu"),
                             (F.gelu, "GeluKernelImpl"), (F.silu, "silu_cpu"),
                             (F.softplus, "softplus_cpu"), (F.mish, "mish_cpu"),
                             (F.hardswish, "hardswish_cpu"), (F.hardsigmoid, "hardsigmoid_cpu"),
                             (F.logsigmoid, "log_sigmoid_cpu"), (F.softshrink, "softshrink_check"),
                             (lambda t: F.glu(t.view(1, 2)), "glu_cpu")]:
        with raises(NotImplementedError, f'"{kernel}" not implemented for \'Long\''):
            function(i)
    with raises(RuntimeError, "Bool inputs not supported for hardtanh"):
        F.relu6(torch.tensor([True]))
    with raises(RuntimeError, "Boolean inputs not supported for relu"):
        F.relu(torch.tensor([True]))


def test_refusals():
    x = torch.tensor([1.0, -2.0])
    with raises(RuntimeError, "approximate argument must be either none or tanh."):
        F.gelu(x, approximate="exact")
    with raises(ValueError, "min_val cannot be greater than max_val"):
        F.hardtanh(x, 2.0, 1.0)
    with raises(RuntimeError, "lambda must be in range [0, 3.40282e+38] for input dtype Float, "
                              "but found -1"):
        F.softshrink(x, -1.0)
    with raises(RuntimeError, "lambda must be in range [0, 1.79769e+308] for input dtype "
                              "Double, but found -0.25"):
        F.softshrink(x.double(), -0.25)
    with raises(RuntimeError, "Halving dimension must be even, but dimension 1 is size 3"):
        F.glu(torch.ones(2, 3))
    with raises(RuntimeError, "glu does not support scalars because halving size must be even"):
        F.glu(torch.tensor(1.0))


def test_softmax_family_and_its_implicit_dim():
    x = torch.tensor([[1.0, 2.0], [0.5, -1.0]], dtype=torch.float64, requires_grad=True)
    for name, node in [("softmax", ["SoftmaxBackward0"]),
                       ("log_softmax", ["LogSoftmaxBackward0"]),
                       ("softmin", ["SoftmaxBackward0", "NegBackward0"])]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            implicit = getattr(F, name)(x)
        assert [str(w.message) for w in caught] == [
            f"Implicit dimension choice for {name} has been deprecated. Change the call to "
            "include dim=X as an argument."]
        assert caught[0].category is UserWarning
        assert torch.equal(implicit, getattr(F, name)(x, 1)) and first_edges(implicit) == node
    e = [math.exp(-1.0), math.exp(-2.0)]
    assert F.softmin(x, dim=1)[0].tolist() == pytest.approx([e[0] / sum(e), e[1] / sum(e)])
    with pytest.warns(UserWarning, match="^Implicit dimension choice for softmax"):
        one = F.softmax(torch.zeros(2, 3, 4))  # three dimensions: a single image, dim 0
    assert one.sum(0).flatten().tolist() == pytest.approx([1.0] * 12)
    assert F.softmax(x, 1, dtype=torch.float32).dtype is torch.float32


def test_normalize():
    x = torch.tensor([[3.0, 4.0], [0.0, 0.0]], dtype=torch.float64, requires_grad=True)
    y = F.normalize(x)
    assert y.tolist() == [[0.6, 0.8], [0.0, 0.0]]
    names, node = [type(y.grad_fn).__name__], y.grad_fn.next_functions[1][0]
    while type(node).__name__ != "AccumulateGrad":
        names.append(type(node).__name__)
        node = node.next_functions[0][0]
    assert names == ["DivBackward0", "ExpandBackward0", "ClampMinBackward0",
                     "LinalgVectorNormBackward0"]

    assert F.normalize(x, p=1, dim=0).tolist() == [[1.0, 1.0], [0.0, 0.0]]
    y.backward(torch.tensor([[1.0, 0.0], [1.0, 1.0]], dtype=torch.float64))
    # d(x/|x|) = (I - u u^T) / |x|, u = (0.6, 0.8); the zero row divides by eps
    assert x.grad[0].tolist() == pytest.approx([0.64 / 5, -0.48 / 5])
    assert x.grad[1].tolist() == [1e12, 1e12]


def test_softshrink_keeps_the_sign_of_zero_and_passes_nan_on():
    x = torch.tensor([-0.3, 0.3, -0.0, 0.0, -1.0, float("nan")])
    out = F.softshrink(x, 0.5)
    assert [math.copysign(1.0, v) for v in out.tolist()[:4]] == [-1.0, 1.0, -1.0, 1.0]
    assert out.tolist()[4] == -0.5 and math.isnan(out.tolist()[5])
