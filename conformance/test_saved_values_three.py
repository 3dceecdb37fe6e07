"""torch._C._nn's functions by their own names: what their nodes keep, and how they read a call.

torch.nn.functional calls most of these functions, so their values are those of F's; called by
name they read their arguments as torch's parser does (a single int for a fixed-length list of
ints, keywords by torch's parameter names), and the losses, whose default reduction torch's
parser cannot read, reduce nothing unless asked.
"""

import pickle

import pytest
import torch
import torch.nn.functional as F

nn = torch._C._nn


def _leaf(*shape):
    gen = torch.Generator().manual_seed(0)
    return (torch.rand(*shape, generator=gen, dtype=torch.float64) * 2 - 1).requires_grad_()


def _saved(node):
    return {name[7:]: getattr(node, name) for name in dir(node) if name.startswith("_saved_")
            and not isinstance(getattr(node, name), torch.Tensor)}


BOUND = ("elu", "glu", "hardsigmoid", "hardsigmoid_", "hardswish", "hardswish_", "hardtanh",
         "leaky_relu", "mish", "mish_", "relu6", "relu6_", "silu", "silu_", "gelu_",
         "binary_cross_entropy", "cross_entropy_loss", "huber_loss", "l1_loss", "mse_loss",
         "multi_margin_loss", "multilabel_margin_loss", "nll_loss", "nll_loss2d", "nll_loss_nd",
         "smooth_l1_loss", "soft_margin_loss", "reflection_pad1d", "reflection_pad2d",
         "reflection_pad3d", "replication_pad1d", "replication_pad2d", "replication_pad3d",
         "pad", "_pad_enum", "_pad_circular", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
         "adaptive_max_pool2d", "adaptive_max_pool3d", "max_pool2d_with_indices",
         "max_pool3d_with_indices", "fractional_max_pool2d", "fractional_max_pool3d", "im2col",
         "col2im", "flatten_dense_tensors", "unflatten_dense_tensors", "pad_sequence",
         "_parse_to", "rrelu_with_noise", "rrelu_with_noise_", "slow_conv3d",
         "slow_conv_dilated2d", "slow_conv_dilated3d", "slow_conv_transpose2d",
         "slow_conv_transpose3d")


def test_the_bindings_are_listed_and_pickled_by_name():
    listed = dir(nn)
    for name in BOUND:
        assert name in listed and callable(getattr(nn, name))
        assert pickle.loads(pickle.dumps(getattr(nn, name))) is getattr(nn, name)
    assert not [name for name in listed if name.startswith("_") and not name.startswith("__")
                and not name.startswith(("_pad", "_upsample", "_test", "_conv", "_parse"))]


@pytest.mark.parametrize(("call", "same", "name", "saved"), [
    (lambda x: nn.elu(x, 1.5, 2, 3), None, "EluBackward0",
     {"alpha": 1.5, "scale": 2, "input_scale": 3}),
    (lambda x: nn.elu(x, input_scale=0.5), None, "EluBackward0",
     {"alpha": 1, "scale": 1, "input_scale": 0.5}),
    (lambda x: nn.hardtanh(x, -0.5, 0.5), lambda x: F.hardtanh(x, -0.5, 0.5),
     "HardtanhBackward0", {"min_val": -0.5, "max_val": 0.5}),
    (lambda x: nn.leaky_relu(x, negative_slope=0.2), lambda x: F.leaky_relu(x, 0.2),
     "LeakyReluBackward0", {"negative_slope": 0.2}),
    (lambda x: nn.glu(x, 1), lambda x: F.glu(x, 1), "GluBackward0", {"dim": 1}),
    (lambda x: nn.relu6(x * 4), lambda x: F.relu6(x * 4), "HardtanhBackward0",
     {"min_val": 0, "max_val": 6}),
    (lambda x: nn.relu6_(x * 4), lambda x: F.relu6(x * 4), "HardtanhBackward0",
     {"min_val": 0, "max_val": 6}),
    (lambda x: nn.hardsigmoid_(x * 1), F.hardsigmoid, "HardsigmoidBackward0", {}),
    (lambda x: nn.hardswish(x), F.hardswish, "HardswishBackward0", {}),
    (lambda x: nn.mish_(x * 1), F.mish, "MishBackward0", {}),
    (lambda x: nn.silu_(x * 1), F.silu, "SiluBackward0", {}),
    (lambda x: nn.gelu_(x * 1, approximate="tanh"), lambda x: F.gelu(x, approximate="tanh"),
     "GeluBackward0", {"approximate": "tanh"}),
])
def test_activation_nodes(call, same, name, saved):
    x = _leaf(1, 2, 3, 4)
    out = call(x)
    assert (out.grad_fn.name(), _saved(out.grad_fn)) == (name, saved)
    if same is not None:
        assert torch.equal(out, same(x))
    (grad,) = torch.autograd.grad(out.sum(), x)
    assert grad.shape == x.shape


