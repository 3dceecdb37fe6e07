"""Black-box tests: torch.grid_sampler refuses a tangent before it checks sizes or dtypes,
in the name of the row the input's number of dimensions picks."""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import forward_ad_refusal as _refusal
from conformance._support import raises

D = torch.float64


CASES = {  # input's size, grid's size, grid's dtype, the row named
    "empty spatial": ((1, 1, 0, 3), (1, 2, 2, 2), D, "grid_sampler_2d"),
    "empty volume": ((1, 1, 0, 3, 3), (1, 2, 2, 2, 3), D, "grid_sampler_3d"),
    "grid's last size": ((1, 1, 3, 3), (1, 2, 2, 3), D, "grid_sampler_2d"),
    "batch sizes": ((1, 1, 3, 3), (2, 2, 2, 2), D, "grid_sampler_2d"),
    "dimensions": ((1, 1, 3, 3), (1, 2, 2, 2, 2), D, "grid_sampler_2d"),
    "a 3-d input": ((1, 1, 3), (1, 2, 2), D, "grid_sampler_3d"),
    "dtypes": ((1, 1, 3, 3), (1, 2, 2, 2), torch.float32, "grid_sampler_2d"),
    "fine": ((1, 1, 3, 3), (1, 2, 2, 2), D, "grid_sampler_2d"),
}


@pytest.mark.parametrize("dual", ["input", "grid"])
@pytest.mark.parametrize("case", CASES)
def test_a_tangent_is_refused_before_the_kernels_checks(case, dual):
    image, points, grid_dtype, row = CASES[case]
    fwad = torch.autograd.forward_ad
    input, grid = torch.ones(image, dtype=D), torch.zeros(points, dtype=grid_dtype)
    with fwad.dual_level():
        if dual == "input":
            input = fwad.make_dual(input, torch.ones_like(input))
        else:
            grid = fwad.make_dual(grid, torch.ones_like(grid))
        with raises(NotImplementedError, _refusal(row)):
            F.grid_sample(input, grid, align_corners=False)
        with raises(NotImplementedError, _refusal(row)):
            torch.grid_sampler(input, grid, 0, 0, False)


def test_without_a_tangent_the_sizes_are_checked():
    fwad = torch.autograd.forward_ad
    input, grid = torch.ones(1, 1, 0, 3, dtype=D), torch.zeros(1, 2, 2, 2, dtype=D)
    with fwad.dual_level():
        fwad.make_dual(torch.ones(2, dtype=D), torch.ones(2, dtype=D))  # a tangent elsewhere
        with raises(RuntimeError, "grid_sampler(): expected input to have non-empty spatial "
                                  "dimensions, but input has sizes [1, 1, 0, 3] with dimension 2 "
                                  "being empty"):
            F.grid_sample(input, grid, align_corners=False)


def test_a_bad_mode_is_refused_first():
    fwad = torch.autograd.forward_ad
    input, grid = torch.ones(1, 1, 0, 3, dtype=D), torch.zeros(1, 2, 2, 2, dtype=D)
    with fwad.dual_level():
        input = fwad.make_dual(input, torch.ones_like(input))
        with raises(ValueError, "nn.functional.grid_sample(): expected mode to be 'bilinear', "
                                "'nearest' or 'bicubic', but got: 'cubic'"):
            F.grid_sample(input, grid, mode="cubic", align_corners=False)
