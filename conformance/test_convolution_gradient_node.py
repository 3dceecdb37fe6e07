"""A convolution's gradient, taken with ``create_graph=True`` and differentiated again.

torch computes the input's, the weight's and the bias's gradients of a convolution
with one kernel, convolution_backward, and records one ConvolutionBackwardBackward0
node for all three, which keeps grad_output, input and weight and the parameters.
These tests check that node, its edges and what it shows, the layouts of the
gradients, and the second derivatives through it (as torch's values, to 1e-9).
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

from conformance._support import distinct_values, preorder_names

values = distinct_values


# name: (function, input shape, weight shape, bias, keyword arguments, what requires grad,
# whether the input is channels-last)
CASES = {
    "conv2d": (F.conv2d, (2, 3, 5, 5), (4, 3, 3, 3), True, {"padding": 1}, "xwb", False),
    "conv2d_no_bias": (F.conv2d, (2, 3, 5, 4), (4, 3, 2, 3), False, {}, "xw", False),
    "conv2d_strided": (F.conv2d, (1, 2, 6, 7), (3, 2, 3, 2), True,
                       {"stride": (2, 3), "padding": (1, 0)}, "xwb", False),
    "conv2d_dilated": (F.conv2d, (2, 2, 7, 6), (2, 2, 2, 3), True,
                       {"dilation": (2, 1), "padding": 1}, "xwb", False),
    "conv2d_groups": (F.conv2d, (2, 4, 5, 5), (6, 2, 3, 3), True,
                      {"groups": 2, "stride": 2}, "xwb", False),
    "conv2d_channels_last": (F.conv2d, (2, 3, 4, 5), (4, 3, 3, 2), True, {"padding": 1},
                             "xwb", True),
    "conv2d_input_only": (F.conv2d, (2, 3, 5, 5), (4, 3, 3, 3), True, {"stride": 2}, "x", False),
    "conv2d_weight_only": (F.conv2d, (2, 3, 5, 5), (4, 3, 3, 3), True, {}, "w", False),
    "conv2d_bias_only": (F.conv2d, (2, 3, 5, 5), (4, 3, 3, 3), True, {}, "b", False),
    "conv1d": (F.conv1d, (2, 4, 9), (6, 2, 3), True,
               {"groups": 2, "stride": 2, "padding": 1, "dilation": 2}, "xwb", False),
    "conv3d": (F.conv3d, (1, 2, 4, 5, 4), (3, 2, 2, 3, 2), True,
               {"stride": (1, 2, 1), "padding": (1, 0, 1)}, "xwb", False),
    "conv_transpose1d": (F.conv_transpose1d, (2, 4, 5), (4, 3, 3), True,
                         {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2}, "xwb",
                         False),
    "conv_transpose2d": (F.conv_transpose2d, (2, 3, 4, 3), (3, 2, 3, 2), True,
                         {"stride": (2, 1), "padding": (1, 0), "output_padding": (1, 0),
                          "dilation": (1, 2)}, "xwb", False),
    "conv_transpose2d_no_bias": (F.conv_transpose2d, (1, 4, 3, 3), (4, 1, 2, 2), False,
                                 {"groups": 2, "stride": 2}, "xw", False),
    "conv_transpose3d": (F.conv_transpose3d, (1, 2, 3, 2, 3), (2, 3, 2, 2, 2), True,
                         {"stride": 2, "padding": 1, "output_padding": (1, 0, 1)}, "xwb", False),
}

# torch's: each case's first node's graph, parameters and gradients' strides, and of each
# second derivative its sum, its sum weighted by values() and its strides
EXPECTED = {"conv1d": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                     ".AccumulateGrad",
            "params": [[2], [1], [2], False, [0], 2],
            "second": [[5449.1405686293, 2625.7780693481, [36, 9, 1]],
                       [8349.404698014, 4805.4368650873, [3, 18, 1]],
                       [3191.3160958187, 2182.534579903, [1]]],
            "strides": [[36, 9, 1], [6, 3, 1], [1]]},
 "conv2d": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                     ".AccumulateGrad",
            "params": [[1, 1], [1, 1], [1, 1], False, [0, 0], 1],
            "second": [[1717734.021937287, 884972.3948536756, [75, 25, 5, 1]],
                       [4921637.002998717, 2456206.674371222, [9, 36, 3, 1]],
                       [444320.9951317837, 169600.2789123838, [1]]],
            "strides": [[75, 25, 5, 1], [27, 9, 3, 1], [1]]},
 "conv2d_bias_only": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .None .None",
                      "params": [[1, 1], [0, 0], [1, 1], False, [0, 0], 1],
                      "second": [[14144.0330294299, 5681.9349096042, [1]]],
                      "strides": [[1]]},
 "conv2d_channels_last": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 "
                                   ".AccumulateGrad .AccumulateGrad",
                          "params": [[1, 1], [1, 1], [1, 1], False, [0, 0], 1],
                          "second": [[572835.4403252776, 292944.8508983465, [60, 20, 5, 1]],
                                     [1408240.600182524, 724100.1357845312, [6, 24, 2, 1]],
                                     [201684.9061894107, 80339.7048959903, [1]]],
                          "strides": [[60, 1, 15, 3], [18, 1, 6, 3], [1]]},
 "conv2d_dilated": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                             ".AccumulateGrad",
                    "params": [[1, 1], [1, 1], [2, 1], False, [0, 0], 1],
                    "second": [[142531.1127863582, 70496.1967195324, [84, 42, 6, 1]],
                               [468511.6935405706, 224424.8940605646, [6, 12, 3, 1]],
                               [95769.4063818787, 32449.7580768124, [1]]],
                    "strides": [[84, 42, 6, 1], [12, 6, 3, 1], [1]]},
 "conv2d_groups": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                            ".AccumulateGrad",
                   "params": [[2, 2], [0, 0], [1, 1], False, [0, 0], 2],
                   "second": [[77468.9446718389, 43785.3256332423, [100, 25, 5, 1]],
                              [195017.4543938281, 100806.2891275084, [9, 54, 3, 1]],
                              [20689.6664979766, 10112.2006378572, [1]]],
                   "strides": [[100, 25, 5, 1], [18, 9, 3, 1], [1]]},
 "conv2d_input_only": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 "
                                ".AccumulateGrad .None",
                       "params": [[2, 2], [0, 0], [1, 1], False, [0, 0], 1],
                       "second": [[11027.7785933377, 6594.0512166029, [75, 25, 5, 1]]],
                       "strides": [[75, 25, 5, 1]]},
 "conv2d_no_bias": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                             ".AccumulateGrad",
                    "params": [[1, 1], [0, 0], [1, 1], False, [0, 0], 1],
                    "second": [[133952.2116446346, 68057.7143693856, [60, 20, 4, 1]],
                               [329084.1609537699, 168251.5878700769, [6, 24, 3, 1]]],
                    "strides": [[60, 20, 4, 1], [18, 6, 3, 1]]},
 "conv2d_strided": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                             ".AccumulateGrad",
                    "params": [[2, 3], [1, 0], [1, 1], False, [0, 0], 1],
                    "second": [[13190.6563359791, 8231.4695418545, [84, 42, 7, 1]],
                               [18568.949692236, 11994.4331162078, [6, 18, 2, 1]],
                               [3197.1929765291, 2183.7214471898, [1]]],
                    "strides": [[84, 42, 7, 1], [12, 6, 2, 1], [1]]},
 "conv2d_weight_only": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .None "
                                 ".AccumulateGrad",
                        "params": [[1, 1], [0, 0], [1, 1], False, [0, 0], 1],
                        "second": [[1318243.9915371174, 655638.1816902563, [27, 9, 3, 1]]],
                        "strides": [[27, 9, 3, 1]]},
 "conv3d": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                     ".AccumulateGrad",
            "params": [[1, 2, 1], [1, 0, 1], [1, 1, 1], False, [0, 0, 0], 1],
            "second": [[908859.956460956, 461966.303311239, [160, 80, 20, 4, 1]],
                       [2078201.033016204, 1070112.1793191393, [12, 36, 6, 2, 1]],
                       [228377.2050339062, 119171.5907112157, [1]]],
            "strides": [[160, 80, 20, 4, 1], [24, 12, 6, 2, 1], [1]]},
 "conv_transpose1d": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                               ".AccumulateGrad",
                      "params": [[2], [1], [1], True, [1], 2],
                      "second": [[11504.3194118694, 5877.6683868594, [20, 5, 1]],
                                 [16788.1021255165, 10319.9721983809, [3, 12, 1]],
                                 [10829.3689729037, 7995.6001302515, [1]]],
                      "strides": [[20, 5, 1], [9, 3, 1], [1]]},
 "conv_transpose2d": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                               ".AccumulateGrad",
                      "params": [[2, 1], [1, 0], [1, 2], True, [1, 0], 1],
                      "second": [[36120.4801802353, 19022.1878906379, [36, 12, 3, 1]],
                                 [116308.3256315679, 60444.7441970033, [6, 18, 2, 1]],
                                 [43130.1817131934, 10717.5972125154, [1]]],
                      "strides": [[36, 12, 3, 1], [12, 6, 2, 1], [1]]},
 "conv_transpose2d_no_bias": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 "
                                       ".AccumulateGrad .AccumulateGrad",
                              "params": [[2, 2], [0, 0], [1, 1], True, [0, 0], 2],
                              "second": [[370.9571803418, 235.943903926, [36, 9, 3, 1]],
                                         [325.5840707289, 266.8883641908, [4, 4, 2, 1]]],
                              "strides": [[36, 9, 3, 1], [4, 4, 2, 1]]},
 "conv_transpose3d": {"graph": "ConvolutionBackwardBackward0 .AddBackward0 .AccumulateGrad "
                               ".AccumulateGrad",
                      "params": [[2, 2, 2], [1, 1, 1], [1, 1, 1], True, [1, 0, 1], 1],
                      "second": [[5706.7590124132, 3252.465368109, [36, 18, 6, 3, 1]],
                                 [20762.4078471453, 10663.2769347532, [8, 16, 4, 2, 1]],
                                 [18525.5604937884, 12522.3569190635, [1]]],
                      "strides": [[36, 18, 6, 3, 1], [24, 8, 4, 2, 1], [1]]},
 "input_asked": 241885.9680957983,
 "tangents": [7.3218357663, -90.8958700446]}


def first_gradients(name):
    """The case's leaves that require grad, and their gradients of a weighted sum of squares."""
    f, xs, ws, bias, kwargs, wanted, channels_last = CASES[name]
    x = values(*xs)
    if channels_last:
        x = x.contiguous(memory_format=torch.channels_last)
    w = values(*ws) - 0.4
    b = values(ws[1] * kwargs.get("groups", 1) if "transpose" in name else ws[0]) - 0.2
    leaves = []
    for letter, t in zip("xwb", (x, w, b)):
        if letter in wanted:
            t.requires_grad_()
            leaves.append(t)
    y = f(x, w, b if bias else None, **kwargs)
    loss = (y * y * (values(*y.shape) + 0.5)).sum()
    return leaves, torch.autograd.grad(loss, leaves, create_graph=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_gradients_share_one_node(name):
    leaves, grads = first_gradients(name)
    node = grads[0].grad_fn
    assert type(node).__name__ == "ConvolutionBackwardBackward0"
    assert all(g.grad_fn is node for g in grads)
    assert preorder_names(node, 1) == EXPECTED[name]["graph"]
    assert sorted(a for a in dir(node) if "saved" in a) == [
        "_raw_saved_grad_output", "_raw_saved_input", "_raw_saved_weight", "_saved_dilation",
        "_saved_grad_output", "_saved_groups", "_saved_input", "_saved_output_padding",
        "_saved_padding", "_saved_stride", "_saved_transposed", "_saved_weight"]
    shown = (node._saved_stride, node._saved_padding, node._saved_dilation,
             node._saved_transposed, node._saved_output_padding, node._saved_groups)
    assert [list(s) if isinstance(s, tuple) else s for s in shown] == EXPECTED[name]["params"]
    assert [g.stride() for g in grads] == [tuple(s) for s in EXPECTED[name]["strides"]]
    assert [g._version for g in grads] == [0] * len(grads)
    assert tuple(node._saved_input.shape) == CASES[name][1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivatives(name):
    leaves, grads = first_gradients(name)
    penalty = sum(((g * g) + g * (values(*g.shape) - 0.3)).sum() for g in grads)
    seconds = torch.autograd.grad(penalty, leaves, allow_unused=True)
    found = [None if s is None else [s.sum().item(), (s * values(*s.shape)).sum().item(),
                                     list(s.stride())] for s in seconds]
    for got, want in zip(found, EXPECTED[name]["second"]):
        if want is None:
            assert got is None
            continue
        assert got[0] == pytest.approx(want[0], rel=1e-9, abs=1e-9)
        assert got[1] == pytest.approx(want[1], rel=1e-9, abs=1e-9)
        assert got[2] == want[2]


def test_only_the_gradients_asked_for():
    x, w = values(2, 3, 5, 5).requires_grad_(), (values(4, 3, 3, 3) - 0.4).requires_grad_()
    y = F.conv2d(x, w, padding=1)
    (gx,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    node = gx.grad_fn
    assert type(node).__name__ == "ConvolutionBackwardBackward0"
    assert [type(n).__name__ for n, _ in node.next_functions] == [
        "AddBackward0", "AccumulateGrad", "AccumulateGrad"]
    (gw,) = torch.autograd.grad((gx * gx).sum(), w)
    assert gw.sum().item() == pytest.approx(EXPECTED["input_asked"], rel=1e-9)


def test_tangents_through_the_gradient():
    x, w = values(2, 3, 5, 5), values(4, 3, 3, 3) - 0.4
    with fwAD.dual_level():
        dx = fwAD.make_dual(x, values(2, 3, 5, 5).flip(-1) - 0.5).requires_grad_()
        dw = fwAD.make_dual(w, values(4, 3, 3, 3).flip(0) - 0.5).requires_grad_()
        y = F.conv2d(dx, dw, stride=2, padding=1)
        gx, gw = torch.autograd.grad((y * y).sum(), (dx, dw), create_graph=True)
        tangents = [fwAD.unpack_dual(g).tangent for g in (gx, gw)]
        assert [t.sum().item() for t in tangents] == pytest.approx(EXPECTED["tangents"],
                                                                   rel=1e-9)
        assert [t.stride() for t in tangents] == [x.stride(), w.stride()]


def test_an_empty_batch_gives_the_input_and_weight_no_share():
    x = torch.ones(0, 3, 5, 5, dtype=torch.float64, requires_grad=True)
    w = (values(4, 3, 3, 3) - 0.4).requires_grad_()
    b = values(4).requires_grad_()
    y = F.conv2d(x, w, b, padding=1)
    grads = torch.autograd.grad((y * y).sum(), (x, w, b), create_graph=True)
    assert [type(g.grad_fn).__name__ for g in grads] == ["ConvolutionBackwardBackward0"] * 3
    seconds = torch.autograd.grad(sum((g * g).sum() for g in grads), (x, w, b))
    assert [s.abs().sum().item() for s in seconds] == [0, 0, 0]
    assert [s.stride() for s in seconds] == [(75, 25, 5, 1), (27, 9, 3, 1), (1,)]


# torch's third derivatives: sums and strides of each
THIRD = {
    "conv2d_groups": ([378937859.951291, 551631781.589006, 53646846.839401],
                      [(100, 25, 5, 1), (9, 54, 3, 1), (1,)]),
    "conv3d": ([69328048803.8088, 83218454206.49399, 8595269474.898922],
               [(160, 80, 20, 4, 1), (12, 36, 6, 2, 1), (1,)]),
    "conv_transpose2d_no_bias": ([50705.144851, 41527.364144], [(36, 9, 3, 1), (4, 4, 2, 1)]),
}


def _third(name):
    leaves, grads = first_gradients(name)
    penalty = sum(((g * g) * (values(*g.shape) - 0.3)).sum() for g in grads)
    seconds = torch.autograd.grad(penalty, leaves, create_graph=True)
    return torch.autograd.grad(sum((s * s).sum() for s in seconds), leaves)


@pytest.mark.parametrize("name", sorted(THIRD))
def test_third_derivatives(name):
    third = _third(name)
    assert [t.sum().item() for t in third] == pytest.approx(THIRD[name][0], rel=1e-9)
    assert [t.stride() for t in third] == THIRD[name][1]


def test_a_third_derivative_refuses_a_kept_output_padding():
    with pytest.raises(RuntimeError, match=r"^output_padding is not supported for "
                       r"non-transposed convolutions; got: 1$"):
        _third("conv_transpose1d")
