"""Gradient checks of the unpools, the fractional max pools, native_dropout (chapter 16z),
the CTC loss (chapter 16za) and fake quantization (chapter 19roa)."""

import numpy as np
from hypothesis import strategies as st

import refgrad as torch
from refgrad._tensor import make_tensor
from refgrad.nn import functional as F  # registers the rows of chapter 16q
from tests._gradient_support import (
    Recipe,
    _gradient_row,
    _indexed,
    _one_of_many,
    _scrambled,
    gradient_tests,
)

_SAMPLES = {n: make_tensor(np.linspace(0.1, 0.9, 2 * n).reshape(1, 2, n)) for n in (2, 3)}
_FRACTIONAL = {2: ((1, 2, 5, 4), {"kernel_size": 2, "output_size": (3, 2)}),
               3: ((1, 2, 4, 5, 4), {"kernel_size": 2, "output_size": (2, 3, 2)})}


def _fractional(n):
    """The fractional pool's parameters, with its drawn samples fixed."""
    return {**_FRACTIONAL[n][1], "_random_samples": _SAMPLES[n]}


def _fractional_indices(n, shape):
    pool = F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d
    return {"indices": pool(_scrambled(shape), return_indices=True, **_fractional(n))[1]}


def _seeded_dropout(a, p, train):
    torch.manual_seed(0)  # the same mask on every call, drawn in row-major order
    return torch.native_dropout(a.contiguous(), p, train)


RECIPES: dict[str, Recipe] = {
    "max_unpool2d": Recipe(
        lambda a, **p: F.max_unpool2d(a, **p), shapes=st.just([(1, 2, 2, 3)]),
        params=lambda shapes: st.just({"kernel_size": 2, **_indexed(
            F.max_pool2d, (1, 2, 4, 6), kernel_size=2)})),
    "max_unpool3d": Recipe(
        lambda a, **p: F.max_unpool3d(a, **p), shapes=st.just([(1, 2, 2, 2, 3)]),
        params=lambda shapes: st.just({"kernel_size": (1, 2, 2), **_indexed(
            F.max_pool3d, (1, 2, 2, 4, 6), kernel_size=(1, 2, 2))})),
    **{f"fractional_max_pool{n}d": Recipe(
        lambda a, n=n, **p: (F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d)(
            a, return_indices=True, **p),
        shapes=st.just([_FRACTIONAL[n][0]]), params=lambda shapes, n=n: st.just(
            _fractional(n))) for n in (2, 3)},
    "fractional_max_pool2d_backward": _gradient_row(
        "fractional_max_pool2d_backward", [((1, 2, 3, 2), (1, 2, 5, 4))],
        lambda chosen: _fractional_indices(2, chosen[1])),
    "fractional_max_pool3d_backward": _gradient_row(
        "fractional_max_pool3d_backward", [((1, 2, 2, 3, 2), (1, 2, 4, 5, 4))],
        lambda chosen: _fractional_indices(3, chosen[1])),
    # train=None is left out: torch's gradient for it is the mask unscaled, not the derivative
    "native_dropout": Recipe(_seeded_dropout, params=_one_of_many(
        {"p": 0.4, "train": True}, {"p": 0.5, "train": False}, {"p": 1.0, "train": True})),
    # fake quantization's gradient is its mask, where finite differences see steps: levels
    # 2**-50 apart, mapped back in double, per channel; per tensor, where the mapping back is
    # a float's, every value clamped to one level, and both derivatives zero
    "fake_quantize_per_channel_affine_cachemask": Recipe(
        lambda a, **p: torch.fake_quantize_per_channel_affine(a, **p), min_ndim=1,
        params=lambda shapes: st.just({
            "scale": torch.full((shapes[0][0],), 2.0 ** -50), "axis": 0,
            "zero_point": torch.zeros(shapes[0][0], dtype=torch.int32),
            "quant_min": -(2 ** 50), "quant_max": 2 ** 50})),
    "fake_quantize_per_tensor_affine_cachemask": Recipe(
        lambda a, **p: torch.fake_quantize_per_tensor_affine(a, 1e-30, 0, 0, 0)),
    "_fake_quantize_per_tensor_affine_cachemask_tensor_qparams": Recipe(
        lambda a, **p: torch.fake_quantize_per_tensor_affine(
            a, torch.tensor(1e-30), torch.tensor(0), 0, 0)),
    # the CTC loss, through log_softmax: torch's gradient assumes it
    "_ctc_loss": Recipe(
        lambda a, **p: F.ctc_loss(a.log_softmax(2), **p, reduction="none"),
        shapes=st.just([(5, 3, 4)]), twice=False, params=_one_of_many(
            {"targets": torch.tensor([[1, 2, 2], [3, 1, 0], [1, 1, 3]]),
             "input_lengths": [5, 4, 5], "target_lengths": [3, 2, 2]},
            {"targets": torch.tensor([1, 2, 3, 3, 1]), "input_lengths": [5, 2, 4],
             "target_lengths": [2, 1, 2], "blank": 0},
            {"targets": torch.tensor([[0, 1], [2, 2], [1, 0]]), "input_lengths": [4, 5, 3],
             "target_lengths": [2, 2, 1], "blank": 3})),
    # the lengths as tensors: torch._ctc_loss's other overload, CtcLossBackward1
    "_ctc_loss_tensor": Recipe(
        lambda a, **p: torch._ctc_loss(a.log_softmax(2), **p)[0],
        shapes=st.just([(5, 3, 4)]), twice=False, params=_one_of_many(
            {"targets": torch.tensor([[1, 2, 2], [3, 1, 0], [1, 1, 3]]),
             "input_lengths": torch.tensor([5, 4, 5]), "target_lengths": torch.tensor([3, 2, 2])},
            {"targets": torch.tensor([1, 2, 3, 3, 1]), "input_lengths": torch.tensor([5, 2, 4]),
             "target_lengths": torch.tensor([2, 1, 2]), "blank": 0})),
}


test_first_order, test_second_order = gradient_tests(RECIPES)
