"""Black-box tests: group_norm, rms_norm and local_response_norm of torch.nn.functional:
values, gradients, the nodes they record, refusals.
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
)

RNG = np.random.default_rng(7)


def _group_reference(x, groups, weight=None, bias=None, eps=1e-5):
    grouped = x.reshape(x.shape[0], groups, -1)
    out = ((grouped - grouped.mean(2, keepdims=True))
           / np.sqrt(grouped.var(2, keepdims=True) + eps)).reshape(x.shape)
    shape = (-1,) + (1,) * (x.ndim - 2)
    out = out if weight is None else out * weight.reshape(shape)
    return out if bias is None else out + bias.reshape(shape)


@pytest.mark.parametrize("shape", [(3, 4), (2, 4, 3), (2, 4, 2, 2)])
def test_group_norm_values_gradients_and_node(shape):
    data, weight_data = RNG.uniform(-2.0, 2.0, shape), np.array([1.5, -0.5, 2.0, 0.75])
    bias_data = np.array([0.25, 1.0, -1.0, 0.0])
    x, weight = matrix_leaf(data.tolist()), matrix_leaf(weight_data.tolist())
    bias = matrix_leaf(bias_data.tolist())
    out = F.group_norm(x, 2, weight, bias, eps=1e-3)
    np.testing.assert_allclose(out.detach().numpy(), _group_reference(
        data, 2, weight_data, bias_data, 1e-3), rtol=1e-12)
    node = out.grad_fn
    assert type(node).__name__ == "NativeGroupNormBackward0"
    spatial = int(np.prod(shape[2:]))
    assert (node._saved_N, node._saved_C, node._saved_HxW, node._saved_group) == (
        shape[0], 4, spatial, 2)
    assert node._saved_eps == 1e-3 and node._saved_input is x and node._saved_weight is weight
    probe = RNG.uniform(-1.0, 1.0, shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()

    def loss(d, w=weight_data):
        return float((_group_reference(d, 2, w, bias_data, 1e-3) * probe).sum())

    np.testing.assert_allclose(x.grad.numpy(), numeric_gradient(loss, data), atol=1e-7)
    np.testing.assert_allclose(weight.grad.numpy(),
                               numeric_gradient(lambda w: loss(data, w), weight_data), atol=1e-7)
    axes = (0, *range(2, len(shape)))
    np.testing.assert_allclose(bias.grad.numpy(), probe.sum(axes), rtol=1e-12)


def test_group_norm_differentiates_twice_and_copies_a_strided_input():
    x = matrix_leaf(RNG.uniform(-2.0, 2.0, (3, 2, 4)).tolist())
    out = F.group_norm(x.transpose(0, 1), 1)
    assert graph_nodes(out)[:3] == [(0, "NativeGroupNormBackward0"), (1, "CloneBackward0"),
                                    (2, "TransposeBackward0")]
    assert [n for n, _ in out.grad_fn.next_functions][1:] == [None, None]
    data = RNG.uniform(-2.0, 2.0, (2, 4, 3))
    x = matrix_leaf(data.tolist())
    (grad,) = torch.autograd.grad(F.group_norm(x, 2).pow(3).sum(), x, create_graph=True)
    (second,) = torch.autograd.grad(grad.sum(), x)

    def first(d):
        t = torch.tensor(d.tolist(), dtype=torch.float64, requires_grad=True)
        return float(torch.autograd.grad(F.group_norm(t, 2).pow(3).sum(), t)[0].sum())

    np.testing.assert_allclose(second.numpy(), numeric_gradient(first, data), atol=1e-6)


def test_group_norm_refusals():
    x = torch.ones(2, 4, 3)
    with raises(RuntimeError, "Expected at least 2 dimensions for input tensor but received 1"):
        F.group_norm(torch.ones(4), 2)
    with raises(ValueError, "Expected more than 1 value per channel when training, got input "
                            "size [1, 4]"):
        F.group_norm(torch.ones(1, 4), 4)
    with raises(ZeroDivisionError, "integer division or modulo by zero"):
        F.group_norm(x, 0)
    with raises(RuntimeError, "Expected num groups to be greater than 0, got -2"):
        F.group_norm(x, -2)
    with raises(TypeError, "group_norm(): argument 'num_groups' (position 2) must be int, not "
                           "float"):
        F.group_norm(x, 2.0)
    with raises(RuntimeError, "Expected number of channels in input to be divisible by "
                              "num_groups, but got input of shape [2, 4, 3] and num_groups=3"):
        F.group_norm(x, 3)
    with raises(RuntimeError, "Expected weight to be a vector of size equal to the number of "
                              "channels in input, but got weight of shape [4, 1] and input of "
                              "shape [2, 4, 3]"):
        F.group_norm(x, 2, torch.ones(4, 1))
    # torch's message shows the weight's shape, [0] without one, for a refused bias
    with raises(RuntimeError, "Expected bias to be a vector of size equal to the number of "
                              "channels in input, but got bias of shape [0] and input of shape "
                              "[2, 4, 3]"):
        F.group_norm(x, 2, None, torch.ones(3))
    with raises(RuntimeError, "mixed dtype (CPU): expect parameter to have scalar type of "
                              "Float"):
        F.group_norm(x.long(), 2, torch.ones(4, dtype=torch.float64))
    with raises(NotImplementedError, "\"GroupNormKernelImpl\" not implemented for 'Long'"):
        F.group_norm(x.long(), 2)
    assert F.group_norm(torch.ones(0, 4, 3), 2).shape == (0, 4, 3)
    assert torch.group_norm(torch.ones(1, 4), 4).tolist() == [[0.0] * 4]


def test_rms_norm_graph_values_and_gradients():
    data, weight_data = RNG.uniform(-2.0, 2.0, (2, 3, 4)), RNG.uniform(0.5, 2.0, (3, 4))
    x, weight = matrix_leaf(data.tolist()), matrix_leaf(weight_data.tolist())
    out = F.rms_norm(x, (3, 4), weight, eps=1e-3)
    assert graph_nodes(out) == [
        (0, "MulBackward0"), (1, "MulBackward0"), (2, "AccumulateGrad"), (2, "RsqrtBackward0"),
        (3, "AddBackward1"), (4, "MeanBackward1"), (5, "PowBackward0"), (6, "AccumulateGrad"),
        (1, "AccumulateGrad")]
    mean = out.grad_fn.next_functions[0][0].next_functions[1][0].next_functions[0][0]
    assert mean.next_functions[0][0]._saved_dim == (2, 1)  # the last dimension first
    assert mean.next_functions[0][0].next_functions[0][0]._saved_exponent == 2

    def reference(d, w=weight_data):
        return d / np.sqrt((d * d).mean((1, 2), keepdims=True) + 1e-3) * w

    np.testing.assert_allclose(out.detach().numpy(), reference(data), rtol=1e-12)
    probe = RNG.uniform(-1.0, 1.0, data.shape)
    (out * torch.tensor(probe.tolist(), dtype=torch.float64)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), numeric_gradient(
        lambda d: float((reference(d) * probe).sum()), data), atol=1e-7)
    np.testing.assert_allclose(weight.grad.numpy(), numeric_gradient(
        lambda w: float((reference(data, w) * probe).sum()), weight_data), atol=1e-7)


@pytest.mark.parametrize(("dtype", "eps"), [("float32", 1.1920928955078125e-07),
                                            ("float64", 2.220446049250313e-16),
                                            ("float16", 1.1920928955078125e-07)])
def test_rms_norm_default_eps_is_the_machine_epsilon_of_its_computation(dtype, eps):
    x = torch.tensor([[3e-4, 4e-4]], dtype=getattr(torch, dtype))
    out = F.rms_norm(x, (2,))
    assert out.dtype == x.dtype
    wide = np.asarray(x.tolist())
    np.testing.assert_allclose(np.asarray(out.tolist()), wide / np.sqrt(
        (wide * wide).mean() + eps), rtol=1e-3 if dtype == "float16" else 1e-6)
    assert first_edges(F.rms_norm(x.requires_grad_(), (2,)))[-1] == (
        "ToCopyBackward0" if dtype == "float16" else "MulBackward0")


def test_rms_norm_refusals():
    x = torch.ones(2, 4, 3)
    with raises(TypeError, "rms_norm(): argument 'normalized_shape' (position 2) must be tuple "
                           "of ints, not int"):
        F.rms_norm(x, 3)
    with raises(RuntimeError, "Expected normalized_shape to be at least 1-dimensional, i.e., "
                              "containing at least one element, but got normalized_shape = []"):
        F.rms_norm(x, ())
    with raises(RuntimeError, "Expected weight to be of same shape as normalized_shape, but got "
                              "weight of shape [3] and normalized_shape = [1, 2, 4, 3]"):
        F.rms_norm(x, (1, 2, 4, 3), torch.ones(3))
    with raises(ValueError, "Input tensor must have at least 4 dimensions, but got 3"):
        F.rms_norm(x, (1, 2, 4, 3))
    with raises(RuntimeError, "Given normalized_shape=[2, 3], expected input with shape [*2, 3], "
                              "but got input of size[2, 4, 3]"):
        F.rms_norm(x, (2, 3))
    with raises(NotImplementedError, "\"rms_norm\" not implemented for 'Long'"):
        F.rms_norm(x.long(), (3,))
    with raises(NotImplementedError, "\"rms_norm\" not implemented for 'Long'"):
        torch.rms_norm(x.long(), [3])
    assert torch.rms_norm(torch.tensor([[3.0, 4.0]]), [2], None, 0.0).tolist() == [
        pytest.approx([0.6 * 2 ** 0.5, 0.8 * 2 ** 0.5])]


def _response_reference(d, size, alpha, beta, k):
    squares = np.pad(d * d, [(0, 0), (size // 2, (size - 1) // 2)] + [(0, 0)] * (d.ndim - 2))
    windows = sum(squares[:, i:i + d.shape[1]] for i in range(size)) / size
    return d / (k + alpha * windows) ** beta


@pytest.mark.parametrize(("shape", "pool"), [((2, 5, 3), "AvgPool2DBackward0"),
                                             ((2, 5, 3, 2), "AvgPool3DBackward0")])
@pytest.mark.parametrize("size", [1, 2, 3])
def test_local_response_norm(shape, pool, size):
    data = RNG.uniform(-2.0, 2.0, shape)
    x = matrix_leaf(data.tolist())
    out = F.local_response_norm(x, size, alpha=0.5, beta=0.75, k=1.5)
    np.testing.assert_allclose(out.detach().numpy(), _response_reference(
        data, size, 0.5, 0.75, 1.5), rtol=1e-12)
    nodes = [name for _, name in graph_nodes(out)]
    folded = ["ViewBackward0"] if len(shape) == 4 else []
    assert nodes == ["DivBackward0", "AccumulateGrad", "PowBackward0", "AddBackward0",
                     "MulBackward0", *folded, "SqueezeBackward1", pool,
                     "ConstantPadNdBackward0", "ViewBackward0" if folded else
                     "UnsqueezeBackward0", "MulBackward0", "AccumulateGrad", "AccumulateGrad",
                     None, None]
    pooled = out.grad_fn.next_functions[1][0].next_functions[0][0].next_functions[0][0]
    pooled = pooled.next_functions[0][0].next_functions[0][0]
    pooled = pooled.next_functions[0][0] if folded else pooled
    assert pooled._saved_kernel_size == (size, 1, 1)[:len(shape) - 1]
    assert pooled._saved_stride == (1,) * (len(shape) - 1) and not pooled._saved_ceil_mode
    assert pooled._saved_count_include_pad and pooled._saved_divisor_override is None
    probe = RNG.uniform(-1.0, 1.0, shape)
    (grad,) = torch.autograd.grad(out, x, torch.tensor(probe.tolist(), dtype=torch.float64),
                                  create_graph=True)
    np.testing.assert_allclose(grad.detach().numpy(), numeric_gradient(
        lambda d: float((_response_reference(d, size, 0.5, 0.75, 1.5) * probe).sum()), data),
        atol=1e-7)
    assert grad.requires_grad  # and differentiable again


def test_local_response_norm_refusals_and_empty_input():
    with raises(ValueError, "Expected 3D or higher dimensionality                          "
                            "input (got 2 dimensions)"):
        F.local_response_norm(torch.ones(2, 3), 2)
    empty = torch.ones(0, 3, 2)
    assert F.local_response_norm(empty, 2) is empty


def test_local_response_norm_dtypes():
    out = F.local_response_norm(torch.tensor([[[1], [2], [3]]]), 2, alpha=0.5, k=2.0)
    assert out.dtype == torch.float32  # the pool of the squares stays int64, then alpha
    # the squares' means over a channel and the one before, truncated as integers:
    # (0 + 1) // 2, (1 + 4) // 2, (4 + 9) // 2
    np.testing.assert_allclose(out.flatten().tolist(), [1 / 2.0 ** 0.75, 2 / 3.0 ** 0.75,
                                                        3 / 5.0 ** 0.75], rtol=1e-6)
    assert F.local_response_norm(torch.ones(2, 3, 4, dtype=torch.float16), 2).dtype == (
        torch.float16)
    with raises(NotImplementedError, "\"avg_pool3d_out_frame\" not implemented for 'Half'"):
        F.local_response_norm(torch.ones(2, 3, 4, 2, dtype=torch.float16), 2)
    with raises(NotImplementedError, "\"avg_pool2d\" not implemented for 'Int'"):
        F.local_response_norm(torch.ones(2, 3, 4, dtype=torch.int32), 2)
    with raises(NotImplementedError, "\"avg_pool3d_out_frame\" not implemented for 'Bool'"):
        F.local_response_norm(torch.ones(2, 3, 4, 2, dtype=torch.bool), 2)
