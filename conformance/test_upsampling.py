"""Black-box tests: F.interpolate's modes against an index-by-index reference: values,
gradients, nodes and what they keep, double backward, layouts, refusals, and the modules.
"""

import math
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises, saved_names

RNG = np.random.default_rng(11)
F32 = np.float32


def _cubic(d):
    a, d = -0.75, abs(d)
    if d <= 1:
        return ((a + 2) * d - (a + 3)) * d * d + 1
    return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a if d < 2 else 0.0


def _matrix(mode, L, O, align, scale, shortcuts):  # noqa: E741
    """The (O, L) matrix of one dimension: row i holds the weights output i gives each input."""
    m = np.zeros((O, L))
    for i in range(O):
        if mode in ("nearest", "nearest-exact"):
            step = F32(1.0 / scale) if scale else F32(L) / F32(O)
            if mode == "nearest" and shortcuts and O in (L, 2 * L):
                j = i if O == L else i // 2
            elif mode == "nearest":
                j = min(math.floor(F32(i) * step), L - 1)
            else:
                j = min(math.floor(F32(i + 0.5) * step), L - 1)
            m[i, j] = 1.0
            continue
        if mode != "bicubic" and O == L:  # linear modes copy an unchanged size
            m[i, i] = 1.0
            continue
        if align:
            x = i * (L - 1) / (O - 1) if O > 1 else 0.0
        else:
            x = (i + 0.5) * (1.0 / scale if scale else L / O) - 0.5
        if mode != "bicubic":
            x = max(x, 0.0)
            j, f = math.floor(x), x - math.floor(x)
            m[i, j] += 1 - f
            m[i, min(j + 1, L - 1)] += f
        else:
            j, t = math.floor(x), x - math.floor(x)
            for k in range(-1, 3):
                m[i, min(max(j + k, 0), L - 1)] += _cubic(t - k)
    return m


def _apply(a, matrices):
    for k, m in enumerate(matrices):
        axis = a.ndim - len(matrices) + k
        a = np.moveaxis(np.tensordot(a, m, ([axis], [1])), -1, axis)
    return a


def _aa_filter(x, cubic):
    x, a = abs(x), -0.5
    if not cubic:
        return max(0.0, 1 - x)
    if x < 1:
        return ((a + 2) * x - (a + 3)) * x * x + 1
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a if x < 2 else 0.0


def _aa_matrix(L, O, align, scale, cubic, shortcut):  # noqa: E741
    """Antialiased: every input within the filter's reach, stretched by the scale s = L / O."""
    if shortcut and O == L:
        return np.eye(L)
    if align:
        s = (L - 1) / (O - 1) if O > 1 else 0.0
    else:
        s = 1.0 / scale if scale else L / O
    reach = 2.0 if cubic else 1.0
    support, stretch = (reach * s, 1 / s) if s >= 1 else (reach, 1.0)
    m = np.zeros((O, L))
    for i in range(O):
        centre = s * (i + 0.5)
        for j in range(max(int(centre - support + 0.5), 0), min(int(centre + support + 0.5), L)):
            m[i, j] = _aa_filter((j - centre + 0.5) * stretch, cubic)
        if m[i].sum():
            m[i] /= m[i].sum()
    return m


def _matrices(mode, spatial, sizes, align, scales, backward):
    if mode.endswith("-aa"):  # the forward copies an unchanged size, the backward does not
        return [_aa_matrix(size, out, align, s, mode == "bicubic-aa", not backward)
                for size, out, s in zip(spatial, sizes, scales)]
    if backward and mode == "bicubic" and tuple(spatial) == tuple(sizes):
        return [np.eye(L) for L in spatial]  # the bicubic gradient of an unchanged size: a copy
    shortcuts = backward or len(spatial) == 2
    return [_matrix(mode, size, out, align, s, shortcuts)
            for size, out, s in zip(spatial, sizes, scales)]


NODES = {"nearest": "UpsampleNearest{n}DBackward0", "nearest-exact":
         "UpsampleNearestExact{n}DBackward0", "linear": "UpsampleLinear1DBackward0",
         "bilinear": "UpsampleBilinear2DBackward0", "bicubic": "UpsampleBicubic2DBackward0",
         "trilinear": "UpsampleTrilinear3DBackward0",
         "bilinear-aa": "UpsampleBilinear2DAaBackward0",
         "bicubic-aa": "UpsampleBicubic2DAaBackward0"}
SCALES = {1: ["scales"], 2: ["scales_h", "scales_w"], 3: ["scales_d", "scales_h", "scales_w"]}
SPATIAL = {1: [(5,), (4,), (3,)], 2: [(5, 4), (3, 3)], 3: [(3, 2, 4)]}
MODES = {1: ["nearest", "nearest-exact", "linear"], 2: ["nearest", "nearest-exact", "bilinear",
                                                        "bicubic", "bilinear-aa", "bicubic-aa"],
         3: ["nearest", "nearest-exact", "trilinear"]}
