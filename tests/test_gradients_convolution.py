"""The gradients of convolutions, pooling and rearranging layers, and the
convolution's gradient row."""

from hypothesis import strategies as st

import refgrad as torch
from refgrad._ops import convolution_backward, slow_conv2d
from refgrad.nn import functional as F  # registers the rows of chapter 16q
from tests._gradient_support import Recipe, _one_of, _one_of_many, gradient_tests

RECIPES: dict[str, Recipe] = {}


# Convolution and pooling (chapter 16u): (input, weight, bias) shapes with the parameters
# that fit them; conv1d, conv2d or conv3d by the weight's dimensions.
_CONVOLUTIONS = {
    ((2, 4, 7), (6, 2, 3), (6,)): {"stride": 2, "padding": 1, "dilation": 2, "groups": 2},
    ((1, 3, 6), (2, 3, 3), (2,)): {"padding": "same"},
    ((1, 2, 5, 4), (3, 2, 2, 3), (3,)): {"stride": (2, 1), "padding": (1, 0), "dilation": 1,
                                          "groups": 1},
    ((1, 2, 4, 3), (2, 1, 3, 1), (2,)): {"padding": "same", "groups": 2},
    ((1, 1, 3, 4, 3), (2, 1, 2, 2, 2), (2,)): {"stride": (1, 2, 1), "padding": (0, 1, 1)},
    # transposed (chapter 16w): the weight's channels the other way, and an output_padding
    ((2, 4, 3), (4, 3, 3), (6,)): {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2,
                                   "dilation": 1},
    ((1, 2, 3, 2), (2, 2, 2, 3), (2,)): {"stride": (2, 1), "padding": (0, 1),
                                         "output_padding": (1, 0), "dilation": (1, 2)},
    ((1, 2, 2, 2, 2), (2, 1, 2, 2, 1), (1,)): {"stride": 2, "output_padding": (1, 0, 1)},
}


