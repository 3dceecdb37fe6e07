"""Journeys through small convolutional networks: padding modes, transposed convolutions,
running statistics, pooling indices, channels_last activations and gradients, hooks,
saliency maps and a gradient penalty differentiated twice."""

import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

RNG = np.random.default_rng(9)


def arr(*shape):
    return torch.tensor(RNG.standard_normal(shape))


def set_from_numpy(module, scale=0.3):
    module.double()
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(arr(*p.shape) * scale)
    return module


def numpy_conv2d(x, w, dilation=1, groups=1):
    """A direct correlation over a padded NumPy image: the definition, loop by loop."""
    n, c, hh, ww = x.shape
    o, cg, kh, kw = w.shape
    oh, ow = hh - dilation * (kh - 1), ww - dilation * (kw - 1)
    out = np.zeros((n, o, oh, ow))
    per = o // groups
    for oc in range(o):
        g = oc // per
        for i in range(kh):
            for j in range(kw):
                top, left = i * dilation, j * dilation
                patch = x[:, g * cg:(g + 1) * cg, top:top + oh, left:left + ow]
                out[:, oc] += np.einsum("nchw,c->nhw", patch, w[oc, :, i, j])
    return out


@pytest.mark.parametrize(("mode", "numpy_mode"), [
    ("zeros", "constant"), ("reflect", "reflect"), ("replicate", "edge"), ("circular", "wrap")])
def test_padding_modes_pad_as_numpy_does_before_the_correlation(mode, numpy_mode):
    conv = set_from_numpy(nn.Conv2d(4, 6, 3, padding=2, dilation=2, groups=2,
                                    padding_mode=mode, bias=False))
    x = arr(2, 4, 7, 9)
    padded = np.pad(x.numpy(), ((0, 0), (0, 0), (2, 2), (2, 2)), mode=numpy_mode)
    want = numpy_conv2d(padded, conv.weight.detach().numpy(), dilation=2, groups=2)
    got = conv(x)
    assert got.shape == (2, 6, 7, 9)
    np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-10, atol=1e-12)


def test_same_padding_with_an_even_kernel_pads_the_far_side_more():
    w = arr(3, 2, 2, 4)
    x = arr(1, 2, 5, 6)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = F.conv2d(x, w, padding="same")
    texts = [str(c.message) for c in caught]  # warned once a process: maybe before this test
    assert len(texts) <= 1
    assert all(t.startswith("Using padding='same' with even kernel lengths") for t in texts)
    padded = np.pad(x.numpy(), ((0, 0), (0, 0), (0, 1), (1, 2)))
    np.testing.assert_allclose(got.numpy(), numpy_conv2d(padded, w.numpy()), rtol=1e-10, atol=1e-12)


def test_same_padding_is_kept_as_a_string_and_refused_with_strides():
    conv = nn.Conv1d(3, 6, 4, padding="same", dilation=2, groups=3)
    assert conv.padding == "same"
    assert conv._reversed_padding_repeated_twice == [3, 3]
    assert repr(nn.Conv2d(2, 4, 3, padding="same")) == \
        "Conv2d(2, 4, kernel_size=(3, 3), stride=(1, 1), padding=same)"
    with pytest.raises(ValueError,
                       match="^padding='same' is not supported for strided convolutions$"):
        nn.Conv2d(4, 4, 3, stride=2, padding="same")
    with pytest.raises(ValueError,
                       match='^Only "zeros" padding mode is supported for ConvTranspose2d$'):
        nn.ConvTranspose2d(4, 4, 3, padding_mode="reflect")


def test_transposed_convolution_output_padding_and_output_size():
    ct = set_from_numpy(nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1))
    assert repr(ct) == ("ConvTranspose2d(4, 3, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), "
                        "output_padding=(1, 1))")
    x = arr(2, 4, 9, 9)
    assert ct(x).shape == (2, 3, 18, 18)
    assert torch.equal(ct(x), ct(x, output_size=[18, 18]))
    assert ct(x, output_size=[2, 3, 18, 18]).shape == (2, 3, 18, 18)
    with pytest.raises(ValueError) as info:
        ct(x, output_size=[20, 20])
    assert str(info.value) == ("requested an output size of [20, 20], but valid sizes range "
                               "from [17, 17] to [18, 18] (for an input of torch.Size([9, 9]))")
    bad = nn.ConvTranspose2d(4, 4, 3, stride=2, output_padding=2).double()
    with pytest.raises(RuntimeError,
                       match="^output padding must be smaller than either stride or dilation"):
        bad(x)


