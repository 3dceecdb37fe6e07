"""Oracle test: fast gradcheck's failure message gives torch's numerical number.

A Function with a wrong backward fails fast gradcheck in both libraries; the message's
numerical number, v^T (J u), must be torch's to the last digit, in float64 and float32,
for inputs of several sizes. (The analytical number is a BLAS dot product in torch, whose
order refgrad's NumPy need not share, so it is not compared.)
"""

import warnings

import numpy as np
import pytest
import torch

import refgrad

SHAPES = [(2,), (3, 3), (17,), (5, 8), (37,), (100,)]


def numerical_line(lib, data):
    class WrongSquare(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x

    small = data.dtype == np.float32
    x = lib.tensor(data, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # float32 inputs are warned about
        with pytest.raises(RuntimeError, match="Jacobian mismatch") as info:
            lib.autograd.gradcheck(WrongSquare.apply, x, fast_mode=True,
                                   eps=1e-3 if small else 1e-6, atol=1e-3 if small else 1e-5)
    return next(line for line in str(info.value).splitlines() if line.startswith("numerical"))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", [0, 5])
def test_fast_gradcheck_numerical_number_matches_torch(shape, dtype, seed):
    size = int(np.prod(shape))
    data = np.random.default_rng(seed).random(size + 4)[4:].reshape(shape).astype(dtype)
    assert numerical_line(refgrad, data) == numerical_line(torch, data)
