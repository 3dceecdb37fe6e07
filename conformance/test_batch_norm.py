"""Black-box tests: batch_norm and instance_norm of torch.nn.functional (and torch.batch_norm,
torch.instance_norm): values, gradients, nodes, running statistics and their versions,
refusals.
"""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import (
    first_edges,
    graph_nodes,
    matrix_leaf,
    numeric_gradient,
    raises,
    saved_names,
)

RNG = np.random.default_rng(7)
X = RNG.uniform(-2.0, 2.0, (4, 3, 2))
WEIGHT, BIAS = np.array([1.5, -0.5, 2.0]), np.array([0.25, 1.0, -1.0])


def _leaf(values):
    return matrix_leaf(np.asarray(values).tolist())


def _batch_normalized(x, mean, var, eps=1e-5):
    shape = (-1,) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)


def _training_reference(x, weight=WEIGHT, bias=BIAS, eps=1e-5):
    axes = (0, *range(2, x.ndim))
    shape = (-1,) + (1,) * (x.ndim - 2)
    out = _batch_normalized(x, x.mean(axes), x.var(axes), eps)
    return out * weight.reshape(shape) + bias.reshape(shape)


@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 2), (2, 3, 2, 2)])
def test_batch_norm_training_values_gradients_and_running_statistics(shape):
    data = RNG.uniform(-2.0, 2.0, shape)
    x, weight, bias = _leaf(data), _leaf(WEIGHT), _leaf(BIAS)
    mean, var = torch.full((3,), 0.5, dtype=torch.float64), torch.full((3,), 2.0,
                                                                       dtype=torch.float64)
    out = F.batch_norm(x, mean, var, weight, bias, training=True, momentum=0.25)
    np.testing.assert_allclose(out.detach().numpy(), _training_reference(data), rtol=1e-12)
    axes = (0, *range(2, data.ndim))
    np.testing.assert_allclose(mean.numpy(), 0.75 * 0.5 + 0.25 * data.mean(axes), rtol=1e-12)
    # the running variance is the unbiased one
    np.testing.assert_allclose(var.numpy(), 0.75 * 2.0 + 0.25 * data.var(axes, ddof=1),
                               rtol=1e-12)
    assert (mean._version, var._version) == (0, 0)  # written by the kernel, not counted
    probe = RNG.uniform(-1.0, 1.0, shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()

    def loss(d, w=WEIGHT, b=BIAS):
        return float((_training_reference(d, w, b) * probe).sum())

    np.testing.assert_allclose(x.grad.numpy(), numeric_gradient(loss, data), atol=1e-7)
    np.testing.assert_allclose(weight.grad.numpy(),
                               numeric_gradient(lambda w: loss(data, w), WEIGHT), atol=1e-7)
    np.testing.assert_allclose(bias.grad.numpy(), probe.sum(axes), rtol=1e-12)


def test_batch_norm_writes_running_statistics_through_a_view():
    storage = torch.zeros(6, dtype=torch.float64)
    x = torch.tensor(X.tolist(), dtype=torch.float64)
    F.batch_norm(x, storage[::2], torch.ones(3, dtype=torch.float64), training=True)
    np.testing.assert_allclose(storage.numpy()[::2], 0.1 * X.mean((0, 2)), rtol=1e-12)
    assert storage.numpy()[1::2].tolist() == [0.0] * 3 and storage._version == 0


def test_batch_norm_evaluation_uses_the_running_statistics():
    x, weight, bias = _leaf(X), _leaf(WEIGHT), _leaf(BIAS)
    mean, var = np.array([0.5, -0.25, 0.0]), np.array([2.0, 0.5, 1.0])
    running = (torch.tensor(mean.tolist(), dtype=torch.float64),
               torch.tensor(var.tolist(), dtype=torch.float64))
    out = F.batch_norm(x, *running, weight, bias, eps=1e-3)
    expected = _batch_normalized(X, mean, var, 1e-3) * WEIGHT[:, None] + BIAS[:, None]
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    assert running[0].tolist() == mean.tolist() and running[1].tolist() == var.tolist()
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.broadcast_to(
        (WEIGHT / np.sqrt(var + 1e-3))[:, None], X.shape), rtol=1e-12)
    np.testing.assert_allclose(weight.grad.numpy(), _batch_normalized(X, mean, var, 1e-3).sum(
        (0, 2)), rtol=1e-12)