def test_momentum_none_keeps_a_cumulative_average_of_the_batches():
    bn = nn.BatchNorm2d(3, momentum=None).double()
    batches = [arr(4, 3, 5, 5) * (i + 1) + i for i in range(3)]
    for x in batches:
        bn(x)
    means = [x.numpy().mean(axis=(0, 2, 3)) for x in batches]
    variances = [x.numpy().var(axis=(0, 2, 3), ddof=1) for x in batches]
    np.testing.assert_allclose(bn.running_mean.numpy(), np.mean(means, axis=0), rtol=1e-12)
    np.testing.assert_allclose(bn.running_var.numpy(), np.mean(variances, axis=0), rtol=1e-12)
    assert bn.num_batches_tracked.item() == 3 and bn.num_batches_tracked.dtype == torch.int64
    assert repr(bn) == ("BatchNorm2d(3, eps=1e-05, momentum=None, affine=True, bias=True, "
                        "track_running_stats=True)")
    bn.eval()
    x = batches[0]
    mean, var = bn.running_mean.numpy()[:, None, None], bn.running_var.numpy()[:, None, None]
    want = (x.numpy() - mean) / np.sqrt(var + 1e-5)
    np.testing.assert_allclose(bn(x).detach().numpy(), want, rtol=1e-10)
    bn.reset_running_stats()
    assert bn.running_mean.tolist() == [0.0] * 3 and bn.num_batches_tracked.item() == 0


def test_instance_norm_tracks_statistics_but_counts_no_batches():
    inorm = nn.InstanceNorm2d(2, affine=True, track_running_stats=True).double()
    x = arr(3, 2, 4, 4)
    inorm(x)
    assert inorm.num_batches_tracked.item() == 0
    want = 0.1 * x.numpy().mean(axis=(2, 3)).mean(axis=0)
    np.testing.assert_allclose(inorm.running_mean.numpy(), want, rtol=1e-12)
    assert [n for n, _ in inorm.named_buffers()] == ["running_mean", "running_var",
                                                     "num_batches_tracked"]


def test_buffers_keep_their_dtype_through_half_and_are_saved():
    m = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4))
    m[1].register_buffer("extra", torch.ones(2), persistent=False)
    assert [n for n, _ in m.named_buffers()] == ["1.running_mean", "1.running_var",
                                                 "1.num_batches_tracked", "1.extra"]
    assert "1.extra" not in m.state_dict()
    m.half()
    assert (m[0].weight.dtype, m[1].running_mean.dtype, m[1].num_batches_tracked.dtype) == \
        (torch.float16, torch.float16, torch.int64)


def test_max_pool_indices_put_the_maxima_back():
    x = arr(2, 3, 7, 9)
    y, idx = F.max_pool2d(x, 2, return_indices=True)
    assert idx.dtype == torch.int64 and y.shape == idx.shape == (2, 3, 3, 4)
    back = nn.MaxUnpool2d(2)(y, idx, output_size=x.shape[-2:])
    assert back.shape == (2, 3, 7, 9)
    flat = x.flatten(2)
    assert torch.equal(flat.gather(2, idx.flatten(2)), y.flatten(2))
    assert torch.equal(back.flatten(2).gather(2, idx.flatten(2)), y.flatten(2))
    assert int((back != 0).sum()) == y.numel()
    with pytest.raises(RuntimeError, match="^Found an invalid max index: "):
        F.max_unpool2d(y, idx, 2)
    one_plane = torch.tensor([[[[0, 3], [8, 20]]]])
    with pytest.raises(RuntimeError) as info:
        F.max_unpool2d(torch.ones(1, 1, 2, 2), one_plane, 2)
    assert str(info.value) == "Found an invalid max index: 20 (output volumes are of size 4x4)"
    with pytest.raises(ValueError) as info:
        F.max_unpool2d(y, idx, 2, output_size=(10, 10))
    assert str(info.value) == 'invalid output_size "(10, 10)" (dim 0 must be between 4 and 8)'


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"scale_factor": 2, "mode": "linear"}, NotImplementedError,
     "Got 4D input, but linear mode needs 3D input"),
    ({"size": (3, 3), "scale_factor": 2}, ValueError,
     "only one of size or scale_factor should be defined"),
    ({"scale_factor": 2, "mode": "nearest", "align_corners": True}, ValueError,
     "align_corners option can only be set with the interpolating modes: "
     "linear | bilinear | bicubic | trilinear"),
])
def test_interpolate_refusals(kwargs, error, message):
    with pytest.raises(error) as info:
        F.interpolate(arr(1, 2, 4, 4), **kwargs)
    assert str(info.value) == message


