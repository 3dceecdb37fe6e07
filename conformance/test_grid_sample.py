"""Black-box tests: F.grid_sample and F.affine_grid: values against a point-by-point
reading of the definition, gradients of the input and the grid against central differences,
the nodes and what they keep, warnings, refusals.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import numeric_gradient, raises, saved_names

RNG = np.random.default_rng(31)


def _pixel(c, size, align_corners):
    return (c + 1) / 2 * (size - 1) if align_corners else ((c + 1) * size - 1) / 2


def _fold(x, size, padding, align_corners):
    """A pixel coordinate moved inside by the padding mode."""
    if padding == "zeros":
        return x
    if padding == "reflection":
        low, high = (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)
        span = high - low
        if span == 0:
            return 0.0
        d = abs(x - low) % (2 * span)
        x = low + (d if d <= span else 2 * span - d)
    return min(max(x, 0.0), size - 1.0)


def _at(image, point):
    """image[point], zero outside."""
    if all(0 <= p < s for p, s in zip(point, image.shape)):
        return image[tuple(point)]
    return 0.0


def _keys(t):
    """The cubic-convolution weights (a = -0.75) of the taps at -1, 0, 1, 2 from t."""
    a = -0.75

    def w(x):
        x = abs(x)
        if x <= 1:
            return (a + 2) * x**3 - (a + 3) * x**2 + 1
        return a * x**3 - 5 * a * x**2 + 8 * a * x - 4 * a if x < 2 else 0.0

    return [w(t + 1), w(t), w(1 - t), w(2 - t)]


def _sample(image, coords, mode, padding, align_corners):
    """One channel read at one point; coords are in the image's order of dimensions."""
    sizes = image.shape
    xs = [_pixel(c, s, align_corners) for c, s in zip(coords, sizes)]
    if mode == "bicubic":
        lows = [math.floor(x) for x in xs]
        ky, kx = _keys(xs[0] - lows[0]), _keys(xs[1] - lows[1])
        total = 0.0
        for i, j in itertools.product(range(4), repeat=2):
            y = _fold(lows[0] - 1 + i, sizes[0], padding, align_corners)
            x = _fold(lows[1] - 1 + j, sizes[1], padding, align_corners)
            total += ky[i] * kx[j] * _at(image, (int(y), int(x)))
        return total
    xs = [_fold(x, s, padding, align_corners) for x, s in zip(xs, sizes)]
    if mode == "nearest":
        return _at(image, [int(round(x)) for x in xs])  # Python rounds ties to even
    total = 0.0
    for corner in itertools.product((0, 1), repeat=len(xs)):
        point = [math.floor(x) + c for x, c in zip(xs, corner)]
        weight = math.prod(1 - abs(x - p) for x, p in zip(xs, point))
        total += weight * _at(image, point)
    return total


def _reference(input, grid, mode, padding, align_corners):
    n, c = input.shape[:2]
    out = np.zeros((n, c, *grid.shape[1:-1]))
    for b, ch in itertools.product(range(n), range(c)):
        for where in np.ndindex(*grid.shape[1:-1]):
            coords = grid[(b, *where)][::-1]  # the grid says x first
            out[(b, ch, *where)] = _sample(input[b, ch], coords, mode, padding, align_corners)
    return out


CASES = [(nd, mode, padding, align)
         for nd, mode, padding, align in itertools.product(
             (2, 3), ("bilinear", "nearest", "bicubic"), ("zeros", "border", "reflection"),
             (False, True)) if not (nd == 3 and mode == "bicubic")]


def _operands(nd):
    shape, points = ((2, 2, 3, 4), (2, 2, 3, 2)) if nd == 2 else ((1, 2, 2, 3, 4), (1, 2, 2, 2, 3))
    return RNG.standard_normal(shape), RNG.uniform(-1.4, 1.4, points)