def test_batch_norm_node_keeps_what_torch_shows():
    x, weight, bias = _leaf(X), _leaf(WEIGHT), _leaf(BIAS)
    mean, var = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    node = F.batch_norm(x, mean, var, weight, bias, True, 0.1, 1e-4).grad_fn
    assert type(node).__name__ == "NativeBatchNormBackward0"
    assert node._saved_input is x and node._saved_weight is weight
    assert node._saved_running_mean is mean and node._saved_running_var is var
    assert node._saved_eps == 1e-4 and node._saved_training is True
    assert {"_saved_eps", "_saved_input", "_saved_running_mean", "_saved_running_var",
            "_saved_training", "_saved_weight"} <= set(saved_names(node))
    assert not hasattr(node, "_saved_momentum")
    assert [type(n).__name__ for n, _ in node.next_functions] == ["AccumulateGrad"] * 3
    bare = F.batch_norm(x, None, None, training=True).grad_fn
    assert bare._saved_weight is None and bare._saved_running_mean is None
    assert [n for n, _ in bare.next_functions][1:] == [None, None]
    assert F.batch_norm(x.detach(), mean, var, training=True).grad_fn is None


def test_batch_norm_differentiates_twice():
    x = _leaf(X)
    for training in (True, False):
        mean, var = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
        out = F.batch_norm(x, mean, var, training=training)
        (grad,) = torch.autograd.grad((out * out * out).sum(), x, create_graph=True)
        (second,) = torch.autograd.grad(grad.sum(), x)

        def first(d, training=training):
            t = torch.tensor(d.tolist(), dtype=torch.float64, requires_grad=True)
            o = F.batch_norm(t, torch.zeros(3, dtype=torch.float64),
                             torch.ones(3, dtype=torch.float64), training=training)
            return float(torch.autograd.grad((o * o * o).sum(), t)[0].sum())

        np.testing.assert_allclose(second.numpy(), numeric_gradient(first, X), atol=1e-6)


def test_batch_norm_of_float16_with_float32_statistics():
    x = torch.tensor(X.tolist(), dtype=torch.float16)
    mean, var = torch.zeros(3), torch.ones(3)
    out = F.batch_norm(x, mean, var, torch.ones(3), torch.zeros(3), training=True)
    assert out.dtype == torch.float16 and mean.dtype == torch.float32
    wide = np.asarray(x.tolist())
    np.testing.assert_allclose(np.asarray(out.tolist()), _training_reference(
        wide, np.ones(3), np.zeros(3)), atol=4e-3)
    np.testing.assert_allclose(mean.numpy(), 0.1 * wide.mean((0, 2)), rtol=1e-5)


def test_batch_norm_of_an_empty_batch_is_a_scaled_copy():
    x = torch.zeros(0, 3, dtype=torch.float64, requires_grad=True)
    weight, bias = _leaf(WEIGHT), _leaf(BIAS)
    mean = torch.zeros(4)  # not checked: an empty input returns first
    out = F.batch_norm(x, mean, None, weight, bias, training=True)
    assert out.shape == (0, 3) and mean.tolist() == [0.0] * 4
    assert graph_nodes(out) == [(0, "AddBackward0"), (1, "MulBackward0"), (2, "CloneBackward0"),
                                (3, "AccumulateGrad"), (2, "SelectBackward0"),
                                (3, "AccumulateGrad"), (1, "SelectBackward0"),
                                (2, "AccumulateGrad")]
    assert first_edges(F.batch_norm(x, None, None, training=True)) == ["CloneBackward0"]


def test_torch_batch_norm_skips_the_python_checks():
    mean, var = torch.zeros(3), torch.ones(3)
    x = torch.tensor([[1.0, 2.0, 3.0]])
    out = torch.batch_norm(x, None, None, mean, var, False, 0.1, 1e-5, False)
    np.testing.assert_allclose(out.numpy(), [[1.0, 2.0, 3.0]], rtol=1e-4)
    out = torch.batch_norm(torch.ones(2, 3), None, None, mean, var, True, 0.5, 1e-5, False)
    assert out.tolist() == [[0.0] * 3] * 2 and mean.tolist() == [0.5] * 3