def conv(a, w, b, **params):
    if "output_padding" in params:  # a transposed convolution (chapter 16w)
        return (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[w.ndim - 3](
            a, w, b, **params)
    return (F.conv1d, F.conv2d, F.conv3d)[w.ndim - 3](a, w, b, **params)


RECIPES.update({
    "convolution": Recipe(conv, ("any", "any", "any"),
                          shapes=st.sampled_from([list(s) for s in _CONVOLUTIONS]),
                          params=lambda shapes: st.just(_CONVOLUTIONS[tuple(shapes)])),
    "max_pool2d_with_indices": Recipe(
        lambda a, **params: F.max_pool2d(a, return_indices=True, **params),
        shapes=st.sampled_from([[(1, 2, 5, 4)], [(2, 4, 3)]]),
        params=_one_of_many({"kernel_size": 2}, {"kernel_size": (3, 2), "stride": 1,
                                                 "padding": 1, "ceil_mode": True},
                            {"kernel_size": 2, "stride": (2, 1), "dilation": (1, 2)})),
    "max_pool3d_with_indices": Recipe(
        lambda a, **params: F.max_pool3d(a, return_indices=True, **params),
        shapes=st.sampled_from([[(1, 1, 3, 4, 3)], [(2, 3, 3, 2)]]),
        params=_one_of_many({"kernel_size": 2}, {"kernel_size": (2, 3, 2), "stride": 1,
                                                 "padding": (1, 1, 0), "ceil_mode": True})),
    "_adaptive_avg_pool2d": Recipe(
        lambda a, output_size: F.adaptive_avg_pool2d(a, output_size),
        shapes=st.sampled_from([[(1, 2, 5, 4)], [(2, 4, 3)]]),
        params=_one_of("output_size", (2, 3), (3, 1), (5, 2))),
    "_adaptive_avg_pool3d": Recipe(
        lambda a, output_size: F.adaptive_avg_pool3d(a, output_size),
        shapes=st.sampled_from([[(1, 1, 3, 4, 3)], [(2, 3, 2, 3)]]),
        params=_one_of("output_size", (2, 3, 2), (1, 2, 1))),
    "adaptive_max_pool2d": Recipe(
        lambda a, output_size: F.adaptive_max_pool2d(a, output_size, return_indices=True),
        shapes=st.sampled_from([[(1, 2, 5, 4)], [(2, 4, 3)]]),
        params=_one_of("output_size", (2, 3), (3, 1), 1)),
    "adaptive_max_pool3d": Recipe(
        lambda a, output_size: F.adaptive_max_pool3d(a, output_size, return_indices=True),
        shapes=st.sampled_from([[(1, 1, 3, 4, 3)], [(2, 3, 2, 3)]]),
        params=_one_of("output_size", (2, 3, 2), (1, 2, 1))),
})


# torch._C._nn's slow convolutions (chapter "Saved values, part three"): rows of their own
def _slow(name):
    def run(a, w, b, **params):
        return getattr(torch._C._nn, name)(a, w, tuple(w.shape[2:]), b, **params)

    return run


_SLOW = {
    "slow_conv3d": ([(1, 2, 4, 3, 3), (2, 2, 2, 2, 1), (2,)],
                    ({"stride": 1}, {"stride": (1, 2, 1), "padding": (0, 1, 1)})),
    "slow_conv_dilated2d": ([(1, 2, 5, 4), (3, 2, 2, 3), (3,)],
                            ({"dilation": 2, "padding": 1}, {"stride": (2, 1)})),
    "slow_conv_dilated3d": ([(1, 1, 4, 3, 4), (2, 1, 2, 2, 2), (2,)],
                            ({"dilation": (1, 2, 1)}, {"padding": 1})),
    "slow_conv_transpose2d": ([(1, 2, 3, 2), (2, 2, 2, 3), (2,)],
                              ({"stride": (2, 1), "padding": (0, 1), "output_padding": (1, 0),
                                "dilation": (1, 2)}, {"stride": 1})),
    "slow_conv_transpose3d": ([(1, 2, 2, 2, 2), (2, 1, 2, 2, 1), (1,)],
                              ({"stride": 2, "output_padding": (1, 0, 1)}, {"padding": 0})),
}
RECIPES.update({name: Recipe(_slow(name), ("any", "any", "any"), shapes=st.just(shapes),
                             params=_one_of_many(*params))
                for name, (shapes, params) in _SLOW.items()})


# Transposed convolution and rearranging layers (chapter 16w): shapes with the parameters
# that fit them.
_REARRANGED = {
    "pixel_shuffle": {(1, 8, 2, 3): {"upscale_factor": 2}, (9, 2, 1): {"upscale_factor": 3},
                      (2, 1, 4, 1, 2): {"upscale_factor": 2}},
    "pixel_unshuffle": {(1, 2, 4, 6): {"downscale_factor": 2}, (1, 3, 3): {"downscale_factor": 3}},
    "channel_shuffle": {(2, 6, 3, 2): {"groups": 3}, (1, 4, 3): {"groups": 2}},
    "im2col": {(2, 3, 5, 4): {"kernel_size": (2, 3), "padding": 1, "stride": (2, 1)},
               (3, 6, 5): {"kernel_size": 2, "dilation": (2, 1)}},
    "col2im": {(2, 12, 6): {"output_size": (3, 4), "kernel_size": 2},
               (18, 6): {"output_size": (4, 5), "kernel_size": 3, "padding": 1, "stride": 2}},
}
_REARRANGING = {"pixel_shuffle": F.pixel_shuffle, "pixel_unshuffle": F.pixel_unshuffle,
                "channel_shuffle": F.channel_shuffle, "im2col": F.unfold, "col2im": F.fold}


def _rearranging(name):
    cases = _REARRANGED[name]
    return Recipe(lambda a, **params: _REARRANGING[name](a, **params),
                  shapes=st.sampled_from([[s] for s in cases]),
                  params=lambda shapes: st.just(cases[tuple(shapes[0])]))


RECIPES.update({name: _rearranging(name) for name in _REARRANGED})


# the convolution's gradient, a row of its own (chapter 16x): grad_output, input, weight
_CONVOLUTION_GRADIENTS = {
    ((1, 2, 3, 3), (1, 2, 4, 4), (2, 2, 2, 2)): {
        "bias_sizes": (2,), "stride": (1, 1), "padding": (0, 0), "dilation": (1, 1),
        "transposed": False, "output_padding": (0, 0), "groups": 1},
    ((2, 6, 3), (2, 4, 5), (6, 2, 3)): {
        "bias_sizes": (6,), "stride": (2,), "padding": (1,), "dilation": (1,),
        "transposed": False, "output_padding": (0,), "groups": 2},
    # no output padding: a third derivative refuses it, as torch's (NOTE [A kept output padding])
    ((1, 2, 6, 4), (1, 2, 3, 2), (2, 2, 2, 3)): {
        "bias_sizes": (2,), "stride": (2, 1), "padding": (0, 1), "dilation": (1, 2),
        "transposed": True, "output_padding": (0, 0), "groups": 1},
}
RECIPES.update({
    "convolution_backward": Recipe(
        lambda g, a, w, **p: convolution_backward.convolution_backward(
            g, a, w, **p, output_mask=(True, True, True)), ("any", "any", "any"),
        shapes=st.sampled_from([list(s) for s in _CONVOLUTION_GRADIENTS]),
        params=lambda shapes: st.just(_CONVOLUTION_GRADIENTS[tuple(shapes)])),
})

# conv_tbc (chapter 21i): (time, batch, in_channels), (width, in_channels, out_channels), bias
_TBC = {((5, 2, 3), (2, 3, 4), (4,)): 1, ((4, 1, 2), (3, 2, 2), (2,)): 0,
        ((6, 2, 1), (2, 1, 3), (3,)): -1}
RECIPES.update({
    "conv_tbc": Recipe(
        lambda a, w, b, pad: torch.conv_tbc(a, w, b, pad), ("any", "any", "any"),
        shapes=st.sampled_from([list(s) for s in _TBC]),
        params=lambda shapes: st.just({"pad": _TBC[tuple(shapes)]})),
})

# thnn_conv2d's two rows and torch._convolution's (chapter "Saved values, part four")
_SLOW2D = {((1, 2, 5, 4), (3, 2, 2, 3), (3,)): {"stride": (2, 1), "padding": 1},
           ((1, 1, 3, 4), (2, 1, 2, 2), (2,)): {"stride": 1, "padding": 0}}
_SLOW2D_GRADIENTS = {((1, 3, 3, 4), (1, 2, 5, 4), (3, 2, 2, 3)): {
    "kernel_size": (2, 3), "stride": (2, 1), "padding": (1, 1)}}
RECIPES.update({
    "_slow_conv2d_forward": Recipe(
        lambda a, w, b, **p: torch._C._nn.thnn_conv2d(a, w, tuple(w.shape[2:]), b, **p),
        ("any", "any", "any"), shapes=st.sampled_from([list(s) for s in _SLOW2D]),
        params=lambda shapes: st.just(_SLOW2D[tuple(shapes)])),
    "_slow_conv2d_backward": Recipe(
        lambda g, a, w, **p: slow_conv2d._backward(g, a, w, **p), ("any", "any", "any"),
        shapes=st.sampled_from([list(s) for s in _SLOW2D_GRADIENTS]),
        params=lambda shapes: st.just(_SLOW2D_GRADIENTS[tuple(shapes)])),
    "_convolution": Recipe(
        lambda a, w, b, stride, padding: torch._convolution(
            a, w, b, stride, padding, [1, 1], False, [0, 0], 1, False, False, True),
        ("any", "any", "any"), shapes=st.sampled_from([list(s) for s in _SLOW2D]),
        params=lambda shapes: st.just({k: list(v) if isinstance(v, tuple) else [v, v]
                                       for k, v in _SLOW2D[tuple(shapes)].items()})),
})


test_first_order, test_second_order = gradient_tests(RECIPES)