HOW = [{"size": 7}, {"size": 2}, {"scale_factor": 1.7}, {"scale_factor": 0.6},
       {"scale_factor": 2}, {"scale_factor": 1.3}, {"scale_factor": 2.1},
       {"scale_factor": 1.7, "recompute_scale_factor": True}]
def _one_wide(spatial, how):
    """Whether a resize of a 2-d ``spatial`` changes the height to a width of 1: torch 2.13's
    antialiased kernel then gives every output row the first row's values, and refgrad does
    not (the chapter "Upsampling" says so), so those cases are left out here."""
    sizes = [how["size"]] * 2 if "size" in how else [int(L * how["scale_factor"]) for L in spatial]
    return sizes[1] == 1 and sizes[0] != spatial[0]


CASES = [(mode, spatial, how, align)
         for n, modes in MODES.items() for mode in modes for spatial in SPATIAL[n]
         for how in HOW for align in ((None,) if "nearest" in mode else (False, True))
         if not (mode.endswith("-aa") and _one_wide(spatial, how))]


def _resize(x, mode, **how):
    return F.interpolate(x, mode=mode.removesuffix("-aa"), antialias=mode.endswith("-aa"), **how)


def _case(mode, spatial, how, align):
    n = len(spatial)
    if "size" in how:
        sizes, scales = [how["size"]] * n, [None] * n
    else:
        factor = how["scale_factor"]
        sizes = [int(L * factor) for L in spatial]
        scales = [None] * n if how.get("recompute_scale_factor") else [float(factor)] * n
    return n, sizes, scales


@pytest.mark.parametrize(("mode", "spatial", "how", "align"), CASES)
def test_values_gradients_and_nodes(mode, spatial, how, align):
    n, sizes, scales = _case(mode, spatial, how, align)
    shape = (2, 3, *spatial)
    data = RNG.uniform(-1.0, 1.0, shape)
    x = torch.tensor(data, requires_grad=True)
    y = _resize(x, mode, align_corners=align, **how)
    forward = _matrices(mode, spatial, sizes, bool(align), scales, False)
    np.testing.assert_allclose(y.detach().numpy(), _apply(data, forward), rtol=1e-12, atol=1e-12)
    node = y.grad_fn
    assert type(node).__name__ == NODES[mode].format(n=n)
    ((leaf, index),) = node.next_functions
    assert (type(leaf).__name__, index) == ("AccumulateGrad", 0) and leaf.variable is x
    expected = ["_saved_output_size", *(f"_saved_{s}" for s in SCALES[n]),
                "_saved_self_sym_sizes"]
    if align is not None:
        expected.append("_saved_align_corners")
        assert node._saved_align_corners is align
    assert saved_names(node) == sorted(expected)
    assert node._saved_output_size == tuple(sizes)
    assert node._saved_self_sym_sizes == shape
    assert [getattr(node, f"_saved_{s}") for s in SCALES[n]] == scales
    probe = RNG.uniform(-1.0, 1.0, y.shape)
    v = torch.tensor(probe, requires_grad=True)
    (g,) = torch.autograd.grad(y, x, v, create_graph=True)
    backward = _matrices(mode, spatial, sizes, bool(align), scales, True)
    np.testing.assert_allclose(g.detach().numpy(), _apply(probe, [m.T for m in backward]),
                               rtol=1e-12, atol=1e-12)
    again = g.grad_fn
    assert type(again).__name__ == NODES[mode].format(n=n).replace("Backward0",
                                                                   "BackwardBackward0")
    assert saved_names(again) == sorted(e for e in expected if "self_sym" not in e)
    assert again._saved_output_size == tuple(sizes)
    w = RNG.uniform(-1.0, 1.0, shape)
    (gg,) = torch.autograd.grad(g, v, torch.tensor(w))
    np.testing.assert_allclose(gg.numpy(), _apply(w, forward), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("mode", "spatial", "how", "align"), CASES[::5])
def test_float32_values_and_a_leaf_edge(mode, spatial, how, align):
    n, sizes, scales = _case(mode, spatial, how, align)
    data = RNG.uniform(-1.0, 1.0, (1, 2, *spatial)).astype(np.float32)
    x = torch.tensor(data, requires_grad=True)
    y = _resize(x, mode, align_corners=align, **how)
    assert y.dtype == torch.float32
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    expected = _apply(data.astype(np.float64), _matrices(mode, spatial, sizes, bool(align),
                                                         scales, False))
    np.testing.assert_allclose(y.detach().numpy(), expected, rtol=1e-5, atol=1e-6)


