"""The gradients of upsampling, attention and grid sampling."""

from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops.dispatch import call
from refgrad._ops.sampling_gradient import BACKWARD_ROWS
from refgrad.nn import functional as F  # registers the rows of chapter 16q
from tests._gradient_support import Recipe, _dim, _one_of_many, gradient_tests

RECIPES: dict[str, Recipe] = {}


# chapter "Upsampling": each mode's row through F.interpolate, and its gradient's row directly
_RESIZED = {1: (2, 3, 4), 2: (1, 2, 3, 4), 3: (1, 1, 2, 3, 2)}
_SIZINGS = ({"size": 5}, {"scale_factor": 1.7}, {"scale_factor": 2},
            {"scale_factor": 0.7, "recompute_scale_factor": True})
UPSAMPLINGS = {  # the row: (F.interpolate's mode, the number of spatial dimensions)
    **{f"upsample_nearest{n}d": ("nearest", n) for n in (1, 2, 3)},
    **{f"_upsample_nearest_exact{n}d": ("nearest-exact", n) for n in (1, 2, 3)},
    "upsample_linear1d": ("linear", 1), "upsample_bilinear2d": ("bilinear", 2),
    "upsample_bicubic2d": ("bicubic", 2), "upsample_trilinear3d": ("trilinear", 3),
    "_upsample_bilinear2d_aa": ("bilinear-aa", 2), "_upsample_bicubic2d_aa": ("bicubic-aa", 2),
}


def interpolating(functional, mode):
    """A call of ``functional.interpolate`` in ``mode``, antialiased for a mode ending in -aa."""
    return lambda a, **params: functional.interpolate(
        a, mode=mode.removesuffix("-aa"), antialias=mode.endswith("-aa"), **params)


def _sizings(mode):
    if mode.startswith("nearest"):
        return lambda shapes: st.sampled_from(_SIZINGS)
    return lambda shapes: st.sampled_from([{**how, "align_corners": align}
                                           for how in _SIZINGS for align in (False, True)])


def upsampling_gradient_params(name, scaled):
    """The gradient row's parameters: from the input of _RESIZED to an output 1.7 times it."""
    from refgrad._ops.upsample import _SCALES

    mode, n = UPSAMPLINGS[name]
    size = _RESIZED[n]
    params = {"output_size": tuple(int(s * 1.7) for s in size[2:]), "input_size": size}
    if not mode.startswith("nearest"):
        params["align_corners"] = scaled
    return {**params, **{k: 1.7 if scaled else None for k in _SCALES[n]}}


def _gradient_recipe(name):
    from refgrad._ops.upsample import ROWS

    mode, n = UPSAMPLINGS[name]
    grad_shape = (*_RESIZED[n][:2], *upsampling_gradient_params(name, False)["output_size"])
    return Recipe(lambda g, **params: call(ROWS[mode, n][1], (g,), params),
                  shapes=st.just([grad_shape]), params=lambda shapes: st.sampled_from(
                      [upsampling_gradient_params(name, scaled) for scaled in (False, True)]))


RECIPES.update({
    **{name: Recipe(interpolating(F, mode), shapes=st.just([_RESIZED[n]]), params=_sizings(mode))
       for name, (mode, n) in UPSAMPLINGS.items()},
    **{f"{name}_backward": _gradient_recipe(name) for name in UPSAMPLINGS},
})


def _fused_attention(q, k, v, **params):
    """The fused attention row itself: whatever the operands' layout, its output alone."""
    from refgrad._ops import fused_attention

    params = {"dropout_p": 0.0, "attn_mask": None, "is_causal": False, "scale": None, **params}
    return call(fused_attention.FUSED, (q, k, v), params)[0]


# Attention and sampling (chapter 16v): the fused attention row (with grouped heads), the
# safe softmax, grid_sample's rows and affine_grid's. Grids stay inside (-1, 1), and away
# from the pixels' kinks only by chance.
_GRIDS = {((2, 1, 3, 4), (2, 2, 3, 2)): "2d", ((1, 2, 3, 3), (1, 1, 2, 2)): "2d",
          ((1, 1, 2, 3, 2), (1, 2, 1, 2, 3)): "3d"}
RECIPES.update({
    "_safe_softmax": Recipe(lambda a, dim: torch._safe_softmax(a, dim), min_ndim=1,
                            params=lambda shapes: _dim(shapes).map(lambda d: {"dim": d})),
    "_scaled_dot_product_flash_attention_for_cpu": Recipe(
        _fused_attention, ("small", "small", "small"),
        shapes=st.sampled_from([[(1, 2, 3, 2), (1, 2, 4, 2), (1, 2, 4, 2)],
                                [(2, 2, 2, 3), (2, 1, 3, 3), (2, 1, 3, 3)]]),
        params=_one_of_many({"is_causal": False, "scale": None},
                            {"is_causal": True, "scale": 0.7}),
        twice=False),  # its gradient's node refuses a backward, as torch's does
    **{f"grid_sampler_{n}d": Recipe(
        lambda a, g, **params: F.grid_sample(a, g, **params), ("any", "small"),
        shapes=st.sampled_from([list(s) for s, kind in _GRIDS.items() if kind == f"{n}d"]),
        params=lambda shapes, n=n: st.fixed_dictionaries({
            "mode": st.sampled_from(("bilinear", "nearest", "bicubic")[:3 if n == 2 else 2]),
            "padding_mode": st.sampled_from(("zeros", "border", "reflection")),
            "align_corners": st.booleans()})) for n in (2, 3)},
    **{f"grid_sampler_{n}d_backward": Recipe(  # the gradient's row: chapter 16v
        lambda g, a, grid, n=n, **params: call(BACKWARD_ROWS[n + 2], (g, a, grid), params),
        ("any", "any", "small"), shapes=st.just(min(  # the smallest sampling: it is slow
            [(s[0][0], s[0][1], *s[1][1:-1]), *s] for s, kind in _GRIDS.items()
            if kind == f"{n}d")),
        params=lambda shapes, n=n: st.fixed_dictionaries({
            # not nearest (1): the input gets no second derivative there (None), as in
            # torch: conformance/test_gradient_graphs_swept.py checks it
            "interpolation_mode": st.sampled_from((0, 2) if n == 2 else (0,)),
            "padding_mode": st.sampled_from((0, 1, 2)), "align_corners": st.booleans()}))
       for n in (2, 3)},
    "affine_grid_generator": Recipe(
        lambda t, size, align_corners: F.affine_grid(t, size, align_corners),
        shapes=st.sampled_from([[(2, 2, 3)], [(1, 3, 4)]]),
        params=lambda shapes: st.booleans().map(lambda align: {
            "size": (2, 1, 3, 2) if shapes[0][1] == 2 else (1, 2, 2, 3, 2),
            "align_corners": align})),
})


test_first_order, test_second_order = gradient_tests(RECIPES)