def test_batch_norm_refusals():
    x, mean, var = torch.ones(4, 3), torch.zeros(3), torch.ones(3)
    with raises(ValueError, "Expected more than 1 value per channel when training, got input "
                            "size torch.Size([1, 3, 1])"):
        F.batch_norm(torch.ones(1, 3, 1), mean, var, training=True)
    F.batch_norm(torch.ones(1, 3), mean, var)  # one value per channel is fine for evaluation
    with raises(ValueError, "batch_norm eps must be positive during training, but got 0.0"):
        F.batch_norm(x, mean, var, training=True, eps=0.0)
    with raises(TypeError, "batch_norm(): argument 'momentum' (position 7) must be float, not "
                           "NoneType"):
        F.batch_norm(x, mean, var, training=True, momentum=None)
    with raises(RuntimeError, "running_mean should contain 3 elements not 4"):
        F.batch_norm(x, torch.zeros(4), None, training=False)
    with raises(RuntimeError, "running_var must be defined in evaluation mode"):
        F.batch_norm(x, mean, None)
    with raises(RuntimeError, "running_mean must be defined in evaluation mode"):
        F.batch_norm(x, None, None)
    with raises(ValueError, "running_mean and running_var must either both be None or neither "
                            "be None"):
        F.batch_norm(x.long(), None, var, training=True)
    with raises(RuntimeError, "weight should contain 3 elements not 2"):
        F.batch_norm(x, mean, var, torch.ones(2), training=True)
    with raises(RuntimeError, "bias should contain 3 elements not 4"):
        F.batch_norm(x, None, None, None, torch.ones(4), training=True)
    with raises(RuntimeError, "running_mean should contain 0 elements not 3"):
        F.batch_norm(torch.ones(3), mean, var, training=True)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                            "got 1)"):
        F.batch_norm(torch.ones(3), None, None, training=True)
    with raises(IndexError, "tuple index out of range"):
        F.batch_norm(torch.tensor(1.0), mean, var, training=True)


def test_batch_norm_dtype_refusals_leave_the_statistics_alone():
    x, mean, var = torch.ones(4, 3), torch.zeros(3), torch.ones(3)
    with raises(NotImplementedError, "\"batch_norm\" not implemented for 'Long'"):
        F.batch_norm(x.long(), mean, var, training=True)
    with raises(RuntimeError, "mixed dtype (CPU): all inputs must share same datatype."):
        F.batch_norm(x.double(), mean, var, training=True)
    with raises(RuntimeError, "mixed dtype (CPU): expect parameter to have scalar type of "
                              "Float"):
        F.batch_norm(x, mean.double(), var.double(), training=True)
    with raises(RuntimeError, "mixed dtype (CPU): expect parameter to have scalar type of "
                              "Float"):
        F.batch_norm(x.half(), mean.half(), var.half(), torch.ones(3), training=True)
    with raises(RuntimeError, "The function 'native_batch_norm' is not differentiable with "
                              "respect to argument 'running_mean'. This input cannot have "
                              "requires_grad True."):
        F.batch_norm(x, torch.zeros(3, requires_grad=True), var, training=True)
    assert mean.tolist() == [0.0] * 3 and var.tolist() == [1.0] * 3
    with torch.no_grad():  # the check is autograd's: without it, the statistics are updated
        F.batch_norm(x + 1, torch.zeros(3, requires_grad=True), var, training=True)
    assert var.tolist() == pytest.approx([0.9] * 3)