def test_nearest_reads_float32_indices_whatever_the_dtype():
    x = torch.arange(3.0, dtype=torch.float64).view(1, 1, 3)
    assert F.interpolate(x, scale_factor=1.3).flatten().tolist() == [0.0, 0.0, 1.0]
    assert F.interpolate(x.view(1, 1, 1, 3), scale_factor=1.3).flatten().tolist() == [0, 1, 2]
    assert F.interpolate(x, size=2, mode="nearest-exact").flatten().tolist() == [0.0, 2.0]
    assert F.interpolate(torch.arange(4.0).view(1, 1, 4), size=2).flatten().tolist() == [0, 2]


CHANNELS_LAST = {2: torch.channels_last, 3: torch.channels_last_3d}
GRAD_FOLLOWS = {("nearest", 2): True, ("nearest-exact", 2): True, ("bilinear", 2): True,
                ("bicubic", 2): False, ("nearest", 3): False, ("nearest-exact", 3): False,
                ("trilinear", 3): True, ("bilinear-aa", 2): True, ("bicubic-aa", 2): False}


@pytest.mark.parametrize(("mode", "n"), list(GRAD_FOLLOWS))
def test_layouts_of_results_and_gradients(mode, n):
    fmt = CHANNELS_LAST[n]
    x = torch.randn(2, 3, *([4] * n), dtype=torch.float64)
    sizes = [5, 3, 2][:n]
    for laid in (x, x.contiguous(memory_format=fmt)):
        leaf = laid.detach().requires_grad_()
        y = _resize(leaf, mode, size=sizes)
        assert y.is_contiguous(memory_format=fmt) == (laid is not x)
        assert y.is_contiguous() == (laid is x)
        for g in (torch.randn(y.shape, dtype=torch.float64),
                  torch.randn(y.shape, dtype=torch.float64).contiguous(memory_format=fmt)):
            (grad,) = torch.autograd.grad(y, leaf, g, retain_graph=True)
            follows = GRAD_FOLLOWS[mode, n] and not g.is_contiguous()
            assert grad.is_contiguous(memory_format=fmt) if follows else grad.is_contiguous()


def test_area_is_the_adaptive_average_pool():
    x = torch.arange(40.0).view(1, 2, 5, 4).requires_grad_()
    y = F.interpolate(x, scale_factor=0.5, mode="area")
    assert type(y.grad_fn).__name__ == "AdaptiveAvgPool2DBackward0"
    assert y.shape == (1, 2, 2, 2)
    assert torch.equal(y, F.adaptive_avg_pool2d(x, (2, 2)))
    one = F.interpolate(torch.arange(5.0).view(1, 1, 5).requires_grad_(), size=2, mode="area")
    assert type(one.grad_fn).__name__ == "SqueezeBackward1"
    assert one.flatten().tolist() == [1.0, 3.0]


def test_dtypes():
    x = torch.randn(1, 2, 3, 3)
    assert F.interpolate(x.to(torch.uint8), size=5).dtype == torch.uint8
    assert F.interpolate(x.half(), size=5, mode="bilinear").dtype == torch.float16
    with raises(NotImplementedError,
                "\"upsample_nearest2d_channels_last\" not implemented for 'Long'"):
        F.interpolate(x.long(), size=5)
    with raises(NotImplementedError, "\"compute_indices_weights_cubic\" not implemented for 'Int'"):
        F.interpolate(x.int(), size=5, mode="bicubic")
    with raises(NotImplementedError,
                "\"compute_indices_weights_linear\" not implemented for 'Byte'"):
        F.interpolate(x.view(1, 2, 9).to(torch.uint8), size=5, mode="linear")
    with raises(NotImplementedError,
                "\"compute_indices_weights_nearest\" not implemented for 'Bool'"):
        F.interpolate(x.view(1, 1, 2, 3, 3).bool(), size=5)
    with raises(NotImplementedError,
                "\"compute_index_ranges_weights\" not implemented for 'Half'"):
        F.interpolate(x.half(), size=5, mode="bilinear", antialias=True)



X3, X4, X5 = torch.ones(2, 3, 5), torch.ones(2, 3, 5, 4), torch.ones(2, 3, 5, 4, 3)
_ALIGN = ("align_corners option can only be set with the interpolating modes: linear | bilinear "
          "| bicubic | trilinear")
_ONLY = ("Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the modes: "
         "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
         "(got {})")