@pytest.mark.parametrize(("nd", "mode", "padding", "align_corners"), CASES)
def test_values_gradients_and_node(nd, mode, padding, align_corners):
    a, g = _operands(nd)
    x, grid = torch.tensor(a, requires_grad=True), torch.tensor(g, requires_grad=True)
    out = F.grid_sample(x, grid, mode, padding, align_corners)
    expected = _reference(a, g, mode, padding, align_corners)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    node = out.grad_fn
    assert type(node).__name__ == f"GridSampler{nd}DBackward0"
    assert saved_names(node) == ["_saved_align_corners", "_saved_grid", "_saved_input",
                                 "_saved_interpolation_mode", "_saved_padding_mode"]
    assert node._saved_input is x and node._saved_grid is grid
    assert node._saved_interpolation_mode == ("bilinear", "nearest", "bicubic").index(mode)
    assert node._saved_padding_mode == ("zeros", "border", "reflection").index(padding)
    assert node._saved_align_corners is align_corners
    assert [type(n).__name__ for n, _ in node.next_functions] == ["AccumulateGrad"] * 2
    probe = RNG.standard_normal(expected.shape)
    (out * torch.tensor(probe)).sum().backward()
    assert x.grad.is_contiguous() and grid.grad.is_contiguous()
    by_input = numeric_gradient(
        lambda v: float((_reference(v, g, mode, padding, align_corners) * probe).sum()), a)
    np.testing.assert_allclose(x.grad.numpy(), by_input, rtol=1e-6, atol=1e-7)
    if mode == "nearest":
        assert not grid.grad.any()
        return
    by_grid = numeric_gradient(
        lambda v: float((_reference(a, v, mode, padding, align_corners) * probe).sum()), g)
    np.testing.assert_allclose(grid.grad.numpy(), by_grid, rtol=1e-5, atol=1e-6)


def test_torch_grid_sampler_takes_the_modes_as_numbers():
    a, g = _operands(2)
    out = torch.grid_sampler(torch.tensor(a), torch.tensor(g), 2, 2, True)
    np.testing.assert_allclose(out.numpy(), _reference(a, g, "bicubic", "reflection", True),
                               rtol=1e-12, atol=1e-12)


def test_float32_and_layouts():
    a, g = _operands(2)
    x = torch.tensor(a, dtype=torch.float32).contiguous(memory_format=torch.channels_last)
    out = F.grid_sample(x, torch.tensor(g, dtype=torch.float32), align_corners=False)
    assert out.dtype == torch.float32 and out.stride() == (12, 6, 3, 1)
    np.testing.assert_allclose(out.numpy(), _reference(a, g, "bilinear", "zeros", False),
                               rtol=1e-5, atol=1e-5)
    assert out.grad_fn is None


def test_an_identity_warp_gives_the_image_back():
    image = torch.arange(24.0).reshape(1, 2, 3, 4).requires_grad_()
    theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=True)
    for align in (False, True):
        grid = F.affine_grid(theta, (1, 2, 3, 4), align_corners=align)
        back = F.grid_sample(image, grid, align_corners=align)
        np.testing.assert_allclose(back.detach().numpy(), image.detach().numpy(), atol=1e-5)


def _affine_reference(theta, size, align_corners):
    def steps(n):
        if n == 1:
            return np.zeros(1)
        s = np.linspace(-1, 1, n)
        return s if align_corners else s * (n - 1) / n

    spatial = size[2:]
    mesh = np.meshgrid(*(steps(n) for n in spatial), indexing="ij")
    base = np.stack([m for m in reversed(mesh)] + [np.ones(spatial)], -1)
    return np.einsum("...k,njk->n...j", base, theta)


UNIT = ("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
        "align_corners=True. This is not an intended use case of affine_grid. See the "
        "documentation of affine_grid for details.")


@pytest.mark.parametrize(("size", "align_corners"), list(itertools.product(
    [(2, 1, 3, 4), (1, 3, 1, 5), (2, 1, 2, 3, 4)], (False, True))))
def test_affine_grid(size, align_corners):
    n = len(size) - 2
    t = RNG.standard_normal((size[0], n, n + 1))
    theta = torch.tensor(t, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grid = F.affine_grid(theta, size, align_corners=align_corners)
    unit = align_corners and min(size[2:]) == 1
    assert [(w.category, str(w.message)) for w in caught] == ([(UserWarning, UNIT)] if unit else [])
    expected = _affine_reference(t, size, align_corners)
    np.testing.assert_allclose(grid.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    assert grid.is_contiguous() and grid.shape == (size[0], *size[2:], n)
    node = grid.grad_fn
    assert type(node).__name__ == "AffineGridGeneratorBackward0"
    assert saved_names(node) == ["_saved_align_corners", "_saved_size"]
    assert node._saved_size == size and node._saved_align_corners is align_corners
    probe = RNG.standard_normal(expected.shape)
    (grid * torch.tensor(probe)).sum().backward()
    by_theta = numeric_gradient(
        lambda v: float((_affine_reference(v, size, align_corners) * probe).sum()), t)
    np.testing.assert_allclose(theta.grad.numpy(), by_theta, rtol=1e-7, atol=1e-8)
    assert theta.grad._version == 1  # handed on transposed, copied into theta's layout


DEFAULT = ("Default grid_sample and affine_grid behavior has changed to align_corners=False "
           "since 1.3.0. Please specify align_corners=True if the old behavior is desired. See "
           "the documentation of grid_sample for details.")


def test_align_corners_not_given_warns():
    for call in (lambda: F.affine_grid(torch.zeros(1, 2, 3), (1, 1, 2, 2)),
                 lambda: F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2))):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, DEFAULT)]
        assert caught[0].filename == __file__