def test_elu_scales_as_its_formula_says():
    x = _leaf(6)
    out = nn.elu(x, 1.5, 2, 3)
    d = x.detach()
    assert torch.allclose(out, torch.where(d > 0, 2 * d, 2 * 1.5 * (torch.exp(3 * d) - 1)))


# The losses: a reduction as a number, and none when it is left out


def _pair(shape, kind="sign"):
    x = _leaf(*shape)
    gen = torch.Generator().manual_seed(1)
    target = torch.rand(*shape, generator=gen, dtype=torch.float64)
    return x, target.sign() * 2 - 1 if kind == "sign" else target


@pytest.mark.parametrize(("name", "functional"), [
    ("mse_loss", F.mse_loss), ("l1_loss", F.l1_loss), ("smooth_l1_loss", F.smooth_l1_loss),
    ("huber_loss", F.huber_loss), ("soft_margin_loss", F.soft_margin_loss),
])
def test_a_loss_left_without_reduction_reduces_nothing(name, functional):
    x, target = _pair((3, 4))
    loss = getattr(nn, name)
    out = loss(x, target)
    assert out.shape == (3, 4)
    assert torch.equal(out, functional(x, target, reduction="none"))
    assert torch.equal(loss(x, target, 1), functional(x, target))
    summed = loss(x, target, reduction=2)
    assert torch.allclose(summed, functional(x, target, reduction="sum"))
    if name != "l1_loss":  # torch's l1_loss is made of abs, mean and sum: no node of its own
        assert (out.grad_fn._saved_reduction, summed.grad_fn._saved_reduction) == (0, 2)


def test_the_weighted_losses_too():
    x = _leaf(3, 4)
    probabilities = x.detach().abs().requires_grad_()
    target = torch.tensor([1, 0, 3])
    assert nn.binary_cross_entropy(probabilities, probabilities.detach() ** 2).shape == (3, 4)
    assert nn.nll_loss(x, target).shape == (3,)
    assert nn.multi_margin_loss(x, target, 2, 0.5).grad_fn._saved_reduction == 0
    assert nn.nll_loss(x, target, None, 1, 0).grad_fn._saved_ignore_index == 0
    assert torch.equal(nn.nll_loss(x, target, None, 1), F.nll_loss(x, target))
    smoothed = nn.cross_entropy_loss(x, target, None, 1, -100, 0.1)
    assert torch.equal(smoothed, F.cross_entropy(x, target, label_smoothing=0.1))
    image = _leaf(1, 3, 2, 2)
    classes = torch.tensor([[[0, 1], [2, 1]]])
    node = nn.nll_loss_nd(image, classes).grad_fn
    assert node.name() == "NllLoss2DBackward0" and node._saved_reduction == 0
    assert torch.equal(nn.cross_entropy_loss(image, classes, reduction=1),
                       F.cross_entropy(image, classes))


# Padding by the kernels' own names