REFUSALS = [
    (lambda: F.interpolate(X4, size=3, scale_factor=2), ValueError,
     "only one of size or scale_factor should be defined"),
    (lambda: F.interpolate(X4), ValueError, "either size or scale_factor should be defined"),
    (lambda: F.interpolate(X4, size=(3, 3, 3)), ValueError,
     "Input and output must have the same number of spatial dimensions, but got input with "
     "spatial dimensions of [5, 4] and output size of (3, 3, 3). Please provide input tensor in "
     "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format."),
    (lambda: F.interpolate(X4, scale_factor=[2, 2, 2]), ValueError,
     "Input and scale_factor must have the same number of spatial dimensions, but got input "
     "with spatial dimensions of [5, 4] and scale_factor of shape [2, 2, 2]. Please provide "
     "input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) "
     "format."),
    (lambda: F.interpolate(X4, size=(3.0, 3)), TypeError,
     "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], "
     "but got size with types [<class 'float'>, <class 'int'>]"),
    (lambda: F.interpolate(X4, size=3, align_corners=True), ValueError, _ALIGN),
    (lambda: F.interpolate(X4, size=3, mode="area", align_corners=False), ValueError, _ALIGN),
    (lambda: F.interpolate(X4, size=3, mode="bilinear", recompute_scale_factor=True), ValueError,
     "recompute_scale_factor is not meaningful with an explicit size."),
    (lambda: F.interpolate(X4, size=3, antialias=True), ValueError,
     "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a "
     "4-D tensor as input"),
    (lambda: F.interpolate(X4, size=3, mode="lanczos"), ValueError,
     "Lanczos mode requires antialias=True"),
    (lambda: F.interpolate(X3, size=3, mode="bilinear"), NotImplementedError,
     "Got 3D input, but bilinear mode needs 4D input"),
    (lambda: F.interpolate(X4, size=3, mode="trilinear"), NotImplementedError,
     "Got 4D input, but trilinear mode needs 5D input"),
    (lambda: F.interpolate(X5, size=3, mode="linear"), NotImplementedError,
     "Got 5D input, but linear mode needs 3D input"),
    (lambda: F.interpolate(X3, size=3, mode="bicubic"), NotImplementedError,
     _ONLY.format(3, "bicubic")),
    (lambda: F.interpolate(X4, size=3, mode="foo"), NotImplementedError, _ONLY.format(4, "foo")),
    (lambda: F.interpolate(torch.ones(2, 3), size=3), NotImplementedError,
     _ONLY.format(2, "nearest")),
    (lambda: F.interpolate(X4, size=0, mode="bilinear"), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 5, W: 4) output "
     "(H: 0, W: 0)"),
    (lambda: F.interpolate(X4, scale_factor=0.1), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 5, W: 4) output "
     "(H: 0, W: 0)"),
    (lambda: F.interpolate(X3, size=0, mode="linear"), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (W: 5) and output (W: 0)"),
    (lambda: F.interpolate(torch.ones(2, 3, 0, 4, 4), size=2), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (D: 0, H: 4, W: 4) output "
     "(D: 2, H: 2, W: 2)"),
    (lambda: F.interpolate(torch.ones(2, 0, 5, 4), size=3, mode="bicubic"), RuntimeError,
     "Non-empty 4D data tensor expected but got a tensor with sizes [2, 0, 5, 4]"),
]


@pytest.mark.parametrize(("run", "kind", "message"), REFUSALS)
def test_refusals(run, kind, message):
    with raises(kind, message):
        run()


def test_an_empty_batch_is_resized():
    y = F.interpolate(torch.ones(0, 3, 5, 4), size=3, mode="bilinear")
    assert y.shape == (0, 3, 3, 3)


@pytest.mark.parametrize(("name", "mode"), [("upsample", "nearest"),
                                            ("upsample_nearest", "nearest"),
                                            ("upsample_bilinear", "bilinear")])
def test_the_older_names_warn(name, mode):
    x = torch.randn(1, 1, 3, 3, dtype=torch.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = getattr(F, name)(x, size=5)
    assert [(w.category, str(w.message)) for w in caught] == [
        (UserWarning, f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                      "instead.")]
    assert caught[0].filename == __file__
    align = True if name == "upsample_bilinear" else None
    assert torch.equal(y, F.interpolate(x, size=5, mode=mode, align_corners=align))


def test_modules():
    up = torch.nn.Upsample(scale_factor=2, mode="bilinear")
    assert repr(up) == "Upsample(scale_factor=2.0, mode='bilinear')"
    assert repr(torch.nn.Upsample(size=(3, 4))) == "Upsample(size=(3, 4), mode='nearest')"
    assert repr(torch.nn.UpsamplingNearest2d(scale_factor=(2, 3))) == (
        "UpsamplingNearest2d(scale_factor=(2.0, 3.0), mode='nearest')")
    x = torch.randn(1, 2, 3, 3, dtype=torch.float64)
    assert torch.equal(up(x), F.interpolate(x, scale_factor=2.0, mode="bilinear"))
    bilinear = torch.nn.UpsamplingBilinear2d(size=5)
    assert (bilinear.mode, bilinear.align_corners, bilinear.name) == (
        "bilinear", True, "UpsamplingBilinear2d")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(bilinear(x), F.interpolate(x, size=5, mode="bilinear",
                                                      align_corners=True))

