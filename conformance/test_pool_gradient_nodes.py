"""The gradients of the pads, the pools and nll_loss, differentiated again.

torch computes each of these gradients with one kernel of (grad_output, self) and
records one node for it (MaxPool2DWithIndicesBackwardBackward0 and its kin), so a
gradient taken with ``create_graph=True`` requires grad even though the op is
linear, and a penalty on it reaches the input, with a zero share. These tests
check the nodes, what they keep, the second derivatives and tangents through them
(as torch's values, to 1e-10), and the layouts and versions of what they give.
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

from conformance._support import distinct_values, preorder_names

values = distinct_values


CASES = {
    "reflect1d": ((1, 2, 6), lambda x: F.pad(x, (1, 2), mode="reflect")),
    "reflect2d": ((1, 2, 6, 5), lambda x: F.pad(x, (1, 1, 2, 1), mode="reflect")),
    "reflect3d": ((1, 2, 3, 4, 3), lambda x: F.pad(x, (1,) * 6, mode="reflect")),
    "replicate1d": ((2, 6), lambda x: F.pad(x, (1, 1), mode="replicate")),
    "replicate2d": ((1, 2, 6, 5), lambda x: F.pad(x, (1, 1, 1, 2), mode="replicate")),
    "replicate3d": ((1, 2, 3, 4, 3), lambda x: F.pad(x, (2, 1, 1, 1, 1, 1), mode="replicate")),
    "nll_loss": ((3, 4), lambda x: F.nll_loss(x, torch.tensor([1, 3, 0]))),
    "nll_loss_none": ((3, 4), lambda x: F.nll_loss(x, torch.tensor([1, -100, 0]),
                                                   reduction="none")),
    "nll_loss2d": ((2, 3, 2, 2), lambda x: F.nll_loss(
        x, torch.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 2]]]),
        torch.tensor([2.0, 0.5, 1.0], dtype=torch.float64), reduction="sum")),
    "avg_pool1d": ((1, 2, 6), lambda x: F.avg_pool1d(x, 3, 2, 1)),
    "avg_pool2d": ((1, 2, 6, 5), lambda x: F.avg_pool2d(x, 2, 1, 1, count_include_pad=False)),
    "avg_pool3d": ((1, 2, 4, 4, 3), lambda x: F.avg_pool3d(x, 2, divisor_override=3,
                                                           ceil_mode=True)),
    "adaptive_avg_pool1d": ((1, 2, 6), lambda x: F.adaptive_avg_pool1d(x, 4)),
    "adaptive_avg_pool2d": ((1, 2, 6, 5), lambda x: F.adaptive_avg_pool2d(x, (4, 3))),
    "adaptive_avg_pool3d": ((1, 2, 4, 4, 3), lambda x: F.adaptive_avg_pool3d(x, (3, 2, 2))),
    "max_pool1d": ((1, 2, 6), lambda x: F.max_pool1d(x, 2, 1)),
    "max_pool2d": ((1, 2, 6, 5), lambda x: F.max_pool2d(x, 2, 1, 1)),
    "max_pool3d": ((1, 2, 4, 4, 3), lambda x: F.max_pool3d(x, 2, 1)),
    "adaptive_max_pool1d": ((1, 2, 6), lambda x: F.adaptive_max_pool1d(x, 4)),
    "adaptive_max_pool2d": ((1, 2, 6, 5), lambda x: F.adaptive_max_pool2d(x, 3)),
    "adaptive_max_pool3d": ((1, 2, 4, 4, 3), lambda x: F.adaptive_max_pool3d(x, 2)),
}

NODES = {
    "reflect1d": "ReflectionPad1D", "reflect2d": "ReflectionPad2D",
    "reflect3d": "ReflectionPad3D", "replicate1d": "ReplicationPad1D",
    "replicate2d": "ReplicationPad2D", "replicate3d": "ReplicationPad3D",
    "nll_loss": "NllLoss", "nll_loss_none": "NllLoss", "nll_loss2d": "NllLoss2D",
    "avg_pool1d": "AvgPool2D", "avg_pool2d": "AvgPool2D", "avg_pool3d": "AvgPool3D",
    "adaptive_avg_pool1d": "AdaptiveAvgPool2D", "adaptive_avg_pool2d": "AdaptiveAvgPool2D",
    "adaptive_avg_pool3d": "AdaptiveAvgPool3D", "max_pool1d": "MaxPool2DWithIndices",
    "max_pool2d": "MaxPool2DWithIndices", "max_pool3d": "MaxPool3DWithIndices",
    "adaptive_max_pool1d": "AdaptiveMaxPool2D", "adaptive_max_pool2d": "AdaptiveMaxPool2D",
    "adaptive_max_pool3d": "AdaptiveMaxPool3D",
}

# torch's: the second derivative's sum and its sum weighted by values(); then the same of
# the tangent of the first gradient, forward over reverse.
NUMBERS = {
    "reflect1d": (4.382162037037, 4.425293422068, 0.976518518519, -0.43075617284),
    "reflect2d": (55.708325502645, 51.198324500335, 1.765721058201, -4.154689325309),
    "reflect3d": (122.208938888889, 113.099404685571, -1.86025, 31.211617795139),
    "replicate1d": (3.54996875, 4.202133203125, -2.683260416667, -1.95170234375),
    "replicate2d": (47.819079708995, 44.105024945578, 0.773137486772, -2.876144126786),
    "replicate3d": (125.236270138889, 122.50977731819, -8.985882638889, -8.433538204572),
    "nll_loss": (0.344444444444, 0.221975308642, -0.065277777778, -0.042067901235),
    "nll_loss_none": (1.733055555556, 1.633082175926, -0.807611111111, -0.924683796296),
    "nll_loss2d": (4.238333333333, 1.552179210069, -7.671666666667, -2.809548133681),
    "avg_pool1d": (1.515712962963, 0.805794116512, 0.19875, 0.107398668981),
    "avg_pool2d": (33.691421547619, 21.590732031849, -1.0403475, -1.915042834051),
    "avg_pool3d": (26.743168518518, 14.180412704668, -0.961483333333, -0.663446532986),
    "adaptive_avg_pool1d": (2.832666666667, 1.888123741319, -0.364541666667, -0.282046484375),
    "adaptive_avg_pool2d": (10.482008888889, 5.843887027106, 1.094465555556, 0.742600273495),
    "adaptive_avg_pool3d": (9.183861458333, 4.859046078559, -0.365572916667, -0.126523485135),
    "max_pool1d": (8.369108333333, 6.612631631944, -2.382316666667, -2.060876180556),
    "max_pool2d": (74.116265674603, 63.00410228203, -3.385944007937, -3.100772570655),
    "max_pool3d": (43.264382118056, 39.206742666468, 11.531657118056, 10.243276757614),
    "adaptive_max_pool1d": (5.858822916667, 4.550030859375, -1.306947916667, -1.119962326389),
    "adaptive_max_pool2d": (20.782092407407, 18.675886968241, -1.989517592593, -1.54135627392),
    "adaptive_max_pool3d": (18.376865885417, 16.617780445719, 3.07892890625, 2.65424855759),
}


def first_gradient(name, x):
    """The gradient of sum(w * f(x)**2), taken with create_graph."""
    y = CASES[name][1](x)
    w = values(*y.shape) + 0.5
    (g,) = torch.autograd.grad((w * y * y).sum(), x, create_graph=True)
    return g


def _saved_names(name):
    kind = NODES[name]
    if kind.startswith("NllLoss"):
        return ["_raw_saved_target", "_raw_saved_weight", "_saved_ignore_index",
                "_saved_reduction", "_saved_target", "_saved_weight"]
    if "Max" in kind:
        return ["_raw_saved_indices", "_saved_indices"]
    if kind.startswith("AvgPool"):
        return [f"_saved_{p}" for p in ("ceil_mode", "count_include_pad", "divisor_override",
                                        "kernel_size", "padding", "stride")]
    if kind.startswith("AdaptiveAvgPool"):
        return [f"_saved_grad_output_sym_argsize_minus_{k}" for k in range(1, int(kind[-2]) + 1)]
    return ["_saved_padding"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_gradient_is_one_node_that_differentiates_again(name):
    x = values(*CASES[name][0]).requires_grad_()
    g = first_gradient(name, x)
    node = f"{NODES[name]}BackwardBackward0"
    if name.endswith("pool1d"):  # the 1-d pools go through the 2-d rows
        expected = f"SqueezeBackward1 .{node} ..UnsqueezeBackward0 ..UnsqueezeBackward0"
    else:
        expected = f"{node} .AddBackward0 ..MulBackward0 ..MulBackward0 .AccumulateGrad"
    assert g.requires_grad and preorder_names(g.grad_fn, 2) == expected
    found = g.grad_fn if not name.endswith("pool1d") else g.grad_fn.next_functions[0][0]
    assert sorted(a for a in dir(found) if "saved" in a) == _saved_names(name)
    (g * (values(*x.shape) - 0.3)).sum().backward()
    total, weighted = NUMBERS[name][:2]
    assert x.grad.sum().item() == pytest.approx(total, abs=1e-10)
    assert (x.grad * values(*x.shape)).sum().item() == pytest.approx(weighted, abs=1e-10)


def test_what_the_nodes_show():
    x = values(1, 2, 6, 5).requires_grad_()
    g = first_gradient("avg_pool2d", x)
    node = g.grad_fn
    assert (node._saved_kernel_size, node._saved_stride, node._saved_padding,
            node._saved_ceil_mode, node._saved_count_include_pad,
            node._saved_divisor_override) == ((2, 2), (1, 1), (1, 1), False, False, None)
    node = first_gradient("adaptive_avg_pool3d", values(1, 2, 4, 4, 3).requires_grad_()).grad_fn
    assert (node._saved_grad_output_sym_argsize_minus_1,
            node._saved_grad_output_sym_argsize_minus_2,
            node._saved_grad_output_sym_argsize_minus_3) == (2, 2, 3)
    node = first_gradient("max_pool2d", x).grad_fn
    indices = F.max_pool2d(x.detach(), 2, 1, 1, return_indices=True)[1]
    assert node._saved_indices.dtype == torch.int64
    assert node._saved_indices.tolist() == indices.tolist()
    node = first_gradient("nll_loss", values(3, 4).requires_grad_()).grad_fn
    assert node._saved_target.tolist() == [1, 3, 0] and node._saved_weight is None
    assert (node._saved_reduction, node._saved_ignore_index) == (1, 2**64 - 100)
    assert first_gradient("replicate3d", values(1, 2, 3, 4, 3).requires_grad_(
    )).grad_fn._saved_padding == (2, 1, 1, 1, 1, 1)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_penalty_on_the_gradient_reaches_the_input_with_zeros(name):
    x = values(*CASES[name][0]).requires_grad_()
    (g,) = torch.autograd.grad(CASES[name][1](x).sum(), x, create_graph=True)
    assert g.requires_grad
    g.pow(2).sum().backward()
    assert x.grad.abs().sum().item() == 0 and x.grad.stride() == values(*x.shape).stride()
    # torch fills the pools' and pads' zeros once made; nll_loss's are zeros_like
    assert x.grad._version == (0 if name.startswith("nll") else 1)


@pytest.mark.parametrize("name", sorted(CASES))
def test_tangents_through_the_gradient(name):
    x = values(*CASES[name][0]).requires_grad_()
    t = values(*x.shape).flip(-1) - 0.5
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, t)
        tangent = fwAD.unpack_dual(first_gradient(name, dual)).tangent.detach()
        assert tangent.sum().item() == pytest.approx(NUMBERS[name][2], abs=1e-10)
        weighted = (tangent * values(*x.shape)).sum().item()
        assert weighted == pytest.approx(NUMBERS[name][3], abs=1e-10)
        # A tangent for the input alone: none from a linear gradient, zeros from a max pool's
        y = CASES[name][1](dual)
        (g,) = torch.autograd.grad((y * (values(*y.shape) + 0.5)).sum(), dual, create_graph=True)
        alone = fwAD.unpack_dual(g).tangent
        if "max" in name:
            assert alone.abs().sum().item() == 0 and alone.stride() == values(*x.shape).stride()
        else:
            assert alone is None


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivatives_check_numerically(name):
    x = values(*CASES[name][0]).requires_grad_()
    f = CASES[name][1]
    assert torch.autograd.gradgradcheck(lambda a: f(a) * f(a), (x,))


def _laid_out(shape, layout):
    if layout == "channels_last":
        return values(*shape).contiguous(memory_format=torch.channels_last).requires_grad_()
    if layout == "transposed":
        return values(*shape).transpose(-1, -2).contiguous().transpose(-1, -2).detach(
        ).requires_grad_()
    return values(*shape).requires_grad_()


CHANNELS_LAST, TRANSPOSED, ROW_MAJOR = (60, 1, 10, 2), (60, 30, 1, 6), (60, 30, 5, 1)
# (the gradient's strides, then x.grad's strides and version after a penalty on it)
LAYOUTS = {"channels_last": (CHANNELS_LAST, CHANNELS_LAST, 1),
           "transposed": (ROW_MAJOR, TRANSPOSED, 1), "row_major": (ROW_MAJOR, ROW_MAJOR, 2)}
# x.grad's strides and version after a first backward alone
FIRST = {"channels_last": (CHANNELS_LAST, 0), "transposed": (TRANSPOSED, 1),
         "row_major": (ROW_MAJOR, 0)}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name", ["reflect2d", "replicate2d", "avg_pool2d", "adaptive_avg_pool2d",
                                  "max_pool2d", "adaptive_max_pool2d"])
def test_layouts_and_versions(name, layout):
    x = _laid_out(CASES[name][0], layout)
    g = first_gradient(name, x)
    g.pow(2).sum().backward()
    assert (g.stride(), x.grad.stride(), x.grad._version) == LAYOUTS[layout]
    x = _laid_out(CASES[name][0], layout)
    CASES[name][1](x).sum().backward()  # made in the input's suggested format
    assert (x.grad.stride(), x.grad._version) == FIRST[layout]


@pytest.mark.parametrize("layout", ["channels_last", "transposed"])
def test_nll_loss2d_backward_refuses_an_input_that_is_not_row_major(layout):
    x = _laid_out((2, 3, 2, 2), layout)
    y = CASES["nll_loss2d"][1](x)
    with pytest.raises(RuntimeError, match="^grad_input must be contiguous$"):
        y.backward()


def test_the_gradient_nodes_pack_what_they_keep():
    # MulBackward0's operands twice over, then the gradient row's: the indices, or the target
    # and the weight
    found = {}
    for name in ("max_pool2d", "nll_loss2d", "avg_pool2d", "reflect2d"):
        x = values(*CASES[name][0]).requires_grad_()
        y = CASES[name][1](x)
        seen = found.setdefault(name, [])
        with torch.autograd.graph.saved_tensors_hooks(
                lambda t, seen=seen: seen.append(str(t.dtype)[6:]) or t, lambda t: t):
            torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert found == {"max_pool2d": ["float64"] * 4 + ["int64"],
                     "nll_loss2d": ["float64"] * 4 + ["int64", "float64"],
                     "avg_pool2d": ["float64"] * 4, "reflect2d": ["float64"] * 4}


@pytest.mark.parametrize(("name", "version"), [
    ("reflect3d", 0), ("replicate3d", 0), ("max_pool3d", 0),
    # these three gradients are made row-major, then copied into x's layout
    ("avg_pool3d", 1), ("adaptive_avg_pool3d", 1), ("adaptive_max_pool3d", 1)])
def test_three_dimensional_channels_last_gradients(name, version):
    shape, f = CASES[name]
    x = values(*shape).contiguous(memory_format=torch.channels_last_3d).requires_grad_()
    f(x).sum().backward()
    assert (x.grad.stride(), x.grad._version) == (x.stride(), version)