@pytest.mark.parametrize(("call", "mode", "pad", "name"), [
    (lambda x: nn.reflection_pad1d(x[0], [1, 2]), "reflect", (1, 2), "ReflectionPad1DBackward0"),
    (lambda x: nn.reflection_pad2d(x, 1), "reflect", (1, 1, 1, 1), "ReflectionPad2DBackward0"),
    (lambda x: nn.replication_pad1d(x[0], 2), "replicate", (2, 2), "ReplicationPad1DBackward0"),
    (lambda x: nn.replication_pad2d(x, [0, 1, 2, 3]), "replicate", (0, 1, 2, 3),
     "ReplicationPad2DBackward0"),
])
def test_padding_kernels(call, mode, pad, name):
    x = _leaf(1, 2, 4, 5)
    out = call(x)
    assert (out.grad_fn.name(), out.grad_fn._saved_padding) == (name, pad)
    expected = F.pad(x[0] if len(pad) == 2 else x, pad, mode)
    assert torch.equal(out, expected)


def test_three_dimensional_padding_spreads_one_int():
    x = _leaf(1, 2, 3, 3, 3)
    node = nn.replication_pad3d(x, 1).grad_fn
    assert (node.name(), node._saved_padding) == ("ReplicationPad3DBackward0", (1,) * 6)
    assert torch.equal(nn.reflection_pad3d(x, [1, 0, 2, 1, 0, 1]),
                       F.pad(x, (1, 0, 2, 1, 0, 1), "reflect"))


def test_pad_enum_numbers_its_modes():
    x = _leaf(1, 2, 4, 5)
    assert torch.equal(nn._pad_enum(x, [1, 1, 1, 1], 0), F.pad(x, (1, 1, 1, 1), "reflect"))
    assert torch.equal(nn._pad_enum(x, [1, 1, 1, 1], 1), F.pad(x, (1, 1, 1, 1), "replicate"))
    assert torch.equal(nn._pad_enum(x, [1, 2, 2, 1], 2), F.pad(x, (1, 2, 2, 1), "circular"))
    assert torch.equal(nn._pad_enum(x, [1, 1], 3, 2.0), F.pad(x, (1, 1), value=2.0))
    assert torch.equal(nn._pad_circular(x, [1, 2, 2, 1]), F.pad(x, (1, 2, 2, 1), "circular"))
    assert torch.equal(nn.pad(x[0], [1, 1], mode="reflect"), F.pad(x[0], (1, 1), "reflect"))


_EXPECTED = "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions"


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda x: nn.reflection_pad2d(x, [1, 1, 1]), RuntimeError,
     "padding size is expected to be 4, but got: 3"),
    (lambda x: nn.reflection_pad1d(x, [1, 1]), RuntimeError,
     f"Expected 2D or 3{_EXPECTED} for input, but got: [1, 2, 4, 5]"),
    (lambda x: nn.replication_pad2d(x[0, 0, 0], [1, 1, 1, 1]), RuntimeError,
     f"Expected 3D or 4{_EXPECTED} for input, but got: [5]"),
    (lambda x: nn.reflection_pad2d(x, [1, 1, 5, 5]), RuntimeError,
     "Argument #6: Padding size should be less than the corresponding input dimension, but "
     "got: padding (5, 5) at dimension 2 of input [1, 2, 4, 5]"),
    (lambda x: nn._pad_circular(x, [1, 1]), RuntimeError,
     "Invalid padding size, expected 1 or 2 non-padded dimensions, which would be equivalent "
     "to padding of length 6 or 4 respectively but got 2"),
    (lambda x: nn.elu(x, "a"), TypeError,
     "elu(): argument 'alpha' (position 2) must be Number, not str"),
    (lambda x: nn.elu(x, 1, 2, 3, 4), TypeError,
     "elu() takes from 1 to 4 positional arguments but 5 were given"),
    (lambda x: nn.glu(x, 1.5), TypeError,
     "glu(): argument 'dim' (position 2) must be int, not float"),
    (lambda x: nn.mse_loss(x, x, "mean"), TypeError,
     "mse_loss(): argument 'reduction' (position 3) must be int, not str"),
    (lambda x: nn.gelu_(x, "none"), TypeError, "gelu_() takes 1 positional argument but 2 were "
     "given"),
    (lambda x: nn.gelu_(x * 1, approximate="x"), RuntimeError,
     "approximate argument must be either none or tanh."),
    (lambda x: nn.hardtanh(x, foo=1), TypeError,
     "hardtanh() got an unexpected keyword argument 'foo'"),
    (lambda x: nn.adaptive_avg_pool2d(x, 1.0), TypeError,
     "adaptive_avg_pool2d(): argument 'output_size' (position 2) must be tuple of ints, not "
     "float"),
    (lambda x: nn.relu6(x, 1), TypeError, "relu6() takes 1 positional argument but 2 were given"),
])
def test_refusals(call, error, message):
    with pytest.raises(error) as caught:
        call(_leaf(1, 2, 4, 5))
    assert str(caught.value) == message