def test_instance_norm_is_batch_norm_on_a_view():
    data = RNG.uniform(-2.0, 2.0, (2, 3, 4))
    x, weight, bias = _leaf(data), _leaf(WEIGHT), _leaf(BIAS)
    mean, var = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    out = F.instance_norm(x, mean, var, weight, bias, momentum=0.5)
    expected = ((data - data.mean(2, keepdims=True)) / np.sqrt(data.var(2, keepdims=True) + 1e-5)
                * WEIGHT[:, None] + BIAS[:, None])
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    assert graph_nodes(out) == [
        (0, "ViewBackward0"), (1, "NativeBatchNormBackward0"), (2, "ViewBackward0"),
        (3, "AccumulateGrad"), (2, "RepeatBackward0"), (3, "AccumulateGrad"),
        (2, "RepeatBackward0"), (3, "AccumulateGrad")]
    node = out.grad_fn.next_functions[0][0]
    assert node._saved_input.shape == (1, 6, 4) and node._saved_training is True
    assert node._saved_weight.tolist() == WEIGHT.tolist() * 2
    assert out.grad_fn.next_functions[0][0].next_functions[1][0]._saved_repeats == (2,)
    # each running statistic is the mean over the samples of their estimates, copied in
    np.testing.assert_allclose(mean.numpy(), 0.5 * data.mean((0, 2)), rtol=1e-12)
    np.testing.assert_allclose(var.numpy(), 0.5 + 0.5 * data.var(2, ddof=1).mean(0), rtol=1e-12)
    assert (mean._version, var._version) == (1, 1)
    probe = RNG.uniform(-1.0, 1.0, data.shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()

    def loss(d):
        normalized = (d - d.mean(2, keepdims=True)) / np.sqrt(d.var(2, keepdims=True) + 1e-5)
        return float(((normalized * WEIGHT[:, None] + BIAS[:, None]) * probe).sum())

    np.testing.assert_allclose(x.grad.numpy(), numeric_gradient(loss, data), atol=1e-7)
    np.testing.assert_allclose(bias.grad.numpy(), probe.sum((0, 2)), rtol=1e-12)


def test_instance_norm_with_the_running_statistics():
    data = RNG.uniform(-2.0, 2.0, (2, 3, 1))
    x = _leaf(data)  # one spatial position is fine when the running statistics normalize
    strided = _leaf(RNG.uniform(-2.0, 2.0, (3, 2, 4))).transpose(0, 1)
    assert first_edges(F.instance_norm(strided)) == [
        "ViewBackward0", "NativeBatchNormBackward0", "ViewBackward0", "CloneBackward0",
        "TransposeBackward0"]
    mean, var = torch.tensor([0.5, -1.0, 0.0], dtype=torch.float64), torch.full(
        (3,), 4.0, dtype=torch.float64)
    out = F.instance_norm(x, mean, var, use_input_stats=False, eps=0.0)
    np.testing.assert_allclose(out.detach().numpy(), (data - mean.numpy()[:, None]) / 2.0,
                               rtol=1e-12)
    assert (mean._version, var._version) == (0, 0)
    assert out.grad_fn.next_functions[0][0]._saved_training is False


def test_instance_norm_refusals():
    with raises(ValueError, "Expected more than 1 spatial element when training, got input "
                            "size torch.Size([2, 4, 1])"):
        F.instance_norm(torch.ones(2, 4, 1))
    with raises(ValueError, "Expected more than 1 spatial element when training, got input "
                            "size torch.Size([2, 4])"):
        F.instance_norm(torch.ones(2, 4))
    with raises(RuntimeError, "Expected running_mean and running_var to be defined when "
                              "use_input_stats is false"):
        F.instance_norm(torch.ones(2, 4, 3), torch.zeros(4), None, use_input_stats=False)
    with raises(RuntimeError, "weight should contain 8 elements not 6"):
        F.instance_norm(torch.ones(2, 4, 3), weight=torch.ones(3))
    with raises(RuntimeError, "running_mean should contain 8 elements not 6"):
        F.instance_norm(torch.ones(2, 4, 3), torch.zeros(3), torch.ones(4))
    with raises(NotImplementedError, "\"batch_norm\" not implemented for 'Long'"):
        F.instance_norm(torch.ones(2, 4, 3).long())
    x = torch.tensor([[[1.0, 3.0]]])
    assert torch.instance_norm(x, None, None, None, None, True, 0.1, 0.0, False).tolist() == [
        [[-1.0, 1.0]]]


@pytest.mark.parametrize("make, strides", [
    (lambda: torch.arange(6.0).reshape(3, 2).t(), (3, 1)),
    (lambda: torch.arange(120.0).reshape(2, 3, 5, 4).permute(0, 1, 3, 2), (60, 20, 5, 1)),
    (lambda: torch.arange(120.0).reshape(2, 4, 5, 3).permute(0, 3, 1, 2), (60, 1, 15, 3)),
])
@pytest.mark.parametrize("training", [True, False])
def test_the_output_is_in_the_inputs_suggested_memory_format(make, strides, training):
    x = make()
    c = x.shape[1]
    out = F.batch_norm(x, torch.zeros(c), torch.ones(c), training=training)
    assert out.stride() == strides
