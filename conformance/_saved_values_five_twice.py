"""The double backwards the saved-values sweep did not reach: each a gradient taken with
create_graph=True, and what its node keeps in torch (tensors by shape and dtype)."""

import warnings

import torch

F = torch.nn.functional


def _leaf(*shape, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=gen, dtype=torch.float64).requires_grad_()


def _image():
    return _leaf(2, 3, 4, 4) * 2 - 1


def _spd():
    a = _leaf(3, 3, seed=4)
    return a @ a.mT + torch.eye(3, dtype=torch.float64)


def _quiet(f, *args):  # cholesky warns that it is deprecated
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args)


def _twice(f, t):
    """The gradient of ``f`` at ``t``, recorded: its node is the double backward's."""
    out = f(t)
    return torch.autograd.grad((out * out).sum(), t, create_graph=True)[0]


CASES = {  # name: (call of a (3, 4) leaf, (node, what it keeps))
    "elu": (
        lambda a: _twice(lambda t: F.elu(t, 1.5), a - 0.5),
        ("EluBackwardBackward0",
         {"alpha": 1.5,
          "grad_output": ((3, 4), "float64"),
          "input_scale": 1,
          "is_result": False,
          "scale": 1,
          "self_or_result": ((3, 4), "float64")})),
    "gelu": (
        lambda a: _twice(lambda t: F.gelu(t, approximate="tanh"), a),
        ("GeluBackwardBackward0",
         {"approximate": "tanh", "grad_output": ((3, 4), "float64"), "self": ((3, 4), "float64")})),
    "hardtanh": (
        lambda a: _twice(lambda t: F.hardtanh(t, -1, 1), a),
        ("HardtanhBackwardBackward0",
         {"max_val": 1, "min_val": -1, "self": ((3, 4), "float64")})),
    "leaky_relu": (
        lambda a: _twice(lambda t: F.leaky_relu(t, 0.2), a - 0.5),
        ("LeakyReluBackwardBackward0",
         {"negative_slope": 0.2, "self": ((3, 4), "float64")})),
    "log_sigmoid": (
        lambda a: _twice(F.logsigmoid, a),
        ("LogSigmoidBackwardBackward0",
         {"buffer": ((3, 4), "float64"),
          "grad_output": ((3, 4), "float64"),
          "self": ((3, 4), "float64")})),
    "softplus": (
        lambda a: _twice(lambda t: F.softplus(t, 2, 10), a),
        ("SoftplusBackwardBackward0",
         {"beta": 2,
          "grad_output": ((3, 4), "float64"),
          "self": ((3, 4), "float64"),
          "threshold": 10})),
    "softshrink": (
        lambda a: _twice(lambda t: F.softshrink(t, 0.3), a),
        ("SoftshrinkBackwardBackward0",
         {"lambd": 0.3, "self": ((3, 4), "float64")})),
    "relu": (
        lambda a: _twice(F.relu, a - 0.5),
        ("ThresholdBackwardBackward0",
         {"self": ((3, 4), "float64"), "threshold": 0})),
    "sigmoid": (
        lambda a: _twice(torch.sigmoid, a),
        ("SigmoidBackwardBackward0",
         {"grad_output": ((3, 4), "float64"), "output": ((3, 4), "float64")})),
    "glu": (
        lambda a: _twice(lambda t: F.glu(t, 1), a),
        ("GluBackwardBackward0",
         {"dim": 1, "grad_output": ((3, 2), "float64"), "self": ((3, 4), "float64")})),
    "prelu": (
        lambda a: _twice(lambda t: F.prelu(t, _leaf(1, seed=5)), a - 0.5),
        ("PreluKernelBackwardBackward0",
         {"grad_output": ((3, 4), "float64"),
          "self": ((3, 4), "float64"),
          "weight": ((1, 1), "float64")})),
    "rrelu": (
        lambda a: _twice(lambda t: F.rrelu(t, 0.1, 0.3), a - 0.5),
        ("RreluWithNoiseBackwardBackward0",
         {"lower": 0.1,
          "noise": ((3, 4), "float64"),
          "self": ((3, 4), "float64"),
          "training": False,
          "upper": 0.3})),
    "softmax": (
        lambda a: _twice(lambda t: t.softmax(-1), a),
        ("SoftmaxBackwardDataBackward0",
         {"dim": 18446744073709551615,
          "grad_output": ((3, 4), "float64"),
          "output": ((3, 4), "float64")})),
    "mse_loss": (
        lambda a: _twice(lambda t: F.mse_loss(t, _leaf(3, 4, seed=1), reduction="sum"), a),
        ("MseLossBackwardBackward0",
         {"grad_output": ((), "float64"),
          "reduction": 2,
          "self": ((3, 4), "float64"),
          "target": ((3, 4), "float64")})),
    "huber_loss": (
        lambda a: _twice(lambda t: F.huber_loss(t, _leaf(3, 4, seed=1), delta=0.5), a),
        ("HuberLossBackwardBackward0",
         {"delta": 0.5,
          "grad_output": ((), "float64"),
          "reduction": 1,
          "self": ((3, 4), "float64"),
          "target": ((3, 4), "float64")})),
    "binary_cross_entropy": (
        lambda a: _twice(lambda t: F.binary_cross_entropy(
        t, _leaf(3, 4, seed=1).detach(), reduction="none"), a),
        ("BinaryCrossEntropyBackwardBackward0",
         {"grad_output": ((3, 4), "float64"),
          "reduction": 0,
          "self": ((3, 4), "float64"),
          "target": ((3, 4), "float64"),
          "weight": None})),
    "nll_loss": (
        lambda a: _twice(lambda t: F.nll_loss(
        t, torch.tensor([0, 2, 1]), _leaf(4, seed=1).detach(), ignore_index=1), a),
        ("NllLossBackwardBackward0",
         {"ignore_index": 1,
          "reduction": 1,
          "target": ((3,), "int64"),
          "weight": ((4,), "float64")})),
    "soft_margin_loss": (
        lambda a: _twice(lambda t: F.soft_margin_loss(t, _leaf(3, 4, seed=1).detach()), a),
        ("SoftMarginLossBackwardBackward0",
         {"grad_output": ((), "float64"),
          "reduction": 1,
          "self": ((3, 4), "float64"),
          "target": ((3, 4), "float64")})),
    "max_pool2d": (
        lambda a: _twice(lambda t: F.max_pool2d(t, 2, 1, 1), _image()),
        ("MaxPool2DWithIndicesBackwardBackward0",
         {"indices": ((2, 3, 5, 5), "int64")})),
    "avg_pool2d": (
        lambda a: _twice(lambda t: F.avg_pool2d(t, 2, 1, 1, True, False, 3), _image()),
        ("AvgPool2DBackwardBackward0",
         {"ceil_mode": True,
          "count_include_pad": False,
          "divisor_override": 3,
          "kernel_size": (2, 2),
          "padding": (1, 1),
          "stride": (1, 1)})),
    "adaptive_avg_pool3d": (
        lambda a: _twice(lambda t: F.adaptive_avg_pool3d(t, 3), _image()),
        ("AdaptiveAvgPool3DBackwardBackward0",
         {"grad_output_sym_argsize_minus_1": 3,
          "grad_output_sym_argsize_minus_2": 3,
          "grad_output_sym_argsize_minus_3": 3})),
    "adaptive_max_pool2d": (
        lambda a: _twice(lambda t: F.adaptive_max_pool2d(t, 3), _image()),
        ("AdaptiveMaxPool2DBackwardBackward0",
         {"indices": ((2, 3, 3, 3), "int64")})),
    "reflection_pad2d": (
        lambda a: _twice(lambda t: F.pad(t, (1, 2, 1, 0), mode="reflect"), _image()),
        ("ReflectionPad2DBackwardBackward0",
         {"padding": (1, 2, 1, 0)})),
    "replication_pad3d": (
        lambda a: _twice(lambda t: F.pad(t, (1, 1, 1, 0, 0, 1), mode="replicate"),
                                          _leaf(1, 2, 3, 3, 3)),
        ("ReplicationPad3DBackwardBackward0",
         {"padding": (1, 1, 1, 0, 0, 1)})),
    "upsample_nearest2d": (
        lambda a: _twice(lambda t: F.interpolate(t, size=(5, 7)), _image()),
        ("UpsampleNearest2DBackwardBackward0",
         {"output_size": (5, 7), "scales_h": None, "scales_w": None})),
    "upsample_bilinear2d": (
        lambda a: _twice(lambda t: F.interpolate(
        t, size=(5, 6), mode="bilinear", align_corners=True), _image()),
        ("UpsampleBilinear2DBackwardBackward0",
         {"align_corners": True, "output_size": (5, 6), "scales_h": None, "scales_w": None})),
    "upsample_bilinear2d_aa": (
        lambda a: _twice(lambda t: F.interpolate(
        t, size=(3, 3), mode="bilinear", antialias=True), _image()),
        ("UpsampleBilinear2DAaBackwardBackward0",
         {"align_corners": False, "output_size": (3, 3), "scales_h": None, "scales_w": None})),
    "upsample_trilinear3d": (
        lambda a: _twice(lambda t: F.interpolate(
        t, scale_factor=2, mode="trilinear"), _leaf(2, 3, 2, 2, 2)),
        ("UpsampleTrilinear3DBackwardBackward0",
         {"align_corners": False,
          "output_size": (4, 4, 4),
          "scales_d": 2.0,
          "scales_h": 2.0,
          "scales_w": 2.0})),
    "im2col": (
        lambda a: _twice(lambda t: F.unfold(t, 2, 1, 1, 1), _image()),
        ("Col2ImBackward0",
         {"dilation": (1, 1), "kernel_size": (2, 2), "padding": (1, 1), "stride": (1, 1)})),
    "embedding": (
        lambda a: _twice(lambda w: F.embedding(
        torch.tensor([0, 2, 0]), w, padding_idx=1, scale_grad_by_freq=True), a),
        ("EmbeddingDenseBackwardBackward0",
         {"indices": ((3,), "int64"), "padding_idx": 1})),
    "batch_norm": (
        lambda a: _twice(lambda t: F.batch_norm(
        t, None, None, _leaf(3, seed=1), _leaf(3, seed=2), True), _image()),
        ("NativeBatchNormBackwardBackward0",
         {"eps": 1e-05,
          "grad_out": ((2, 3, 4, 4), "float64"),
          "input": ((2, 3, 4, 4), "float64"),
          "running_mean": None,
          "running_var": None,
          "save_invstd": ((3,), "float64"),
          "save_mean": ((3,), "float64"),
          "train": True,
          "weight": ((3,), "float64")})),
    "layer_norm": (
        lambda a: _twice(lambda t: F.layer_norm(t, (4,), _leaf(4, seed=1), _leaf(4, seed=2)), a),
        ("NativeLayerNormBackwardBackward0",
         {"grad_out": ((3, 4), "float64"),
          "input": ((3, 4), "float64"),
          "mean": ((3, 1), "float64"),
          "normalized_shape": (4,),
          "rstd": ((3, 1), "float64"),
          "weight": ((4,), "float64")})),
    "conv_transpose2d": (
        lambda a: _twice(lambda t: F.conv_transpose2d(
        t, _leaf(3, 2, 2, 2, seed=1), stride=2, output_padding=1), _image()),
        ("ConvolutionBackwardBackward0",
         {"dilation": (1, 1),
          "grad_output": ((2, 2, 9, 9), "float64"),
          "groups": 1,
          "input": ((2, 3, 4, 4), "float64"),
          "output_padding": (1, 1),
          "padding": (0, 0),
          "stride": (2, 2),
          "transposed": True,
          "weight": ((3, 2, 2, 2), "float64")})),
    "select": (
        lambda a: _twice(lambda t: t.select(1, -1), a),
        ("SelectBackwardBackward0",
         {"dim": 1, "index": 18446744073709551615})),
    "unfold": (
        lambda a: _twice(lambda t: t.unfold(1, 2, 2), a),
        ("UnfoldBackwardBackward0",
         {"dim": 1, "size": 2, "step": 2})),
    "cdist": (
        lambda a: _twice(lambda t: torch.cdist(t, _leaf(2, 4, seed=1), p=1.0), a),
        ("CdistBackwardBackward0",
         {})),
    "grid_sample": (
        lambda a: _twice(lambda t: F.grid_sample(
        t, _leaf(2, 2, 2, 2, seed=1) * 2 - 1, align_corners=False), _image()),
        ("GridSampler2DBackwardBackward0",
         {"align_corners": False,
          "grad_output": ((2, 3, 2, 2), "float64"),
          "grid": ((2, 2, 2, 2), "float64"),
          "input": ((2, 3, 4, 4), "float64"),
          "interpolation_mode": 0,
          "padding_mode": 0})),
    "grid_sample_3d": (
        lambda a: _twice(lambda t: F.grid_sample(
        t, _leaf(1, 2, 2, 2, 3, seed=1) * 2 - 1, mode="nearest", padding_mode="border",
        align_corners=True), _leaf(1, 2, 3, 3, 3)),
        ("GridSampler3DBackwardBackward0",
         {"align_corners": True,
          "grad_output": ((1, 2, 2, 2, 2), "float64"),
          "grid": ((1, 2, 2, 2, 3), "float64"),
          "input": ((1, 2, 3, 3, 3), "float64"),
          "interpolation_mode": 1,
          "padding_mode": 1})),
    "grid_sample_bicubic": (
        lambda a: _twice(lambda t: F.grid_sample(
        t, _leaf(2, 2, 2, 2, seed=1) * 2 - 1, mode="bicubic", padding_mode="reflection",
        align_corners=True), _image()),
        ("GridSampler2DBackwardBackward0",
         {"align_corners": True,
          "grad_output": ((2, 3, 2, 2), "float64"),
          "grid": ((2, 2, 2, 2), "float64"),
          "input": ((2, 3, 4, 4), "float64"),
          "interpolation_mode": 2,
          "padding_mode": 2})),
}