def test_pixel_shuffle_moves_channels_into_space():
    x = torch.arange(18.0).reshape(1, 18, 1, 1)
    y = nn.PixelShuffle(3)(x)
    assert y.shape == (1, 2, 3, 3)
    assert y[0, 1].flatten().tolist() == list(range(9, 18))
    assert torch.equal(nn.PixelUnshuffle(3)(y), x)
    with pytest.raises(RuntimeError) as info:
        F.pixel_shuffle(arr(1, 6, 2, 3), 2)
    assert str(info.value) == ("pixel_shuffle expects its input's 'channel' dimension to be "
                               "divisible by the square of upscale_factor, but "
                               "input.size(-3)=6 is not divisible by 4")


def small_net():
    net = nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(),
                        nn.MaxPool2d(2), nn.Conv2d(6, 4, 3, groups=2, padding=1, bias=False),
                        nn.GELU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
    return set_from_numpy(net)


def test_channels_last_weights_activations_and_gradients():
    net = small_net().to(memory_format=torch.channels_last)
    assert net[0].weight.stride() == (27, 1, 9, 3)
    assert net[4].weight.stride() == (27, 1, 9, 3)
    assert net[8].weight.stride() == (4, 1)
    seen = {}
    hooks = [m.register_forward_hook(lambda m, i, o, name=name: seen.__setitem__(name, o))
             for name, m in net.named_children()]
    x = arr(2, 3, 8, 8).to(memory_format=torch.channels_last).requires_grad_()
    assert x.stride() == (192, 1, 24, 3) and not x.is_contiguous()
    out = net(x)
    for name in "012345":
        assert seen[name].is_contiguous(memory_format=torch.channels_last), name
    assert seen["3"].stride() == (96, 1, 24, 6)
    seen["0"].retain_grad()
    seen["3"].retain_grad()
    out[:, 1].sum().backward()
    assert seen["0"].grad.stride() == (384, 64, 8, 1)
    assert seen["3"].grad.stride() == (96, 16, 4, 1)
    assert x.grad.stride() == (192, 1, 24, 3)
    assert net[0].weight.grad.stride() == (27, 1, 9, 3)
    for h in hooks:
        h.remove()
    assert len(net[0]._forward_hooks) == 0
    saliency = x.grad.abs().amax(dim=1)
    assert saliency.shape == (2, 8, 8) and saliency.stride() == (64, 8, 1)


def test_channels_last_needs_four_dimensions():
    with pytest.raises(RuntimeError, match="^required rank 4 tensor to use channels_last format$"):
        torch.zeros(2, 3, 4).to(memory_format=torch.channels_last)
    cl3 = torch.zeros(1, 2, 3, 4, 5).to(memory_format=torch.channels_last_3d)
    assert cl3.stride() == (120, 1, 40, 10, 2)
    assert torch.zeros(2, 3, 1, 1).to(memory_format=torch.channels_last).stride() == (3, 1, 3, 3)


def test_eval_and_no_grad_inference_leave_the_statistics_alone():
    net = small_net()
    x = arr(4, 3, 8, 8)
    net(x)
    before = net[1].running_mean.clone()
    net.eval()
    with torch.no_grad():
        out = net(x)
    assert not out.requires_grad and out.grad_fn is None
    assert torch.equal(net[1].running_mean, before) and net[1].num_batches_tracked.item() == 1
    assert (net.training, net[1].training) == (False, False)
    net.train()
    assert net[1].training


def test_gradient_penalty_differentiates_the_conv_net_twice():
    net = small_net()
    x = arr(2, 3, 8, 8).requires_grad_()
    g, = torch.autograd.grad(net(x).sum(), x, create_graph=True)
    assert g.requires_grad and g.grad_fn.name() == "ConvolutionBackwardBackward0"
    penalty = ((g.flatten(1).norm(2, dim=1) - 1) ** 2).mean()
    penalty.backward()
    assert [n for n, p in net.named_parameters() if p.grad is None] == ["8.bias"]


def test_second_derivatives_of_the_conv_layers_pass_gradgradcheck():
    conv = set_from_numpy(nn.Conv2d(2, 4, 3, padding=1, padding_mode="reflect", groups=2))
    up = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1).double()
    set_from_numpy(up)

    def f(x, w):
        h = F.group_norm(torch.tanh(conv(x)), 2)
        h = F.conv_transpose2d(h, w, stride=2, padding=1, output_padding=1)
        return F.interpolate(torch.sigmoid(h), scale_factor=0.5, mode="bilinear")

    x = arr(1, 2, 4, 4).requires_grad_()
    w = up.weight.detach().clone().requires_grad_()
    assert torch.autograd.gradcheck(f, (x, w))
    assert torch.autograd.gradgradcheck(f, (x, w))