R = "torch.randn"
REFUSALS = [
    (f"F.grid_sample({R}(1, 2, 4, 5), {R}(1, 3, 3, 3), align_corners=False)", RuntimeError,
     "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes "
     "[1, 3, 3, 3]"),
    (f"F.grid_sample({R}(1, 2, 4, 5), {R}(2, 3, 3, 2), align_corners=False)", RuntimeError,
     "grid_sampler(): expected grid and input to have same batch size, but got input with sizes "
     "[1, 2, 4, 5] and grid with sizes [2, 3, 3, 2]"),
    (f"F.grid_sample({R}(1, 2, 0, 5), {R}(1, 3, 3, 2), align_corners=False)", RuntimeError,
     "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes "
     "[1, 2, 0, 5] with dimension 2 being empty"),
    (f"F.grid_sample({R}(1, 2, 4, 5), {R}(1, 3, 3, 3, 2), align_corners=False)", RuntimeError,
     "grid_sampler(): expected 4D input and grid with same number of dimensions, but got input "
     "with sizes [1, 2, 4, 5] and grid with sizes [1, 3, 3, 3, 2]"),
    (f"F.grid_sample({R}(1, 2, 4), {R}(1, 3, 1), align_corners=False)", RuntimeError,
     "grid_sampler(): expected 5D input and grid with same number of dimensions, but got input "
     "with sizes [1, 2, 4] and grid with sizes [1, 3, 1]"),
    (f"F.grid_sample({R}(1, 2, 4, 5), {R}(1, 3, 3, 2, dtype=torch.float64), "
     "align_corners=False)", RuntimeError, "expected scalar type Float but found Double"),
    (f"F.grid_sample({R}(1, 2, 3, 4, 5), {R}(1, 3, 3, 3, 3), mode='bicubic', "
     "align_corners=False)", RuntimeError,
     "grid_sampler(): bicubic interpolation only supports 4D input"),
    (f"F.grid_sample({R}(1, 2, 4, 5), {R}(1, 3, 3, 2), mode='area', align_corners=False)",
     ValueError, "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
     "'bicubic', but got: 'area'"),
    (f"F.grid_sample({R}(1, 2, 4, 5), {R}(1, 3, 3, 2), padding_mode='edge', "
     "align_corners=False)", ValueError, "nn.functional.grid_sample(): expected padding_mode to "
     "be 'zeros', 'border', or 'reflection', but got: 'edge'"),
    ("F.grid_sample(torch.ones(1, 2, 4, 5, dtype=torch.int64), "
     "torch.ones(1, 3, 3, 2, dtype=torch.int64), align_corners=False)", NotImplementedError,
     "\"grid_sampler_2d_cpu_kernel_impl\" not implemented for 'Long'"),
    ("F.grid_sample(torch.ones(1, 2, 4, 5, 3, dtype=torch.int64), "
     "torch.ones(1, 3, 3, 2, 3, dtype=torch.int64), align_corners=False)", NotImplementedError,
     "\"grid_sampler3d_cpu\" not implemented for 'Long'"),
    ("F.affine_grid(torch.ones(2, 2, 3, dtype=torch.int64), (2, 1, 3, 4), align_corners=False)",
     ValueError, "Expected theta to have floating point type, but got torch.int64"),
    (f"F.affine_grid({R}(2, 2, 3), (2, 1, 3, 4, 5), align_corners=False)", ValueError,
     "Expected a batch of 3D affine matrices of shape Nx3x4 for size (2, 1, 3, 4, 5). Got "
     "torch.Size([2, 2, 3])."),
    (f"F.affine_grid({R}(2, 3, 4), (2, 1, 3, 4), align_corners=False)", ValueError,
     "Expected a batch of 2D affine matrices of shape Nx2x3 for size (2, 1, 3, 4). Got "
     "torch.Size([2, 3, 4])."),
    (f"F.affine_grid({R}(2, 2, 3), (2, 1, 3), align_corners=False)", NotImplementedError,
     "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
     "respectively. Got size (2, 1, 3)."),
    (f"F.affine_grid({R}(2, 2, 3), (2, 1, 0, 4), align_corners=False)", ValueError,
     "Expected non-zero, positive output size. Got (2, 1, 0, 4)"),
    (f"F.affine_grid({R}(2, 2, 3), (3, 1, 3, 4), align_corners=False)", RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [3, 3] but got: [2, 3]."),
    (f"torch.grid_sampler({R}(1, 1, 2, 2), {R}(1, 1, 1, 2), 0, 0)", TypeError,
     'grid_sampler() missing 1 required positional arguments: "align_corners"'),
    (f"torch.grid_sampler({R}(1, 1, 2, 2), {R}(1, 1, 1, 2), 'bilinear', 0, False)", TypeError,
     "grid_sampler(): argument 'interpolation_mode' (position 3) must be int, not str"),
]


@pytest.mark.parametrize(("call", "kind", "message"), REFUSALS)
def test_refusals(call, kind, message):
    with raises(kind, message):
        eval(call, {"torch": torch, "F": F})


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_a_grid_laid_out_column_major(mode):
    a, g = RNG.standard_normal((1, 1, 2, 3, 2)), RNG.uniform(-1, 1, (1, 2, 1, 2, 3))
    grid = torch.tensor(np.ascontiguousarray(g.T)).permute(4, 3, 2, 1, 0).requires_grad_()
    x = torch.tensor(a, requires_grad=True)
    out = F.grid_sample(x, grid, mode, align_corners=False)
    np.testing.assert_allclose(out.detach().numpy(), _reference(a, g, mode, "zeros", False),
                               rtol=1e-12, atol=1e-12)
    out.sum().backward()
    assert grid.grad.shape == grid.shape and x.grad.shape == x.shape


def test_the_gradients_differentiate_again():
    a, g = _operands(2)
    x, grid = torch.tensor(a, requires_grad=True), torch.tensor(g, requires_grad=True)
    probe = torch.tensor(RNG.standard_normal((2, 2, 2, 3)))
    by_input, by_grid = torch.autograd.grad(F.grid_sample(x, grid, align_corners=True),
                                            (x, grid), probe, create_graph=True)
    (second,) = torch.autograd.grad(by_grid.sum(), x)

    def loss(v):  # d/dx of the sum of the grid's gradient, by central differences
        def grid_grad_sum(b):
            return float((_reference(v, b, "bilinear", "zeros", True) * probe.numpy()).sum())

        return numeric_gradient(grid_grad_sum, g).sum()

    np.testing.assert_allclose(second.numpy(), numeric_gradient(loss, a, eps=1e-4), rtol=1e-4,
                               atol=1e-5)
    assert by_input.requires_grad and by_grid.requires_grad


@pytest.mark.parametrize(("image", "points", "strides"), [
    ((0, 1, 3, 4), (0, 2, 2, 2), ((4, 4, 2, 1), (12, 12, 4, 1), (8, 4, 2, 1))),
    ((1, 0, 3, 4), (1, 2, 2, 2), ((4, 4, 2, 1), (12, 12, 4, 1), (8, 4, 2, 1))),
    ((1, 1, 3, 4), (1, 0, 2, 2), ((2, 2, 2, 1), (12, 12, 4, 1), (4, 4, 2, 1))),
    ((0, 1, 2, 3, 4), (0, 1, 2, 2, 3), ((4, 4, 4, 2, 1), (24, 24, 12, 4, 1), (12, 12, 6, 3, 1))),
])
def test_empty_batches_channels_and_grids(image, points, strides):
    x = torch.zeros(image, requires_grad=True)
    grid = torch.zeros(points, requires_grad=True)
    out = F.grid_sample(x, grid, align_corners=False)
    out.sum().backward()
    assert (out.stride(), x.grad.stride(), grid.grad.stride()) == strides
