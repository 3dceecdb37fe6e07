"""torch.nn.init and torch.nn.utils' clipping: writes without recording, in torch's words."""

import math
import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

init = torch.nn.init


def _param(*shape):
    return torch.nn.Parameter(torch.empty(*shape))


@pytest.mark.parametrize("fill, shape, writes", [
    (lambda t: init.uniform_(t, -2, 3), (2, 3), 1),
    (lambda t: init.normal_(t, 1, 2), (2, 3), 1),
    (lambda t: init.constant_(t, 0.5), (2, 3), 1),
    (init.ones_, (2, 3), 1), (init.zeros_, (2, 3), 1), (init.eye_, (3, 2), 1),
    (init.dirac_, (4, 2, 3, 3), 3), (lambda t: init.dirac_(t, 2), (4, 2, 3), 5),
    (init.xavier_uniform_, (5, 3, 2), 1), (init.xavier_normal_, (5, 3), 1),
    (init.kaiming_uniform_, (5, 3, 2), 1), (init.kaiming_normal_, (5, 3), 1),
    (init.orthogonal_, (3, 5), 2), (lambda t: init.sparse_(t, 0.3), (6, 4), 5),
    (init.trunc_normal_, (50,), 2), (lambda t: init.trunc_normal_(t, 0, 1, 2, 2.5), (50,), 2),
])
def test_an_initializer_writes_in_place_and_records_nothing(fill, shape, writes):
    torch.manual_seed(0)
    p = _param(*shape)
    assert fill(p) is p
    assert p._version == writes
    assert p.is_leaf and p.requires_grad and p.grad_fn is None
    assert torch.is_grad_enabled()


def test_spreads_follow_the_fans():
    torch.manual_seed(0)
    w = init.kaiming_uniform_(_param(400, 30, 3), mode="fan_in", nonlinearity="relu")
    bound = math.sqrt(3.0) * math.sqrt(2.0) / math.sqrt(90)
    assert w.abs().max().item() <= bound and w.abs().max().item() > 0.99 * bound
    x = init.xavier_normal_(_param(300, 200), gain=2.0)
    assert abs(x.std().item() - 2.0 * math.sqrt(2.0 / 500)) < 0.002
    t = init.trunc_normal_(_param(10_000), mean=0.5, std=1.0, a=0.0, b=1.0)
    assert t.min().item() >= 0.0 and t.max().item() <= 1.0


def test_structured_initializers():
    e = init.eye_(_param(2, 3))
    assert e.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    d = init.dirac_(_param(4, 2, 3), groups=2)
    assert [(o, i, k) for o in range(4) for i in range(2) for k in range(3)
            if d[o, i, k].item() == 1.0] == [(0, 0, 1), (1, 1, 1), (2, 0, 1), (3, 1, 1)]
    q = init.orthogonal_(_param(3, 5), gain=2.0).detach().numpy()
    np.testing.assert_allclose(q @ q.T, 4.0 * np.eye(3), atol=1e-5)
    s = init.sparse_(_param(10, 4), sparsity=0.3)
    assert [(s[:, c] == 0).sum().item() for c in range(4)] == [3, 3, 3, 3]


@pytest.mark.parametrize("nonlinearity, param, gain", [
    ("linear", None, 1), ("conv_transpose2d", None, 1), ("sigmoid", None, 1),
    ("tanh", None, 5.0 / 3), ("relu", None, math.sqrt(2.0)), ("selu", None, 0.75),
    ("leaky_relu", None, math.sqrt(2.0 / (1 + 0.01**2))),
    ("leaky_relu", 3, math.sqrt(2.0 / 10)),
])
def test_gains(nonlinearity, param, gain):
    assert init.calculate_gain(nonlinearity, param) == gain


@pytest.mark.parametrize("call, message", [
    (lambda: init.calculate_gain("foo"), "Unsupported nonlinearity foo"),
    (lambda: init.calculate_gain("leaky_relu", True), "negative_slope True not a valid number"),
    (lambda: init.eye_(torch.empty(3)), "Only tensors with 2 dimensions are supported"),
    (lambda: init.xavier_uniform_(torch.empty(3)),
     "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"),
    (lambda: init.kaiming_uniform_(torch.empty(2, 2), mode="fan"),
     "Mode fan not supported, please use one of ['fan_in', 'fan_out']"),
    (lambda: init.dirac_(torch.empty(2, 2)),
     "Only tensors with 3, 4, or 5 dimensions are supported"),
    (lambda: init.dirac_(torch.empty(3, 2, 2), groups=2), "dim 0 must be divisible by groups"),
    (lambda: init.orthogonal_(torch.empty(3)),
     "Only tensors with 2 or more dimensions are supported"),
    (lambda: init.sparse_(torch.empty(3), 0.1), "Only tensors with 2 dimensions are supported"),
])
def test_refusals(call, message):
    with raises(ValueError, message):
        call()


