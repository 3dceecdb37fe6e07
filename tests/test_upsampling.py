"""Upsampling where refgrad knowingly differs from torch 2.13 (chapter "Upsampling")."""

import numpy as np
import pytest

import refgrad as torch
import refgrad.nn.functional as F
from refgrad._ops.upsample import taps


def test_an_antialiased_resize_to_one_column_keeps_each_rows_value():
    # torch 2.13 gives [6.2857, 6.2857, 6.2857]: every row the first row's value
    x = torch.arange(35.0).view(1, 1, 7, 5)
    y = F.interpolate(x, size=(3, 1), mode="bilinear", antialias=True)
    rows = F.interpolate(F.interpolate(x, size=(7, 1), mode="bilinear", antialias=True),
                         size=(3, 1), mode="bilinear", antialias=True)
    np.testing.assert_allclose(y.flatten().numpy(), [6.2857137, 17.0, 27.714283], rtol=1e-6)
    np.testing.assert_allclose(y.numpy(), rows.numpy(), rtol=1e-6)


@pytest.mark.parametrize(("mode", "antialias"), [("bilinear", False), ("bicubic", True)])
def test_uint8_interpolation_is_refused(mode, antialias):
    x = torch.ones(1, 1, 3, 3, dtype=torch.uint8)
    suffix = " with antialias" if antialias else ""
    with pytest.raises(NotImplementedError,
                       match=f"^refgrad has no uint8 kernel for mode '{mode}'{suffix}$"):
        F.interpolate(x, size=5, mode=mode, antialias=antialias)


def test_lanczos_is_refused_after_torchs_checks():
    x = torch.ones(1, 1, 3, 3)
    with pytest.raises(ValueError, match="^Lanczos mode requires antialias=True$"):
        F.interpolate(x, size=5, mode="lanczos")
    with pytest.raises(NotImplementedError, match="^refgrad's interpolate has no mode 'lanczos'$"):
        F.interpolate(x, size=5, mode="lanczos", antialias=True)


def test_nearest_shortcuts_apply_to_the_gradient_and_the_two_dimensional_forward():
    forward, _ = taps("nearest", 3, 3, False, 1.3, np.float32, False)
    backward, _ = taps("nearest", 3, 3, False, 1.3, np.float32, True)
    assert forward[0].tolist() == [0, 0, 1] and backward[0].tolist() == [0, 1, 2]
    doubled, _ = taps("nearest", 10, 20, False, 2.09, np.float32, True)
    assert doubled[0].tolist() == [i // 2 for i in range(20)]