# Pools, blocks and lists of tensors


def test_pools_by_their_kernels_names():
    x = _leaf(1, 2, 4, 5)
    values, indices = nn.max_pool2d_with_indices(x, 2)
    node = values.grad_fn
    assert (node.name(), node._saved_kernel_size, node._saved_stride, node._saved_padding,
            node._saved_dilation, node._saved_ceil_mode) == (
        "MaxPool2DWithIndicesBackward0", (2, 2), (), (0, 0), (1, 1), False)
    assert torch.equal(values, F.max_pool2d(x, 2))
    assert torch.equal(nn.adaptive_avg_pool2d(x, 2), F.adaptive_avg_pool2d(x, 2))
    both = nn.adaptive_max_pool2d(x, [3, 2])
    assert both[1].dtype == torch.int64
    assert both[0].grad_fn.name() == "AdaptiveMaxPool2DBackward0"
    cube = _leaf(1, 1, 4, 4, 4)
    assert torch.equal(nn.adaptive_avg_pool3d(cube, [2, 1, 2]),
                       F.adaptive_avg_pool3d(cube, (2, 1, 2)))
    assert torch.equal(nn.max_pool3d_with_indices(cube, 2, [1, 2, 1])[0],
                       F.max_pool3d(cube, 2, (1, 2, 1)))
    samples = torch.full((1, 2, 2), 0.5, dtype=torch.float64)
    fractional = nn.fractional_max_pool2d(x, 2, 3, samples)
    assert torch.equal(fractional[0], F.fractional_max_pool2d(
        x, 2, output_size=3, _random_samples=samples))


def test_im2col_and_col2im_spread_their_ints():
    x = _leaf(1, 2, 4, 5)
    blocks = nn.im2col(x, 2, 1, 0, 1)
    assert torch.equal(blocks, F.unfold(x, 2))
    assert blocks.grad_fn._saved_kernel_size == (2, 2)
    columns = _leaf(1, 8, 16)
    assert torch.equal(nn.col2im(columns, 5, 2, 1, 0, 1), F.fold(columns, 5, 2))


def test_dense_tensors_flattened_and_cut_back():
    a, b = _leaf(2, 3), _leaf(4)
    flat = nn.flatten_dense_tensors([a * 1, b.t()])
    assert flat.grad_fn.name() == "CatBackward0"
    assert torch.equal(flat, torch.cat([a.reshape(-1), b]))
    assert nn.flatten_dense_tensors([a.t()]).grad_fn.name() == "ViewBackward0"
    row = torch.arange(12.0)
    pieces = nn.unflatten_dense_tensors(row, [torch.zeros(2, 3), torch.zeros(0), a])
    assert [tuple(p.shape) for p in pieces] == [(2, 3), (0,), (2, 3)]
    assert torch.equal(pieces[0], row[:6].view(2, 3))
    assert pieces[0]._base is row and pieces[1]._base is None
    padded = nn.pad_sequence([a, a[:1]], True, -1.0)
    assert padded.tolist()[1][1] == [-1.0, -1.0, -1.0]