def test_warnings():
    with pytest.warns(UserWarning, match="^Initializing zero-element tensors is a no-op$"):
        init.kaiming_normal_(_param(0, 3))
    with pytest.warns(UserWarning, match=r"^mean is more than 2 std from \[a, b\]"):
        init.trunc_normal_(_param(5), mean=5.0, std=1.0, a=-1.0, b=1.0)
    with pytest.warns(FutureWarning, match="^`nn.init.uniform` is now deprecated in favor of "
                                           "`nn.init.uniform_`.$"):
        init.uniform(_param(2))


def _with_grads(*grads):
    params = [torch.nn.Parameter(torch.zeros(len(g), dtype=torch.float64)) for g in grads]
    for p, g in zip(params, grads):
        p.grad = torch.tensor(g, dtype=torch.float64)
    return params


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.0, math.inf])
def test_clip_grad_norm_scales_all_gradients_together(norm_type):
    grads = [[3.0, -4.0], [12.0], [0.5, 0.25, -1.0]]
    params = _with_grads(*grads) + [torch.nn.Parameter(torch.zeros(2))]  # no gradient: skipped
    total = np.linalg.norm(np.concatenate(grads), norm_type)
    returned = torch.nn.utils.clip_grad_norm_(params, max_norm=2.0, norm_type=norm_type)
    assert returned.item() == pytest.approx(total, rel=1e-12) and not returned.requires_grad
    factor = 2.0 / (total + 1e-6)
    for p, g in zip(params, grads):
        np.testing.assert_allclose(p.grad.numpy(), np.array(g) * factor, rtol=1e-12)
        assert p.grad._version == 1
    assert params[3].grad is None


def test_a_norm_within_the_limit_leaves_gradients_as_they_are():
    (p,) = _with_grads([0.3, 0.4])
    assert torch.nn.utils.clip_grad_norm_(p, 1.0).item() == pytest.approx(0.5)
    assert p.grad.tolist() == [0.3, 0.4]


def test_the_halves_of_clip_grad_norm():
    params = _with_grads([3.0], [4.0])
    total = torch.nn.utils.get_total_norm([p.grad for p in params])
    assert total.item() == 5.0
    torch.nn.utils.clip_grads_with_norm_(params, 1.0, total)
    assert [p.grad.item() for p in params] == pytest.approx([0.6, 0.8])
    assert torch.nn.utils.get_total_norm([]).tolist() == 0.0


def test_clip_grad_value_clamps_each_element():
    a, b = _with_grads([0.5, -3.0], [0.05])
    torch.nn.utils.clip_grad_value_([a, b], 0.1)
    assert a.grad.tolist() == [0.1, -0.1] and b.grad.tolist() == [0.05]


def test_clipping_refusals_and_warnings():
    params = _with_grads([math.nan, 1.0])
    with raises(RuntimeError, "The total norm of order 2.0 for gradients from `parameters` is "
                              "non-finite, so it cannot be clipped. To disable this error and "
                              "scale the gradients by the non-finite norm anyway, set "
                              "`error_if_nonfinite=False`"):
        torch.nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
    with pytest.warns(UserWarning, match="^`parameters` is an empty generator"):
        torch.nn.utils.clip_grad_norm_((p for p in []), 1.0)
    with pytest.warns(FutureWarning, match="^`torch.nn.utils.clip_grad_norm` is now deprecated"):
        torch.nn.utils.clip_grad_norm(_with_grads([1.0]), 1.0)


def test_parameters_as_one_vector_and_back():
    a, b = torch.nn.Parameter(torch.ones(2, 2)), torch.nn.Parameter(torch.zeros(3))
    v = torch.nn.utils.parameters_to_vector([a, b])
    assert v.tolist() == [1.0] * 4 + [0.0] * 3 and v.grad_fn.name() == "CatBackward0"
    source = torch.arange(7.0)
    torch.nn.utils.vector_to_parameters(source, [a, b])
    assert a.tolist() == [[0.0, 1.0], [2.0, 3.0]] and b.tolist() == [4.0, 5.0, 6.0]
    assert a.is_leaf and a.requires_grad
    source[0] = 9.0
    assert a[0, 0].item() == 9.0  # a view of the vector's storage
    with raises(TypeError, "expected torch.Tensor, but got: list"):
        torch.nn.utils.vector_to_parameters([1.0], [a])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.nn.utils.parameters_to_vector([a])
